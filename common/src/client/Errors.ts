/**
 * The tagged errors of the Catalog client: one class per meaning, each with
 * the request id, the problem `code` and `detail` where the service sent them,
 * and what a caller needs to act. None of them ever holds the API key.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Errors } from "effect-catalog"
 *
 * declare const model: Effect.Effect<{ readonly id: string }, Errors.ResponseError>
 *
 * // A missing model is no model; every other error goes on.
 * const modelOrNull = model.pipe(Effect.catchTag("NotFound", (error: Errors.NotFound) => Effect.succeed(null)))
 * ```
 * @since 0.1.0 (1.x: 1.0.0)
 */
import {
  DateSchema,
  Duration,
  DurationSchema,
  fromJsonString,
  literals,
  literalWithDefault,
  optionalKey,
  Option,
  Schema
} from "#edition/internal/Edition.js"
import * as ErrorTexts from "../../../rules/src/client/ErrorTexts.js"

/** What the service said about a failed request, where it said it. */
const problemFields = {
  /** The `X-Request-Id` of the response, to quote in failure reports. */
  requestId: Schema.NullOr(Schema.String),
  /** The problem's machine-readable `code`. */
  code: Schema.NullOr(Schema.String),
  /** The problem's `detail`, or the raw body when it was not a problem. */
  detail: Schema.NullOr(Schema.String)
}

/**
 * 400: a parameter breaks the contract's rules. Also raised before any
 * request is sent, when the client sees the rule broken itself
 * (`requestId` is then null and `code` is `local_validation`).
 *
 * @example
 * ```ts
 * import { Errors } from "effect-catalog"
 *
 * const refused = new Errors.InvalidRequest({ requestId: null, code: "local_validation", detail: "limit must be at most 100" })
 * refused.message // "Invalid request: limit must be at most 100"
 * ```
 * @category errors
 * @since 0.1.0 (1.x: 1.0.0)
 */
export class InvalidRequest extends Schema.TaggedError<InvalidRequest>()("InvalidRequest", problemFields) {
  override get message() {
    return ErrorTexts.messages.InvalidRequest(this)
  }
}

/**
 * 401: the key is missing, unknown, revoked or expired. Replace the key;
 * retrying with the same key cannot succeed.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Errors } from "effect-catalog"
 *
 * declare const stats: Effect.Effect<{ readonly models: number }, Errors.ResponseError>
 *
 * const checked = stats.pipe(
 *   Effect.catchTag("InvalidApiKey", (error) => Effect.die(new Error(`Replace CATALOG_API_KEY (request ${error.requestId})`)))
 * )
 * ```
 * @category errors
 * @since 0.1.0 (1.x: 1.0.0)
 */
export class InvalidApiKey extends Schema.TaggedError<InvalidApiKey>()("InvalidApiKey", problemFields) {
  override get message() {
    return ErrorTexts.messages.InvalidApiKey(this)
  }
}

/**
 * 403: the key lacks the scope the operation needs.
 *
 * @example
 * ```ts
 * import { Effect, Option } from "effect"
 * import { Errors } from "effect-catalog"
 *
 * declare const skillDocument: Effect.Effect<string, Errors.ResponseError>
 *
 * // The document needs the `skill_content:read` scope; without it, go on without the document.
 * const document = skillDocument.pipe(
 *   Effect.asSome,
 *   Effect.catchTag("ScopeMissing", (error) =>
 *     Effect.as(Effect.logWarning(`the key lacks ${error.requiredScope}`), Option.none<string>()))
 * )
 * ```
 * @category errors
 * @since 0.1.0 (1.x: 1.0.0)
 */
export class ScopeMissing extends Schema.TaggedError<ScopeMissing>()("ScopeMissing", {
  ...problemFields,
  /** The scope the operation requires. */
  requiredScope: Schema.NullOr(Schema.String)
}) {
  override get message() {
    return ErrorTexts.messages.ScopeMissing(this)
  }
}

