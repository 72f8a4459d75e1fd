/**
 * effect-catalog/redis of the Effect 4 edition against a private
 * redis-server of the file (`support/Redis.ts`): admission through Redis
 * keeps the account's windows for two clients scanning at once against a
 * simulator that enforces its limits (no 429, every item once); stores on
 * one prefix share the windows, the pause, the slots and the live
 * allowance, and ride out scripts Redis forgot and connections it dropped;
 * a Redis that is not there, or refuses the password, fails with
 * `AdmissionUnavailable` within the time limit, no password in it; the
 * `KeyValueStore` keeps to its prefix and shares the ETag cache; the page
 * sizes are one hash; no key of the service is ever in Redis. That the
 * scripts and connection rules both editions share import nothing of Effect
 * is rules/test/structure.test.ts's to check, for every shared module.
 *
 * Where time is not the subject the tests run on the `TestClock` (the
 * scripts read Redis's clock); the scans and the failures run on the real
 * clock.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Context, Duration, Effect, Fiber, Layer, Option, Queue, Redacted, Stream } from "effect"
import { randomUUID } from "node:crypto"
import * as LocalServer from "../../scripts/localServer.js"
import * as Admission from "../../common/src/client/Admission.js"
import * as Budget from "../../common/src/client/Budget.js"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import { AdmissionUnavailable } from "../../common/src/client/Errors.js"
import * as PageSizes from "../../common/src/client/PageSizes.js"
import * as ResponseCache from "../../common/src/client/ResponseCache.js"
import { RedisAdmission, RedisKeyValueStore, RedisPageSizes } from "effect-catalog/redis"
import * as IORedis from "../src/redis/internal/ioredis.js"
import * as Simulator from "../../common/src/simulator/Simulator.js"
import * as RedisServer from "./support/Redis.js"

const redis = RedisServer.forFile("the tests of effect-catalog/redis need it")

const at = (prefix: string): RedisAdmission.Options => ({ redis: { host: "127.0.0.1", port: redis.port }, prefix })

const freshPrefix = () => `test:${randomUUID()}:`

/** A loopback port nothing listens on. */
const freePort = Effect.promise(LocalServer.freePort)

/** No key of the simulator in any key or value of the Redis. */
const expectNoKeyIn = (simulator: Simulator.Service) =>
  Effect.gen(function*() {
    const all = yield* RedisServer.entries(redis.port)
    expect(all.length).toBeGreaterThan(0)
    const text = JSON.stringify(all)
    for (const key of Object.values(simulator.keys)) expect(text).not.toContain(Redacted.value(key))
  })

describe("RedisAdmission: the windows kept by two clients at once", () => {
  const timeScale = 0.05
  const minuteLimit = 20
  const models = 1_500
  const limits: Admission.Limits = { ...Admission.contractLimits, timeScale }

  /** A client of the simulator on its own HTTP pool and Redis connection, admission under `prefix`. */
  const clientOf = (simulator: Simulator.Service, prefix: string) =>
    Layer.build(
      CatalogClient.layer({ baseUrl: simulator.baseUrl, apiKey: simulator.keys.full, admission: RedisAdmission.layer(limits, at(prefix)) }).pipe(
        Layer.provide(NodeHttpClient.layerUndici)
      )
    ).pipe(Effect.map(Context.get(CatalogClient.CatalogClient)))

  const idsOf = (catalog: CatalogClient.Service) =>
    Stream.runCollect(Stream.map(catalog.models(), (model) => model.id)).pipe(
      Effect.timeoutOrElse({ duration: "30 seconds", orElse: () => Effect.die("the scan did not end within 30 s") })
    )

  it.live("two clients on one prefix scan an account of 20 a minute at once, for longer than its minute: no 429, every item once each", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.make({ enforceLimits: true, timeScale, sizes: { models }, limits: { perMinute: minuteLimit } })
      const prefix = freshPrefix()
      const [one, two] = yield* Effect.all([clientOf(simulator, prefix), clientOf(simulator, prefix)])
      const [seenByOne, seenByTwo] = yield* Effect.all([idsOf(one), idsOf(two)], { concurrency: "unbounded" })
      for (const seen of [seenByOne, seenByTwo]) {
        expect(seen.length).toBe(models)
        expect(new Set(seen).size).toBe(models)
      }
      const answered = yield* simulator.answered
      expect(answered.filter((entry) => entry.status === 429)).toEqual([])
      expect(answered.length).toBeGreaterThan(minuteLimit)
      const span = (answered.at(-1)?.at ?? 0) - (answered[0]?.at ?? 0)
      expect(span).toBeGreaterThan(Duration.toMillis(Duration.minutes(1)) * timeScale)
      expect(answered.filter((entry) => entry.operation === "usage").length).toBeLessThanOrEqual(2)
      yield* expectNoKeyIn(simulator)
    }))
})

