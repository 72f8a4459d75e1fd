/**
 * Whole scans of lists, against the simulator over HTTP: exactly once under
 * churn, restarts after expired cursors, retries under faults (never before
 * Retry-After), smaller pages after 422s, permits released on interruption,
 * the deduplication fallback, and backpressure.
 *
 * Every test has its own simulator and client (`Effect.provide` per test).
 * Cursor expiry runs on the test clock (`it.effect`); the others wait for
 * real (`it.live`).
 */
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Clock, Duration, Effect, Exit, Fiber, Layer, Logger, Ref, Stream, TestClock } from "effect"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import * as Simulator from "../../common/src/simulator/Simulator.js"
import * as Churn from "../support/Churn.js"
import * as Client from "../support/Client.js"
import { wireModel } from "../support/Fixtures.js"
import { idsOf } from "../support/Ids.js"
import * as Stub from "../support/Stub.js"
import * as Traffic from "../support/Traffic.js"
import * as WallClock from "../support/WallClock.js"

// Helpers -----------------------------------------------------------------------

/**
 * A simulator with these settings and a client of it (by default: no retries,
 * the simulator's scaled limits), whose HTTP traffic is recorded in `Traffic`.
 */
const scanning = (settings: Simulator.Settings, options: Partial<CatalogClient.Options> = {}) =>
  Client.client("full", options).pipe(Layer.provideMerge(Traffic.simulatorWithTraffic(settings)))

/** A logger that keeps every message, for checks of what the client said. */
const capturingLogs = () => {
  const lines: Array<string> = []
  const layer = Logger.replace(
    Logger.defaultLogger,
    Logger.make(({ message }) => {
      const parts: ReadonlyArray<unknown> = Array.isArray(message) ? message : [message]
      lines.push(parts.map((part) => String(part)).join(" "))
    })
  )
  return { lines, layer }
}

const ascending = (ids: ReadonlyArray<string>) => ids.every((id, index) => index === 0 || (ids[index - 1] ?? "") < id)

/** Moves the test clock on by `jump` once, at the item of this index (after deduplication). */
const clockJumpAt = (index: number, jump: Duration.DurationInput) => <A, E, R>(stream: Stream.Stream<A, E, R>): Stream.Stream<A, E, R> =>
  Stream.mapEffect(Stream.zipWithIndex(stream), ([item, at]) => at === index ? Effect.as(TestClock.adjust(jump), item) : Effect.succeed(item))

/**
 * The checks of a scan under churn (see `Churn.expectExactlyOnce`), and that
 * churn happened at all: some model existed only part of the time.
 */
const expectExactlyOnceUnderChurn = (ids: ReadonlyArray<string>, before: number, after: number) =>
  Effect.gen(function*() {
    const { churned, existedThroughout } = yield* Churn.expectExactlyOnce(ids, before, after)
    expect(churned, "records added or removed during the scan").toBeGreaterThan(0)
    expect(existedThroughout).toBeGreaterThan(0)
  })

const statusesOf = (answered: ReadonlyArray<Simulator.Answered>, status: number) => answered.filter((entry) => entry.status === status).length

// Tests -------------------------------------------------------------------------

/** The page sizes the client asked for, request by request. */
const requestedLimits = Effect.map(Traffic.exchanges, (events) =>
  events.flatMap((event) => event.query === null ? [] : [event.query.get("limit")]))

