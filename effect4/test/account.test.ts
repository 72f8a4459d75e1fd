/**
 * The client against the account's refusals, over HTTP: a spent daily
 * allowance (on the live clock) fails the next request at once with
 * `QuotaExhausted` until the reset `/usage/` gives, and every request after
 * it without sending anything; on the `TestClock` (the simulator's and the
 * client's; only the exchanges take real time, which the tests wait out), a
 * retry leaves exactly when a 429's or a 503's `Retry-After` is over, not a
 * millisecond sooner; after the last retry the last typed error is the
 * request's; a 401 and a 404 are never retried. Conditional requests
 * revalidate what the client read at no units, and fetch anew what was
 * edited; the client's own daily budget refuses what would pass it, sends
 * nothing for it, and counts what was spent.
 */
import { describe, expect, it } from "@effect/vitest"
import { Clock, Duration, Effect, Fiber, Option, Stream } from "effect"
import { TestClock } from "effect/testing"
import { Budget, CatalogClient } from "effect-catalog"
import { Simulator } from "effect-catalog/simulator"
import { simulatorWithClient } from "./support/Client.js"

/** Waits `millis` of real time, whatever the `TestClock` says. */
const realPause = (millis: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, millis)))

const answered = Simulator.Simulator.use((simulator) => simulator.answered)

/** Waits in real time, 10 s at most, until the simulator has answered `count` requests. */
const answeredAtLeast = (count: number) =>
  Effect.gen(function*() {
    const deadline = Date.now() + 10_000
    while ((yield* answered).length < count && Date.now() < deadline) yield* realPause(5)
    expect((yield* answered).length).toBeGreaterThanOrEqual(count)
  })

/** The gaps between successive times. */
const gaps = (times: ReadonlyArray<number>) => times.slice(1).map((at, index) => at - (times[index] ?? at))

const firstModel = Effect.flatMap(CatalogClient.CatalogClient.use((catalog) => catalog.modelsPage({ limit: 1 })), (page) =>
  page.items[0] === undefined ? Effect.die("the simulator has no models") : Effect.succeed(page.items[0].id))

const retrying = (retries: number) => simulatorWithClient({ sizes: { models: 20 } }, { retry: { retries, base: Duration.millis(10) } })

describe("a spent daily allowance stops every request at once", () => {
  /** The next UTC midnight after `now`. */
  const nextUtcMidnight = (now: number) => {
    const date = new Date(now)
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1)
  }

  it.effect("QuotaExhausted until the next UTC midnight, read from /usage/, without retrying; then nothing is sent", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const catalog = yield* CatalogClient.CatalogClient
      const model = yield* firstModel
      yield* simulator.spendDailyUnits()
      const before = (yield* answered).length
      const error = yield* Effect.flip(catalog.model(model))
      const sent = (yield* answered).slice(before)
      expect(error._tag).toBe("QuotaExhausted")
      if (error._tag !== "QuotaExhausted") return
      expect(error.code).toBe("daily_quota_exhausted")
      // One data request refused, one /usage/ call for the reset: no retry loop, no waiting for hours.
      expect(sent.map((entry) => [entry.operation, entry.status])).toEqual([["model", 429], ["usage", 200]])
      expect(error.resetsAt.getTime()).toBe(nextUtcMidnight(yield* Clock.currentTimeMillis))
      expect(Duration.toMillis(error.retryAfter)).toBeGreaterThan(60_000)
      const sentBefore = (yield* answered).length
      const again = yield* Effect.flip(catalog.modelsPage({ limit: 1 }))
      expect(again._tag).toBe("QuotaExhausted")
      if (again._tag === "QuotaExhausted") expect(again.resetsAt.getTime()).toBe(error.resetsAt.getTime())
      expect((yield* answered).length).toBe(sentBefore)
    }).pipe(Effect.provide(simulatorWithClient(
      { sizes: { models: 20 }, enforceLimits: true },
      { retry: { retries: 5 }, limits: { live: false, perTenSeconds: 10, perMinute: 60, concurrent: 2 } }
    ))))
})

