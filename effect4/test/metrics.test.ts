/**
 * The client's public metrics (`CatalogClient.metrics`, their names those
 * of the Effect 3 edition), labelled by operation, and the one debug log
 * line each attempt writes, over real HTTP: requests by status, the
 * duration and admission wait of each attempt, retries by reason, units
 * spent, 429s, 503s and answers served from the ETag cache. Against a stub
 * server that answers 503, then 429, then 200 with an ETag, then 304; and
 * against the simulator, a scan and a revalidated page.
 */
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Logger, Metric, Record, References, Stream } from "effect"
import { CatalogClient, Operations } from "effect-catalog"
import { Simulator } from "effect-catalog/simulator"
import { stubWithClient } from "./support/Client.js"
import * as Stub from "./support/Stub.js"

const SECRET = "cat_live_Mt4kR8vQ2xW6pL1nB9cD3fG7hJ5yUe0Z"

const wireStats = { id: "catalog", models: 1, skills: 2, mcps: 3, organizations: 4, providers: 5, families: 6 }

const problem = (status: number, code: string) => ({ type: "about:blank", title: "Problem", status, code, detail: code, request_id: `req_${status}` })

/** 503, then 429, then 200 with an ETag; a request carrying that ETag is answered 304. */
const flaky = () => {
  let calls = 0
  return (request: Stub.Received): Stub.Reply => {
    calls += 1
    if (request.headers["if-none-match"] === "\"v1\"") return { status: 304, headers: { etag: "\"v1\"", "x-request-id": "req_304" } }
    if (calls === 1) return Stub.json(503, problem(503, "unavailable"), { "retry-after": "0", "x-request-id": "req_503" })
    if (calls === 2) return Stub.json(429, problem(429, "rate_limited"), { "retry-after": "0", "x-request-id": "req_429" })
    return Stub.json(200, { data: wireStats }, { etag: "\"v1\"", "x-request-id": "req_200" })
  }
}

const countOf = (counter: Metric.Counter<number>, labels: Readonly<Record<string, string>>) =>
  Effect.map(Metric.value(Metric.withAttributes(counter, labels)), (state) => Number(state.count))

const histogramCountOf = (histogram: Metric.Histogram<number>, labels: Readonly<Record<string, string>>) =>
  Effect.map(Metric.value(Metric.withAttributes(histogram, labels)), (state) => state.count)

const { metrics } = CatalogClient

/** The counts of `operation`'s metrics so far. */
const countsOf = (operation: string) =>
  Effect.all({
    ok: countOf(metrics.requests, { operation, status: "200" }),
    unavailable503: countOf(metrics.requests, { operation, status: "503" }),
    limited429: countOf(metrics.requests, { operation, status: "429" }),
    notModified304: countOf(metrics.requests, { operation, status: "304" }),
    retriedAfter503: countOf(metrics.retries, { operation, reason: "ServiceUnavailable" }),
    retriedAfter429: countOf(metrics.retries, { operation, reason: "RateLimited" }),
    units: countOf(metrics.units, { operation }),
    rateLimited: countOf(metrics.rateLimited, { operation }),
    unavailable: countOf(metrics.unavailable, { operation }),
    cacheHits: countOf(metrics.notModified, { operation }),
    durations: histogramCountOf(metrics.duration, { operation }),
    waits: histogramCountOf(metrics.admissionWait, { operation }),
    allRequests: CatalogClient.metricTotal(metrics.requests)
  })

/** Runs `effect` at debug level, its log lines captured as logfmt. */
const logged = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const capture = Logger.make((options) => {
      lines.push(Logger.formatLogFmt.log(options))
    })
    const value = yield* effect.pipe(Effect.provide(Logger.layer([capture])), Effect.provideService(References.MinimumLogLevel, "Debug"))
    return { value, lines }
  })

/** What `effect` added to the counts of `operation`'s metrics (the registry is the process's, shared by every test). */
const added = <A, E, R>(operation: string, effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const before = yield* countsOf(operation)
    const value = yield* effect
    const after = yield* countsOf(operation)
    return { value, difference: Record.map(after, (count, name) => count - before[name]) }
  })

