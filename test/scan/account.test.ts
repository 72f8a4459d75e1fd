/**
 * The client keeps an account safe, against the simulator over HTTP: it paces
 * itself under the frequency and concurrency limits (alone, with four scans
 * at once, and as two clients sharing admission through Redis), honours a
 * 429's pause across every waiting request, stops at a spent daily allowance
 * with `QuotaExhausted`, revalidates with `ETag`s at zero units, refuses
 * requests past its own daily budget, counts what it spends, and retries only
 * what is worth retrying, never sooner than `Retry-After`.
 *
 * Every test runs its own simulator. Tests of pacing run on the real clock
 * (`it.live`), with a small time scale so the 10 s window lasts a few
 * hundred milliseconds; those of retries and of a spent quota run on the
 * test clock (`it.effect`), the simulator's and the client's alike.
 */
import { describe, expect, it } from "@effect/vitest"
import { Clock, Context, Duration, Effect, Fiber, Layer, Option, Ref, TestClock } from "effect"
import { randomUUID } from "node:crypto"
import * as Admission from "../../common/src/client/Admission.js"
import * as Budget from "../../common/src/client/Budget.js"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import * as RedisAdmission from "../../common/src/redis/RedisAdmission.js"
import * as Simulator from "../../common/src/simulator/Simulator.js"
import * as Answers from "../support/Answers.js"
import * as Client from "../support/Client.js"
import { wireModel } from "../support/Fixtures.js"
import * as Http from "../support/Http.js"
import * as Ids from "../support/Ids.js"
import * as Pace from "../support/Pace.js"
import * as Stub from "../support/Stub.js"
import * as Traffic from "../support/Traffic.js"
import * as WallClock from "../support/WallClock.js"
import * as Servers from "../support/Servers.js"

const redis = Servers.redis("the tests of two clients sharing admission through Redis need it")

describe("a client alone on an account keeps its pace", () => {
  const timeScale = 0.02

  it.live("on the real clock: a client alone on an account never provokes a 429: 40 sequential detail reads, every window kept", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const catalog = yield* CatalogClient.CatalogClient
      const models = yield* Ids.firstModelsThroughClient(40)
      expect(models).toHaveLength(40)
      const results = yield* Effect.forEach(models, (model) => Effect.either(catalog.model(model)))
      // No window took more than its limit (the burst itself is checked on the TestClock, in admission.test.ts)...
      Pace.expectSendsWithinWindows(yield* Traffic.sendTimes, timeScale)
      // ...so the simulator refused none.
      expect(results.filter((result) => result._tag === "Left").map((result) => result._tag === "Left" ? result.left._tag : "")).toEqual([])
      expect(yield* Answers.withStatus(429)).toBe(0)
      expect((yield* simulator.statusCounts).get(429)).toBeUndefined()
      // The list read for the ids, then 40 detail reads: every request of the account went through the client.
      const reads = yield* Answers.all
      expect(reads).toHaveLength(41)
      expect(reads.slice(1).every((entry) => entry.operation === "model" && entry.status === 200)).toBe(true)
      Pace.expectWithinWindows(reads, timeScale)
    }).pipe(Traffic.withHarness({ timeScale, sizes: { models: 100 } })))
})

