/**
 * The request path composed (`Send.requestPath`) and one request sent along
 * it (`Send.send`), over `HttpClient.make` stubs that answer at once (no
 * network), on the TestClock: the steps in their order (a retried 503
 * recorded as attempts 1 and 2, each attempt through admission, the budget
 * and the cache, the caller's middleware once per attempt), the call
 * attached once and read by the budget and the cache, the key scrubbed from
 * a malformed body's error, the spans (`catalog.<operation>`,
 * `catalog.<operation>.page`), the operation's error union, each attempt
 * counted, timed and logged once at debug level (the metrics), a spent
 * quota failing fast until the reset `/usage/` gives, a host name that does
 * not exist failing at once while a refused connection is retried, and the
 * caller's own step on every attempt.
 */
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Exit, Fiber, Logger, Metric, References, Tracer } from "effect"
import { HttpClient, HttpClientError, HttpClientRequest } from "effect/http"
import { TestClock } from "effect/testing"
import * as Call from "../src/client/internal/Call.js"
import * as Metrics from "../src/client/internal/Metrics.js"
import * as OperationReader from "../../common/src/client/internal/OperationReader.js"
import * as Send from "../../common/src/client/internal/Send.js"
import { errorKindOf } from "../../common/src/client/OperationErrors.js"
import * as Retry from "../../common/src/client/Retry.js"
import * as Operations from "../../common/src/contract/Operations.js"
import { base, decodeStats, json, pathOver, problem, type Reply, SECRET, statsPurpose, statsUrl, stub, wireStats, withServices } from "./support/RequestPath.js"

/** A tracer that keeps every span it starts. */
const recordingTracer = () => {
  const spans: Array<Tracer.NativeSpan> = []
  const tracer = Tracer.make({
    span: (options) => {
      const span = new Tracer.NativeSpan(options)
      spans.push(span)
      return span
    }
  })
  return { spans, tracer }
}

/** Runs `effect` at debug level, capturing its log lines. */
const logged = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const capture = Logger.make((options) => {
      lines.push(Logger.formatLogFmt.log(options))
    })
    const exit = yield* Effect.exit(effect).pipe(Effect.provide(Logger.layer([capture])), Effect.provideService(References.MinimumLogLevel, "Debug"))
    return { exit, lines }
  })

// Tests -------------------------------------------------------------------------------

