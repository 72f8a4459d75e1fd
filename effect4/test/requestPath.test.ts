/**
 * The request path's internal modules in Effect 4, over `HttpClient.make`
 * stubs that answer at once (no network), on the TestClock:
 *
 * - the exchange: the key read once per attempt, only in `Authorization`,
 *   and scrubbed from every text kept of an answer (a refused answer's
 *   problem, its request id, a body that does not decode, a transport
 *   error's detail); the total time limit; `TransportError` reasons from the
 *   causes' codes; header names redacted in the HTTP client's spans;
 * - the answers: each refused status its error, or `UnexpectedResponse`
 *   outside the operation's union; `withinUnion`;
 * - the attempt record: one debug line with its annotations, the metrics,
 *   the span's attributes; what the exchange observed (`SentAttempt`) coming
 *   back up in the call's observation, attempt by attempt;
 * - the quota step;
 * - links, cursors and `locate`; items in wire form (`WireItem`,
 *   `WireCheck`); the exact decoder (`Decoder`) and its one line
 *   (`Malformed`).
 *
 * The retry step is stood in for by a few lines that provide
 * `Retry.currentAttempt` to each attempt, as the retry step does.
 */
import { describe, expect, it } from "@effect/vitest"
import { Cause, Duration, Effect, Exit, Fiber, Logger, Metric, Option, Redacted, Ref, References, Result, Schema, Tracer } from "effect"
import { HttpClient, HttpClientError, HttpClientRequest, HttpClientResponse } from "effect/http"
import { TestClock } from "effect/testing"
import * as SentAttempt from "../../rules/src/client/SentAttempt.js"
import * as Errors from "../../common/src/client/Errors.js"
import * as AnswerErrors from "../src/client/internal/AnswerErrors.js"
import * as Attempt from "../src/client/internal/Attempt.js"
import * as Call from "../src/client/internal/Call.js"
import * as Decoder from "../src/client/internal/Decoder.js"
import * as Exchange from "../src/client/internal/Exchange.js"
import * as Links from "../../common/src/client/internal/Links.js"
import * as Malformed from "../src/client/internal/Malformed.js"
import * as Metrics from "../src/client/internal/Metrics.js"
import * as Retry from "../../common/src/client/Retry.js"
import * as Quota from "../../common/src/client/internal/Quota.js"
import * as WireCheck from "../src/client/internal/WireCheck.js"
import * as WireItem from "../src/client/internal/WireItem.js"
import { errorKindOf } from "../../common/src/client/OperationErrors.js"
import { DetailEnvelope, ListEnvelope } from "../../common/src/contract/Envelopes.js"
import * as Operations from "../../common/src/contract/Operations.js"
import * as Resources from "../../common/src/contract/Resources.js"

// Fixtures ---------------------------------------------------------------------

const baseUrl = new URL("https://catalog.test/api/v1")

/** The key of every test that does not rotate it: header-safe and distinctive. */
const SECRET = "cat_live_Zq8R3vT1xW9pL2mN7bC4dF6gH0jK5yUe"

/** The key of the `n`th read: header-safe, and no key a prefix of another. */
const keyOf = (n: number) => `cat_live_rotating_${String(n).padStart(4, "0")}_key`

const wireStats = { id: "catalog", models: 1, skills: 2, mcps: 3, organizations: 4, providers: 5, families: 6 }

const wireModel = (index: number, changes: Readonly<Record<string, unknown>> = {}) => ({
  id: `o${index}-falcon/m${index}-kestrel`,
  name: "Kestrel 8B",
  family_id: null,
  organization_catalog_id: `o${index}-falcon`,
  organization_slug: null,
  released_on: "2026-01-02",
  context_tokens: "1048576",
  open_weights: null,
  reasoning: true,
  offer_count: 1,
  provider_count: 1,
  updated_at: null,
  url: `https://catalog.example/models/o${index}-falcon/m${index}-kestrel`,
  api_url: `${baseUrl.href}/models/o${index}-falcon/m${index}-kestrel/`,
  specifications: {},
  ...changes
})

/** A page of `items` (texts), as the service writes it. */
const pageText = (items: ReadonlyArray<string>) =>
  `{"data":[${items.join(",")}],"pagination":{"limit":100,"has_more":false,"next_cursor":null},"links":{"next":null},"meta":{"observed_at":null,"stale":null}}`

// Stubs ---------------------------------------------------------------------------

/** A request as the stub received it. */
interface Received {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
}

/** What a stub answers: status, headers, body. */
interface Reply {
  readonly status: number
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string
}

const json = (status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): Reply => ({
  status,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body)
})

/** The key a request carried, as a malicious server echoes it. */
const echoedKey = (request: Received) => (request.headers["authorization"] ?? "").replace(/^Bearer /, "")

/** An RFC 9457 problem that echoes the key in its detail, its title and its request id, and in X-Request-Id. */
const echoingProblem = (status: number, code: string) => (request: Received): Reply =>
  json(status, {
    type: "about:blank",
    title: echoedKey(request),
    status,
    code,
    detail: `The key ${echoedKey(request)} cannot do this`,
    request_id: `req_${echoedKey(request)}`
  }, { "x-request-id": `req_${echoedKey(request)}`, "retry-after": "0" })

/** An HTTP client that answers each request at once with `reply`, and the requests it received. */
const stub = (reply: (request: Received, index: number) => Reply) => {
  const received: Array<Received> = []
  const client = HttpClient.make((request) =>
    Effect.sync(() => {
      const seen: Received = { url: request.url, headers: { ...request.headers } }
      received.push(seen)
      const { body = "", headers = {}, status } = reply(seen, received.length - 1)
      return HttpClientResponse.fromWeb(request, new Response(status === 304 ? null : body, { status, headers }))
    })
  )
  return { client, received }
}

/** A key effect that gives a new key on each read, and how many times it was read. */
const rotatingKey = Effect.map(Ref.make(0), (reads) => ({
  apiKey: Effect.map(Ref.getAndUpdate(reads, (n) => n + 1), (n) => Redacted.make(keyOf(n))),
  reads: Ref.get(reads)
}))

