/**
 * Sends one request of an operation and turns its answer into the decoded
 * body or the operation's typed error, with everything that keeps an account
 * safe around it: the budget, admission under the account's limits, the
 * `ETag` cache, and retries. The key goes only into the `Authorization`
 * header of requests to the configured base URL, and never into an error, a
 * span or a log line.
 *
 * @since 0.1.0
 */
import * as Headers from "@effect/platform/Headers"
import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Clock, Duration, Effect, Exit, Metric, Option, type ParseResult, Redacted, Ref, Schedule, Schema, Scope } from "effect"
import type * as Admission from "./Admission.js"
import { maxResponseBytes } from "../contract/Parameters.js"
import type * as Budget from "./Budget.js"
import type { CatalogConfig } from "./CatalogConfig.js"
import * as Errors from "./Errors.js"
import type { CommonError } from "./OperationErrors.js"
import type * as ResponseCache from "./ResponseCache.js"
import * as Retry from "./Retry.js"

/**
 * What a request is sent for: the operation's id, cost and scope (for spans
 * and errors), the errors its answers may produce, and the reservation of its
 * units (`B` is `never` for operations that cost nothing).
 *
 * @since 0.1.0
 */
export interface Target<E extends Errors.ResponseError, B extends Errors.BudgetExceeded> {
  readonly id: string
  readonly units: number
  readonly scope: string | null
  /** Whether the operation can give this error; others become `UnexpectedResponse`. */
  readonly isAllowed: (error: Errors.ResponseError) => error is E
  /** Reserves the request's units in the budget. */
  readonly reserve: Effect.Effect<void, B>
}

/**
 * What the requests of one client share.
 *
 * @since 0.1.0
 */
export interface Shared {
  readonly config: CatalogConfig["Type"]
  /** Ties each request to a scope (`HttpClient.withScope`), which its deadline closes. */
  readonly client: HttpClient.HttpClient.With<HttpClientError.HttpClientError, Scope.Scope>
  readonly admission: Admission.Service
  readonly budget: Budget.Service
  readonly cache: ResponseCache.Service
  readonly policy: Retry.Policy
  /** The spent allowance in force: later requests fail without being sent. */
  readonly exhausted: Ref.Ref<Option.Option<Errors.QuotaExhausted>>
  /** When the allowance resets, read from `/usage/` (for `QuotaExhausted`). */
  readonly resetsAt: (code: string | null) => Effect.Effect<Option.Option<Date>>
}

/**
 * A decoded answer.
 *
 * @since 0.1.0
 */
export interface Decoded<A> {
  readonly value: A
  readonly requestId: string | null
}

/**
 * Counters of the client's requests, for progress displays and summaries.
 *
 * @since 0.1.0
 */
export const metrics = {
  requests: Metric.counter("catalog_requests", { description: "Requests sent", incremental: true }),
  retries: Metric.counter("catalog_retries", { description: "Requests sent again after a retryable error", incremental: true }),
  notModified: Metric.counter("catalog_not_modified", { description: "Answers served from the ETag cache (304)", incremental: true })
}

const headerSafe = /^[\x21-\x7e]+$/

/** Headers whose values the HTTP client's spans never record. */
const redactedHeaders = ["authorization", "cookie", "set-cookie", "x-api-key", "x-request-id"]

/** Statuses whose requests the service charges although they failed. */
const chargedStatuses = new Set([404, 409, 422])

/** What failed, with the underlying cause when there is one. */
const describeCause = (error: { readonly message: string; readonly cause?: unknown }) => {
  const cause = error.cause instanceof Error ? (error.cause.cause instanceof Error ? error.cause.cause : error.cause) : undefined
  return cause === undefined ? error.message : `${error.message}: ${cause.message}`
}

/** Removes every occurrence of the key from text kept from an answer. */
const redactor = (key: Redacted.Redacted<string>) => (text: string) => text.split(Redacted.value(key)).join("[redacted]")