describe("RedisAdmission: stores on one prefix", () => {
  it.effect("ten leave at once between two stores, the eleventh waits for the ten-second window", () =>
    Effect.gen(function*() {
      const prefix = freshPrefix()
      const one = yield* RedisAdmission.store(Admission.contractLimits, at(prefix))
      const two = yield* RedisAdmission.store(Admission.contractLimits, at(prefix))
      const turns = yield* Effect.forEach(Array.from({ length: 11 }, (_, index) => index % 2 === 0 ? one : two), (store) => store.turn)
      expect(turns.slice(0, 10).map((turn) => turn._tag)).toEqual(Array.from({ length: 10 }, () => "Leave"))
      const eleventh = turns[10]
      expect(eleventh?._tag).toBe("Wait")
      expect(eleventh?._tag === "Wait" ? Duration.toMillis(eleventh.wait) : 0).toBeGreaterThan(9_000)
      const starts = (yield* RedisServer.entries(redis.port, `${prefix}*`)).find((entry) => entry.key === `${prefix}starts`)
      expect(starts?.type).toBe("zset")
      expect(starts?.text.split(" ").length).toBe(20)
    }))

  it.effect("a pause by one is in force for the other; the live allowance one stores is the other's", () =>
    Effect.gen(function*() {
      const prefix = freshPrefix()
      const one = yield* RedisAdmission.store(Admission.contractLimits, at(prefix))
      const two = yield* RedisAdmission.store(Admission.contractLimits, at(prefix))
      yield* one.pause(Duration.seconds(30))
      const paused = Duration.toMillis(yield* two.paused)
      expect(paused).toBeGreaterThan(29_000)
      expect(paused).toBeLessThanOrEqual(30_000)
      expect((yield* two.turn)._tag).toBe("Wait")
      expect(Option.isNone(yield* Effect.flatMap(Effect.fromNullishOr(two.allowance), (allowance) => allowance.last))).toBe(true)
      yield* Effect.flatMap(Effect.fromNullishOr(one.allowance), (allowance) => allowance.set({ minuteLimit: 3, readAt: 1_234 }))
      const last = yield* Effect.flatMap(Effect.fromNullishOr(two.allowance), (allowance) => allowance.last)
      expect(last).toEqual(Option.some({ minuteLimit: 3, readAt: 1_234 }))
      const explicit = yield* RedisAdmission.store({ ...Admission.contractLimits, perMinute: 30 }, at(freshPrefix()))
      expect(explicit.allowance).toBeUndefined()
    }))

  it.effect("the live minute limit one stores lowers the windows of the other: three leave, the fourth waits", () =>
    Effect.gen(function*() {
      const prefix = freshPrefix()
      const reader = yield* RedisAdmission.store(Admission.contractLimits, at(prefix))
      const other = yield* RedisAdmission.store(Admission.contractLimits, at(prefix))
      yield* Effect.flatMap(Effect.fromNullishOr(reader.allowance), (allowance) => allowance.set({ minuteLimit: 3, readAt: 0 }))
      const turns = yield* Effect.forEach(Array.from({ length: 4 }), () => other.turn)
      expect(turns.map((turn) => turn._tag)).toEqual(["Leave", "Leave", "Leave", "Wait"])
    }))

  it.effect("scripts Redis forgot (SCRIPT FLUSH, as after a restart) are loaded again", () =>
    Effect.gen(function*() {
      const store = yield* RedisAdmission.store(Admission.contractLimits, at(freshPrefix()))
      expect((yield* store.turn)._tag).toBe("Leave")
      yield* RedisServer.command(redis.port, "SCRIPT", "FLUSH")
      expect((yield* store.turn)._tag).toBe("Leave")
      expect(Duration.toMillis(yield* store.paused)).toBe(0)
    }))

  it.live("the account's concurrent slots are shared: a third waits until one of two is given back", () =>
    Effect.gen(function*() {
      const prefix = freshPrefix()
      const limits: Admission.Limits = { ...Admission.contractLimits, concurrent: 2 }
      const one = yield* RedisAdmission.store(limits, at(prefix))
      const two = yield* RedisAdmission.store(limits, at(prefix))
      const release = yield* Effect.forkChild(Effect.scoped(Effect.andThen(one.slot, Effect.sleep("300 millis"))))
      yield* Effect.forkChild(Effect.scoped(Effect.andThen(one.slot, Effect.never)))
      yield* Effect.sleep("100 millis")
      const [waited] = yield* Effect.timed(Effect.scoped(two.slot))
      expect(Duration.toMillis(waited)).toBeGreaterThan(100)
      yield* Fiber.join(release)
    }))
})

