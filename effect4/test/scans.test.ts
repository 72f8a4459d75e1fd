/**
 * Whole scans of lists against the simulator over HTTP, through the public
 * client: the largest pages unless a limit is set, and that limit on every
 * page; exactly once under churn; a restart after a cursor expires mid-scan
 * (on the `TestClock`, the simulator's and the client's) that gives every
 * model once, under churn too; every model once under 503s and dropped
 * connections, no retry before its `Retry-After`; smaller pages after 422s;
 * a permit released when a scan is interrupted; and backpressure.
 */
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Exit, Fiber, Logger, Stream } from "effect"
import { TestClock } from "effect/testing"
import { CatalogClient } from "effect-catalog"
import { Simulator } from "effect-catalog/simulator"
import { simulatorWithClient } from "./support/Client.js"
import * as Churn from "./support/Churn.js"
import * as Traffic from "./support/Traffic.js"

const idsOf = <E>(stream: Stream.Stream<{ readonly id: string }, E>) => Effect.map(Stream.runCollect(stream), (items) => items.map((item) => item.id))

const ascending = (ids: ReadonlyArray<string>) => ids.every((id, index) => index === 0 || (ids[index - 1] ?? "") < id)

const catalogIds = Churn.listedIds

/** Runs `effect` with a logger that keeps every message. */
const withLogs = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const capture = Logger.make((options) => {
      lines.push(Logger.formatLogFmt.log(options))
    })
    const value = yield* Effect.provide(effect, Logger.layer([capture]))
    return { value, lines }
  })

/** Moves the `TestClock` on by `jump` once, at the item of this index. */
const clockJumpAt = (index: number, jump: Duration.Input) => <A, E, R>(stream: Stream.Stream<A, E, R>): Stream.Stream<A, E, R> =>
  Stream.mapEffect(Stream.zipWithIndex(stream), ([item, at]) => at === index ? Effect.as(TestClock.adjust(jump), item) : Effect.succeed(item))

/** A scan of the models under churn gives each model once (`Churn.expectExactlyOnce`), and churn did happen. */
const expectExactlyOnceUnderChurn = (ids: ReadonlyArray<string>, before: number, after: number, listedBefore: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const { churned, existedThroughout } = yield* Churn.expectExactlyOnce(ids, before, after, listedBefore)
    expect(churned, "models added or removed during the scan").toBeGreaterThan(0)
    expect(existedThroughout).toBeGreaterThan(0)
  })

const statusesOf = (answered: ReadonlyArray<Simulator.Answered>, status: number) => answered.filter((entry) => entry.status === status).length

describe("page sizes", () => {
  const traffic = Traffic.recorder()
  it.layer(simulatorWithClient({ sizes: { models: 250 } }, { middleware: [traffic.middleware] }))("of a scan", (it) => {
    it.effect("a list and a page without a limit ask for the largest page: 100 items, 25 for search", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        traffic.sent.length = 0
        expect(yield* Stream.runCount(catalog.models())).toBe(250)
        yield* catalog.modelsPage()
        expect(yield* Stream.runCount(catalog.search({ type: "models", q: "m0" }).pipe(Stream.take(30)))).toBe(30)
        yield* catalog.searchPage({ type: "models", q: "m0" })
        expect(traffic.sent.map((request) => request.limit)).toEqual(["100", "100", "100", "100", "25", "25", "25"])
      }))

    it.effect("wire lists the same items in their wire form, in the largest pages too", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const typed = yield* idsOf(catalog.models())
        traffic.sent.length = 0
        const wire = yield* Stream.runCollect(catalog.wire("models", {}))
        expect(wire.map((item) => item.id)).toEqual(typed)
        expect(yield* Stream.runCount(catalog.wire("search", { type: "models", q: "m0" }).pipe(Stream.take(30)))).toBe(30)
        expect(traffic.sent.map((request) => request.limit)).toEqual(["100", "100", "100", "25", "25"])
      }))

    it.effect("a limit the caller sets is kept on every page", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        traffic.sent.length = 0
        expect(yield* Stream.runCount(catalog.models({ limit: 50 }))).toBe(250)
        expect(traffic.sent.map((request) => request.limit)).toEqual(Array(5).fill("50"))
        expect(traffic.sent.map((request) => request.cursor === null)).toEqual([true, false, false, false, false])
      }))
  })
})

