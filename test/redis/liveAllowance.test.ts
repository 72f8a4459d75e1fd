/**
 * The live allowance is shared through Redis, against a simulator over HTTP
 * whose account allows 20 requests a minute: two clients, each with its own
 * Redis admission and connection on one account's prefix, scan at once for
 * longer than a minute without a 429; the limit one of them stores lowers
 * the other's bookings too, and a client that starts after another's read
 * takes it rather than reading `/usage/` again.
 *
 * The simulator runs 20 times faster (a minute lasts 3 s) on the real clock;
 * Redis is the file's own (`Servers.redis`).
 */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Context, Duration, Effect, Layer, Stream } from "effect"
import { randomUUID } from "node:crypto"
import * as Admission from "../../common/src/client/Admission.js"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import * as RedisAdmission from "../../common/src/redis/RedisAdmission.js"
import * as Simulator from "../../common/src/simulator/Simulator.js"
import * as Servers from "../support/Servers.js"

const timeScale = 0.05
const minuteLimit = 20
const models = 1_500
const limits: Admission.Limits = { ...Admission.contractLimits, timeScale }

const redis = Servers.redis("the tests of the live allowance through Redis need it")

const redisOptions = (prefix: string): RedisAdmission.Options => ({ redis: { host: "127.0.0.1", port: redis.port }, prefix })

/** A client of the simulator built on its own: its own HTTP pool and Redis connection, admission under `prefix`. */
const redisClient = (simulator: Simulator.Service, prefix: string) =>
  Layer.build(
    CatalogClient.layer({
      baseUrl: simulator.baseUrl,
      apiKey: simulator.keys.full,
      admission: RedisAdmission.layer(limits, redisOptions(prefix))
    }).pipe(Layer.provide(NodeHttpClient.layerUndici))
  ).pipe(Effect.map(Context.get(CatalogClient.CatalogClient)))

/** Scans every model, within a bound no correct pace comes near. */
const scanAll = (catalog: CatalogClient.Service) =>
  Stream.runCount(catalog.models()).pipe(
    Effect.timeoutFail({ duration: "30 seconds", onTimeout: () => new Error("the scan did not end within 30 s") })
  )

const withSimulator = Effect.provide(
  Simulator.layer({ timeScale, sizes: { models }, limits: { perMinute: minuteLimit } }).pipe(Layer.provide(NodeHttpClient.layerUndici))
)

describe("live allowance through Redis", () => {
  it.scopedLive("two clients sharing Redis admission scan at once for longer than a minute at 20 a minute without a 429", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const prefix = `test:${randomUUID()}:`
      const one = yield* redisClient(simulator, prefix)
      const two = yield* redisClient(simulator, prefix)
      expect(yield* Effect.all([scanAll(one), scanAll(two)], { concurrency: "unbounded" })).toEqual([models, models])
      const answered = yield* simulator.answered
      expect(answered.filter((entry) => entry.status === 429)).toEqual([])
      // Each client read the allowance at most once, before its second request (the second none if the first's read was stored by then).
      const reads = answered.filter((entry) => entry.operation === "usage").length
      expect(reads).toBeGreaterThanOrEqual(1)
      expect(reads).toBeLessThanOrEqual(2)
      expect(answered.length).toBeGreaterThan(minuteLimit)
      const first = answered[0]?.at ?? 0
      const last = answered.at(-1)?.at ?? 0
      expect(last - first).toBeGreaterThan(Duration.toMillis(Duration.minutes(1)) * timeScale)
    }).pipe(withSimulator))

  it.scopedLive("the live limit one client stores lowers the windows of a client that has not read it", () =>
    Effect.gen(function*() {
      const prefix = `test:${randomUUID()}:`
      const reader = yield* RedisAdmission.store(limits, redisOptions(prefix))
      const other = yield* RedisAdmission.store(limits, redisOptions(prefix))
      yield* Effect.fromNullable(reader.allowance).pipe(Effect.flatMap((allowance) => allowance.set({ minuteLimit: 3, readAt: Date.now() })))
      const turns = yield* Effect.forEach(Array.from({ length: 4 }), () => other.turn)
      // Three leave at once under a minute limit of 3; the fourth waits for the (scaled) minute.
      expect(turns.slice(0, 3).map((turn) => turn._tag)).toEqual(["Leave", "Leave", "Leave"])
      const fourth = turns[3]
      expect(fourth?._tag).toBe("Wait")
      expect(fourth?._tag === "Wait" ? Duration.toMillis(fourth.wait) : 0).toBeGreaterThan(Duration.toMillis(Duration.minutes(1)) * timeScale - 200)
    }))

  it.scopedLive("a Redis store with explicit limits offers no live allowance", () =>
    Effect.map(
      RedisAdmission.store({ ...limits, perMinute: 30 }, redisOptions(`test:${randomUUID()}:`)),
      (store) => expect(store.allowance).toBeUndefined()
    ))

  it.scopedLive("a client that starts after another's read of the allowance takes the stored read: one read of /usage/ for both", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const prefix = `test:${randomUUID()}:`
      const one = yield* redisClient(simulator, prefix)
      yield* Stream.runDrain(Stream.take(one.models({ limit: 10 }), 30))
      const two = yield* redisClient(simulator, prefix)
      yield* Stream.runDrain(Stream.take(two.models({ limit: 10 }), 30))
      const answered = yield* simulator.answered
      expect(answered.map((entry) => entry.operation)).toEqual(["models", "usage", "models", "models", "models", "models", "models"])
      expect(answered.filter((entry) => entry.status === 429)).toEqual([])
    }).pipe(withSimulator))
})