/**
 * 404: the resource does not exist. Treat it as absent (the request still
 * cost its units).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Errors } from "effect-catalog"
 *
 * declare const offer: Effect.Effect<{ readonly id: string }, Errors.ResponseError>
 *
 * const maybeOffer = offer.pipe(
 *   Effect.asSome,
 *   Effect.catchTag("NotFound", () => Effect.succeedNone)
 * )
 * ```
 * @category errors
 * @since 0.1.0 (1.x: 1.0.0)
 */
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", problemFields) {
  override get message() {
    return ErrorTexts.messages.NotFound(this)
  }
}

/**
 * 409: the cursor is older than one hour. Restart the listing from its first
 * page.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Errors } from "effect-catalog"
 *
 * declare const modelsPage: (cursor?: string) => Effect.Effect<ReadonlyArray<string>, Errors.ResponseError>
 *
 * // Paging by hand: an expired cursor sends the scan back to the first page.
 * const nextPage = (cursor: string) =>
 *   modelsPage(cursor).pipe(Effect.catchTag("CursorExpired", () => modelsPage()))
 * ```
 * @category errors
 * @since 0.1.0 (1.x: 1.0.0)
 */
export class CursorExpired extends Schema.TaggedError<CursorExpired>()("CursorExpired", problemFields) {
  override get message() {
    return ErrorTexts.messages.CursorExpired(this)
  }
}

/**
 * 422: the response would pass 512 KiB. Ask for a smaller page.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Errors } from "effect-catalog"
 *
 * declare const modelsPage: (limit: number) => Effect.Effect<ReadonlyArray<string>, Errors.ResponseError>
 *
 * const firstPage = modelsPage(100).pipe(
 *   Effect.catchTag("ResponseTooLarge", () => modelsPage(25))
 * )
 * ```
 * @category errors
 * @since 0.1.0 (1.x: 1.0.0)
 */
export class ResponseTooLarge extends Schema.TaggedError<ResponseTooLarge>()("ResponseTooLarge", problemFields) {
  override get message() {
    return ErrorTexts.messages.ResponseTooLarge(this)
  }
}

/**
 * 429: an account limit was reached. Wait at least `retryAfter`.
 *
 * @example
 * ```ts
 * import { Duration } from "effect"
 * import { Errors } from "effect-catalog"
 *
 * const limited = new Errors.RateLimited({ requestId: null, code: null, detail: null, retryAfter: Duration.seconds(2) })
 * limited.message // "Rate limited"
 * Duration.toMillis(limited.retryAfter) // 2000
 * ```
 * @category errors
 * @since 0.1.0 (1.x: 1.0.0)
 */
export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  ...problemFields,
  /** How long the service asked to wait (1 second when it did not say). */
  retryAfter: DurationSchema
}) {
  override get message() {
    return ErrorTexts.messages.RateLimited(this)
  }
}

/**
 * 503: the service is temporarily unavailable. Wait at least `retryAfter`.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Errors } from "effect-catalog"
 *
 * declare const stats: Effect.Effect<{ readonly models: number }, Errors.ResponseError>
 *
 * // Once the client's own retries are spent: wait as asked, then try once more.
 * const patient = stats.pipe(
 *   Effect.catchTag("ServiceUnavailable", (error) => Effect.andThen(Effect.sleep(error.retryAfter), stats))
 * )
 * ```
 * @category errors
 * @since 0.1.0 (1.x: 1.0.0)
 */
export class ServiceUnavailable extends Schema.TaggedError<ServiceUnavailable>()("ServiceUnavailable", {
  ...problemFields,
  /** How long the service asked to wait (1 second when it did not say). */
  retryAfter: DurationSchema
}) {
  override get message() {
    return ErrorTexts.messages.ServiceUnavailable(this)
  }
}