/** Stands for the retry step: each attempt told which one it is, a 503 sent again up to `retries` times. */
const retrying = (retries: number) => <E extends { readonly _tag: string }, R>(client: HttpClient.HttpClient.With<E, R>) =>
  HttpClient.transform(client, (response) => {
    const attempt = (number: number, reason: string | null): typeof response =>
      Effect.catch(
        Effect.provideService(response, Retry.currentAttempt, { number, reason }),
        (error) => number <= retries && error._tag === "ServiceUnavailable" ? attempt(number + 1, error._tag) : Effect.fail(error)
      )
    return attempt(1, null)
  })

/** The request path over `http`, as `Send.requestPath` composes it, less the steps of other modules. */
const pathOver = (http: HttpClient.HttpClient, options: { readonly apiKey?: Effect.Effect<Redacted.Redacted<string>>; readonly retries?: number } = {}) =>
  Exchange.step({ apiKey: options.apiKey ?? Effect.succeed(Redacted.make(SECRET)), timeout: Duration.seconds(30) })(http).pipe(
    AnswerErrors.step,
    Attempt.step,
    retrying(options.retries ?? 0)
  )

/** An operation's call as `Send.send` makes it: its span, its `Call`, its errors kept to its union, its body decoded. */
const send = <A, E extends Errors.CatalogError>(
  client: HttpClient.HttpClient.With<E>,
  operation: Operations.AnyOperation,
  decode: Decoder.Decoder<A>,
  url: URL,
  scope: string | null = null
) => {
  const errors = errorKindOf(operation)
  return client.get(url).pipe(
    Effect.flatMap((answer) =>
      Effect.flatMap(Call.observed, (sending) => {
        const redact = SentAttempt.redactOf(sending)
        const requestId = Exchange.requestIdOf(answer, redact)
        return Exchange.bodyOf(answer).pipe(Effect.flatMap(decode), Effect.mapError(AnswerErrors.malformed(answer, requestId, redact)))
      })
    ),
    Call.within({ operation, url: url.href, scope, cacheable: true, revalidate: false, isAllowed: errors.is }),
    AnswerErrors.withinUnion(operation.id, errors.allows),
    Effect.withSpan(`catalog.${operation.id}`, { kind: "client", attributes: { "catalog.operation": operation.id } })
  )
}

const statsUrl = new URL(`${baseUrl.href}/stats/`)
const decodeStats = Decoder.decoder(DetailEnvelope(Operations.stats.item))
const stats = <E extends Errors.CatalogError>(client: HttpClient.HttpClient.With<E>) => send(client, Operations.stats, decodeStats, statsUrl)

/** How `request` ended within a call of stats, and what the exchange observed of its last attempt sent. */
const observedOf = <A, E>(request: Effect.Effect<A, E>) =>
  Effect.exit(request).pipe(
    Effect.flatMap((exit) => Effect.map(Call.observed, (sending) => ({ exit, sending }))),
    Call.within({ operation: Operations.stats, url: statsUrl.href, scope: null, cacheable: true, revalidate: false, isAllowed: errorKindOf(Operations.stats).is })
  )

/** A client whose requests carry `If-None-Match`, as the cache step sends them. */
const conditionalOver = <E>(client: HttpClient.HttpClient.With<E>): HttpClient.HttpClient.With<E> =>
  HttpClient.mapRequest(client, HttpClientRequest.setHeader("if-none-match", "\"v1\""))

/** The typed error of a failed effect, with the whole failure as text (message, fields, cause). */
const failureOf = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.exit(effect), (exit) => {
    if (Exit.isSuccess(exit)) return expect.fail("expected a failure, got a success")
    const error = Cause.findErrorOption(exit.cause)
    if (Option.isNone(error)) return expect.fail(`expected a typed failure, got: ${Cause.pretty(exit.cause)}`)
    const value: unknown = error.value
    return { error: error.value, text: `${Cause.pretty(exit.cause)} ${JSON.stringify(value)} ${String(value)}` }
  })

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

/** Every received header but `authorization`, and the URL, are free of `key` in every form it could be sent in. */
const expectKeyOnlyInAuthorization = (received: ReadonlyArray<Received>, key: string) => {
  for (const request of received) {
    for (const form of [key, encodeURIComponent(key), Buffer.from(key).toString("base64")]) {
      expect(request.url).not.toContain(form)
      for (const [name, value] of Object.entries(request.headers)) {
        if (name !== "authorization") expect(value, `header ${name}`).not.toContain(form)
      }
    }
  }
}

// The exchange --------------------------------------------------------------------

describe("the key: read once per attempt, only in Authorization, scrubbed from every kept text", () => {
  it.effect("a refused answer echoing the key: one read per request, the header's key is the one scrubbed from the error", () =>
    Effect.gen(function*() {
      const { apiKey, reads } = yield* rotatingKey
      const { client, received } = stub(echoingProblem(401, "invalid_api_key"))
      const path = pathOver(client, { apiKey })
      const first = yield* failureOf(stats(path))
      const second = yield* failureOf(stats(path))
      expect(received.map((request) => request.headers["authorization"])).toEqual([`Bearer ${keyOf(0)}`, `Bearer ${keyOf(1)}`])
      expect(received.map((request) => request.headers["accept"])).toEqual(["application/json", "application/json"])
      expect(yield* reads).toBe(2)
      expect(first.error).toMatchObject({ _tag: "InvalidApiKey", requestId: "req_[redacted]", code: "invalid_api_key" })
      expect(first.text).toContain("[redacted]")
      expect(first.text).not.toContain(keyOf(0))
      expect(second.text).not.toContain(keyOf(1))
      expectKeyOnlyInAuthorization(received, keyOf(0))
      expectKeyOnlyInAuthorization(received, keyOf(1))
    }))

  it.effect("a 200 echoing the key in a body that does not decode: one read, the detail and request id scrubbed of that key", () =>
    Effect.gen(function*() {
      const { apiKey, reads } = yield* rotatingKey
      const { client, received } = stub((request) =>
        json(200, { data: { ...wireStats, models: `many ${echoedKey(request)}` } }, { "x-request-id": `req_${echoedKey(request)}` })
      )
      const failure = yield* failureOf(stats(pathOver(client, { apiKey })))
      expect(failure.error).toMatchObject({
        _tag: "UnexpectedResponse",
        status: 200,
        requestId: "req_[redacted]",
        detail: "data.models: Expected number, actual \"many [redacted]\""
      })
      expect(failure.text).not.toContain(keyOf(0))
      expect(yield* reads).toBe(1)
      expect(received.map((request) => request.headers["authorization"])).toEqual([`Bearer ${keyOf(0)}`])
    }))

  it.effect("a retried request: one read per attempt, each attempt sent with its own key, the last answer scrubbed of the last", () =>
    Effect.gen(function*() {
      const { apiKey, reads } = yield* rotatingKey
      const { client, received } = stub(echoingProblem(503, "service_unavailable"))
      const failure = yield* failureOf(stats(pathOver(client, { apiKey, retries: 2 })))
      expect(received.map((request) => request.headers["authorization"])).toEqual([0, 1, 2].map((n) => `Bearer ${keyOf(n)}`))
      expect(yield* reads).toBe(3)
      expect(failure.error._tag).toBe("ServiceUnavailable")
      expect(failure.text).toContain("[redacted]")
      for (const n of [0, 1, 2]) expect(failure.text).not.toContain(keyOf(n))
    }))

  it.effect("a key that cannot be a header value fails the request with InvalidApiKey, nothing is sent, and the key is not shown", () =>
    Effect.gen(function*() {
      const bad = `${SECRET}\r\nX-Evil: 1`
      const { client, received } = stub(() => json(200, { data: wireStats }))
      const failure = yield* failureOf(stats(pathOver(client, { apiKey: Effect.succeed(Redacted.make(bad)) })))
      expect(failure.error).toMatchObject({ _tag: "InvalidApiKey", code: "local_validation", requestId: null })
      expect(failure.text).not.toContain(SECRET)
      expect(received).toEqual([])
    }))

})