describe("the client retries only what is worth retrying, never before Retry-After", () => {
  it.effect("two 429s then success: each retry leaves exactly when the Retry-After is over, not a millisecond sooner", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const catalog = yield* CatalogClient.CatalogClient
      const model = yield* firstModel
      const before = (yield* answered).length
      yield* simulator.injectRateLimit(2, 2_000)
      const reading = yield* Effect.forkChild(catalog.model(model))
      yield* answeredAtLeast(before + 1)
      yield* TestClock.adjust("1999 millis")
      yield* realPause(50)
      expect((yield* answered).length, "no retry before the Retry-After is over").toBe(before + 1)
      yield* TestClock.adjust("1 millis")
      yield* answeredAtLeast(before + 2)
      yield* TestClock.adjust("2 seconds")
      expect((yield* Fiber.join(reading)).id).toBe(model)
      const attempts = (yield* answered).slice(before)
      expect(attempts.map((entry) => entry.status)).toEqual([429, 429, 200])
      expect(gaps(attempts.map((entry) => entry.at))).toEqual([2_000, 2_000])
    }).pipe(Effect.provide(retrying(3))))

  it.effect("with retries 1, two 429s give the last typed error, RateLimited, after one Retry-After", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const catalog = yield* CatalogClient.CatalogClient
      const model = yield* firstModel
      const before = (yield* answered).length
      yield* simulator.injectRateLimit(2, 2_000)
      const reading = yield* Effect.forkChild(Effect.flip(catalog.model(model)))
      yield* answeredAtLeast(before + 1)
      yield* TestClock.adjust("2 seconds")
      const error = yield* Fiber.join(reading)
      expect(error._tag).toBe("RateLimited")
      if (error._tag === "RateLimited") expect(Duration.toMillis(error.retryAfter)).toBe(2_000)
      const attempts = (yield* answered).slice(before)
      expect(attempts.map((entry) => entry.status)).toEqual([429, 429])
      expect(gaps(attempts.map((entry) => entry.at))).toEqual([2_000])
    }).pipe(Effect.provide(retrying(1))))

  it.effect("a 503 then success: retried exactly after the 503's Retry-After", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const catalog = yield* CatalogClient.CatalogClient
      const model = yield* firstModel
      const before = (yield* answered).length
      yield* simulator.setFaults({ unavailable: 1 })
      const reading = yield* Effect.forkChild(catalog.model(model))
      yield* answeredAtLeast(before + 1)
      yield* simulator.setFaults({ unavailable: 0 })
      // The simulator asks for 1 to 3 s.
      yield* TestClock.adjust("3 seconds")
      expect((yield* Fiber.join(reading)).id).toBe(model)
      const attempts = (yield* answered).slice(before)
      expect(attempts.map((entry) => entry.status)).toEqual([503, 200])
      const [waited = 0] = gaps(attempts.map((entry) => entry.at))
      expect([1_000, 2_000, 3_000]).toContain(waited)
    }).pipe(Effect.provide(retrying(3))))

  it.effect("a 401 and a 404 are never retried: exactly one request each", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const error = yield* Effect.flip(catalog.model({ organization: "o9999-nowhere", model: "m9999999-nothing" }))
      expect(error._tag).toBe("NotFound")
      expect((yield* answered).map((entry) => entry.status)).toEqual([404])
    }).pipe(Effect.provide(retrying(3))))

  it.effect("a revoked key is never retried: exactly one request", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      expect((yield* Effect.flip(catalog.modelsPage({ limit: 1 })))._tag).toBe("InvalidApiKey")
      expect((yield* answered).map((entry) => entry.status)).toEqual([401])
    }).pipe(Effect.provide(simulatorWithClient({ sizes: { models: 20 } }, { retry: { retries: 3, base: Duration.millis(10) } }, "revoked"))))
})

/** The ids of the first `count` models. */
const firstModels = (count: number) =>
  CatalogClient.CatalogClient.use((catalog) => Effect.map(Stream.runCollect(Stream.take(catalog.models(), count)), (models) => models.map((model) => model.id)))