describe("exactly once", () => {
  it.effect("under churn, a scan gives every model that existed throughout exactly once, and nothing that never existed", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const catalog = yield* CatalogClient.CatalogClient
      const listedBefore = (yield* simulator.listed("models")).map((model) => model.id)
      const before = yield* simulator.epoch
      const ids = yield* idsOf(catalog.models({ limit: 100 }))
      const after = yield* simulator.epoch
      expect(after - before).toBeGreaterThanOrEqual(30)
      yield* expectExactlyOnceUnderChurn(ids, before, after, listedBefore)
    }).pipe(Effect.provide(simulatorWithClient({ sizes: { models: 3000 }, churn: 0.1, churnHorizon: 20 }))))

  it.effect("a cursor that expires mid-scan: the scan restarts and still gives exactly the catalog's ids once, ascending", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const catalog = yield* CatalogClient.CatalogClient
      const expected = yield* catalogIds
      const { lines, value: ids } = yield* withLogs(idsOf(catalog.models({ limit: 100 }).pipe(clockJumpAt(550, "61 minutes"))))
      expect(statusesOf(yield* simulator.answered, 409), "409 cursor_expired answers").toBeGreaterThanOrEqual(1)
      expect(lines.filter((line) => line.includes("restarting")).length).toBeGreaterThanOrEqual(1)
      expect(Churn.duplicatesOf(ids)).toEqual([])
      expect(ascending(ids)).toBe(true)
      expect(ids).toEqual(expected)
    }).pipe(Effect.provide(simulatorWithClient({ sizes: { models: 1500 } }))))

  it.effect("a cursor that expires mid-scan under churn: exactly once, and every model that existed throughout", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const catalog = yield* CatalogClient.CatalogClient
      const listedBefore = (yield* simulator.listed("models")).map((model) => model.id)
      const before = yield* simulator.epoch
      const { lines, value: ids } = yield* withLogs(idsOf(catalog.models({ limit: 100 }).pipe(clockJumpAt(550, "61 minutes"))))
      const after = yield* simulator.epoch
      expect(statusesOf(yield* simulator.answered, 409), "409 cursor_expired answers").toBeGreaterThanOrEqual(1)
      expect(lines.filter((line) => line.includes("restarting")).length).toBeGreaterThanOrEqual(1)
      yield* expectExactlyOnceUnderChurn(ids, before, after, listedBefore)
    }).pipe(Effect.provide(simulatorWithClient({ sizes: { models: 1500 }, churn: 0.1, churnHorizon: 20 }))))

  it.effect("a scan of large Skills asks for smaller pages after 422s and gives all 400 exactly once", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const catalog = yield* CatalogClient.CatalogClient
      const { lines, value: ids } = yield* withLogs(idsOf(catalog.skills({ limit: 100 })))
      expect(ids).toHaveLength(400)
      expect(Churn.duplicatesOf(ids)).toEqual([])
      expect([...ids].sort()).toEqual((yield* simulator.listed("skills")).map((skill) => skill.id).sort())
      expect(statusesOf((yield* simulator.answered).filter((entry) => entry.operation === "skills"), 422)).toBeGreaterThanOrEqual(1)
      expect(lines.filter((line) => line.includes("smaller pages")).length).toBeGreaterThanOrEqual(1)
    }).pipe(Effect.provide(simulatorWithClient({ sizes: { skills: 400 } }))))
})