describe("the key in a 200 and in the HTTP client's span", () => {
  it.effect("a 200 decodes; the request carried the key in Authorization only", () =>
    Effect.gen(function*() {
      const { client, received } = stub(() => json(200, { data: wireStats }, { "x-request-id": "req_ok" }))
      const stats200 = yield* stats(pathOver(client))
      expect(stats200.data).toEqual(wireStats)
      expect(received.map((request) => request.headers["authorization"])).toEqual([`Bearer ${SECRET}`])
      expectKeyOnlyInAuthorization(received, SECRET)
    }))

  it.effect("the HTTP client's span redacts the key's header, and an X-Request-Id that echoes it, whatever headers it records", () =>
    Effect.gen(function*() {
      const { spans, tracer } = recordingTracer()
      const { client } = stub((request) => json(200, { data: wireStats }, { "x-request-id": `req_${echoedKey(request)}` }))
      yield* stats(pathOver(client)).pipe(
        Effect.provideService(HttpClient.TracerHeaderFilter, () => true),
        Effect.withTracer(tracer)
      )
      const http = spans.find((span) => span.name === "GET")
      expect(http?.attributes.get("http.request.header.authorization")).toBe("<redacted>")
      expect(http?.attributes.get("http.response.header.x-request-id")).toBe("<redacted>")
      expect(http?.attributes.get("http.request.header.accept")).toBe("application/json")
      for (const span of spans) {
        for (const [name, value] of span.attributes) expect(String(value), `${span.name} ${name}`).not.toContain(SECRET)
      }
    }))
})

describe("the total time limit, on the fiber's clock", () => {
  it.effect("no answer within the limit: TransportError Timeout, and the request is aborted", () =>
    Effect.gen(function*() {
      const signals: Array<AbortSignal> = []
      const silent = HttpClient.make((_request, _url, signal) => Effect.andThen(Effect.sync(() => signals.push(signal)), Effect.never))
      const fiber = yield* Effect.forkChild(observedOf(pathOver(silent).get(statsUrl)))
      yield* TestClock.adjust("29 seconds")
      expect(fiber.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust("1 second")
      const { exit, sending } = yield* Fiber.join(fiber)
      expect(exit).toStrictEqual(Exit.fail(new Errors.TransportError({ reason: "Timeout", detail: "No answer within 30s" })))
      expect(sending).toMatchObject({ sentAt: 0, status: null, cache: "miss" })
      expect(signals.map((signal) => signal.aborted)).toEqual([true])
    }))

  it.effect("a body that trickles past the limit: cut off with TransportError Timeout, the body read within the limit", () =>
    Effect.gen(function*() {
      const signals: Array<AbortSignal> = []
      const trickling = HttpClient.make((request, _url, signal) =>
        Effect.sync(() => {
          signals.push(signal)
          const body = new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(new TextEncoder().encode("{\"data\":")) })
          return HttpClientResponse.fromWeb(request, new Response(body, { status: 200 }))
        })
      )
      const fiber = yield* Effect.forkChild(failureOf(stats(pathOver(trickling))))
      yield* TestClock.adjust("30 seconds")
      const failure = yield* Fiber.join(fiber)
      expect(failure.error).toMatchObject({ _tag: "TransportError", reason: "Timeout" })
      expect(signals.map((signal) => signal.aborted)).toEqual([true])
    }))
})