/**
 * Runs an exchange in a scope of its own that closes when `timeout` has
 * passed, however far the answer has come: the client aborts a request when
 * its scope closes (`HttpClient.withScope`), so a server that trickles its
 * body is cut off too. A timer, not a race of two fibers per request, which
 * would cost more than the rest of the request's path.
 */
const withDeadline = <A, E>(timeout: Duration.Duration, transportError: (error: E) => Errors.TransportError) =>
(exchange: Effect.Effect<A, E, Scope.Scope>): Effect.Effect<A, Errors.TransportError> =>
  Effect.flatMap(Scope.make(), (scope) => {
    const millis = Duration.toMillis(timeout)
    const started = Date.now()
    const timer = setTimeout(() => Effect.runFork(Scope.close(scope, Exit.void)), millis)
    return exchange.pipe(
      Scope.extend(scope),
      Effect.mapError((error) =>
        Date.now() - started >= millis
          ? new Errors.TransportError({ reason: "Timeout", detail: `No answer within ${Duration.format(timeout)}` })
          : transportError(error)
      ),
      Effect.ensuring(Effect.zipRight(Effect.sync(() => clearTimeout(timer)), Scope.close(scope, Exit.void)))
    )
  })

/**
 * One HTTP exchange: a GET of `url` with the key, and `If-None-Match` when an
 * entity tag is given.
 *
 * @since 0.1.0
 */
export const exchange = (shared: Pick<Shared, "config" | "client">, url: URL, etag: string | null) =>
  Effect.gen(function*() {
    const { client, config } = shared
    const key = yield* config.apiKey
    if (!headerSafe.test(Redacted.value(key))) {
      return yield* new Errors.InvalidApiKey({ requestId: null, code: "local_validation", detail: "The key has characters a header cannot carry" })
    }
    const redact = redactor(key)
    const request = HttpClientRequest.get(url).pipe(
      HttpClientRequest.acceptJson,
      HttpClientRequest.bearerToken(Redacted.value(key)),
      etag !== null && headerSafe.test(etag) ? HttpClientRequest.setHeader("if-none-match", etag) : (request) => request
    )
    yield* Metric.increment(metrics.requests)
    const answer = yield* client.execute(request).pipe(
      // The HTTP client's own span records response headers; a hostile server could echo the key in one.
      Effect.locally(Headers.currentRedactedNames, [...redactedHeaders]),
      Effect.flatMap((response) => Effect.map(response.text, (body) => ({ status: response.status, headers: response.headers, body }))),
      withDeadline(config.timeout, (error) =>
        error._tag === "RequestError"
          ? new Errors.TransportError({ reason: "Connection", detail: redact(describeCause(error)) })
          : new Errors.TransportError({ reason: "Body", detail: redact(describeCause(error)) }))
    )
    const header = answer.headers["x-request-id"]
    return { ...answer, requestId: header === undefined ? null : redact(header).slice(0, 200), redact }
  })

/**
 * Turns the text of an answer into its value.
 *
 * @since 0.1.0
 */
export type Decoder<A> = (body: string) => Effect.Effect<A, ParseResult.ParseError>

/**
 * The {@link Decoder} of answers of `schema`. Build it once per operation:
 * a parser is compiled for each schema it meets.
 *
 * @since 0.1.0
 */
export const decoder = <A, I>(schema: Schema.Schema<A, I>): Decoder<A> => Schema.decodeUnknown(Schema.parseJson(schema))

/**
 * Sends a GET of `url` for `target` and decodes a 200 (or the kept body of
 * a 304) with `decode`. `E` is the operation's error union: any other answer
 * becomes `UnexpectedResponse`.
 *
 * @since 0.1.0
 */