describe("the request path's steps, in their order", () => {
  it.effect("a retried 503 is recorded as attempts 1 and 2, each sent through the middleware, and charged once", () =>
    Effect.gen(function*() {
      const { client, received } = stub((_, index) => index === 0 ? problem(503, "unavailable", { "retry-after": "1" }) : json(200, { data: wireStats }))
      const attempts: Array<number> = []
      const middleware: Send.Middleware = (inner) =>
        HttpClient.transform(inner, (response) => Effect.flatMap(Retry.currentAttempt, (attempt) => Effect.andThen(Effect.sync(() => attempts.push(attempt.number)), response)))
      const { budget, path } = yield* pathOver(client, { policy: { retries: 2, base: Duration.millis(10) }, middleware: [middleware] })
      const fiber = yield* Effect.forkChild(logged(Send.send(path, statsPurpose, decodeStats, statsUrl)))
      yield* TestClock.adjust("10 seconds")
      const { exit, lines } = yield* Fiber.join(fiber)
      expect(Exit.isSuccess(exit) ? exit.value.value.data.models : null).toBe(1)
      expect(attempts).toEqual([1, 2])
      expect(received.map((request) => request.path)).toEqual(["/api/v1/stats/", "/api/v1/stats/"])
      const attemptLines = lines.filter((line) => line.includes("GET /api/v1/stats/"))
      expect(attemptLines).toHaveLength(2)
      expect(attemptLines[0]).toMatch(/503 .*attempt 1,/)
      expect(attemptLines[1]).toMatch(/200 .*attempt 2,/)
      // The budget read the call: the 503 is not charged, the 200 is, under the operation's id.
      const spent = yield* budget.spent
      expect(spent.byOperation.get("stats")).toMatchObject({ requests: 2, units: 1 })
    }).pipe(withServices, Effect.provideService(Metric.MetricRegistry, new Map())))

  it.effect("the cache reads the call: a page through a cursor is neither offered nor kept, a fresh read is asked without If-None-Match", () =>
    Effect.gen(function*() {
      const { client, received } = stub((request) =>
        request.headers["if-none-match"] === "\"v1\"" ? { status: 304, headers: { etag: "\"v1\"" } } : json(200, { data: wireStats }, { etag: "\"v1\"" }))
      const { path } = yield* pathOver(client)
      const read = (options: Send.SendOptions) => Send.send(path, statsPurpose, decodeStats, statsUrl, options)
      yield* read({ throughCursor: true })
      yield* read({ throughCursor: true })
      yield* read({})
      const kept = yield* read({})
      yield* read({ revalidate: true })
      expect(kept.value.data).toEqual(wireStats)
      expect(received.map((request) => request.headers["if-none-match"] ?? null)).toEqual([null, null, null, "\"v1\"", null])
    }).pipe(withServices))

  it.effect("the key goes only into Authorization, and is scrubbed from a malformed body's error", () =>
    Effect.gen(function*() {
      const { client, received } = stub(() => json(200, { data: { ...wireStats, models: SECRET } }, { "x-request-id": `req_${SECRET}` }))
      const { path } = yield* pathOver(client)
      const error = yield* Effect.flip(Send.send(path, statsPurpose, decodeStats, statsUrl))
      expect(error._tag).toBe("UnexpectedResponse")
      expect(JSON.stringify({ ...error, message: error.message })).not.toContain(SECRET)
      expect(error.message).toContain("[redacted]")
      expect(received[0]?.headers["authorization"]).toBe(`Bearer ${SECRET}`)
    }).pipe(withServices))

  it.effect("an answer the operation cannot give becomes UnexpectedResponse", () =>
    Effect.gen(function*() {
      const { client } = stub(() => problem(409, "cursor_expired"))
      const { path } = yield* pathOver(client)
      const error = yield* Effect.flip(Send.send(path, statsPurpose, decodeStats, statsUrl))
      expect(error._tag).toBe("UnexpectedResponse")
    }).pipe(withServices))
})

describe("spans", () => {
  it.effect("a request is wrapped in catalog.<operation>, a page of a scan in catalog.<operation>.page, with the error's type", () =>
    Effect.gen(function*() {
      const { spans, tracer } = recordingTracer()
      const { client } = stub((_, index) => index === 0 ? json(200, { data: wireStats }) : problem(404, "not_found"))
      const { path } = yield* pathOver(client)
      yield* Send.send(path, statsPurpose, decodeStats, statsUrl).pipe(Effect.withTracer(tracer))
      yield* Effect.exit(Send.send(path, statsPurpose, decodeStats, statsUrl, { pageOfScan: true }).pipe(Effect.withTracer(tracer)))
      const call = spans.find((span) => span.name === "catalog.stats")
      expect(call?.kind).toBe("client")
      expect(Object.fromEntries(call?.attributes ?? [])).toMatchObject({
        "catalog.operation": "stats",
        "url.template": "/stats/",
        "catalog.retry.attempt": 1,
        "http.response.status_code": 200
      })
      const page = spans.find((span) => span.name === "catalog.stats.page")
      expect(page?.attributes.get("error.type")).toBe("UnexpectedResponse")
      for (const span of spans) expect(JSON.stringify(Object.fromEntries(span.attributes))).not.toContain(SECRET)
    }).pipe(withServices, Effect.provideService(Metric.MetricRegistry, new Map())))
})