describe("TransportError: its reason from the causes' codes", () => {
  /** An HTTP client that fails in transit with `cause`, a message echoing the key. */
  const failing = (cause: unknown) =>
    HttpClient.make((request) =>
      Effect.fail(new HttpClientError.HttpClientError({ reason: new HttpClientError.TransportError({ request, cause }) }))
    )

  const coded = (message: string, code: string) => Object.assign(new Error(`${message} (key ${SECRET})`), { code })

  const cases: ReadonlyArray<readonly [string, unknown, Errors.TransportError["reason"], string]> = [
    ["a host name that does not exist", new TypeError("fetch failed", { cause: coded("getaddrinfo ENOTFOUND catalog.test", "ENOTFOUND") }), "Resolution", "ENOTFOUND"],
    ["a certificate that has expired", new TypeError("fetch failed", { cause: coded("certificate has expired", "CERT_HAS_EXPIRED") }), "Certificate", "[CERT_HAS_EXPIRED]"],
    ["a certificate for another host", coded("Hostname/IP does not match certificate's altnames", "ERR_TLS_CERT_ALTNAME_INVALID"), "Certificate", "[ERR_TLS_CERT_ALTNAME_INVALID]"],
    ["a refused connection", new TypeError("fetch failed", { cause: coded("connect ECONNREFUSED 127.0.0.1:1", "ECONNREFUSED") }), "Connection", "ECONNREFUSED"],
    ["a resolver that did not answer, which may next time", coded("getaddrinfo EAI_AGAIN catalog.test", "EAI_AGAIN"), "Connection", "EAI_AGAIN"],
    ["no cause at all", undefined, "Connection", "Transport error"]
  ]

  for (const [name, cause, reason, shown] of cases) {
    it.effect(`${name}: ${reason}, the code in the detail, the key scrubbed`, () =>
      Effect.gen(function*() {
        const failure = yield* failureOf(stats(pathOver(failing(cause))))
        expect(failure.error).toMatchObject({ _tag: "TransportError", reason })
        if (failure.error._tag === "TransportError") expect(failure.error.detail).toContain(shown)
        expect(failure.text).not.toContain(SECRET)
      }))
  }

  it.effect("a body cut off while it is read: Body", () =>
    Effect.gen(function*() {
      const cut = HttpClient.make((request) =>
        Effect.sync(() => {
          const body = new ReadableStream<Uint8Array>({ start: (controller) => controller.error(new Error(`socket hang up ${SECRET}`)) })
          return HttpClientResponse.fromWeb(request, new Response(body, { status: 200 }))
        })
      )
      const failure = yield* failureOf(stats(pathOver(cut)))
      expect(failure.error).toMatchObject({ _tag: "TransportError", reason: "Body" })
      expect(failure.text).not.toContain(SECRET)
    }))
})

// The answers ---------------------------------------------------------------------

describe("each refused answer becomes its error, or UnexpectedResponse outside the operation's union", () => {
  const problem = (status: number, code: string) =>
    json(status, { type: "about:blank", title: "Problem", status, code, detail: code }, { "x-request-id": `req_${status}`, "retry-after": "3" })

  // A page of a model's offers: an operation that can give every refusal of the contract.
  const offersUrl = new URL(`${baseUrl.href}/models/o0-falcon/m0-kestrel/offers/`)
  const decodeOffers = Decoder.decoder(ListEnvelope(Operations.modelOffers.item))
  const offers = <E extends Errors.CatalogError>(client: HttpClient.HttpClient.With<E>, scope: string | null = "models:read") =>
    send(client, Operations.modelOffers, decodeOffers, offersUrl, scope)

  const refusals: ReadonlyArray<readonly [number, Errors.ResponseError["_tag"]]> = [
    [400, "InvalidRequest"],
    [401, "InvalidApiKey"],
    [403, "ScopeMissing"],
    [404, "NotFound"],
    [409, "CursorExpired"],
    [422, "ResponseTooLarge"],
    [429, "RateLimited"],
    [503, "ServiceUnavailable"],
    [500, "UnexpectedResponse"],
    [418, "UnexpectedResponse"]
  ]

  for (const [status, tag] of refusals) {
    it.effect(`${status}: ${tag}, with its request id and code`, () =>
      Effect.gen(function*() {
        const { client } = stub(() => problem(status, `code_${status}`))
        const failure = yield* failureOf(offers(pathOver(client)))
        expect(failure.error).toMatchObject({ _tag: tag, requestId: `req_${status}`, code: `code_${status}` })
      }))
  }

  it.effect("a 403 without required_scope names the scope the call needs; a 429 keeps its Retry-After", () =>
    Effect.gen(function*() {
      const forbidden = stub(() => problem(403, "scope_missing"))
      const scope = yield* failureOf(offers(pathOver(forbidden.client)))
      expect(scope.error).toMatchObject({ _tag: "ScopeMissing", requiredScope: "models:read" })
      const limited = stub(() => problem(429, "rate_limited"))
      const rate = yield* failureOf(offers(pathOver(limited.client), null))
      expect(rate.error._tag === "RateLimited" && Duration.toMillis(rate.error.retryAfter)).toBe(3000)
    }))

  it.effect("statuses stats cannot give (404, 403, 409): UnexpectedResponse naming the operation and the status", () =>
    Effect.gen(function*() {
      for (const status of [404, 403, 409]) {
        const { client } = stub(() => problem(status, `code_${status}`))
        const failure = yield* failureOf(stats(pathOver(client)))
        expect(failure.error).toMatchObject({ _tag: "UnexpectedResponse", status, requestId: `req_${status}`, code: `code_${status}` })
        if (failure.error._tag === "UnexpectedResponse") expect(failure.error.detail).toMatch(new RegExp(`^Status ${status} is not an answer stats can give: `))
      }
    }))

  it.effect("outside a call, a refusal is its error whatever the operation", () =>
    Effect.gen(function*() {
      const { client } = stub(() => problem(404, "not_found"))
      const path = pathOver(client)
      const error = yield* Effect.flip(path.get(statsUrl))
      expect(error).toMatchObject({ _tag: "NotFound", requestId: "req_404" })
      expect(yield* Call.observed).toBeUndefined()
    }))

})

describe("errors outside the union, and listings that cannot be scanned", () => {
  it.effect("withinUnion: an error outside the operation's union is a defect of the client", () =>
    Effect.gen(function*() {
      const outside = new Errors.UnsafeLink({ link: "https://evil.test", baseUrl: baseUrl.href })
      const exit = yield* Effect.exit(AnswerErrors.withinUnion("stats", errorKindOf(Operations.stats).allows)(Effect.fail(outside)))
      expect(Exit.isFailure(exit) && Cause.hasDies(exit.cause)).toBe(true)
      expect(Exit.isFailure(exit) ? Cause.pretty(exit.cause) : "").toContain("stats cannot fail with UnsafeLink")
      const inside = new Errors.TransportError({ reason: "Connection", detail: "down" })
      expect(yield* Effect.flip(AnswerErrors.withinUnion("stats", errorKindOf(Operations.stats).allows)(Effect.fail(inside)))).toBe(inside)
    }))

  it.effect("a listing fault is UnexpectedResponse of status 200 naming the operation", () =>
    Effect.sync(() => {
      expect(AnswerErrors.listingFault("noWayOn", "models", "req_1")).toMatchObject({
        _tag: "UnexpectedResponse",
        status: 200,
        requestId: "req_1",
        detail: "models: the page says has_more but gives neither links.next nor next_cursor"
      })
    }))
})