describe("four scans at once through one client share the account's limits and its pauses", () => {
  const timeScale = 0.02
  const sizes = { models: 400, skills: 150, mcps: 90, organizations: 40 }

  const scans = Effect.gen(function*() {
    const catalog = yield* CatalogClient.CatalogClient
    // Pages of 25, so that the four scans make enough requests to meet every limit.
    return yield* Effect.all({
      models: Ids.idsOf(catalog.models({ limit: 25 })),
      skills: Ids.idsOf(catalog.skills({ limit: 25 })),
      mcps: Ids.idsOf(catalog.mcps({ limit: 25 })),
      organizations: Ids.idsOf(catalog.organizations({ limit: 25 }))
    }, { concurrency: "unbounded" })
  })

  const expectComplete = (found: Effect.Effect.Success<typeof scans>) => {
    Ids.expectEachOnce(found.models, sizes.models)
    Ids.expectEachOnce(found.skills, sizes.skills)
    Ids.expectEachOnce(found.mcps, sizes.mcps)
    Ids.expectEachOnce(found.organizations, sizes.organizations)
  }

  it.live("on the real clock: never exceed the account limits: no 429, at most 2 in flight, every window kept", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const found = yield* Effect.either(scans)
      // Whatever the fibers, no window took more than its limit...
      Pace.expectSendsWithinWindows(yield* Traffic.sendTimes, timeScale)
      // ...so the simulator refused none, and every scan completed.
      expect(yield* Answers.withStatus(429)).toBe(0)
      if (found._tag === "Left") return yield* Effect.fail(found.left)
      expectComplete(found.right)
      const all = yield* Answers.all
      expect(all.length).toBeGreaterThan(20)
      expect(yield* simulator.peakConcurrency).toBeLessThanOrEqual(2)
      Pace.expectWithinWindows(all, timeScale)
    }).pipe(Traffic.withHarness({ timeScale, sizes })))

  it.live("on the real clock: a 429 while they run pauses all of them for its Retry-After, and every scan still completes", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const retryAfterMillis = 400
      const running = yield* Effect.fork(scans)
      yield* Answers.atLeast(6)
      yield* simulator.injectRateLimit(1, retryAfterMillis)
      const found = yield* Fiber.join(running)
      expectComplete(found)
      const all = yield* Answers.all
      Pace.expectPausedAfter429(all, yield* Traffic.exchanges, retryAfterMillis)
      expect(yield* simulator.peakConcurrency).toBeLessThanOrEqual(2)
      Pace.expectWithinWindows(all, timeScale)
    }).pipe(Traffic.withHarness({ timeScale, sizes }, { retry: { retries: 5 } })))
})

describe("a 429 pauses requests already waiting for their turn", () => {
  // A pace (110 ms) well above the time an answer takes, so that when the 429 comes the other fiber is always waiting for its turn.
  const timeScale = 0.1

  it.live("on the real clock: two fibers of detail reads: after a 429 neither sends until its Retry-After is over", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const catalog = yield* CatalogClient.CatalogClient
      const retryAfterMillis = 500
      const models = yield* Ids.firstModelsThroughClient(16)
      const running = yield* Effect.fork(Effect.forEach(models, (model) => catalog.model(model), { concurrency: 2 }))
      yield* Answers.atLeast(5)
      yield* simulator.injectRateLimit(1, retryAfterMillis)
      const found = yield* Fiber.join(running)
      expect(found.map((model) => model.id)).toEqual(models.map((model) => `${model.organization}/${model.model}`))
      Pace.expectPausedAfter429(yield* Answers.all, yield* Traffic.exchanges, retryAfterMillis)
    }).pipe(Traffic.withHarness({ timeScale, sizes: { models: 50 } }, { retry: { retries: 3 } })))
})

describe("a spent daily allowance stops every request at once", () => {
  /** The next UTC midnight after `now`. */
  const nextUtcMidnight = (now: number) => {
    const date = new Date(now)
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1)
  }

  // On the test clock, which never moves here: a wait of any length would never end.
  it.effect("fails the next request at once with QuotaExhausted until the next UTC midnight, read from /usage/, without retrying", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const catalog = yield* CatalogClient.CatalogClient
      const model = yield* Ids.firstModel
      yield* simulator.spendDailyUnits()
      const before = (yield* Answers.all).length
      const error = yield* Effect.flip(catalog.model(model))
      const sent = (yield* Answers.all).slice(before)
      expect(error._tag).toBe("QuotaExhausted")
      if (error._tag !== "QuotaExhausted") return
      expect(error.code).toBe("daily_quota_exhausted")
      // One data request refused, one /usage/ call for the reset: no retry loop, no waiting for hours.
      expect(sent.map((entry) => [entry.operation, entry.status])).toEqual([["model", 429], ["usage", 200]])
      const usage = yield* Http.usage
      expect(usage.daily_reset_at).not.toBeNull()
      expect(error.resetsAt.getTime()).toBe(Date.parse(usage.daily_reset_at ?? ""))
      expect(error.resetsAt.getTime()).toBe(nextUtcMidnight(yield* Clock.currentTimeMillis))
      expect(Duration.toMillis(error.retryAfter)).toBeGreaterThan(60_000)

      // A second request fails at once, and nothing is sent.
      const sentBefore = (yield* Answers.all).length
      const again = yield* Effect.flip(catalog.modelsPage({ limit: 1 }))
      expect(again._tag).toBe("QuotaExhausted")
      if (again._tag === "QuotaExhausted") expect(again.resetsAt.getTime()).toBe(error.resetsAt.getTime())
      expect((yield* Answers.all).length).toBe(sentBefore)
    }).pipe(Traffic.withHarness({ timeScale: 1, sizes: { models: 20 } }, { retry: { retries: 5 } })))
})