describe("fail fast", () => {
  it.effect("a 429 past the longest wait fails with QuotaExhausted until the reset /usage/ gives, without sending", () =>
    Effect.gen(function*() {
      const { client, received } = stub(() => problem(429, "daily_quota_exhausted", { "retry-after": "86400" }))
      const { path } = yield* pathOver(client, { policy: { retries: 3 } })
      const first = yield* Effect.flip(Send.send(path, statsPurpose, decodeStats, statsUrl))
      expect(first._tag).toBe("QuotaExhausted")
      expect(first._tag === "QuotaExhausted" ? first.resetsAt.toISOString() : null).toBe("2026-01-02T00:00:00.000Z")
      const sent = received.length
      const second = yield* Effect.flip(Send.send(path, statsPurpose, decodeStats, statsUrl))
      expect(second._tag).toBe("QuotaExhausted")
      expect(received).toHaveLength(sent)
      expect(received.filter((request) => request.path.endsWith("/stats/"))).toHaveLength(1)
    }).pipe(withServices))
})

/** The count of a counter of `Metrics.metrics` with these labels. */
const countOf = (counter: Metric.Counter<number>, labels: Readonly<Record<string, string>>) =>
  Effect.map(Metric.value(Metric.withAttributes(counter, labels)), (state) => Number(state.count))

const histogramCountOf = (histogram: Metric.Histogram<number>, labels: Readonly<Record<string, string>>) =>
  Effect.map(Metric.value(Metric.withAttributes(histogram, labels)), (state) => state.count)