// The attempt record ------------------------------------------------------------------

/** A captured log line: its logfmt text and its annotations. */
interface Line {
  readonly text: string
  readonly annotations: Readonly<Record<string, unknown>>
}

/** Runs `effect` at debug level with a fresh metric registry, capturing its log lines. */
const recorded = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const lines: Array<Line> = []
    const capture = Logger.make((options) => {
      lines.push({ text: Logger.formatLogFmt.log(options), annotations: options.fiber.getRef(References.CurrentLogAnnotations) })
    })
    const exit = yield* Effect.exit(effect).pipe(
      Effect.provide(Logger.layer([capture])),
      Effect.provideService(References.MinimumLogLevel, "Debug")
    )
    return { exit, lines }
  })

/** The count of a counter of `Metrics.metrics` with these labels. */
const countOf = (counter: Metric.Counter<number>, labels: Readonly<Record<string, string>>) =>
  Effect.map(Metric.value(Metric.withAttributes(counter, labels)), (state) => Number(state.count))

const histogramCountOf = (histogram: Metric.Histogram<number>, labels: Readonly<Record<string, string>>) =>
  Effect.map(Metric.value(Metric.withAttributes(histogram, labels)), (state) => state.count)

describe("each attempt recorded when it ends: one debug line, the metrics", () => {
  it.effect("a 503 then a 200: two lines with their annotations, counted by status and reason, the key in none", () =>
    Effect.gen(function*() {
      const { client } = stub((_request, index) =>
        index === 0
          ? json(503, { code: "unavailable" }, { "x-request-id": "req_503", "retry-after": "0" })
          : json(200, { data: wireStats }, { "x-request-id": "req_200" })
      )
      const { exit, lines } = yield* recorded(stats(pathOver(client, { retries: 1 })))
      expect(Exit.isSuccess(exit)).toBe(true)
      const attempts = lines.filter((line) => line.text.includes("GET /api/v1/stats/"))
      expect(attempts.length).toBe(2)
      expect(attempts[0]?.text).toMatch(/GET \/api\/v1\/stats\/ 503 0 ms, 0 units, request req_503, cache miss, attempt 1, waited 0 ms/)
      expect(attempts[1]?.text).toMatch(/GET \/api\/v1\/stats\/ 200 0 ms, 1 unit, request req_200, cache miss, attempt 2, waited 0 ms/)
      expect(attempts[1]?.text).toContain("level=DEBUG")
      expect(attempts[1]?.annotations).toEqual({
        "catalog.operation": "stats",
        "http.request.method": "GET",
        "url.path": "/api/v1/stats/",
        "url.query": "",
        "http.response.status_code": "200",
        "catalog.duration_ms": 0,
        "catalog.units": 1,
        "catalog.request_id": "req_200",
        "catalog.cache": "miss",
        "catalog.retry.attempt": 2,
        "catalog.admission.wait_ms": 0
      })
      for (const line of lines) expect(line.text).not.toContain(SECRET)
      const labels = { operation: "stats" }
      expect(yield* countOf(Metrics.metrics.requests, { ...labels, status: "503" })).toBe(1)
      expect(yield* countOf(Metrics.metrics.requests, { ...labels, status: "200" })).toBe(1)
      expect(yield* countOf(Metrics.metrics.retries, { ...labels, reason: "ServiceUnavailable" })).toBe(1)
      expect(yield* countOf(Metrics.metrics.units, labels)).toBe(Operations.stats.units)
      expect(yield* countOf(Metrics.metrics.unavailable, labels)).toBe(1)
      expect(yield* countOf(Metrics.metrics.rateLimited, labels)).toBe(0)
      expect(yield* histogramCountOf(Metrics.metrics.duration, labels)).toBe(2)
      expect(yield* histogramCountOf(Metrics.metrics.admissionWait, labels)).toBe(2)
      expect(yield* Metrics.total(Metrics.metrics.requests)).toBe(2)
    }).pipe(Effect.provideService(Metric.MetricRegistry, new Map())))

  it.effect("an attempt that failed in transit is counted under its error's tag; a 304 answered from the cache as a hit", () =>
    Effect.gen(function*() {
      const failing = HttpClient.make((request) =>
        Effect.fail(new HttpClientError.HttpClientError({ reason: new HttpClientError.TransportError({ request }) }))
      )
      const { lines } = yield* recorded(stats(pathOver(failing)))
      expect(lines.map((line) => line.text).join("\n")).toMatch(/GET \/api\/v1\/stats\/ TransportError 0 ms, 0 units, request none, cache miss, attempt 1/)
      expect(yield* countOf(Metrics.metrics.requests, { operation: "stats", status: "TransportError" })).toBe(1)
      expect(yield* histogramCountOf(Metrics.metrics.duration, { operation: "stats" })).toBe(1)
      // A 304 to a conditional request is a hit (the cache step, another module, turns it into the kept answer).
      const { client } = stub(() => ({ status: 304, headers: { "x-request-id": "req_304" } }))
      const hit = yield* recorded(Effect.flip(send(conditionalOver(pathOver(client)), Operations.stats, decodeStats, statsUrl)))
      expect(hit.lines.map((line) => line.text).join("\n")).toMatch(/304 .*request req_304, cache hit, attempt 1/)
      expect(yield* countOf(Metrics.metrics.notModified, { operation: "stats" })).toBe(1)
    }).pipe(Effect.provideService(Metric.MetricRegistry, new Map())))

  it.effect("no line is built below debug level, and a request outside a call is not recorded", () =>
    Effect.gen(function*() {
      const { client } = stub(() => json(200, { data: wireStats }))
      const quiet = yield* recorded(stats(pathOver(client)).pipe(Effect.provideService(References.MinimumLogLevel, "Info")))
      expect(quiet.lines).toEqual([])
      expect(yield* countOf(Metrics.metrics.requests, { operation: "stats", status: "200" })).toBe(1)
      const outside = yield* recorded(pathOver(client).get(statsUrl))
      expect(outside.lines).toEqual([])
      expect(yield* Metrics.total(Metrics.metrics.requests)).toBe(1)
    }).pipe(Effect.provideService(Metric.MetricRegistry, new Map())))

})