describe("RedisAdmission: a Redis that fails", () => {
  const password = "pw-of-the-redis-test"

  /** The error an effect failed with, within 10 s. */
  const failureOf = <A>(effect: Effect.Effect<A, AdmissionUnavailable>) =>
    Effect.timed(Effect.flip(effect)).pipe(
      Effect.timeoutOrElse({ duration: "10 seconds", orElse: () => Effect.die("no failure within 10 s") }),
      Effect.map(([elapsed, error]) => ({ error, millis: Duration.toMillis(elapsed) }))
    )

  const expectNoPassword = (error: AdmissionUnavailable) => {
    for (const text of [error.message, error.detail, error.address, JSON.stringify(error), String(error)]) expect(text).not.toContain(password)
  }

  it.live("nothing listening: AdmissionUnavailable (Connection) within the timeout, the outage told once, no password", () =>
    Effect.gen(function*() {
      const port = yield* freePort
      const outages: Array<RedisAdmission.Outage> = []
      const store = yield* RedisAdmission.store(Admission.contractLimits, {
        redis: `redis://:${password}@127.0.0.1:${port}`,
        timeout: "1 second",
        onOutage: (outage) => Effect.sync(() => void outages.push(outage))
      })
      const { error, millis } = yield* failureOf(store.turn)
      expect(error.reason).toBe("Connection")
      expect(error.detail).toBe(`Redis at redis://127.0.0.1:${port} was not back within 1s: connect ECONNREFUSED 127.0.0.1:${port}`)
      expect(millis).toBeGreaterThanOrEqual(950)
      expect(millis).toBeLessThan(3_000)
      expectNoPassword(error)
      expect(outages.map((outage) => outage.address)).toEqual([`redis://127.0.0.1:${port}`])
    }))

  it.live("a wrong password: AdmissionUnavailable (Authentication) at once, no password", () =>
    Effect.gen(function*() {
      // A user the server does not know: Redis refuses the pair (WRONGPASS).
      const store = yield* RedisAdmission.store(Admission.contractLimits, { redis: `redis://tester:${password}@127.0.0.1:${redis.port}`, timeout: "3 seconds" })
      const { error, millis } = yield* failureOf(store.paused)
      expect(error.reason).toBe("Authentication")
      expect(millis).toBeLessThan(2_000)
      expectNoPassword(error)
    }))

  it.live("a URL ioredis cannot read: AdmissionUnavailable at the first request, not a defect", () =>
    Effect.gen(function*() {
      const store = yield* RedisAdmission.store(Admission.contractLimits, { redis: `redis://:${password}@127.0.0.1:not-a-port` })
      const { error } = yield* failureOf(store.turn)
      expect(error.reason).toBe("Connection")
      expectNoPassword(error)
    }))

  /** A client of a simulator of 60 models whose admission is in the Redis of `options`; outages are noted. */
  const scanning = (options: Omit<RedisAdmission.Options, "onOutage">) =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.make({ enforceLimits: false, sizes: { models: 60 } })
      const outages: Array<RedisAdmission.Outage> = []
      const limits = { ...Admission.contractLimits, timeScale: 0.001, marginMillis: 1 }
      const admission = RedisAdmission.layer(limits, { ...options, onOutage: (outage) => Effect.sync(() => void outages.push(outage)) })
      const catalog = yield* Layer.build(
        CatalogClient.layer({ baseUrl: simulator.baseUrl, apiKey: simulator.keys.full, retry: { retries: 0 }, admission }).pipe(
          Layer.provide(NodeHttpClient.layerUndici)
        )
      ).pipe(Effect.map(Context.get(CatalogClient.CatalogClient)))
      const seen: Array<string> = []
      /** Scans every model by pages of 10, running `after10` once the tenth is seen. */
      const scan = (after10: Effect.Effect<void>) =>
        catalog.models({ limit: 10 }).pipe(
          Stream.tap((model) => Effect.suspend(() => seen.push(model.id) === 10 ? after10 : Effect.void)),
          Stream.runDrain,
          Effect.timeoutOrElse({ duration: "20 seconds", orElse: () => Effect.die("the scan did not end within 20 s") })
        )
      return { scan, seen, outages }
    })

  it.live("a server that accepts and never answers: AdmissionUnavailable (Timeout) within the timeout", () =>
    Effect.gen(function*() {
      const port = yield* RedisServer.silentServer
      const store = yield* RedisAdmission.store(Admission.contractLimits, { redis: { host: "127.0.0.1", port }, timeout: "1 second" })
      const { error, millis } = yield* failureOf(store.turn)
      expect(error.reason).toBe("Timeout")
      expect(error.detail).toBe(`Redis at redis://127.0.0.1:${port} did not answer within 1s`)
      expect(millis).toBeLessThan(3_000)
    }))

  it.live("stopped mid-scan: the scan fails with AdmissionUnavailable (Connection) within the timeout, no item twice", () =>
    Effect.gen(function*() {
      const server = yield* RedisServer.ownServer
      const { scan, seen } = yield* scanning({ redis: { host: "127.0.0.1", port: server.port }, timeout: "1 second" })
      let stoppedAt = Number.NaN
      const error = yield* Effect.flip(scan(Effect.andThen(server.stop, Effect.sync(() => void (stoppedAt = Date.now())))))
      expect(error).toBeInstanceOf(AdmissionUnavailable)
      expect(error instanceof AdmissionUnavailable ? error.reason : "").toBe("Connection")
      expect(Date.now() - stoppedAt).toBeLessThan(3_000)
      expect(seen.length).toBeGreaterThanOrEqual(10)
      expect(seen.length).toBeLessThan(60)
      expect(new Set(seen).size).toBe(seen.length)
    }))

  it.live("restarted mid-scan within the timeout (its scripts forgotten): the scan completes, every item once, the outage told once", () =>
    Effect.gen(function*() {
      const server = yield* RedisServer.ownServer
      const { scan, seen, outages } = yield* scanning({ redis: { host: "127.0.0.1", port: server.port }, timeout: "5 seconds" })
      yield* scan(Effect.andThen(server.stop, Effect.forkChild(Effect.andThen(Effect.sleep("500 millis"), server.start))))
      expect(seen.length).toBe(60)
      expect(new Set(seen).size).toBe(60)
      expect(outages.length).toBe(1)
    }))

  it.live("every connection dropped mid-scan (CLIENT KILL): ridden out, every item once", () =>
    Effect.gen(function*() {
      const { scan, seen } = yield* scanning(at(freshPrefix()))
      const kill = RedisServer.command(redis.port, "CLIENT", "KILL", "TYPE", "normal")
      yield* scan(Effect.flatMap(kill, (killed) => Effect.sync(() => expect(Number(killed)).toBeGreaterThan(0))))
      expect(seen.length).toBe(60)
      expect(new Set(seen).size).toBe(60)
    }))
})