describe("conditional requests revalidate what the client read, at no units", () => {
  type Comparable = ReadonlyArray<readonly [string, unknown]>

  /** The first page of every list operation, as comparable content (not the request id). */
  const firstPages = Effect.gen(function*() {
    const catalog = yield* CatalogClient.CatalogClient
    const models = yield* catalog.modelsPage()
    const families = yield* catalog.familiesPage()
    const providers = yield* catalog.providersPage()
    const organizations = yield* catalog.organizationsPage()
    const topics = yield* catalog.topicsPage()
    const model = models.items[0]
    const family = families.items.find((item) => item.model_count > 0)
    const provider = providers.items.find((item) => item.model_count > 0)
    const organization = organizations.items[0]
    const topic = topics.items[0]
    if (model === undefined || family === undefined || provider === undefined || organization === undefined || topic === undefined) {
      return yield* Effect.dieMessage("the catalog is missing a kind of record")
    }
    const m = Ids.modelParameters(model.id)
    const named = <A, E>(id: string, read: Effect.Effect<CatalogClient.Page<A>, E>): Effect.Effect<readonly [string, unknown], E> =>
      Effect.map(read, (page): readonly [string, unknown] => [id, { items: page.items, next: page.next, nextCursor: page.nextCursor }])
    const reads: ReadonlyArray<Effect.Effect<readonly [string, unknown], unknown>> = [
      named("models", catalog.modelsPage()),
      named("modelOffers", catalog.modelOffersPage(m)),
      named("modelBenchmarks", catalog.modelBenchmarksPage(m)),
      named("modelPerformance", catalog.modelPerformancePage(m)),
      named("modelActivity", catalog.modelActivityPage(m)),
      named("modelApplications", catalog.modelApplicationsPage(m)),
      named("families", catalog.familiesPage()),
      named("familyModels", catalog.familyModelsPage({ id: family.id })),
      named("providers", catalog.providersPage()),
      named("providerModels", catalog.providerModelsPage({ id: provider.id })),
      named("providerOffers", catalog.providerOffersPage({ id: provider.id })),
      named("organizations", catalog.organizationsPage()),
      named("organizationModels", catalog.organizationModelsPage({ slug: organization.slug })),
      named("organizationResources", catalog.organizationResourcesPage({ slug: organization.slug })),
      named("skills", catalog.skillsPage()),
      named("publishers", catalog.publishersPage()),
      named("mcps", catalog.mcpsPage()),
      named("topics", catalog.topicsPage()),
      named("topicSkills", catalog.topicSkillsPage({ slug: topic.id })),
      named("articles", catalog.articlesPage()),
      named("search", catalog.searchPage({ q: "at", type: "models" }))
    ]
    return reads
  })

  it.live("re-reading 200 model details and the first page of every list costs nothing: all 304, same results, no units", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const budget = yield* Budget.Budget
      const models = yield* Ids.firstModels(200)
      expect(models).toHaveLength(200)
      const pages = yield* firstPages
      expect(pages).toHaveLength(21)
      const reads: ReadonlyArray<Effect.Effect<readonly [string, unknown], unknown>> = [
        ...models.map((model) => Effect.map(catalog.model(model), (value): readonly [string, unknown] => [`${model.organization}/${model.model}`, value])),
        ...pages
      ]
      const readAll: Effect.Effect<Comparable, unknown> = Effect.forEach(reads, (read) => read, { concurrency: 8 })

      const first = yield* readAll
      // (The five list pages read for path parameters are already revalidated here.)
      const firstAnswers = (yield* Answers.all).filter((entry) => entry.operation !== "usage").slice(-reads.length)
      expect(firstAnswers.filter((entry) => entry.status !== 200 && entry.status !== 304)).toEqual([])
      expect(firstAnswers.filter((entry) => entry.operation === "model" && entry.status !== 200)).toEqual([])
      const usageBefore = yield* Http.usage
      const spentBefore = yield* budget.spent
      const before = (yield* Answers.all).length

      const second = yield* readAll
      const rereads = (yield* Answers.all).slice(before)
      expect(rereads).toHaveLength(reads.length)
      expect(rereads.filter((entry) => entry.status !== 304)).toEqual([])
      expect(second).toEqual(first)

      const usageAfter = yield* Http.usage
      expect(usageAfter.daily_units).toBe(usageBefore.daily_units)
      expect(usageAfter.monthly_units).toBe(usageBefore.monthly_units)
      const spentAfter = yield* budget.spent
      expect(spentAfter.requests - spentBefore.requests).toBe(reads.length)
      expect(spentAfter.units).toBe(spentBefore.units)
      expect(spentAfter.unitsToday).toBe(spentBefore.unitsToday)
      expect(spentAfter.bytes).toBe(spentBefore.bytes)
      expect(spentAfter.byOperation.get("model")).toEqual({
        requests: (spentBefore.byOperation.get("model")?.requests ?? 0) + 200,
        units: spentBefore.byOperation.get("model")?.units,
        bytes: spentBefore.byOperation.get("model")?.bytes
      })
    }).pipe(Traffic.withHarness({ enforceLimits: false, sizes: { models: 300, skills: 60, mcps: 40, organizations: 20 } })))

  it.live("a resource edited since it was cached is fetched anew: 200 with the new content, the unchanged stay 304", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const catalog = yield* CatalogClient.CatalogClient
      const models = yield* Ids.firstModels(60)
      const read = (model: Ids.ModelParameters) =>
        catalog.model(model).pipe(Effect.map(Option.some), Effect.catchTag("NotFound", () => Effect.succeed(Option.none())))
      const first = yield* Effect.forEach(models, read)
      // Serve list pages until every edit of the churn horizon has happened.
      const startEpoch = yield* simulator.epoch
      for (let i = 0; i < 4; i++) yield* Http.get(`/models/?limit=1`)
      expect(yield* simulator.epoch).toBeGreaterThanOrEqual(startEpoch + 4)
      const before = (yield* Answers.all).length
      const second = yield* Effect.forEach(models, read)
      const rereads = (yield* Answers.all).slice(before)
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
    }).pipe(Traffic.withHarness({ enforceLimits: false, sizes: { models: 200 }, churn: 0.5, churnHorizon: 2 })))

  it.live("against a stub: If-None-Match carries the kept tag, a changed body with a new tag replaces it, a 304 returns the new body", () =>
    Effect.gen(function*() {
      const stub = yield* Stub.Stub
      const catalog = yield* CatalogClient.CatalogClient
      const before = wireModel(stub.baseUrl)
      const after = { ...before, name: "Kestrel 8B v2", updated_at: "2026-11-21T00:00:00Z" }
      yield* stub.answer((request) => {
        const tag = request.headers["if-none-match"]
        if (tag === '"b"') return { status: 304, headers: { etag: '"b"' } }
        if (tag === '"a"') return Stub.json(200, { data: after }, { etag: '"b"' })
        return Stub.json(200, { data: before }, { etag: '"a"' })
      })
      const parameters = { organization: "o0000-falcon", model: "m0000000-kestrel-8b" }
      const first = yield* catalog.model(parameters)
      const second = yield* catalog.model(parameters)
      const third = yield* catalog.model(parameters)
      const received = yield* stub.received
      expect(received.map((request) => request.headers["if-none-match"] ?? null)).toEqual([null, '"a"', '"b"'])
      expect(first.name).toBe("Kestrel 8B")
      expect(second.name).toBe("Kestrel 8B v2")
      expect(second.updated_at).not.toBeNull()
      expect(third).toEqual(second)
    }).pipe(Effect.provide(Client.stubWithClient("cat_live_stub"))))
})