describe("the attempt on the call's span", () => {
  it.effect("the call's span carries the attempt, the status, the units and the request id", () =>
    Effect.gen(function*() {
      const { spans, tracer } = recordingTracer()
      const { client } = stub(() => json(200, { data: wireStats }, { "x-request-id": "req_span" }))
      yield* stats(pathOver(client)).pipe(Effect.withTracer(tracer))
      const call = spans.find((span) => span.name === "catalog.stats")
      expect(Object.fromEntries(call?.attributes ?? [])).toMatchObject({
        "catalog.operation": "stats",
        "catalog.retry.attempt": 1,
        "catalog.admission.wait_ms": 0,
        "catalog.cache": "miss",
        "catalog.units": 1,
        "http.response.status_code": 200,
        "catalog.request_id": "req_span"
      })
    }).pipe(Effect.provideService(Metric.MetricRegistry, new Map())))
})

describe("what the exchange observed comes back up in the call's observation (SentAttempt)", () => {
  it.effect("a failure inside the call's span: the call's observation has what the exchange saw", () =>
    Effect.gen(function*() {
      const { client } = stub(() => json(503, { code: "unavailable" }, { "x-request-id": "req_seen" }))
      const { exit, sending } = yield* observedOf(pathOver(client).get(statsUrl).pipe(Effect.withSpan("catalog.stats")))
      expect(Exit.isFailure(exit)).toBe(true)
      expect(sending).toMatchObject({ status: 503, requestId: "req_seen", cache: "miss", sentAt: 0 })
      expect(JSON.stringify(exit)).not.toContain("sentAt")
    }))

  it.effect("each attempt starts unobserved: an attempt refused before it is sent leaves nothing of the one before", () =>
    Effect.gen(function*() {
      const { client } = stub(() => json(503, { code: "unavailable" }, { "x-request-id": "req_first" }))
      let attempts = 0
      // The second attempt is refused before the exchange, as the budget or admission refuse one.
      const refusingSecond = <E, R>(inner: HttpClient.HttpClient.With<E, R>): HttpClient.HttpClient.With<E | Errors.BudgetExceeded, R> =>
        HttpClient.transform(inner, (response) =>
          Effect.suspend((): Effect.Effect<HttpClientResponse.HttpClientResponse, E | Errors.BudgetExceeded, R> =>
            ++attempts === 1 ? response : Effect.fail(new Errors.BudgetExceeded({ units: 1, spent: 0, budget: 0 }))
          ))
      const path = Exchange.step({ apiKey: Effect.succeed(Redacted.make(SECRET)), timeout: Duration.seconds(30) })(client).pipe(
        AnswerErrors.step,
        refusingSecond,
        Attempt.step,
        retrying(1)
      )
      const { exit, sending } = yield* observedOf(path.get(statsUrl))
      expect(Exit.isFailure(exit) ? Option.getOrUndefined(Cause.findErrorOption(exit.cause)) : undefined).toMatchObject({ _tag: "BudgetExceeded" })
      expect(sending).toBeUndefined()
    }))

  it.effect("outside a call, and before a call sends anything, nothing is observed", () =>
    Effect.gen(function*() {
      expect(yield* Call.observed).toBeUndefined()
      const { sending } = yield* observedOf(Effect.void)
      expect(sending).toBeUndefined()
    }))
})

// The quota ---------------------------------------------------------------------------

describe("the quota step", () => {
  /** A client that fails every request with a 429 asking to wait `seconds`; how many requests reached it. */
  const limitedFor = (seconds: number) => {
    let sent = 0
    const client = HttpClient.makeWith<never, never, Errors.RateLimited, never>(
      () =>
        Effect.suspend(() => {
          sent++
          return Effect.fail(new Errors.RateLimited({ requestId: "req_429", code: "daily_units", detail: null, retryAfter: Duration.seconds(seconds) }))
        }),
      Effect.succeed
    )
    return { client, sent: () => sent }
  }

  it.effect("a Retry-After longer than the client waits: QuotaExhausted until it resets, nothing sent meanwhile", () =>
    Effect.gen(function*() {
      const exhausted = yield* Ref.make(Option.none<Errors.QuotaExhausted>())
      const { client, sent } = limitedFor(3600)
      const paused: Array<number> = []
      const quota = Quota.step({
        exhausted,
        maxWait: Duration.seconds(60),
        pause: (retryAfter) => Effect.sync(() => paused.push(Duration.toMillis(retryAfter))),
        resetsAt: () => Effect.succeedNone
      })(client)
      const first = yield* Effect.flip(quota.get(statsUrl))
      expect(first).toMatchObject({ _tag: "QuotaExhausted", requestId: "req_429", code: "daily_units" })
      expect(first._tag === "QuotaExhausted" && first.resetsAt.getTime()).toBe(3_600_000)
      yield* TestClock.adjust("59 minutes")
      expect((yield* Effect.flip(quota.get(statsUrl)))._tag).toBe("QuotaExhausted")
      expect(sent()).toBe(1)
      yield* TestClock.adjust("1 minute")
      yield* Effect.flip(quota.get(statsUrl))
      expect(sent()).toBe(2)
      expect(paused).toEqual([])
    }))

  it.effect("a short Retry-After pauses every waiting request and passes the RateLimited on", () =>
    Effect.gen(function*() {
      const exhausted = yield* Ref.make(Option.none<Errors.QuotaExhausted>())
      const { client } = limitedFor(2)
      const paused: Array<number> = []
      const quota = Quota.step({
        exhausted,
        maxWait: Duration.seconds(60),
        pause: (retryAfter) => Effect.sync(() => paused.push(Duration.toMillis(retryAfter))),
        resetsAt: () => Effect.succeedNone
      })(client)
      expect((yield* Effect.flip(quota.get(statsUrl)))._tag).toBe("RateLimited")
      expect(paused).toEqual([2000])
      expect(yield* Ref.get(exhausted)).toEqual(Option.none())
    }))
})

// Links ---------------------------------------------------------------------------

