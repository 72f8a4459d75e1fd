/**
 * What the client's errors say, and what they keep of a refused answer, as
 * plain functions of plain data: each error's message, by its tag; the
 * fields an answer gives (request id, problem code, detail or an excerpt of
 * the body, required scope), scrubbed and cut to length; and the wait a
 * `Retry-After` header asks for.
 *
 * Imports nothing of Effect. `Errors` (common/src/client/Errors.ts, one
 * text compiled against either Effect) gives these messages from its error
 * classes and reads answers with them.
 */
import { plural } from "../Words.js"

/** What the service said about a failed request, where it said it. */
interface Said {
  readonly detail: string | null
  readonly requestId: string | null
}

const describe = (what: string, said: Said) =>
  `${what}${said.detail === null ? "" : `: ${said.detail}`}${said.requestId === null ? "" : ` (request ${said.requestId})`}`

/** The message of each error of the client, by its tag. */
export const messages = {
  InvalidRequest: (error: Said) => describe("Invalid request", error),
  InvalidApiKey: (error: Said) => describe("Invalid API key", error),
  ScopeMissing: (error: Said & { readonly requiredScope: string | null }) =>
    describe(`Key lacks the scope ${error.requiredScope ?? "(unknown)"}`, error),
  NotFound: (error: Said) => describe("Not found", error),
  CursorExpired: (error: Said) => describe("Cursor expired", error),
  ResponseTooLarge: (error: Said) => describe("Response too large", error),
  RateLimited: (error: Said) => describe("Rate limited", error),
  ServiceUnavailable: (error: Said) => describe("Service unavailable", error),
  QuotaExhausted: (error: Said & { readonly resetsAt: Date }) =>
    describe(`Allowance used up until ${error.resetsAt.toISOString()}`, error),
  BudgetExceeded: (error: { readonly units: number; readonly spent: number; readonly budget: number; readonly of: "budget" | "account" }) =>
    error.of === "account"
      ? `The request would cost ${plural(error.units, "unit")}; ${error.spent} of the account's daily ${error.budget} are used (per /usage/)`
      : `The request would cost ${plural(error.units, "unit")}; ${error.spent} of the daily budget of ${error.budget} are spent`,
  TransportError: (error: { readonly reason: string; readonly detail: string }) => `Transport error (${error.reason}): ${error.detail}`,
  UnexpectedResponse: (error: Said & { readonly status: number }) => describe(`Unexpected response (status ${error.status})`, error),
  UnsafeLink: (error: { readonly link: string; readonly baseUrl: string }) =>
    `Refused to follow a link to ${error.link}: it is not below ${error.baseUrl}`,
  AdmissionUnavailable: (error: { readonly reason: string; readonly detail: string }) =>
    `Admission unavailable (${error.reason}): ${error.detail}`
} as const

/**
 * The detail of an answer the operation cannot give: the status, the
 * operation, and what the answer said, without its request id (the
 * `UnexpectedResponse` that carries this detail names it once); a 404 most
 * often means the base URL does not end in the contract's base path.
 */
export const notAnAnswer = (status: number, operation: string, said: string, requestId: string | null): string => {
  const suffix = requestId === null ? "" : ` (request ${requestId})`
  const text = suffix !== "" && said.endsWith(suffix) ? said.slice(0, said.length - suffix.length) : said
  const hint = status === 404 ? `; check the base URL, which should end in the base path /api/v1 (e.g. https://catalog.example/api/v1)` : ""
  return `Status ${status} is not an answer ${operation} can give: ${text}${hint}`
}

/** The members of a problem+json body an error keeps, as read tolerantly: any may be missing or of any type. */
export interface LooseProblem {
  readonly code?: unknown
  readonly detail?: unknown
  readonly title?: unknown
  readonly request_id?: unknown
  readonly required_scope?: unknown
}

/** A refused answer's headers and body. */
interface Refused {
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly body: string
}

const text = (value: unknown): string | null => (typeof value === "string" && value.length > 0 ? value : null)

/** At most this many characters of a body that is not a problem are kept. */
const excerptLength = 500

/**
 * What the error of a refused answer keeps of it: its request id (header,
 * else the problem's), the problem's code, its detail or title, or an
 * excerpt of a body that is not a problem (`problem` undefined), and the
 * scope it says is required. `redact` removes secrets from each text before
 * it is cut to length.
 */
export const keptOf = (answer: Refused, problem: LooseProblem | undefined, redact: (text: string) => string) => {
  const kept = (value: unknown, length = 200) => {
    const found = text(value)
    return found === null ? null : redact(found).slice(0, length)
  }
  const raw = answer.body.trim()
  return {
    fields: {
      requestId: kept(answer.headers["x-request-id"]) ?? kept(problem?.request_id),
      code: kept(problem?.code),
      detail: kept(problem?.detail, excerptLength) ?? kept(problem?.title, excerptLength) ??
        (problem === undefined ? kept(raw, excerptLength) : null)
    },
    requiredScope: kept(problem?.required_scope)
  }
}

/** The wait, when a refusal's `Retry-After` gives none that can be read. */
export const defaultRetryAfterMillis = 1000

/**
 * The wait a `Retry-After` header asks for, in milliseconds: seconds (whole
 * or decimal) or an HTTP date; `undefined` when absent or unreadable.
 */
export const retryAfterMillis = (header: string | undefined, now: number): number | undefined => {
  if (header === undefined) return undefined
  const value = header.trim()
  if (/^\d+(\.\d+)?$/.test(value)) {
    const millis = Math.ceil(Number(value) * 1000)
    return Number.isFinite(millis) ? millis : undefined
  }
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}