describe("the client's own daily budget refuses what would pass it, and counts what was spent", () => {
  const settings: Simulator.Settings = { enforceLimits: false, sizes: { models: 50 } }

  it.live("after 10 units of a budget of 10, the next request fails with BudgetExceeded and is not sent; /usage/ still works", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const budget = yield* Budget.Budget
      const models = yield* Ids.firstModels(11)
      for (const model of models.slice(0, 10)) yield* catalog.model(model)
      const before = (yield* Answers.all).length
      const next = models[10]
      if (next === undefined) return yield* Effect.dieMessage("no 11th model")
      const refused = yield* Effect.flip(catalog.model(next))
      expect(refused._tag).toBe("BudgetExceeded")
      if (refused._tag === "BudgetExceeded") {
        expect({ units: refused.units, spent: refused.spent, budget: refused.budget }).toEqual({ units: 1, spent: 10, budget: 10 })
      }
      const search = yield* Effect.flip(catalog.searchPage({ q: "at", type: "models" }))
      expect(search._tag).toBe("BudgetExceeded")
      if (search._tag === "BudgetExceeded") expect(search.units).toBe(5)
      expect((yield* Answers.all).length).toBe(before)
      const usage = yield* catalog.usage()
      // The client's 10, and 1 for the plain list read that gave the ids.
      expect(usage.daily_units).toBe(11)
      const sent = (yield* Answers.all).slice(before)
      expect(sent.map((entry) => [entry.operation, entry.status])).toEqual([["usage", 200]])
      const spent = yield* budget.spent
      expect(spent.unitsToday).toBe(10)
      expect(spent.byOperation.get("model")?.units).toBe(10)
      expect(spent.byOperation.get("usage")?.units).toBe(0)
    }).pipe(Traffic.withHarness(settings, { dailyBudget: 10 })))

  it.live("with 7 units spent, a search (5 units) fails with BudgetExceeded, a detail read (1 unit) still goes", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const models = yield* Ids.firstModels(8)
      for (const model of models.slice(0, 7)) yield* catalog.model(model)
      const before = (yield* Answers.all).length
      const refused = yield* Effect.flip(catalog.searchPage({ q: "at", type: "models" }))
      expect(refused._tag).toBe("BudgetExceeded")
      if (refused._tag === "BudgetExceeded") {
        expect({ units: refused.units, spent: refused.spent, budget: refused.budget }).toEqual({ units: 5, spent: 7, budget: 10 })
      }
      expect((yield* Answers.all).length).toBe(before)
      const eighth = models[7]
      if (eighth === undefined) return yield* Effect.dieMessage("no 8th model")
      yield* catalog.model(eighth)
      expect((yield* Answers.all).length).toBe(before + 1)
    }).pipe(Traffic.withHarness(settings, { dailyBudget: 10 })))

  it.live("Budget.spent counts requests, units and bytes per operation: 0 units for /usage/ and 304, 1 for a 404, 512 KiB for a dropped answer", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const catalog = yield* CatalogClient.CatalogClient
      const budget = yield* Budget.Budget
      const models = yield* Ids.firstModels(3)
      let bodyBytes = 0
      for (const model of models) {
        yield* catalog.model(model)
        const raw = yield* Http.get(`/models/${model.organization}/${model.model}/`)
        bodyBytes += Buffer.byteLength(raw.text)
      }
      yield* catalog.searchPage({ q: "at", type: "models" })
      yield* catalog.usage()
      const afterReads = yield* budget.spent
      expect(afterReads.byOperation.get("model")).toEqual({ requests: 3, units: 3, bytes: bodyBytes })
      expect(afterReads.byOperation.get("search")?.units).toBe(5)
      expect(afterReads.byOperation.get("usage")?.units).toBe(0)
      expect(afterReads.units).toBe(8)

      // A 304 costs nothing, a 404 costs its unit.
      const [cachedModel] = models
      if (cachedModel === undefined) return yield* Effect.dieMessage("no model")
      yield* catalog.model(cachedModel)
      const missing = yield* Effect.flip(catalog.model({ organization: "o9999-nowhere", model: "m9999999-nothing" }))
      expect(missing._tag).toBe("NotFound")
      const afterMissing = yield* budget.spent
      const modelAfterMissing = afterMissing.byOperation.get("model")
      expect(modelAfterMissing?.requests).toBe(5)
      expect(modelAfterMissing?.units).toBe(4)

      // A dropped answer keeps its unit and counts the whole 512 KiB the service reserved.
      yield* simulator.setFaults({ drop: 1 })
      const [, dropped] = models
      if (dropped === undefined) return yield* Effect.dieMessage("no model")
      const transport = yield* Effect.flip(catalog.modelOffersPage(dropped))
      expect(transport._tag).toBe("TransportError")
      yield* simulator.setFaults({ drop: 0 })
      const afterDrop = yield* budget.spent
      expect(afterDrop.byOperation.get("modelOffers")).toEqual({ requests: 1, units: 1, bytes: 524_288 })
      expect(afterDrop.bytes - afterMissing.bytes).toBe(524_288)
      expect(afterDrop.units).toBe(afterMissing.units + 1)
    }).pipe(Traffic.withHarness(settings)))
})

