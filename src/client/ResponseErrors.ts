/**
 * Maps a refused answer of the service to its tagged error, from the status,
 * the problem+json body and the headers, tolerantly: a problem with missing
 * or extra members, an unknown `code` or a body that is not JSON still gives
 * the tag of its status; a status outside the contract gives
 * `UnexpectedResponse`.
 *
 * @internal
 */
import { Duration, Option, Schema } from "effect"
import * as Errors from "./Errors.js"

/**
 * The parts of an answer that errors are made from.
 *
 * @since 0.1.0
 */
export interface Answer {
  readonly status: number
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly body: string
}

const LooseProblem = Schema.parseJson(
  Schema.Struct({
    code: Schema.optional(Schema.Unknown),
    detail: Schema.optional(Schema.Unknown),
    title: Schema.optional(Schema.Unknown),
    request_id: Schema.optional(Schema.Unknown),
    required_scope: Schema.optional(Schema.Unknown)
  })
)

const decodeProblem = Schema.decodeUnknownOption(LooseProblem)

const text = (value: unknown): string | null => (typeof value === "string" && value.length > 0 ? value : null)

/** At most this many characters of a body that is not a problem are kept. */
const excerptLength = 500

/**
 * The wait a `Retry-After` header asks for: seconds (whole or decimal) or an
 * HTTP date; `undefined` when absent or unreadable.
 *
 * @since 0.1.0
 */
export const parseRetryAfter = (header: string | undefined, now: number): Duration.Duration | undefined => {
  if (header === undefined) return undefined
  const value = header.trim()
  if (/^\d+(\.\d+)?$/.test(value)) {
    const millis = Math.ceil(Number(value) * 1000)
    return Number.isFinite(millis) ? Duration.millis(millis) : undefined
  }
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Duration.millis(Math.max(0, date - now))
}

/**
 * The error for a refused answer. `redact` removes secrets from any text
 * kept from the answer, before it is cut to length.
 *
 * @since 0.1.0
 */
export const fromAnswer = (
  answer: Answer,
  context: { readonly now: number; readonly scope: string | null; readonly redact: (text: string) => string }
): Errors.ResponseError => {
  const problem = Option.getOrUndefined(decodeProblem(answer.body))
  const kept = (value: unknown, length = 200) => {
    const found = text(value)
    return found === null ? null : context.redact(found).slice(0, length)
  }
  const raw = answer.body.trim()
  const fields = {
    requestId: kept(answer.headers["x-request-id"]) ?? kept(problem?.request_id),
    code: kept(problem?.code),
    detail: kept(problem?.detail, excerptLength) ?? kept(problem?.title, excerptLength) ??
      (problem === undefined ? kept(raw, excerptLength) : null)
  }
  const retryAfter = () => parseRetryAfter(answer.headers["retry-after"], context.now) ?? Duration.seconds(1)
  switch (answer.status) {
    case 400:
      return new Errors.InvalidRequest(fields)
    case 401:
      return new Errors.InvalidApiKey(fields)
    case 403:
      return new Errors.ScopeMissing({ ...fields, requiredScope: kept(problem?.required_scope) ?? context.scope })
    case 404:
      return new Errors.NotFound(fields)
    case 409:
      return new Errors.CursorExpired(fields)
    case 422:
      return new Errors.ResponseTooLarge(fields)
    case 429:
      return new Errors.RateLimited({ ...fields, retryAfter: retryAfter() })
    case 503:
      return new Errors.ServiceUnavailable({ ...fields, retryAfter: retryAfter() })
    default:
      return new Errors.UnexpectedResponse({ ...fields, status: answer.status })
  }
}