describe("the connection as effect/persistence's Redis service", () => {
  it.live("sends commands, subscribes, and reserves a connection of its own", () =>
    Effect.gen(function*() {
      const client = yield* IORedis.connect({ host: "127.0.0.1", port: redis.port }, { timeout: "2 seconds" })
      const key = `${freshPrefix()}k`
      yield* client.run(client.redis.send("SET", key, "v"))
      expect(yield* client.run(client.redis.send("GET", key))).toBe("v")
      const messages = yield* client.redis.subscribe("test-channel")
      yield* RedisServer.command(redis.port, "PUBLISH", "test-channel", "hello")
      expect(yield* Queue.take(messages)).toEqual({ channel: "test-channel", message: "hello" })
      const reserved = yield* client.redis.reserve
      expect(yield* client.run(reserved.send("GET", key))).toBe("v")
    }).pipe(Effect.timeoutOrElse({ duration: "10 seconds", orElse: () => Effect.die("no answer within 10 s") })))
})

describe("RedisKeyValueStore", () => {
  const store = (prefix = freshPrefix(), timeout?: Duration.Input) =>
    RedisKeyValueStore.make({ redis: { host: "127.0.0.1", port: redis.port }, prefix, ...(timeout === undefined ? {} : { timeout }) })

  it.effect("sets, gets, removes, lists, counts and clears its own keys, and only them", () =>
    Effect.gen(function*() {
      const prefix = freshPrefix()
      const one = yield* store(prefix)
      const other = yield* store()
      yield* one.set("a", "1")
      yield* one.set("b", "2")
      yield* other.set("a", "elsewhere")
      expect(yield* one.get("a")).toBe("1")
      expect(yield* one.get("missing")).toBeUndefined()
      expect(yield* one.size).toBe(2)
      expect([...(yield* one.keys)].sort()).toEqual(["a", "b"])
      expect((yield* RedisServer.entries(redis.port, `${prefix}*`)).map((entry) => [entry.key, entry.text])).toEqual([
        [`${prefix}a`, "1"],
        [`${prefix}b`, "2"]
      ])
      yield* one.remove("a")
      expect(yield* one.get("a")).toBeUndefined()
      yield* one.clear
      expect(yield* one.size).toBe(0)
      expect(yield* other.get("a")).toBe("elsewhere")
    }))

  it.effect("takes a prefix with glob characters literally", () =>
    Effect.gen(function*() {
      const prefix = freshPrefix()
      const starred = yield* store(`${prefix}*`)
      const plain = yield* store(`${prefix}x`)
      yield* starred.set("k", "1")
      yield* plain.set("k", "2")
      yield* starred.clear
      expect(yield* plain.get("k")).toBe("2")
    }))

  it.live("a server that cannot be reached is a KeyValueStoreError within the time limit, not a defect", () =>
    Effect.gen(function*() {
      const unreachable = yield* RedisKeyValueStore.make({ redis: { host: "127.0.0.1", port: yield* freePort }, timeout: "300 millis" })
      const error = yield* Effect.flip(unreachable.get("k")).pipe(
        Effect.timeoutOrElse({ duration: "5 seconds", orElse: () => Effect.die("no failure within 5 s") })
      )
      expect(error._tag).toBe("KeyValueStoreError")
      expect(error.method).toBe("get")
      expect(error.message).toContain("was not back within 300ms")
    }))

  it.live("two clients sharing one ETag cache: what one read costs the other nothing (304s), and no key of the service is kept", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.make({ enforceLimits: false, sizes: { models: 30 } })
      const prefix = `${freshPrefix()}cache:`
      const clientOf = Layer.build(
        CatalogClient.layer({
          baseUrl: simulator.baseUrl,
          apiKey: simulator.keys.full,
          limits: Admission.noLimits,
          cache: ResponseCache.layerStore().pipe(Layer.provide(RedisKeyValueStore.layer({ redis: { host: "127.0.0.1", port: redis.port }, prefix })))
        }).pipe(Layer.provide(NodeHttpClient.layerUndici))
      ).pipe(Effect.map((context) => ({ catalog: Context.get(context, CatalogClient.CatalogClient), budget: Context.get(context, Budget.Budget) })))
      const one = yield* clientOf
      const two = yield* clientOf
      const first = yield* one.catalog.modelsPage({ limit: 10 })
      const details = yield* Effect.forEach(first.items, (model) => one.catalog.follow(model.api_url))
      expect((yield* one.budget.spent).unitsToday).toBe(11)
      const again = yield* two.catalog.modelsPage({ limit: 10 })
      const detailsAgain = yield* Effect.forEach(again.items, (model) => two.catalog.follow(model.api_url))
      expect(again.items.map((model) => model.id)).toEqual(first.items.map((model) => model.id))
      expect(detailsAgain.map((found) => found.value)).toEqual(details.map((found) => found.value))
      expect((yield* two.budget.spent).unitsToday).toBe(0)
      expect(yield* Effect.flatMap(store(prefix), (kv) => kv.size)).toBe(11)
      yield* expectNoKeyIn(simulator)
    }))
})

