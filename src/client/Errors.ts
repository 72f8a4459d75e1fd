/**
 * The tagged errors of the Catalog client: one class per meaning, each with
 * the request id, the problem `code` and `detail` where the service sent them,
 * and what a caller needs to act. None of them ever holds the API key.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { CatalogClient, Errors } from "effect-catalog"
 *
 * const model = CatalogClient.CatalogClient.pipe(
 *   Effect.flatMap((catalog) => catalog.model({ organization: "o0000-falcon", model: "m0000000-kestrel-8b" })),
 *   Effect.catchTag("NotFound", (error: Errors.NotFound) => Effect.succeed(null))
 * )
 * ```
 * @since 0.1.0
 */
import { Schema } from "effect"

/** What the service said about a failed request, where it said it. */
const problemFields = {
  /** The `X-Request-Id` of the response, to quote in failure reports. */
  requestId: Schema.NullOr(Schema.String),
  /** The problem's machine-readable `code`. */
  code: Schema.NullOr(Schema.String),
  /** The problem's `detail`, or the raw body when it was not a problem. */
  detail: Schema.NullOr(Schema.String)
}

const describe = (what: string, fields: { readonly detail: string | null; readonly requestId: string | null }) =>
  `${what}${fields.detail === null ? "" : `: ${fields.detail}`}${fields.requestId === null ? "" : ` (request ${fields.requestId})`}`

/**
 * 400: a parameter breaks the contract's rules. Also raised before any
 * request is sent, when the client sees the rule broken itself
 * (`requestId` is then null and `code` is `local_validation`).
 *
 * @since 0.1.0
 */
export class InvalidRequest extends Schema.TaggedError<InvalidRequest>()("InvalidRequest", problemFields) {
  override get message() {
    return describe("Invalid request", this)
  }
}

/**
 * 401: the key is missing, unknown, revoked or expired. Replace the key;
 * retrying with the same key cannot succeed.
 *
 * @since 0.1.0
 */
export class InvalidApiKey extends Schema.TaggedError<InvalidApiKey>()("InvalidApiKey", problemFields) {
  override get message() {
    return describe("Invalid API key", this)
  }
}

/**
 * 403: the key lacks the scope the operation needs.
 *
 * @since 0.1.0
 */
export class ScopeMissing extends Schema.TaggedError<ScopeMissing>()("ScopeMissing", {
  ...problemFields,
  /** The scope the operation requires. */
  requiredScope: Schema.NullOr(Schema.String)
}) {
  override get message() {
    return describe(`Key lacks the scope ${this.requiredScope ?? "(unknown)"}`, this)
  }
}

/**
 * 404: the resource does not exist. Treat it as absent (the request still
 * cost its units).
 *
 * @since 0.1.0
 */
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", problemFields) {
  override get message() {
    return describe("Not found", this)
  }
}

/**
 * 409: the cursor is older than one hour. Restart the listing from its first
 * page.
 *
 * @since 0.1.0
 */
export class CursorExpired extends Schema.TaggedError<CursorExpired>()("CursorExpired", problemFields) {
  override get message() {
    return describe("Cursor expired", this)
  }
}

/**
 * 422: the response would pass 512 KiB. Ask for a smaller page.
 *
 * @since 0.1.0
 */
export class ResponseTooLarge extends Schema.TaggedError<ResponseTooLarge>()("ResponseTooLarge", problemFields) {
  override get message() {
    return describe("Response too large", this)
  }
}

/**
 * 429: an account limit was reached. Wait at least `retryAfter`.
 *
 * @since 0.1.0
 */
export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  ...problemFields,
  /** How long the service asked to wait (1 second when it did not say). */
  retryAfter: Schema.DurationFromSelf
}) {
  override get message() {
    return describe("Rate limited", this)
  }
}

/**
 * 503: the service is temporarily unavailable. Wait at least `retryAfter`.
 *
 * @since 0.1.0
 */
export class ServiceUnavailable extends Schema.TaggedError<ServiceUnavailable>()("ServiceUnavailable", {
  ...problemFields,
  /** How long the service asked to wait (1 second when it did not say). */
  retryAfter: Schema.DurationFromSelf
}) {
  override get message() {
    return describe("Service unavailable", this)
  }
}

/**
 * The account's allowance (daily or monthly units, daily transfer) is used up:
 * the service asked to wait longer than the client will, so the request
 * failed at once instead of sleeping until the allowance resets.
 *
 * @since 0.1.0
 */
export class QuotaExhausted extends Schema.TaggedError<QuotaExhausted>()("QuotaExhausted", {
  ...problemFields,
  /** How long the service asked to wait. */
  retryAfter: Schema.DurationFromSelf,
  /** When the allowance resets, from `/usage/` (or from `Retry-After` when `/usage/` did not answer). */
  resetsAt: Schema.DateFromSelf
}) {
  override get message() {
    return describe(`Allowance used up until ${this.resetsAt.toISOString()}`, this)
  }
}

/**
 * Sending the request would pass the daily budget given to the client; it was
 * not sent.
 *
 * @since 0.1.0
 */
export class BudgetExceeded extends Schema.TaggedError<BudgetExceeded>()("BudgetExceeded", {
  /** The units the request would cost. */
  units: Schema.Number,
  /** The units already spent today. */
  spent: Schema.Number,
  /** The daily budget. */
  budget: Schema.Number
}) {
  override get message() {
    return `The request would cost ${this.units} units; ${this.spent} of the daily budget of ${this.budget} are spent`
  }
}

/**
 * The request did not get an answer: the connection failed, was reset or
 * dropped, or the answer did not come in time.
 *
 * @since 0.1.0
 */
export class TransportError extends Schema.TaggedError<TransportError>()("TransportError", {
  reason: Schema.Literal("Connection", "Timeout", "Body"),
  detail: Schema.String
}) {
  override get message() {
    return `Transport error (${this.reason}): ${this.detail}`
  }
}

/**
 * The service answered outside the contract: an unknown status, or a body
 * that does not match the operation's schema.
 *
 * @since 0.1.0
 */
export class UnexpectedResponse extends Schema.TaggedError<UnexpectedResponse>()("UnexpectedResponse", {
  ...problemFields,
  status: Schema.Number
}) {
  override get message() {
    return describe(`Unexpected response (status ${this.status})`, this)
  }
}

/**
 * A `links.next` or `api_url` points outside the configured base URL; it was
 * not followed, and the key was not sent there.
 *
 * @since 0.1.0
 */
export class UnsafeLink extends Schema.TaggedError<UnsafeLink>()("UnsafeLink", {
  /** The origin of the refused link (its path and query are not kept). */
  link: Schema.String,
  /** The configured base URL. */
  baseUrl: Schema.String
}) {
  override get message() {
    return `Refused to follow a link to ${this.link}: it is not below ${this.baseUrl}`
  }
}

/**
 * Any error an answer of the service can be mapped to.
 *
 * @since 0.1.0
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
 * @since 0.1.0
 */
export type CatalogError = ResponseError | QuotaExhausted | BudgetExceeded | UnsafeLink