describe("on the real clock", () => {
  const faulty = Traffic.recorder()
  it.live("with 15% 503s and 5% dropped connections, every model comes exactly once, and no retry leaves before Retry-After", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const catalog = yield* CatalogClient.CatalogClient
      const expected = yield* catalogIds
      const retriesBefore = yield* CatalogClient.metricTotal(CatalogClient.metrics.retries)
      const ids = yield* idsOf(catalog.models({ limit: 100 }))
      const retries = (yield* CatalogClient.metricTotal(CatalogClient.metrics.retries)) - retriesBefore
      expect(Churn.duplicatesOf(ids)).toEqual([])
      expect(ids).toEqual(expected)
      // The simulator's side: after a 503 at T (its Retry-After 10 to 30 ms at this scale), the next request arrives at T + 10 ms or later.
      const answered = yield* simulator.answered
      const unavailable = answered.flatMap((entry, index) => entry.status === 503 ? [index] : [])
      expect(unavailable.length, "503 answers").toBeGreaterThanOrEqual(1)
      for (const index of unavailable) {
        const next = answered[index + 1]
        expect(next, "a request after the 503").toBeDefined()
        expect(next?.at ?? 0).toBeGreaterThanOrEqual((answered[index]?.at ?? 0) + 10)
      }
      // Every attempt that did not give a page was retried, and counted so.
      const pages = answered.filter((entry) => entry.status === 200).length
      expect(pages).toBe(20)
      expect(retries).toBe(faulty.sent.length - pages)
      expect(retries).toBeGreaterThanOrEqual(unavailable.length)
    }).pipe(Effect.provide(simulatorWithClient(
      { sizes: { models: 2000 }, timeScale: 0.01, faults: { unavailable: 0.15, drop: 0.05 } },
      // A base far below the shortest Retry-After (10 ms), so that only honouring Retry-After keeps retries from coming too soon.
      { retry: { retries: 8, base: Duration.millis(5) }, timeout: "5 seconds", middleware: [faulty.middleware] }
    ))))

  const permits = Traffic.recorder()
  it.live("interrupting a scan mid-page releases its permit: the next two requests are both sent before either is answered", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const catalog = yield* CatalogClient.CatalogClient
      // The scan's first request is held by the simulator.
      yield* simulator.setFaults({ slow: 1, slowMillis: 2_000 })
      const scan = yield* Effect.forkChild(Stream.runDrain(catalog.models()))
      const deadline = Date.now() + 10_000
      while (permits.sent.length === 0 && Date.now() < deadline) yield* Effect.sleep("5 millis")
      expect(permits.sent).toHaveLength(1)
      yield* Fiber.interrupt(scan)
      const exit = yield* Fiber.await(scan)
      expect(Exit.isFailure(exit) && Exit.hasInterrupts(exit)).toBe(true)
      expect((yield* simulator.answered).filter((entry) => entry.operation === "models")).toEqual([])
      // The account allows two requests at once: with both permits free, both leave before the first answer (held 300 ms);
      // with one leaked, the second would leave only after it.
      yield* simulator.setFaults({ slow: 1, slowMillis: 300 })
      permits.sent.length = 0
      const answeredAt: Array<number> = []
      const timed = <A, E>(effect: Effect.Effect<A, E>) => Effect.tap(effect, () => Effect.sync(() => answeredAt.push(Date.now())))
      const [stats, page] = yield* Effect.all([timed(catalog.stats()), timed(catalog.modelsPage({ limit: 1 }))], { concurrency: "unbounded" })
      expect(stats.id).toBe("catalog")
      expect(page.items).toHaveLength(1)
      expect(permits.sent).toHaveLength(2)
      expect(Math.max(...permits.sent.map((request) => request.at))).toBeLessThanOrEqual(Math.min(...answeredAt))
      expect(statusesOf(yield* simulator.answered, 429)).toBe(0)
    }).pipe(Effect.provide(simulatorWithClient(
      { sizes: { models: 200 }, timeScale: 0.01, enforceLimits: true },
      { limits: { live: false, perTenSeconds: 10, perMinute: 60, concurrent: 2, timeScale: 0.01 }, timeout: "10 seconds", middleware: [permits.middleware] }
    ))))

  const pulled = Traffic.recorder()
  it.live("backpressure: a slow consumer of 30 items causes only the pages it needs to be fetched", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const expected = yield* catalogIds
      const ids = yield* idsOf(catalog.models({ limit: 10 }).pipe(Stream.tap(() => Effect.sleep("5 millis")), Stream.take(30)))
      expect(ids).toEqual(expected.slice(0, 30))
      expect(pulled.sent.length).toBeGreaterThanOrEqual(3)
      expect(pulled.sent.length).toBeLessThanOrEqual(5)
    }).pipe(Effect.provide(simulatorWithClient({ sizes: { models: 2000 } }, { middleware: [pulled.middleware] }))))
})