/**
 * The account's allowance (daily or monthly units, daily transfer) is used up:
 * the service asked to wait longer than the client will, so the request
 * failed at once instead of sleeping until the allowance resets.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Errors } from "effect-catalog"
 *
 * declare const stats: Effect.Effect<{ readonly models: number }, Errors.CatalogError>
 *
 * const explained = stats.pipe(
 *   Effect.catchTag("QuotaExhausted", (error) => Effect.fail(`allowance spent until ${error.resetsAt.toISOString()}`))
 * )
 * ```
 * @category errors
 * @since 0.1.0 (1.x: 1.0.0)
 */
export class QuotaExhausted extends Schema.TaggedError<QuotaExhausted>()("QuotaExhausted", {
  ...problemFields,
  /** How long the service asked to wait. */
  retryAfter: DurationSchema,
  /** When the allowance resets, from `/usage/` (or from `Retry-After` when `/usage/` did not answer). */
  resetsAt: DateSchema
}) {
  override get message() {
    return ErrorTexts.messages.QuotaExhausted(this)
  }
}

/** Whose allowance a {@link BudgetExceeded} is about: the client's budget unless said otherwise. */
const AllowanceOf = literalWithDefault(["budget", "account"], "budget")

/**
 * Sending the request would pass a daily allowance; it was not sent. The
 * allowance is the budget given to the client (`of: "budget"`), or the
 * account's daily units as its last read of `/usage/` left them, less what
 * the client has spent since (`of: "account"`): the service would refuse the
 * request too.
 *
 * @example
 * ```ts
 * import { Errors } from "effect-catalog"
 *
 * const refused = new Errors.BudgetExceeded({ units: 5, spent: 998, budget: 1_000 })
 * refused.of // "budget"
 * refused.message // "The request would cost 5 units; 998 of the daily budget of 1000 are spent"
 * ```
 * @category errors
 * @since 0.1.0 (1.x: 1.0.0)
 */
export class BudgetExceeded extends Schema.TaggedError<BudgetExceeded>()("BudgetExceeded", {
  /** The units the request would cost. */
  units: Schema.Number,
  /** The units already spent today. */
  spent: Schema.Number,
  /** The daily allowance. */
  budget: Schema.Number,
  /** Whose allowance it is: the client's budget (when not given), or the account's. */
  of: AllowanceOf
}) {
  override get message() {
    return ErrorTexts.messages.BudgetExceeded(this)
  }
}

/**
 * The request did not get an answer: the connection failed, was reset or
 * dropped (`Connection`), the body was cut off (`Body`), or the answer did
 * not come in time (`Timeout`); or, where waiting cannot help, the resolver
 * says the host name does not exist (`Resolution`) or the server's TLS
 * certificate does not verify (`Certificate`). The detail names the
 * system's error code (`ENOTFOUND`, `DEPTH_ZERO_SELF_SIGNED_CERT`, …).
 *
 * @example
 * ```ts
 * import { Errors } from "effect-catalog"
 *
 * const timedOut = new Errors.TransportError({ reason: "Timeout", detail: "no answer in 30 seconds" })
 * timedOut.message // "Transport error (Timeout): no answer in 30 seconds"
 * ```
 * @category errors
 * @since 0.1.0 (1.x: 1.0.0)
 */
export class TransportError extends Schema.TaggedError<TransportError>()("TransportError", {
  reason: literals(["Connection", "Timeout", "Body", "Resolution", "Certificate"]),
  detail: Schema.String
}) {
  override get message() {
    return ErrorTexts.messages.TransportError(this)
  }
}

/**
 * The service answered outside the contract: an unknown status, or a body
 * that does not match the operation's schema.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Errors } from "effect-catalog"
 *
 * declare const stats: Effect.Effect<{ readonly models: number }, Errors.ResponseError>
 *
 * const reported = stats.pipe(
 *   Effect.tapErrorTag("UnexpectedResponse", (error) =>
 *     Effect.logError(`status ${error.status} outside the contract; report request ${error.requestId}`))
 * )
 * ```
 * @category errors
 * @since 0.1.0 (1.x: 1.0.0)
 */