describe("the client retries only what is worth retrying, never before Retry-After", () => {
  const timeScale = 0.02
  const retryPolicy = (retries: number) => ({ retry: { retries, base: Duration.millis(10) } })

  // On the test clock: the client waits its Retry-After there, and the simulator records its answers there too;
  // only the HTTP exchanges take real time, which the polls below wait out.

  it.effect("two 429s then success: each retry leaves exactly when the Retry-After is over, not a millisecond sooner", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const catalog = yield* CatalogClient.CatalogClient
      const model = yield* Ids.firstModel
      const before = (yield* Answers.all).length
      yield* simulator.injectRateLimit(2, 2_000)
      const reading = yield* Effect.fork(catalog.model(model))
      yield* Answers.atLeast(before + 1)
      yield* TestClock.adjust("1999 millis")
      yield* WallClock.pause(50)
      expect((yield* Answers.all).length, "no retry before the Retry-After is over").toBe(before + 1)
      yield* TestClock.adjust("1 millis")
      yield* Answers.atLeast(before + 2)
      yield* TestClock.adjust("2 seconds")
      const found = yield* Fiber.join(reading)
      expect(found.id).toBe(`${model.organization}/${model.model}`)
      const attempts = (yield* Answers.all).slice(before)
      expect(attempts.map((entry) => entry.status)).toEqual([429, 429, 200])
      expect(Pace.gaps(attempts.map((entry) => entry.at))).toEqual([2_000, 2_000])
    }).pipe(Traffic.withHarness({ sizes: { models: 20 } }, retryPolicy(3))))

  it.effect("with retries 1, two 429s give the last typed error, RateLimited, after one Retry-After", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const catalog = yield* CatalogClient.CatalogClient
      const model = yield* Ids.firstModel
      const before = (yield* Answers.all).length
      yield* simulator.injectRateLimit(2, 2_000)
      const reading = yield* Effect.fork(Effect.flip(catalog.model(model)))
      yield* Answers.atLeast(before + 1)
      yield* TestClock.adjust("2 seconds")
      const error = yield* Fiber.join(reading)
      expect(error._tag).toBe("RateLimited")
      if (error._tag === "RateLimited") expect(Duration.toMillis(error.retryAfter)).toBe(2_000)
      const attempts = (yield* Answers.all).slice(before)
      expect(attempts.map((entry) => entry.status)).toEqual([429, 429])
      expect(Pace.gaps(attempts.map((entry) => entry.at))).toEqual([2_000])
    }).pipe(Traffic.withHarness({ sizes: { models: 20 } }, retryPolicy(1))))

  it.effect("a 503 then success: retried exactly after the 503's Retry-After", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const catalog = yield* CatalogClient.CatalogClient
      const model = yield* Ids.firstModel
      const before = (yield* Answers.all).length
      yield* simulator.setFaults({ unavailable: 1 })
      const reading = yield* Effect.fork(catalog.model(model))
      yield* Answers.atLeast(before + 1)
      yield* simulator.setFaults({ unavailable: 0 })
      // The simulator asks for 1 to 3 s.
      yield* TestClock.adjust("3 seconds")
      const found = yield* Fiber.join(reading)
      expect(found.id).toBe(`${model.organization}/${model.model}`)
      const attempts = (yield* Answers.all).slice(before)
      expect(attempts.map((entry) => entry.status)).toEqual([503, 200])
      const [waited = 0] = Pace.gaps(attempts.map((entry) => entry.at))
      expect([1_000, 2_000, 3_000]).toContain(waited)
    }).pipe(Traffic.withHarness({ sizes: { models: 20 } }, retryPolicy(3))))

  it.live("a 401 is never retried: exactly one request", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const error = yield* Effect.flip(catalog.modelsPage({ limit: 1 }))
      expect(error._tag).toBe("InvalidApiKey")
      const all = yield* Answers.all
      expect(all.map((entry) => entry.status)).toEqual([401])
    }).pipe(Traffic.withHarness({ timeScale, sizes: { models: 20 } }, { ...retryPolicy(3), key: "revoked" })))

  it.live("a 404 is never retried: exactly one request", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const error = yield* Effect.flip(catalog.model({ organization: "o9999-nowhere", model: "m9999999-nothing" }))
      expect(error._tag).toBe("NotFound")
      const all = yield* Answers.all
      expect(all.map((entry) => entry.status)).toEqual([404])
    }).pipe(Traffic.withHarness({ timeScale, sizes: { models: 20 } }, retryPolicy(3))))
})