describe("metrics and the request log", () => {
  // On the live clock: the client's retries wait on the clock of the fiber that sends them.
  it.live("each attempt is counted by operation and status, timed, and logged once at debug level without the key", () =>
    Effect.gen(function*() {
      const stub = yield* Stub.Stub
      const catalog = yield* CatalogClient.CatalogClient
      yield* stub.answer(flaky())
      const { difference, value: { lines } } = yield* added("stats", logged(Effect.all([catalog.stats(), catalog.stats()])))
      expect(difference).toEqual({
        ok: 1,
        unavailable503: 1,
        limited429: 1,
        notModified304: 1,
        retriedAfter503: 1,
        retriedAfter429: 1,
        units: Operations.stats.units,
        rateLimited: 1,
        unavailable: 1,
        cacheHits: 1,
        durations: 4,
        waits: 4,
        allRequests: 4
      })
      const attempts = lines.filter((line) => line.includes("GET /api/v1/stats/"))
      expect(attempts).toHaveLength(4)
      expect(attempts[0]).toMatch(/GET \/api\/v1\/stats\/ 503 \d+ ms, 0 units, request req_503, cache miss, attempt 1, waited \d+ ms/)
      expect(attempts[1]).toMatch(/429 .*request req_429, cache miss, attempt 2/)
      expect(attempts[2]).toMatch(/200 .*1 unit, request req_200, cache miss, attempt 3/)
      expect(attempts[3]).toMatch(/304 .*0 units, request req_304, cache hit, attempt 1/)
      for (const annotation of ["catalog.operation=stats", "http.response.status_code=304", "catalog.cache=hit", "catalog.retry.attempt=1"]) {
        expect(attempts[3]).toContain(annotation)
      }
      for (const line of lines) expect(line.includes(SECRET)).toBe(false)
    }).pipe(Effect.provide(stubWithClient(SECRET, { retry: { retries: 3, base: Duration.millis(1) } }))))

  it.effect("a scan of the simulator: a request and a unit per page; its first page read again is a 304 from the cache, at no unit", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const simulator = yield* Simulator.Simulator
      const scan = yield* added("models", logged(Stream.runDrain(catalog.models({ limit: 10 }))))
      const { lines } = scan.value
      expect(scan.difference).toMatchObject({ ok: 3, units: 3 * Operations.models.units, durations: 3, waits: 3, cacheHits: 0, retriedAfter503: 0 })
      expect(lines.filter((line) => line.includes("GET /api/v1/models/"))).toHaveLength(3)
      const again = yield* added("models", Effect.andThen(catalog.modelsPage({ limit: 10 }), catalog.modelsPage({ limit: 10 })))
      expect(again.difference).toMatchObject({ ok: 0, notModified304: 2, cacheHits: 2, units: 0, durations: 2, allRequests: 2 })
      expect((yield* simulator.answered).map((answer) => answer.status)).toEqual([200, 200, 200, 304, 304])
      // Every metric of the client is named as the Effect 3 edition names it.
      const names = new Set((yield* Metric.snapshot).map((snapshot) => snapshot.id))
      for (const name of ["catalog_requests", "catalog_request_duration_ms", "catalog_admission_wait_ms", "catalog_units"]) expect(names).toContain(name)
    }).pipe(Effect.provide(Simulator.layerClient({ sizes: { models: 30 } }))))

  it.effect("a 429 and 503s of the simulator are each counted and retried by reason; units only for the answer", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const simulator = yield* Simulator.Simulator
      yield* simulator.injectRateLimit(1, 0)
      const limited = yield* added("stats", catalog.stats())
      expect(limited.difference).toMatchObject({ ok: 1, limited429: 1, rateLimited: 1, retriedAfter429: 1, units: Operations.stats.units })
      yield* simulator.setFaults({ unavailable: 1 })
      const unavailable = yield* added("usage", Effect.flip(catalog.usage()))
      expect(unavailable.value._tag).toBe("ServiceUnavailable")
      // layerClient retries twice: three 503s, two retries, and no unit spent.
      expect(unavailable.difference).toMatchObject({ ok: 0, unavailable503: 3, unavailable: 3, retriedAfter503: 2, units: 0, durations: 3 })
    }).pipe(Effect.provide(Simulator.layerClient({ sizes: { models: 5 } }))))
})