export class UnexpectedResponse extends Schema.TaggedError<UnexpectedResponse>()("UnexpectedResponse", {
  ...problemFields,
  status: Schema.Number
}) {
  override get message() {
    return ErrorTexts.messages.UnexpectedResponse(this)
  }
}

/**
 * A `links.next` or `api_url` points outside the configured base URL; it was
 * not followed, and the key was not sent there.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Errors } from "effect-catalog"
 *
 * declare const follow: (apiUrl: string) => Effect.Effect<unknown, Errors.ResponseError | Errors.UnsafeLink>
 *
 * const followed = (apiUrl: string) =>
 *   follow(apiUrl).pipe(
 *     Effect.catchTag("UnsafeLink", (error) => Effect.fail(`not following ${error.link}: outside ${error.baseUrl}`))
 *   )
 * ```
 * @category errors
 * @since 0.1.0 (1.x: 1.0.0)
 */
export class UnsafeLink extends Schema.TaggedError<UnsafeLink>()("UnsafeLink", {
  /** The origin of the refused link (its path and query are not kept). */
  link: Schema.String,
  /** The configured base URL. */
  baseUrl: Schema.String
}) {
  override get message() {
    return ErrorTexts.messages.UnsafeLink(this)
  }
}

/**
 * The store of the admission (the Redis of `effect-catalog/redis`) failed:
 * it refused or dropped the connection and was not back within the store's
 * time limit, refused the credentials or a command, or did not answer in
 * time. The request was not sent. `address` and `detail` never hold a
 * password.
 *
 * @example
 * ```ts
 * import { Errors } from "effect-catalog"
 *
 * const refused = new Errors.AdmissionUnavailable({
 *   address: "redis://127.0.0.1:6379",
 *   reason: "Authentication",
 *   detail: "Redis at redis://127.0.0.1:6379 refused the credentials: WRONGPASS"
 * })
 * refused.message // "Admission unavailable (Authentication): Redis at redis://127.0.0.1:6379 refused the credentials: WRONGPASS"
 * ```
 * @category errors
 * @since 0.5.0 (1.x: 1.0.0)
 */
export class AdmissionUnavailable extends Schema.TaggedError<AdmissionUnavailable>()("AdmissionUnavailable", {
  /** Where the store is (for Redis, its URL without user name, password or query). */
  address: Schema.String,
  /** What failed: the connection, the credentials, a command the store refused, or an answer that did not come in time. */
  reason: literals(["Connection", "Authentication", "Command", "Timeout"]),
  /** What failed, in a sentence that names the address. */
  detail: Schema.String
}) {
  override get message() {
    return ErrorTexts.messages.AdmissionUnavailable(this)
  }
}

/**
 * Any error an answer of the service can be mapped to.
 *
 * @example
 * ```ts
 * import type { Errors } from "effect-catalog"
 *
 * // Every answered error carries the request id to quote; a transport error had no answer.
 * const requestIdOf = (error: Errors.ResponseError): string | null =>
 *   error._tag === "TransportError" ? null : error.requestId
 * ```
 * @category errors
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type ResponseError =
  | InvalidRequest
  | InvalidApiKey
  | ScopeMissing
  | NotFound
  | CursorExpired
  | ResponseTooLarge
  | RateLimited
  | ServiceUnavailable
  | TransportError
  | UnexpectedResponse

/**
 * Every error of the client.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { Errors } from "effect-catalog"
 *
 * const logged = <A, R>(request: Effect.Effect<A, Errors.CatalogError, R>) =>
 *   request.pipe(Effect.tapError((error) => Effect.logError(`${error._tag}: ${error.message}`)))
 * ```
 * @category errors
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type CatalogError = ResponseError | QuotaExhausted | BudgetExceeded | UnsafeLink | AdmissionUnavailable

// From an answer ------------------------------------------------------------

/**
 * The parts of an answer that errors are made from.
 *
 * @example
 * ```ts
 * import type { Errors } from "effect-catalog"
 *
 * const refused: Errors.Answer = { status: 404, headers: { "x-request-id": "req_1" }, body: "{\"code\":\"not_found\"}" }
 * ```
 * @category models
 * @since 0.2.0 (1.x: 1.0.0)
 */