export const send = <A, E extends Errors.ResponseError, B extends Errors.BudgetExceeded>(
  shared: Shared,
  target: Target<E, B>,
  decode: Decoder<A>,
  url: URL,
  options: {
    /** Ask for a fresh answer (no `If-None-Match`), as a restarted scan must: a kept page may hold an expired cursor. */
    readonly revalidate?: boolean
    /** A page reached through a cursor is read once per scan: keeping it would only fill the cache. */
    readonly throughCursor?: boolean
  } = {}
): Effect.Effect<Decoded<A>, E | CommonError | B> => {
  const attempt = Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const exhausted = yield* Ref.get(shared.exhausted)
    if (Option.isSome(exhausted) && now < exhausted.value.resetsAt.getTime()) return yield* Effect.fail(exhausted.value)
    yield* target.reserve
    // What the service keeps of this request if it never completes: its units and its whole byte reservation.
    const charged = yield* Ref.make({ units: target.units, bytes: maxResponseBytes })
    const cacheable = options.throughCursor !== true
    const cached = options.revalidate === true || !cacheable ? Option.none() : yield* shared.cache.get(url.href)
    const answer = yield* shared.admission.admit(exchange(shared, url, Option.match(cached, { onNone: () => null, onSome: (entry) => entry.etag }))).pipe(
      Effect.tap((answer) =>
        Ref.set(charged, {
          units: answer.status === 200 || chargedStatuses.has(answer.status) ? target.units : 0,
          bytes: Buffer.byteLength(answer.body)
        })
      ),
      Effect.ensuring(Effect.flatMap(Ref.get(charged), (spent) => shared.budget.settle(target.id, target.units, spent)))
    )
    const { requestId, status } = answer
    const units = (yield* Ref.get(charged)).units
    yield* Effect.annotateCurrentSpan({ "http.response.status_code": status, "catalog.units": units, "catalog.cache_hit": status === 304 })
    if (requestId !== null) yield* Effect.annotateCurrentSpan("catalog.request_id", requestId)
    const body = status === 304 && Option.isSome(cached) ? cached.value.body : status === 200 ? answer.body : undefined
    if (body !== undefined) {
      const value = yield* decode(body).pipe(
        Effect.mapError((error) =>
          new Errors.UnexpectedResponse({ requestId, code: null, detail: answer.redact(error.message).slice(0, 2000), status })
        )
      )
      const etag = answer.headers["etag"]
      if (status === 200 && etag !== undefined && cacheable) yield* shared.cache.set(url.href, { etag, body })
      if (status === 304) yield* Metric.increment(metrics.notModified)
      return { value, requestId }
    }
    const answeredAt = yield* Clock.currentTimeMillis
    const error = Errors.fromAnswer(answer, { now: answeredAt, scope: target.scope, redact: answer.redact })
    if (error._tag === "RateLimited") {
      if (Duration.greaterThan(error.retryAfter, shared.policy.maxWait)) {
        const resetsAt = Option.getOrElse(yield* shared.resetsAt(error.code), () => new Date(answeredAt + Duration.toMillis(error.retryAfter)))
        const quota = new Errors.QuotaExhausted({ ...error, resetsAt })
        yield* Ref.set(shared.exhausted, Option.some(quota))
        return yield* Effect.fail(quota)
      }
      yield* shared.admission.pause(error.retryAfter)
    }
    return yield* Effect.fail(
      target.isAllowed(error) ? error : new Errors.UnexpectedResponse({
        requestId,
        code: "code" in error ? error.code : null,
        detail: `Status ${status} is not an answer ${target.id} can give: ${error.message}`,
        status
      })
    )
  }).pipe(
    Effect.withSpan(target.id, {
      kind: "client",
      attributes: { "catalog.operation": target.id, "url.path": url.pathname },
      captureStackTrace: false
    })
  )

  // The schedule is driven only once an attempt fails: most requests never need it.
  type Failure = Effect.Effect.Error<typeof attempt>
  const retryAfter = (driver: Schedule.ScheduleDriver<unknown, Failure>, error: Failure): typeof attempt =>
    Effect.matchEffect(driver.next(error), {
      onFailure: () => Effect.fail(error),
      onSuccess: () => Effect.zipRight(Metric.increment(metrics.retries), Effect.catchAll(attempt, (next) => retryAfter(driver, next)))
    })
  return Effect.catchAll(attempt, (error) =>
    Retry.isRetryable(error) ? Effect.flatMap(Schedule.driver(Retry.schedule(shared.policy)), (driver) => retryAfter(driver, error)) : Effect.fail(error))
}