describe("conditional requests revalidate what the client read, at no units", () => {
  it.effect("re-reading 60 model details and the first pages of lists costs nothing: all 304, the same values, no units", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const budget = yield* Budget.Budget
      const models = yield* firstModels(60)
      const [first = ""] = models
      const reads: ReadonlyArray<Effect.Effect<unknown, unknown>> = [
        ...models.map((model) => catalog.model(model)),
        Effect.map(catalog.modelOffersPage(first), (page) => page.items),
        Effect.map(catalog.modelActivityPage(first), (page) => page.items),
        Effect.map(catalog.familiesPage(), (page) => page.items),
        Effect.map(catalog.skillsPage(), (page) => page.items),
        Effect.map(catalog.searchPage({ q: "at", type: "models" }), (page) => page.items)
      ]
      const readAll = Effect.forEach(reads, (read) => read, { concurrency: 8 })
      const values = yield* readAll
      const usageBefore = yield* catalog.usage()
      const spentBefore = yield* budget.spent
      const before = (yield* answered).length
      const again = yield* readAll
      const rereads = (yield* answered).slice(before)
      expect(rereads).toHaveLength(reads.length)
      expect(rereads.filter((entry) => entry.status !== 304)).toEqual([])
      expect(again).toEqual(values)
      const spentAfter = yield* budget.spent
      expect(spentAfter.requests - spentBefore.requests).toBe(reads.length)
      expect(spentAfter.units).toBe(spentBefore.units)
      expect(spentAfter.bytes).toBe(spentBefore.bytes)
      expect((yield* catalog.usage()).daily_units).toBe(usageBefore.daily_units)
    }).pipe(Effect.provide(simulatorWithClient({ sizes: { models: 100, skills: 30 } }))))

  it.effect("a model edited since it was kept is fetched anew: 200 with the new content; the unchanged stay 304", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const catalog = yield* CatalogClient.CatalogClient
      const models = yield* firstModels(60)
      const read = (model: string) => catalog.model(model).pipe(Effect.map(Option.some), Effect.catchTag("NotFound", () => Effect.succeed(Option.none())))
      const first = yield* Effect.forEach(models, read)
      yield* simulator.advance(2)
      const before = (yield* answered).length
      const second = yield* Effect.forEach(models, read)
      const rereads = (yield* answered).slice(before)
      expect(rereads).toHaveLength(models.length)
      let edited = 0
      let unchanged = 0
      models.forEach((_, index) => {
        const was = first[index]
        const now = second[index]
        const status = rereads[index]?.status
        if (was === undefined || now === undefined || Option.isNone(was)) return
        if (status === 304) {
          unchanged++
          expect(now).toEqual(was)
        } else if (status === 200) {
          edited++
          expect(Option.isSome(now)).toBe(true)
          expect(now).not.toEqual(was)
        } else {
          expect(status).toBe(404)
        }
      })
      expect(edited).toBeGreaterThan(0)
      expect(unchanged).toBeGreaterThan(0)
    }).pipe(Effect.provide(simulatorWithClient({ sizes: { models: 200 }, churn: 0.5, churnHorizon: 2, churnClock: "manual" }))))
})

describe("the client's own daily budget refuses what would pass it, and counts what was spent", () => {
  const budgeted = simulatorWithClient({ sizes: { models: 50 } }, { dailyBudget: 10 })

  it.effect("after 10 units of a budget of 10, the next request fails with BudgetExceeded and is not sent; /usage/ still goes", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const budget = yield* Budget.Budget
      // One unit for the page that gives the ids.
      const models = yield* firstModels(10)
      for (const model of models.slice(0, 9)) yield* catalog.model(model)
      const before = (yield* answered).length
      const refused = yield* Effect.flip(catalog.model(models[9] ?? ""))
      expect(refused._tag).toBe("BudgetExceeded")
      if (refused._tag === "BudgetExceeded") expect({ units: refused.units, spent: refused.spent, budget: refused.budget }).toEqual({ units: 1, spent: 10, budget: 10 })
      const search = yield* Effect.flip(catalog.searchPage({ q: "at", type: "models" }))
      expect(search._tag).toBe("BudgetExceeded")
      if (search._tag === "BudgetExceeded") expect(search.units).toBe(5)
      expect((yield* answered).length).toBe(before)
      expect((yield* catalog.usage()).daily_units).toBe(10)
      expect((yield* answered).slice(before).map((entry) => [entry.operation, entry.status])).toEqual([["usage", 200]])
      const spent = yield* budget.spent
      expect(spent.unitsToday).toBe(10)
      expect(spent.byOperation.get("model")?.units).toBe(9)
      expect(spent.byOperation.get("usage")?.units).toBe(0)
    }).pipe(Effect.provide(budgeted)))

  it.effect("with 7 units spent, a search (5 units) fails with BudgetExceeded, a detail read (1 unit) still goes", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const models = yield* firstModels(8)
      for (const model of models.slice(0, 6)) yield* catalog.model(model)
      const before = (yield* answered).length
      const refused = yield* Effect.flip(catalog.searchPage({ q: "at", type: "models" }))
      expect(refused._tag).toBe("BudgetExceeded")
      if (refused._tag === "BudgetExceeded") expect({ units: refused.units, spent: refused.spent, budget: refused.budget }).toEqual({ units: 5, spent: 7, budget: 10 })
      expect((yield* answered).length).toBe(before)
      yield* catalog.model(models[7] ?? "")
      expect((yield* answered).length).toBe(before + 1)
    }).pipe(Effect.provide(budgeted)))
})