export interface Answer {
  readonly status: number
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly body: string
}

/** A problem+json body, read tolerantly: every member may be missing or of any type, and others are ignored. */
const LooseProblem = fromJsonString(
  Schema.Struct({
    code: optionalKey(Schema.Unknown),
    detail: optionalKey(Schema.Unknown),
    title: optionalKey(Schema.Unknown),
    request_id: optionalKey(Schema.Unknown),
    required_scope: optionalKey(Schema.Unknown)
  })
)

const decodeProblem = Schema.decodeUnknownOption(LooseProblem)

/**
 * The wait a `Retry-After` header asks for: seconds (whole or decimal) or an
 * HTTP date; `undefined` when absent or unreadable.
 *
 * @example
 * ```ts
 * import { Duration } from "effect"
 * import { Errors } from "effect-catalog"
 *
 * const wait = Errors.parseRetryAfter("2.5", Date.now()) // 2.5 seconds
 * wait === undefined ? null : Duration.toMillis(wait) // 2500
 * Errors.parseRetryAfter("soon", Date.now()) // undefined
 * ```
 * @category utils
 * @since 0.2.0 (1.x: 1.0.0)
 */
export const parseRetryAfter = (header: string | undefined, now: number): Duration.Duration | undefined => {
  const millis = ErrorTexts.retryAfterMillis(header, now)
  return millis === undefined ? undefined : Duration.millis(millis)
}

/**
 * The error for a refused answer, from its status, its problem+json body
 * and its headers, tolerantly: a problem with missing or extra members, an
 * unknown `code` or a body that is not JSON still gives the tag of its
 * status; a status outside the contract gives `UnexpectedResponse`.
 * `redact` removes secrets from any text kept from the answer, before it is
 * cut to length.
 *
 * @example
 * ```ts
 * import { Errors } from "effect-catalog"
 *
 * const error = Errors.fromAnswer(
 *   { status: 429, headers: { "retry-after": "3" }, body: "" },
 *   { now: Date.now(), scope: null, redact: (text) => text }
 * )
 * error._tag // "RateLimited"
 * ```
 * @category constructors
 * @since 0.2.0 (1.x: 1.0.0)
 */
export const fromAnswer = (
  answer: Answer,
  context: { readonly now: number; readonly scope: string | null; readonly redact: (text: string) => string }
): ResponseError => {
  const problem = Option.getOrUndefined(decodeProblem(answer.body))
  const { fields, requiredScope } = ErrorTexts.keptOf(answer, problem, context.redact)
  const retryAfter = () => parseRetryAfter(answer.headers["retry-after"], context.now) ?? Duration.millis(ErrorTexts.defaultRetryAfterMillis)
  switch (answer.status) {
    case 400:
      return new InvalidRequest(fields)
    case 401:
      return new InvalidApiKey(fields)
    case 403:
      return new ScopeMissing({ ...fields, requiredScope: requiredScope ?? context.scope })
    case 404:
      return new NotFound(fields)
    case 409:
      return new CursorExpired(fields)
    case 422:
      return new ResponseTooLarge(fields)
    case 429:
      return new RateLimited({ ...fields, retryAfter: retryAfter() })
    case 503:
      return new ServiceUnavailable({ ...fields, retryAfter: retryAfter() })
    default:
      return new UnexpectedResponse({ ...fields, status: answer.status })
  }
}
