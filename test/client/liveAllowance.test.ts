/**
 * The live allowance drives admission, against a simulator over HTTP whose
 * account allows 20 requests a minute (`limits.perMinute`, which its
 * `/usage/` reports as `minute_limit`): a client on the contract's table
 * reads `/usage/` once, before its second request, and scans for longer
 * than a minute without a 429; a client with explicit limits keeps them,
 * reads no `/usage/`, and meets the account's 429s.
 *
 * The simulator runs 20 times faster (a minute lasts 3 s) on the real clock.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Layer, Option, Stream } from "effect"
import * as Admission from "../../common/src/client/Admission.js"
import * as Budget from "../../common/src/client/Budget.js"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import * as Simulator from "../../common/src/simulator/Simulator.js"

const timeScale = 0.05
const minuteLimit = 20
const models = 3_000

/** A simulator whose account allows `minuteLimit` requests a minute (and `dailyUnits`), and a client of it with these limits. */
const withClient = (limits: Partial<Admission.Limits>, dailyUnits?: number) =>
<A, E>(effect: Effect.Effect<A, E, Simulator.Simulator | CatalogClient.CatalogClient | Budget.Budget>) =>
  Effect.provide(
    effect,
    Layer.unwrapEffect(
      Effect.map(Simulator.Simulator, (simulator) =>
        CatalogClient.layer({ baseUrl: simulator.baseUrl, apiKey: simulator.keys.full, limits }))
    ).pipe(
      Layer.provideMerge(Simulator.layer({ timeScale, sizes: { models }, limits: { perMinute: minuteLimit, ...(dailyUnits === undefined ? {} : { dailyUnits }) } })),
      Layer.provide(NodeHttpClient.layerUndici)
    )
  )

/** Scans every model, within a bound no correct pace comes near. */
const scanAll = Effect.flatMap(CatalogClient.CatalogClient, (catalog) => Stream.runCount(catalog.models())).pipe(
  Effect.timeoutFail({ duration: "30 seconds", onTimeout: () => new Error("the scan did not end within 30 s") })
)

describe("live allowance", () => {
  it.live("a client on the contract's table reads /usage/ once, before its second request, and scans for longer than a minute at 20 a minute without a 429", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      expect(yield* scanAll).toBe(models)
      const answered = yield* simulator.answered
      expect(answered.filter((entry) => entry.status === 429)).toEqual([])
      // One read of the allowance, after the first page: one request alone passes no allowance.
      expect(answered.filter((entry) => entry.operation === "usage")).toHaveLength(1)
      expect(answered.slice(0, 2).map((entry) => entry.operation)).toEqual(["models", "usage"])
      // More than 20 requests: the scan outlasted one (scaled) minute.
      const first = answered[0]?.at ?? 0
      const last = answered.at(-1)?.at ?? 0
      expect(answered.length).toBeGreaterThan(minuteLimit)
      expect(last - first).toBeGreaterThan(Duration.toMillis(Duration.minutes(1)) * timeScale)
    }).pipe(withClient({ timeScale })))

  it.live("a single request spends no read of /usage/", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const catalog = yield* CatalogClient.CatalogClient
      yield* catalog.modelsPage({ limit: 1 })
      expect((yield* simulator.answered).map((entry) => entry.operation)).toEqual(["models"])
    }).pipe(withClient({ timeScale })))

  it.effect("an admission keeps the contract's figures as they are with live: false, and follows them by default", () =>
    Effect.gen(function*() {
      const kept = yield* Effect.flatMap(Admission.memoryStore({ ...Admission.contractLimits, live: false }), Admission.make)
      const followed = yield* Effect.flatMap(Admission.memoryStore({ ...Admission.contractLimits, timeScale }), Admission.make)
      expect(kept.allowance).toBeUndefined()
      expect(followed.allowance).toBeDefined()
    }))

  it.live("a client with explicit limits keeps them: no /usage/ read, and the account's 429s are met", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      expect(yield* scanAll).toBe(models)
      const answered = yield* simulator.answered
      expect(answered.filter((entry) => entry.operation === "usage")).toEqual([])
      expect(answered.filter((entry) => entry.status === 429).length).toBeGreaterThan(0)
    }).pipe(withClient({ timeScale, perMinute: 30 })))

  it.live("the account's daily units, read with the allowance, bound the requests: the one past them is refused unsent (BudgetExceeded of the account), and the service refuses none", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const catalog = yield* CatalogClient.CatalogClient
      const budget = yield* Budget.Budget
      expect(Option.isNone((yield* budget.spent).accountLeft)).toBe(true)
      const refused = yield* Stream.runDrain(catalog.models({ limit: 1 })).pipe(Effect.flip)
      expect(refused._tag === "BudgetExceeded" ? { of: refused.of, units: refused.units, spent: refused.spent, budget: refused.budget } : refused._tag)
        .toEqual({ of: "account", units: 1, spent: 12, budget: 12 })
      expect(refused.message).toBe("The request would cost 1 unit; 12 of the account's daily 12 are used (per /usage/)")
      const answered = yield* simulator.answered
      expect(answered.filter((entry) => entry.status === 429)).toEqual([])
      expect(answered.filter((entry) => entry.operation === "models")).toHaveLength(12)
      // What the client counts as left is what the account says is left.
      const left = yield* budget.spent.pipe(Effect.flatMap((spent) => spent.accountLeft))
      const usage = yield* catalog.usage()
      expect(left).toEqual({ units: 0, bytes: usage.daily_byte_limit - usage.daily_bytes })
    }).pipe(withClient({ timeScale }, 12)))
})
