/**
 * The client's metrics, labelled by operation: requests by status, the
 * duration and admission wait of each attempt, retries by reason, units
 * spent, 429s, 503s and answers served from the ETag cache; and the one
 * debug log line each attempt writes, which never holds the key. Against a
 * stub server that answers 503, then 429, then 200 with an ETag, then 304;
 * and the same metrics read by the OpenTelemetry SDK through
 * `@effect/opentelemetry`.
 */
import * as OtelMetrics from "@effect/opentelemetry/Metrics"
import * as OtelResource from "@effect/opentelemetry/Resource"
import { describe, expect, it } from "@effect/vitest"
import { MetricReader } from "@opentelemetry/sdk-metrics"
import { Effect, Layer, Logger, LogLevel, Metric, type MetricState, Record } from "effect"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import * as Operations from "../../common/src/contract/Operations.js"
import { stubWithClient } from "../support/Client.js"
import * as Stub from "../support/Stub.js"

const SECRET = "cat_live_Mt4kR8vQ2xW6pL1nB9cD3fG7hJ5yUe0Z"

const wireStats = { id: "catalog", models: 1, skills: 2, mcps: 3, organizations: 4, providers: 5, families: 6 }

const problem = (status: number, code: string) => ({ type: "about:blank", title: "Problem", status, code, detail: code, request_id: `req_${status}` })

/** 503, then 429, then 200 with an ETag; a request carrying that ETag is answered 304. */
const flaky = () => {
  let calls = 0
  return (request: Stub.Received): Stub.Reply => {
    calls += 1
    if (request.headers["if-none-match"] === '"v1"') return { status: 304, headers: { etag: '"v1"', "x-request-id": "req_304" } }
    if (calls === 1) return Stub.json(503, problem(503, "unavailable"), { "retry-after": "0", "x-request-id": "req_503" })
    if (calls === 2) return Stub.json(429, problem(429, "rate_limited"), { "retry-after": "0", "x-request-id": "req_429" })
    return Stub.json(200, { data: wireStats }, { etag: '"v1"', "x-request-id": "req_200" })
  }
}

/** A reader whose metrics are read by calling `collect`. */
class CollectingReader extends MetricReader {
  protected onShutdown() {
    return Promise.resolve()
  }
  protected onForceFlush() {
    return Promise.resolve()
  }
}

const env = stubWithClient(SECRET, { retry: { retries: 3 } })

const of = <Type, In, Out>(metric: Metric.Metric<Type, In, Out>, labels: Readonly<Record<string, string>>) =>
  Metric.value(Object.entries(labels).reduce((tagged, [key, value]) => Metric.tagged(tagged, key, value), metric))

const counts = Effect.all({
  ok: Effect.map(of(CatalogClient.metrics.requests, { operation: "stats", status: "200" }), (state) => state.count),
  unavailable503: Effect.map(of(CatalogClient.metrics.requests, { operation: "stats", status: "503" }), (state) => state.count),
  limited429: Effect.map(of(CatalogClient.metrics.requests, { operation: "stats", status: "429" }), (state) => state.count),
  notModified304: Effect.map(of(CatalogClient.metrics.requests, { operation: "stats", status: "304" }), (state) => state.count),
  retriedAfter503: Effect.map(of(CatalogClient.metrics.retries, { operation: "stats", reason: "ServiceUnavailable" }), (state) => state.count),
  retriedAfter429: Effect.map(of(CatalogClient.metrics.retries, { operation: "stats", reason: "RateLimited" }), (state) => state.count),
  units: Effect.map(of(CatalogClient.metrics.units, { operation: "stats" }), (state) => state.count),
  rateLimited: Effect.map(of(CatalogClient.metrics.rateLimited, { operation: "stats" }), (state) => state.count),
  unavailable: Effect.map(of(CatalogClient.metrics.unavailable, { operation: "stats" }), (state) => state.count),
  cacheHits: Effect.map(of(CatalogClient.metrics.notModified, { operation: "stats" }), (state) => state.count),
  durations: Effect.map(of(CatalogClient.metrics.duration, { operation: "stats" }), (state: MetricState.MetricState.Histogram) => state.count),
  waits: Effect.map(of(CatalogClient.metrics.admissionWait, { operation: "stats" }), (state: MetricState.MetricState.Histogram) => state.count),
  allRequests: CatalogClient.metricTotal(CatalogClient.metrics.requests)
})

describe("metrics and the request log", () => {
  it.live("each attempt is counted by operation and status, timed, and logged once at debug level without the key", () =>
    Effect.gen(function*() {
      const stub = yield* Stub.Stub
      const catalog = yield* CatalogClient.CatalogClient
      yield* stub.answer(flaky())
      const lines: Array<string> = []
      const capture = Logger.make((options) => {
        lines.push(Logger.logfmtLogger.log(options))
      })
      const before = yield* counts
      yield* Effect.all([catalog.stats(), catalog.stats()]).pipe(
        Logger.withMinimumLogLevel(LogLevel.Debug),
        Effect.provide(Logger.replace(Logger.defaultLogger, capture)),
        Effect.timeout("10 seconds")
      )
      const after = yield* counts
      expect(Record.map(after, (value, name) => value - before[name])).toEqual({
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
      expect(attempts.length).toBe(4)
      expect(attempts[0]).toMatch(/GET \/api\/v1\/stats\/ 503 \d+ ms, 0 units, request req_503, cache miss, attempt 1, waited \d+ ms/)
      expect(attempts[1]).toMatch(/429 .*request req_429, cache miss, attempt 2/)
      expect(attempts[2]).toMatch(/200 .*1 unit, request req_200, cache miss, attempt 3/)
      expect(attempts[3]).toMatch(/304 .*0 units, request req_304, cache hit, attempt 1/)
      for (const annotation of ["catalog.operation=stats", "http.response.status_code=304", "catalog.cache=hit", "catalog.retry.attempt=1"]) {
        expect(attempts[3]).toContain(annotation)
      }
      for (const line of lines) expect(line).not.toContain(SECRET)
    }).pipe(Effect.provide(env)))

  it.live("an OpenTelemetry metric reader sees the same metrics with their labels", () =>
    Effect.gen(function*() {
      const stub = yield* Stub.Stub
      const catalog = yield* CatalogClient.CatalogClient
      yield* stub.answer(() => Stub.json(200, { data: wireStats }, { "x-request-id": "req_otel" }))
      const reader = new CollectingReader()
      const collected = yield* catalog.stats().pipe(
        Effect.zipRight(Effect.promise(() => reader.collect())),
        Effect.provide(OtelMetrics.layer(() => reader).pipe(Layer.provide(OtelResource.layer({ serviceName: "catalog-metrics-test" })))),
        Effect.timeout("10 seconds")
      )
      const metrics = collected.resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics)
      const named = (name: string) => metrics.find((metric) => metric.descriptor.name === name)
      const requests = named("catalog_requests")
      expect(requests?.dataPoints.some((point) => point.attributes["operation"] === "stats" && point.attributes["status"] === "200" && Number(point.value) >= 1))
        .toBe(true)
      const durations = named("catalog_request_duration_ms")
      expect(durations?.dataPoints.some((point) => point.attributes["operation"] === "stats")).toBe(true)
      for (const name of ["catalog_admission_wait_ms", "catalog_units"]) expect(named(name), name).toBeDefined()
    }).pipe(Effect.provide(env)))
})