describe("links and cursors", () => {
  const base = new URL("http://127.0.0.1:8080/api/v1")

  it("links that leave the base URL are UnsafeLink, showing only the origin", () => {
    const unsafe: ReadonlyArray<readonly [string, string]> = [
      ["https://127.0.0.1:8080/api/v1/models/", "https://127.0.0.1:8080"],
      ["http://localhost:8080/api/v1/models/", "http://localhost:8080"],
      ["http://user:pass@127.0.0.1:8080/api/v1/models/", "http://127.0.0.1:8080"],
      [`http://${SECRET}@127.0.0.1:8080/api/v1/models/`, "http://127.0.0.1:8080"],
      ["http://127.0.0.1:8080/usage/", "http://127.0.0.1:8080"],
      ["http://127.0.0.1:8080/api/v1/../../usage/", "http://127.0.0.1:8080"],
      ["http://127.0.0.1:8080/api/v10/models/", "http://127.0.0.1:8080"],
      ["http://127.0.0.1:8080/api/v1", "http://127.0.0.1:8080"],
      ["//127.0.0.1:8080/api/v1/models/", "(not a URL)"],
      ["/api/v1/models/?cursor=c2", "(not a URL)"],
      ["http://127.0.0.1:8080@evil.invalid/api/v1/models/", "http://evil.invalid"],
      ["javascript:alert(1)", "javascript: URL"],
      ["not a url", "(not a URL)"],
      ["http://127.0.0.1:8080/api/v1/models/\ud800/", "(not a well-formed URL)"]
    ]
    for (const [link, shown] of unsafe) {
      const checked = Links.checkLink(base, link)
      expect(Result.isFailure(checked) && checked.failure, link).toMatchObject({ _tag: "UnsafeLink", link: shown, baseUrl: base.href })
      expect(Result.isFailure(checked) ? checked.failure.message : "").not.toContain(SECRET)
    }
  })

  it("a link below the base URL is followed without its fragment", () => {
    const checked = Links.checkLink(base, "http://127.0.0.1:8080/api/v1/models/?cursor=c2&limit=5#top")
    expect(Result.isSuccess(checked) && checked.success.href).toBe("http://127.0.0.1:8080/api/v1/models/?cursor=c2&limit=5")
  })

  it.effect("an operation's URL: each path segment one segment, the query encoded by the contract's rules", () =>
    Effect.gen(function*() {
      const model = yield* Links.operationUrl(base, Operations.model, { organization: "../../usage", model: "a/b?c#d" })
      expect(model.pathname).toBe("/api/v1/models/..%2F..%2Fusage/a%2Fb%3Fc%23d/")
      const page = yield* Links.operationUrl(base, Operations.models, { q: "kestrel", reasoning: true, limit: 25, cursor: "c2" })
      expect(Object.fromEntries(page.searchParams)).toEqual({ q: "kestrel", reasoning: "true", limit: "25", cursor: "c2" })
      for (const segment of [".", ".."]) {
        const refused = yield* Effect.flip(Links.operationUrl(base, Operations.organization, { slug: segment }))
        expect(refused).toMatchObject({ _tag: "InvalidRequest", code: "local_validation", detail: `slug: "${segment}" is not a resource name` })
      }
      const tooLong = yield* Effect.flip(Links.operationUrl(base, Operations.models, { limit: 101 }))
      expect(tooLong).toMatchObject({ _tag: "InvalidRequest", detail: "limit: limit must be a whole number from 1 to 100" })
    }))

  it.effect("a cursor that cannot be sent (a lone surrogate) is refused before anything is sent, the value not shown", () =>
    Effect.gen(function*() {
      const cursor = `c2\ud800${SECRET}`
      const refused = yield* Effect.flip(Links.operationUrl(base, Operations.models, { cursor }))
      expect(refused).toMatchObject({
        _tag: "InvalidRequest",
        detail: "cursor: holds a lone surrogate (U+D800) at index 2, which has no UTF-8 form and cannot be sent"
      })
      expect(Result.isFailure(Links.sendable("cursor", "\udc00"))).toBe(true)
      expect(Links.sendable("cursor", "c2\ud83d\ude00")).toEqual(Result.succeed("c2\ud83d\ude00"))
      const segment = Links.encodeSegment("model", "m\udfff")
      expect(Result.isFailure(segment) && segment.failure.detail).toBe(
        "model: holds a lone surrogate (U+DFFF) at index 1, which has no UTF-8 form and cannot be sent"
      )
    }))

})

describe("locate", () => {
  const base = new URL("http://127.0.0.1:8080/api/v1")

  it("a resource's api_url, a list's with its filters, a cursor refused, an unknown path refused", () => {
    const model = Links.locate(base, new URL("http://127.0.0.1:8080/api/v1/models/o0-falcon/m%2F0/"))
    expect(Result.isSuccess(model) && model.success.operation.id).toBe("model")
    expect(Result.isSuccess(model) && model.success.parameters).toEqual({ organization: "o0-falcon", model: "m/0" })
    const offers = Links.locate(base, new URL("http://127.0.0.1:8080/api/v1/models/o0-falcon/m0/offers/?limit=5"))
    expect(Result.isSuccess(offers) && offers.success.operation.id).toBe("modelOffers")
    expect(Result.isSuccess(offers) && offers.success.parameters).toEqual({ organization: "o0-falcon", model: "m0", limit: 5 })
    const search = Links.locate(base, new URL("http://127.0.0.1:8080/api/v1/models/?reasoning=true&q=kestrel"))
    expect(Result.isSuccess(search) && search.success.parameters).toEqual({ reasoning: true, q: "kestrel" })
    const refusals: ReadonlyArray<readonly [string, string]> = [
      ["http://127.0.0.1:8080/api/v1/models/o0-falcon/m0/offers/?cursor=abc", "The link's query: "],
      ["http://127.0.0.1:8080/api/v1/models/?color=red", "The link's query: "],
      ["http://127.0.0.1:8080/api/v1/nothing/here/", "The link names no resource or list of the contract: /nothing/here/"],
      ["http://127.0.0.1:8080/api/v1/models/o0-falcon/m%E0%A4%A/", "The link's path is not valid percent-encoding: "]
    ]
    for (const [link, detail] of refusals) {
      const located = Links.locate(base, new URL(link))
      expect(Result.isFailure(located) && located.failure._tag, link).toBe("InvalidRequest")
      expect(Result.isFailure(located) ? located.failure.detail : "", link).toContain(detail)
    }
  })
})

// Items in wire form, the exact decoder ------------------------------------------------