describe("scans", () => {
  describe("page sizes", () => {
    const models = 250
    it.live("a list without a limit, and a page without one, ask for the largest page: 100 items, 25 for search", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        expect(yield* Stream.runCount(catalog.models())).toBe(models)
        yield* catalog.modelsPage()
        expect(yield* Stream.runCount(catalog.search({ type: "models", q: "m0" }).pipe(Stream.take(30)))).toBe(30)
        yield* catalog.searchPage({ type: "models", q: "m0" })
        expect(yield* requestedLimits).toEqual(["100", "100", "100", "100", "25", "25", "25"])
      }).pipe(Effect.provide(scanning({ sizes: { models }, enforceLimits: false }))))

    it.live("wire lists the same items in their wire form, in the largest pages too", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const typed = yield* idsOf(catalog.models())
        const wire = Chunk.toReadonlyArray(yield* Stream.runCollect(catalog.wire("models", {})))
        expect(wire.map((item) => item.id)).toEqual(typed)
        // Exact integers stay their decimal strings.
        expect(wire.every((item) => typeof item["context_tokens"] === "string" || item["context_tokens"] === null)).toBe(true)
        const search = yield* Stream.runCount(catalog.wire("search", { type: "models", q: "m0" }).pipe(Stream.take(30)))
        expect(search).toBe(30)
        expect((yield* requestedLimits).slice(-2)).toEqual(["25", "25"])
      }).pipe(Effect.provide(scanning({ sizes: { models }, enforceLimits: false }))))

    it.live("a limit the caller sets is kept on every page", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        expect(yield* Stream.runCount(catalog.models({ limit: 120 - 20 - 50 }))).toBe(models)
        expect(new Set(yield* requestedLimits)).toEqual(new Set(["50"]))
      }).pipe(Effect.provide(scanning({ sizes: { models }, enforceLimits: false }))))
  })

  it.live("under churn, a scan yields every record that existed throughout exactly once, and nothing that never existed", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const catalog = yield* CatalogClient.CatalogClient
      const before = yield* simulator.epoch
      const ids = yield* idsOf(catalog.models({ limit: 100 }))
      const after = yield* simulator.epoch
      expect(after - before).toBeGreaterThanOrEqual(30)
      yield* expectExactlyOnceUnderChurn(ids, before, after)
    }).pipe(Effect.provide(scanning({ sizes: { models: 3000 }, churn: 0.1, churnHorizon: 20, enforceLimits: false }))))

  describe("cursors that expire mid-scan", () => {
    // On the test clock, the simulator's and the client's: in the middle of
    // the scan the consumer moves it past the cursor hour.
    const settings = { sizes: { models: 1500 }, enforceLimits: false } satisfies Simulator.Settings

    it.effect("the scan restarts from its first page and still yields exactly the catalog's ids once, ascending", () =>
      Effect.gen(function*() {
        const simulator = yield* Simulator.Simulator
        const catalog = yield* CatalogClient.CatalogClient
        const logs = capturingLogs()
        const ids = yield* idsOf(catalog.models({ limit: 100 }).pipe(clockJumpAt(550, "61 minutes"))).pipe(Effect.provide(logs.layer))
        const answered = yield* simulator.answered
        expect(statusesOf(answered, 409), "409 cursor_expired answers").toBeGreaterThanOrEqual(1)
        expect(logs.lines.filter((line) => line.includes("restarting")).length).toBeGreaterThanOrEqual(1)
        expect(Churn.duplicatesOf(ids)).toEqual([])
        expect(ascending(ids)).toBe(true)
        expect(ids).toEqual(Churn.catalogModelIds(simulator))
      }).pipe(Effect.provide(scanning(settings))))

    it.effect("under churn too: exactly once, and every record that existed throughout", () =>
      Effect.gen(function*() {
        const simulator = yield* Simulator.Simulator
        const catalog = yield* CatalogClient.CatalogClient
        const logs = capturingLogs()
        const before = yield* simulator.epoch
        const ids = yield* idsOf(catalog.models({ limit: 100 }).pipe(clockJumpAt(550, "61 minutes"))).pipe(Effect.provide(logs.layer))
        const after = yield* simulator.epoch
        const answered = yield* simulator.answered
        expect(statusesOf(answered, 409), "409 cursor_expired answers").toBeGreaterThanOrEqual(1)
        expect(logs.lines.filter((line) => line.includes("restarting")).length).toBeGreaterThanOrEqual(1)
        yield* expectExactlyOnceUnderChurn(ids, before, after)
      }).pipe(Effect.provide(scanning({ ...settings, churn: 0.1, churnHorizon: 20 }))))
  })

  it.live("on the real clock: with 15% 503s and dropped connections, every model comes exactly once, and no retry comes before Retry-After", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const catalog = yield* CatalogClient.CatalogClient
      const wire = yield* Traffic.Traffic
      const retriesBefore = yield* CatalogClient.metricTotal(CatalogClient.metrics.retries)
      const ids = yield* idsOf(catalog.models({ limit: 100 }))
      const retriesAfter = yield* CatalogClient.metricTotal(CatalogClient.metrics.retries)

      expect(Churn.duplicatesOf(ids)).toEqual([])
      expect(ids).toEqual(Churn.catalogModelIds(simulator))

      // The simulator's side: after a 503 at T (Retry-After 10 to 30 ms at this
      // scale), the scan's next request is answered at T + 10 ms or later.
      const answered = yield* simulator.answered
      const unavailable = answered.flatMap((entry, index) => entry.status === 503 ? [index] : [])
      expect(unavailable.length, "503 answers").toBeGreaterThanOrEqual(1)
      for (const index of unavailable) {
        const at = answered[index]?.at ?? 0
        const next = answered[index + 1]
        expect(next, "a request after the 503").toBeDefined()
        expect(next?.at ?? 0).toBeGreaterThanOrEqual(at + 10)
      }

      // The client's side: the request after each 503 left no sooner than that
      // answer's own Retry-After (1 ms of clock rounding allowed).
      const events = yield* Ref.get(wire)
      const early: Array<string> = []
      events.forEach((event, index) => {
        if (event.kind !== "answer" || event.status !== 503) return
        expect(event.millis).not.toBeNull()
        const next = events.slice(index + 1).find((later) => later.kind === "send")
        const waited = next === undefined ? Number.POSITIVE_INFINITY : next.at - event.at
        if (waited < (event.millis ?? 0) - 1) early.push(`waited ${waited} ms, Retry-After ${event.millis ?? 0} ms`)
      })
      expect(early).toEqual([])

      // Every failed attempt (503 or dropped) was counted as a retry.
      const requests = events.filter((event) => event.kind === "send").length
      const successes = events.filter((event) => event.kind === "answer" && event.status === 200).length
      expect(requests - successes).toBeGreaterThanOrEqual(unavailable.length)
      expect(retriesAfter - retriesBefore).toBe(requests - successes)
    }).pipe(
      Effect.provide(
        scanning(
          { sizes: { models: 2000 }, timeScale: 0.01, enforceLimits: false, faults: { unavailable: 0.15, drop: 0.05 } },
          // A base far below the shortest Retry-After (10 ms), so that only
          // honouring Retry-After keeps retries from coming too soon.
          { retry: { retries: 8, base: Duration.millis(5) } }
        )
      )
    ))

  it.live("a scan of large Skills asks for smaller pages after 422s and yields all 400 exactly once", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const catalog = yield* CatalogClient.CatalogClient
      const logs = capturingLogs()
      const ids = yield* idsOf(catalog.skills({ limit: 100 })).pipe(Effect.provide(logs.layer))
      const records = Churn.recordsOf(simulator)
      expect(ids).toHaveLength(400)
      expect(Churn.duplicatesOf(ids)).toEqual([])
      expect([...ids].sort()).toEqual(Array.from({ length: 400 }, (_, i) => records.skillId(i)).sort())
      const answered = yield* simulator.answered
      expect(statusesOf(answered.filter((entry) => entry.operation === "skills"), 422)).toBeGreaterThanOrEqual(1)
      expect(logs.lines.filter((line) => line.includes("smaller pages")).length).toBeGreaterThanOrEqual(1)
    }).pipe(Effect.provide(scanning({ sizes: { skills: 400 }, enforceLimits: false }))))

  it.live("interrupting a scan mid-page releases its permit: the next two concurrent requests are admitted at once", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const catalog = yield* CatalogClient.CatalogClient
      const wire = yield* Traffic.Traffic

      // The scan's first request is held by the simulator for 2 s.
      yield* simulator.setFaults({ slow: 1, slowMillis: 2000 })
      const scan = yield* Effect.fork(Stream.runDrain(catalog.models()))
      yield* WallClock.eventually(Effect.map(Ref.get(wire), (events) => events.some((event) => event.kind === "send")), 2_000)
      yield* Effect.sleep("50 millis")
      const exit = yield* Fiber.interrupt(scan)
      expect(Exit.isInterrupted(exit)).toBe(true)
      expect((yield* simulator.answered).filter((entry) => entry.operation === "models")).toEqual([])

      // Two requests, each answered 200 ms late: with both of the account's
      // two slots free they overlap; with one slot leaked they run one after
      // the other (400 ms or more).
      yield* simulator.setFaults({ slow: 1, slowMillis: 200 })
      yield* Ref.set(wire, [])
      const started = yield* Clock.currentTimeMillis
      const [stats, page] = yield* Effect.all([catalog.stats(), catalog.modelsPage({ limit: 1 })], { concurrency: "unbounded" })
      const elapsed = (yield* Clock.currentTimeMillis) - started
      expect(stats.id).toBe("catalog")
      expect(page.items).toHaveLength(1)

      const events = yield* Ref.get(wire)
      const requests = events.filter((event) => event.kind === "send")
      const firstAnswer = events.find((event) => event.kind === "answer")
      expect(requests).toHaveLength(2)
      expect(requests.every((request) => firstAnswer !== undefined && request.at <= firstAnswer.at)).toBe(true)
      expect(elapsed).toBeLessThan(350)
      const answered = yield* simulator.answered
      expect(answered.filter((entry) => entry.status === 429)).toEqual([])
      expect(answered.map((entry) => entry.status)).toEqual([200, 200])
      expect(yield* simulator.peakConcurrency).toBeLessThanOrEqual(2)
    }).pipe(Effect.provide(scanning({ sizes: { models: 200 }, timeScale: 0.01 }))))

  describe("deduplication", () => {
    const testKey = "cat_test_key_0123456789"

    /** A client of a fresh stub server. */
    const stubClient = Client.stubWithClient(testKey)

    const organization = "o0001-acme"

    /** The stub answers the pages of a models listing, one per cursor `0`, `1`, … */
    const servePages = (pages: ReadonlyArray<ReadonlyArray<string>>) =>
      Effect.flatMap(Stub.Stub, (stub) =>
        stub.answer((request) => {
          const url = new URL(request.url, stub.origin)
          const index = Number(url.searchParams.get("cursor") ?? "0")
          const more = index + 1 < pages.length
          const next = more ? String(index + 1) : null
          return Stub.json(200, {
            data: (pages[index] ?? []).map((model) => wireModel(stub.baseUrl, organization, model)),
            pagination: { limit: 3, has_more: more, next_cursor: next },
            links: { next: next === null ? null : `${stub.baseUrl}/models/?limit=3&cursor=${next}` },
            meta: { observed_at: null, stale: null }
          })
        }))

    const scanStub = Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const logs = capturingLogs()
      const ids = yield* idsOf(catalog.models({ limit: 3 })).pipe(Effect.provide(logs.layer))
      const received = yield* Effect.flatMap(Stub.Stub, (stub) => stub.received)
      return { ids: ids.map((id) => id.slice(organization.length + 1)), logs: logs.lines, requests: received.length }
    })

    it.live("a page out of code-unit order: each id once, in the service's order, and one log line says so", () =>
      Effect.gen(function*() {
        yield* servePages([["m3", "m1", "m2"], ["m2", "m4"], ["m0", "m5"]])
        const { ids, logs, requests } = yield* scanStub
        expect(requests).toBe(3)
        expect(ids).toEqual(["m3", "m1", "m2", "m4", "m0", "m5"])
        expect(logs.filter((line) => /code unit/i.test(line))).toHaveLength(1)
      }).pipe(Effect.provide(stubClient)))

    it.live("a repeat at a page boundary is dropped", () =>
      Effect.gen(function*() {
        yield* servePages([["m1", "m2"], ["m2", "m3"]])
        const { ids, logs, requests } = yield* scanStub
        expect(requests).toBe(2)
        expect(ids).toEqual(["m1", "m2", "m3"])
        expect(logs.filter((line) => /code unit/i.test(line))).toEqual([])
      }).pipe(Effect.provide(stubClient)))
  })

  it.live("backpressure: a slow consumer of 30 items causes only the pages it needs to be fetched", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const catalog = yield* CatalogClient.CatalogClient
      const ids = yield* idsOf(
        catalog.models({ limit: 10 }).pipe(Stream.tap(() => Effect.sleep("50 millis")), Stream.take(30))
      )
      expect(ids).toEqual(Churn.catalogModelIds(simulator).slice(0, 30))
      const pages = (yield* simulator.answered).filter((entry) => entry.operation === "models")
      expect(pages.length).toBeGreaterThanOrEqual(3)
      expect(pages.length).toBeLessThanOrEqual(5)
    }).pipe(Effect.provide(scanning({ sizes: { models: 2000 }, enforceLimits: false }))))
})