describe("two clients sharing admission through Redis keep the account as one", () => {
  const timeScale = 0.02
  const sizes = { models: 300, skills: 150, mcps: 90, organizations: 40 }

  /** A client of the simulator built on its own, with admission in Redis under `prefix`. */
  const redisClient = (simulator: Simulator.Service, log: Ref.Ref<ReadonlyArray<Traffic.Exchange>>, prefix: string) =>
    Layer.build(
      CatalogClient.layer({
        baseUrl: simulator.baseUrl,
        apiKey: simulator.keys.full,
        admission: Traffic.notingPauses(
          RedisAdmission.layer({ ...Admission.contractLimits, timeScale, live: false }, { redis: { host: "127.0.0.1", port: redis.port }, prefix }),
          log
        ),
        retry: { retries: 3 }
      }).pipe(Layer.provide(Traffic.recordingHttpClient(log)))
    ).pipe(Effect.map(Context.get(CatalogClient.CatalogClient)))

  const twoClients = Effect.gen(function*() {
    const simulator = yield* Simulator.Simulator
    const prefix = `test:${randomUUID()}:`
    const log = yield* Traffic.Traffic
    const one = yield* redisClient(simulator, log, prefix)
    const two = yield* redisClient(simulator, log, prefix)
    const pair: readonly [CatalogClient.Service, CatalogClient.Service] = [one, two]
    return pair
  })

  /** Client one scans models and MCP servers, client two Skills and organizations, all at once. */
  const scanBoth = (one: CatalogClient.Service, two: CatalogClient.Service) =>
    // Pages of 25, so that the two clients make enough requests to meet every limit.
    Effect.all({
      models: Ids.idsOf(one.models({ limit: 25 })),
      mcps: Ids.idsOf(one.mcps({ limit: 25 })),
      skills: Ids.idsOf(two.skills({ limit: 25 })),
      organizations: Ids.idsOf(two.organizations({ limit: 25 }))
    }, { concurrency: "unbounded" })

  const expectComplete = (found: Effect.Effect.Success<ReturnType<typeof scanBoth>>) => {
    Ids.expectEachOnce(found.models, sizes.models)
    Ids.expectEachOnce(found.mcps, sizes.mcps)
    Ids.expectEachOnce(found.skills, sizes.skills)
    Ids.expectEachOnce(found.organizations, sizes.organizations)
  }

  /** Runs `test` against a fresh simulator with its `Traffic`, the clients it builds closed when it ends. */
  const onOneAccount = <A, E, R>(test: Effect.Effect<A, E, R>) => Effect.provide(Effect.scoped(test), Traffic.simulatorWithTraffic({ timeScale, sizes }))

  const clientOf = (operation: string) => (operation === "models" || operation === "mcps" ? "one" : "two")

  it.live("on the real clock: scanning at the same time, together they keep every limit: no 429, at most 2 in flight", () =>
    onOneAccount(
      Effect.gen(function*() {
        const simulator = yield* Simulator.Simulator
        const [one, two] = yield* twoClients
        const found = yield* scanBoth(one, two)
        expectComplete(found)
        const all = yield* Answers.all
        expect(all.length).toBeGreaterThan(20)
        expect(yield* Answers.withStatus(429)).toBe(0)
        expect(yield* simulator.peakConcurrency).toBeLessThanOrEqual(2)
        Pace.expectWithinWindows(all, timeScale)
        // Both clients sent requests.
        expect(new Set(all.map((entry) => clientOf(entry.operation))).size).toBe(2)
      })
    ))

  it.live("on the real clock: detail reads from both clients at once keep the windows as one: no 429, every window kept", () =>
    onOneAccount(
      Effect.gen(function*() {
        const simulator = yield* Simulator.Simulator
        const [one, two] = yield* twoClients
        const models = (yield* one.modelsPage({ limit: 40 })).items.map((model) => Ids.modelParameters(model.id))
        expect(models).toHaveLength(40)
        // Two fibers per client, ten reads each.
        yield* Effect.forEach(models, (model, index) => (index % 2 === 0 ? one : two).model(model), { concurrency: 4 })
        // One shared log of starts: the account's requests keep every window together.
        Pace.expectSendsWithinWindows(yield* Traffic.sendTimes, timeScale)
        expect(yield* Answers.withStatus(429)).toBe(0)
        const all = yield* Answers.all
        expect(all).toHaveLength(41)
        expect(yield* simulator.peakConcurrency).toBeLessThanOrEqual(2)
        Pace.expectWithinWindows(all, timeScale)
      })
    ))

  it.live("on the real clock: a 429 answered to one client pauses the other too", () =>
    onOneAccount(
      Effect.gen(function*() {
        const simulator = yield* Simulator.Simulator
        const [one, two] = yield* twoClients
        const retryAfterMillis = 400
        const running = yield* Effect.fork(scanBoth(one, two))
        yield* Answers.atLeast(6)
        yield* simulator.injectRateLimit(1, retryAfterMillis)
        const found = yield* Fiber.join(running)
        expectComplete(found)
        const all = yield* Answers.all
        // Requests of both clients are in the log: neither sent any during the pause.
        Pace.expectPausedAfter429(all, yield* Traffic.exchanges, retryAfterMillis)
        expect(yield* simulator.peakConcurrency).toBeLessThanOrEqual(2)
      })
    ))

  it.live("on the real clock: the pause is shared through Redis: a pause set by one client's 429 holds back a request of the other", () =>
    onOneAccount(
      Effect.gen(function*() {
        const simulator = yield* Simulator.Simulator
        const [one, two] = yield* twoClients
        const model = yield* Ids.firstModel
        const retryAfterMillis = 300
        const before = (yield* Answers.all).length
        yield* simulator.injectRateLimit(1, retryAfterMillis)
        const first = yield* Effect.fork(one.modelsPage({ limit: 1 }))
        yield* Answers.atLeast(before + 1)
        const [refusal] = (yield* Answers.all).slice(before)
        expect(refusal?.status).toBe(429)
        const refusedAt = refusal?.at ?? 0
        // Once client one has paused the account (in Redis), ask through client two.
        yield* Traffic.pausedFor(retryAfterMillis)
        yield* two.model(model)
        yield* Fiber.join(first)
        const sent = (yield* Answers.all).slice(before)
        expect(sent.map((entry) => [entry.operation, entry.status])).toContainEqual(["model", 200])
        const answeredModel = sent.find((entry) => entry.operation === "model")
        expect((answeredModel?.at ?? 0) - refusedAt).toBeGreaterThanOrEqual(retryAfterMillis - 2)
      })
    ))
})