/** The one line of a body's failure, as `UnexpectedResponse.detail` says it. */
const lineOf = <A>(decode: Decoder.Decoder<A>, body: string, redact: (text: string) => string = (text) => text) =>
  Effect.map(Effect.flip(decode(body)), (error) => Malformed.describe(error, redact))

describe("items in wire form: each checked against the wire form of its schema, passed on unread", () => {
  const decodeWirePage = Decoder.decoder(ListEnvelope(WireItem.wireItemOf(Resources.Model)))
  const itemsWith = (changes: Readonly<Record<string, unknown>>, at = 3) =>
    pageText(Array.from({ length: 5 }, (_, index) => JSON.stringify(wireModel(index, index === at ? changes : {}))))

  it.effect("a valid page passes each item exactly as sent, members the schema does not list included", () =>
    Effect.gen(function*() {
      const items = Array.from({ length: 3 }, (_, index) => wireModel(index, { extra: { nested: [1, "two"] }, specifications: { note: "1e309" } }))
      const page = yield* decodeWirePage(pageText(items.map((item) => JSON.stringify(item))))
      expect(page.data).toEqual(items)
    }))

  const wrong: ReadonlyArray<readonly [string, Readonly<Record<string, unknown>>, string]> = [
    ["a count sent as a fraction", { offer_count: 2.5 }, "data[3].offer_count: Expected an integer, actual 2.5"],
    ["a count sent as a string", { offer_count: "3" }, "data[3].offer_count: Expected number, actual \"3\""],
    ["a negative count", { provider_count: -1 }, "data[3].provider_count: Expected a value greater than or equal to 0, actual -1"],
    ["an id that is not a string", { id: 12 }, "data[3].id: Expected string, actual 12"],
    ["a boolean sent as a string", { reasoning: "yes" }, "data[3].reasoning: Expected boolean | null, actual \"yes\""],
    ["a decimal integer sent as a number", { context_tokens: 1048576 }, "data[3].context_tokens: Expected string | null, actual 1048576"],
    ["a member missing", { name: undefined }, "data[3].name: is missing"]
  ]

  for (const [name, changes, detail] of wrong) {
    it.effect(`${name}: the page fails naming the field`, () =>
      Effect.gen(function*() {
        expect(yield* lineOf(decodeWirePage, itemsWith(changes))).toBe(detail)
      }))
  }

  it.effect("an item that is not an object, or has no string id, is named as such", () =>
    Effect.gen(function*() {
      expect(yield* lineOf(decodeWirePage, pageText(["5"]))).toBe("data[0]: Expected a JSON object, actual 5")
      expect(yield* lineOf(decodeWirePage, pageText(["{\"name\":\"x\"}"]))).toBe("data[0].id: is missing")
      expect(yield* lineOf(decodeWirePage, pageText(["{\"id\":null}"]))).toBe("data[0].id: Expected string, actual null")
    }))

  it("WireCheck agrees with Schema's own guard of the wire form, item by item", () => {
    const check = WireCheck.checker(Resources.Model)
    const is = Schema.is(Schema.toEncoded(Resources.Model))
    const items: ReadonlyArray<unknown> = [
      wireModel(0),
      wireModel(1, { offer_count: 2.5 }),
      wireModel(2, { family_id: 3 }),
      wireModel(3, { released_on: "tomorrow" }),
      wireModel(4, { context_tokens: "12x" }),
      wireModel(5, { specifications: [] }),
      wireModel(6, { constructor: "inherited" }),
      { ...wireModel(7), url: undefined },
      [],
      null,
      "model"
    ]
    for (const item of items) expect(check(item) === undefined, JSON.stringify(item)).toBe(is(item))
  })
})

describe("the exact decoder", () => {
  const decodeModelPage = Decoder.decoder(ListEnvelope(Resources.Model))

  const inexact: ReadonlyArray<readonly [string, string, string]> = [
    ["offer_count", "1e309", "data[3].offer_count: 1e309 cannot be held exactly as a JSON number"],
    ["provider_count", "-1e309", "data[3].provider_count: -1e309 cannot be held exactly as a JSON number"],
    ["offer_count", "9007199254740993", "data[3].offer_count: 9007199254740993 cannot be held exactly as a JSON number"]
  ]

  for (const [field, token, detail] of inexact) {
    it.effect(`${token} is refused with its path, before the body is decoded`, () =>
      Effect.gen(function*() {
        const items = Array.from({ length: 5 }, (_, index) => JSON.stringify(wireModel(index, index === 3 ? { [field]: "__raw__" } : {})).replace("\"__raw__\"", token))
        expect(yield* lineOf(decodeModelPage, pageText(items))).toBe(detail)
        expect(yield* lineOf(Decoder.decoder(ListEnvelope(WireItem.wireItemOf(Resources.Model))), pageText(items))).toBe(detail)
      }))
  }

  it.effect("a number spelled otherwise but held exactly passes: 1.0, 1E+0", () =>
    Effect.gen(function*() {
      const item = JSON.stringify(wireModel(0, { offer_count: "__a__", provider_count: "__b__" })).replace("\"__a__\"", "1.0").replace("\"__b__\"", "1E+0")
      const page = yield* decodeModelPage(pageText([item]))
      expect(page.data[0]?.offer_count).toBe(1)
      expect(page.data[0]?.provider_count).toBe(1)
    }))

  it.effect("a body that is not JSON says so, in JSON.parse's words, scrubbed of the key", () =>
    Effect.gen(function*() {
      const line = yield* lineOf(decodeStats, `<html>${SECRET}</html>`, (text) => text.split(SECRET).join("[redacted]"))
      expect(line).toMatch(/^the body is not JSON: Unexpected token '<'/)
      expect(line).not.toContain(SECRET)
    }))

  it.effect("every issue is found: the first named, the others counted; each part cut to length on one line", () =>
    Effect.gen(function*() {
      const body = JSON.stringify({ data: { ...wireStats, models: "12\n34", skills: "x".repeat(200), mcps: null } })
      const line = yield* lineOf(decodeStats, body)
      expect(line).toBe("data.models: Expected number, actual \"12\\n34\" (and 2 more)")
      const long = yield* lineOf(decodeStats, JSON.stringify({ data: { ...wireStats, models: "x".repeat(200) } }))
      expect(long).toBe(`data.models: Expected number, actual "${"x".repeat(78)}…`)
    }))
})