describe("RedisPageSizes", () => {
  const sizesAt = (prefix: string, port = redis.port) =>
    Effect.map(
      Layer.build(RedisPageSizes.layer({ redis: { host: "127.0.0.1", port }, prefix, timeout: "300 millis" })),
      Context.get(PageSizes.PageSizes)
    )

  it.effect("what one process learned is the other's: one hash of sizes by operation, as text", () =>
    Effect.gen(function*() {
      const prefix = freshPrefix()
      const one = yield* sizesAt(prefix)
      const two = yield* sizesAt(prefix)
      expect(yield* two.get("skills")).toEqual(Option.none())
      yield* one.set("skills", 50)
      expect(yield* two.get("skills")).toEqual(Option.some(50))
      expect(yield* Effect.flatMap(sizesAt(freshPrefix()), (elsewhere) => elsewhere.get("skills"))).toEqual(Option.none())
      expect(yield* RedisServer.entries(redis.port, `${prefix}*`)).toEqual([{ key: `${prefix}page-sizes`, type: "hash", text: "skills 50" }])
      yield* RedisServer.command(redis.port, "HSET", `${prefix}page-sizes`, "models", "not a size")
      expect(yield* two.get("models")).toEqual(Option.none())
    }))

  it.live("a Redis that is not there is a size not known, and a size not kept, within the time limit", () =>
    Effect.gen(function*() {
      const sizes = yield* sizesAt(freshPrefix(), yield* freePort)
      const [elapsed, found] = yield* Effect.timed(Effect.andThen(sizes.set("skills", 50), sizes.get("skills")))
      expect(found).toEqual(Option.none())
      expect(Duration.toMillis(elapsed)).toBeLessThan(3_000)
    }))
})