describe("metrics and the request log", () => {
  it.effect("each attempt is counted by operation and status, timed, and logged once at debug level without the key", () =>
    Effect.gen(function*() {
      const replies: ReadonlyArray<Reply> = [
        problem(503, "unavailable", { "retry-after": "1", "x-request-id": "req_503" }),
        problem(429, "rate_limited", { "retry-after": "1", "x-request-id": "req_429" }),
        json(200, { data: wireStats }, { etag: "\"s1\"", "x-request-id": "req_200" }),
        { status: 304, headers: { etag: "\"s1\"", "x-request-id": "req_304" } }
      ]
      const { client } = stub((_, index) => replies[index] ?? problem(500, "none"))
      const { path } = yield* pathOver(client, { policy: { retries: 3, base: Duration.millis(10) } })
      const read = Send.send(path, statsPurpose, decodeStats, statsUrl)
      const fiber = yield* Effect.forkChild(logged(Effect.andThen(read, read)))
      yield* TestClock.adjust("1 minute")
      const { exit, lines } = yield* Fiber.join(fiber)
      expect(Exit.isSuccess(exit)).toBe(true)
      const counts = {
        ok: yield* countOf(Metrics.metrics.requests, { operation: "stats", status: "200" }),
        unavailable503: yield* countOf(Metrics.metrics.requests, { operation: "stats", status: "503" }),
        limited429: yield* countOf(Metrics.metrics.requests, { operation: "stats", status: "429" }),
        notModified304: yield* countOf(Metrics.metrics.requests, { operation: "stats", status: "304" }),
        retriedAfter503: yield* countOf(Metrics.metrics.retries, { operation: "stats", reason: "ServiceUnavailable" }),
        retriedAfter429: yield* countOf(Metrics.metrics.retries, { operation: "stats", reason: "RateLimited" }),
        units: yield* countOf(Metrics.metrics.units, { operation: "stats" }),
        rateLimited: yield* countOf(Metrics.metrics.rateLimited, { operation: "stats" }),
        unavailable: yield* countOf(Metrics.metrics.unavailable, { operation: "stats" }),
        cacheHits: yield* countOf(Metrics.metrics.notModified, { operation: "stats" }),
        durations: yield* histogramCountOf(Metrics.metrics.duration, { operation: "stats" }),
        waits: yield* histogramCountOf(Metrics.metrics.admissionWait, { operation: "stats" }),
        allRequests: yield* Metrics.total(Metrics.metrics.requests)
      }
      expect(counts).toEqual({
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
      for (const line of lines) expect(line).not.toContain(SECRET)
    }).pipe(withServices, Effect.provideService(Metric.MetricRegistry, new Map())))
})

/** An HTTP client whose every request fails in transit with a cause of this system code, and how many it was asked. */
const failingWith = (code: string) => {
  let asked = 0
  const client = HttpClient.make((request) =>
    Effect.suspend(() => {
      asked++
      const cause = Object.assign(new Error(`getaddrinfo ${code} catalog.test`), { code })
      return Effect.fail(new HttpClientError.HttpClientError({ reason: new HttpClientError.TransportError({ request, cause }) }))
    })
  )
  return { client, asked: () => asked }
}

describe("fail fast where waiting cannot help", () => {
  it.effect("a host name that does not exist is TransportError (Resolution) at once, asked once", () =>
    Effect.gen(function*() {
      const { asked, client } = failingWith("ENOTFOUND")
      const { path } = yield* pathOver(client, { policy: { retries: 5, base: Duration.millis(10) } })
      const error = yield* Effect.flip(Send.send(path, statsPurpose, decodeStats, statsUrl))
      expect(error._tag === "TransportError" ? error.reason : error._tag).toBe("Resolution")
      expect(asked()).toBe(1)
    }).pipe(withServices))

  it.effect("a resolver that did not answer (EAI_AGAIN) and a refused connection keep the policy's retries", () =>
    Effect.gen(function*() {
      for (const code of ["EAI_AGAIN", "ECONNREFUSED"]) {
        const { asked, client } = failingWith(code)
        const { path } = yield* pathOver(client, { policy: { retries: 2, base: Duration.millis(10) } })
        const fiber = yield* Effect.forkChild(Effect.flip(Send.send(path, statsPurpose, decodeStats, statsUrl)))
        yield* TestClock.adjust("1 minute")
        const error = yield* Fiber.join(fiber)
        expect(error._tag === "TransportError" ? error.reason : error._tag).toBe("Connection")
        expect(asked(), code).toBe(3)
      }
    }).pipe(withServices))
})

describe("middleware of one's own", () => {
  it.effect("a step of one's own sets a header on every attempt, retries included; the key is still set by the exchange", () =>
    Effect.gen(function*() {
      const { client, received } = stub((_, index) => index === 0 ? problem(503, "unavailable", { "retry-after": "1" }) : json(200, { data: wireStats }))
      const traced: Send.Middleware = (inner) => HttpClient.mapRequest(inner, HttpClientRequest.setHeader("x-trace", "mine"))
      const { path } = yield* pathOver(client, { policy: { retries: 1, base: Duration.millis(10) }, middleware: [traced] })
      const fiber = yield* Effect.forkChild(Send.send(path, statsPurpose, decodeStats, statsUrl))
      yield* TestClock.adjust("10 seconds")
      yield* Fiber.join(fiber)
      expect(received.map((request) => request.headers["x-trace"])).toEqual(["mine", "mine"])
      expect(received.map((request) => request.headers["authorization"])).toEqual([`Bearer ${SECRET}`, `Bearer ${SECRET}`])
    }).pipe(withServices))
})

describe("OperationReader.detail", () => {
  it.effect("reads a detail's resource along the request path, one decoder for every read", () =>
    Effect.gen(function*() {
      const { client, received } = stub(() => json(200, { data: wireStats }))
      const { path } = yield* pathOver(client)
      const read = OperationReader.detail({ baseUrl: new URL(base), path }, Operations.stats, Operations.stats.item, errorKindOf(Operations.stats))
      expect(yield* read(statsUrl)).toMatchObject({ id: "catalog", models: 1 })
      expect(received.map((request) => request.path)).toEqual(["/api/v1/stats/"])
    }).pipe(withServices))
})

describe("chargeOf", () => {
  it.effect("charges a request of a call its operation's units, and one outside any call nothing", () =>
    Effect.gen(function*() {
      const request = HttpClientRequest.get(statsUrl)
      expect(yield* Send.chargeOf(request)).toEqual({ operation: "/api/v1/stats/", units: 0 })
      const call: Call.Purpose = { operation: Operations.search, url: statsUrl.href, scope: null, cacheable: true, revalidate: false, isAllowed: () => true }
      expect(yield* Call.within(call)(Send.chargeOf(request))).toEqual({ operation: "search", units: 5 })
    }))
})
