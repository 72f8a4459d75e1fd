/**
 * What the client's errors say and the wait a refusal asks for
 * (`rules/src/client/ErrorTexts`), tested once for both editions, whose
 * error classes give these messages and whose `Errors.parseRetryAfter` is
 * `retryAfterMillis` as a `Duration`: `Retry-After` as whole or decimal
 * seconds or as an HTTP date, never negative, never a throw; each error's
 * message word for word. The editions' tests check their classes, the
 * errors `fromAnswer` makes and what reaches a caller over HTTP.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as ErrorTexts from "../../src/client/ErrorTexts.js"

/** A fixed instant on a whole second, so that an HTTP date (second resolution) is exact. */
const now = Date.UTC(2026, 10, 21, 12, 0, 0)

const char = (min: number, max: number) => fc.integer({ min, max }).map((code) => String.fromCharCode(code))

/** A header's value as a server may send it: printable ASCII mostly, tabs and Latin-1 bytes now and then. */
const headerValue = fc.string({
  unit: fc.oneof({ weight: 20, arbitrary: char(0x20, 0x7e) }, { weight: 1, arbitrary: fc.constant("\t") }, { weight: 2, arbitrary: char(0x80, 0xff) }),
  maxLength: 60
})

/** `Retry-After` values a server may send, well-formed or not. */
const retryAfter = fc.oneof(
  fc.nat().map(String),
  fc.double().map(String),
  fc.bigInt({ min: 0n, max: 10n ** 400n }).map(String),
  fc.tuple(fc.nat({ max: 100_000 }), fc.nat({ max: 999 })).map(([whole, fraction]) => `${whole}.${fraction}`),
  fc.date({ noInvalidDate: true }).map((date) => date.toUTCString()),
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  fc.constantFrom("", " ", "-1", "1.", ".5", "1.5e3", "Infinity", "NaN", "0x10", "Wed, 21 Oct 2015 07:28:00 GMT", "Fri, 31 Dec 9999 23:59:59 GMT", "1, 2"),
  headerValue
)

describe("ErrorTexts.retryAfterMillis", () => {
  it("as whole or decimal seconds, rounded up to the millisecond", () => {
    expect(ErrorTexts.retryAfterMillis("3", now)).toBe(3_000)
    expect(ErrorTexts.retryAfterMillis("0", now)).toBe(0)
    expect(ErrorTexts.retryAfterMillis("0.250", now)).toBe(250)
    expect(ErrorTexts.retryAfterMillis("2.5", now)).toBe(2_500)
    expect(ErrorTexts.retryAfterMillis("0.0001", now)).toBe(1)
    expect(ErrorTexts.retryAfterMillis("  7 ", now)).toBe(7_000)
    expect(ErrorTexts.retryAfterMillis("86400", now)).toBe(86_400_000)
  })

  it("as an HTTP date: the time until then, never negative", () => {
    expect(ErrorTexts.retryAfterMillis(new Date(now + 3_000).toUTCString(), now)).toBe(3_000)
    expect(ErrorTexts.retryAfterMillis("Sat, 21 Nov 2026 12:01:00 GMT", now)).toBe(60_000)
    expect(ErrorTexts.retryAfterMillis(new Date(now - 60_000).toUTCString(), now)).toBe(0)
    // A signed number is not seconds; where the engine's Date.parse reads it as a date, it is one long past.
    for (const header of ["-5", "+3"]) expect(ErrorTexts.retryAfterMillis(header, now) ?? 0, header).toBe(0)
  })

  it("missing or unreadable: undefined", () => {
    for (const header of [undefined, "", " ", "soon", "tomorrow", "1e3", "3s", "Infinity", "NaN", "9".repeat(400), "Sat, 32 Nov 2026 12:00:00 GMT"]) {
      expect(ErrorTexts.retryAfterMillis(header, now), String(header)).toBeUndefined()
    }
  })

  it("never throws and is never negative, whatever the header and the clock", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.constant(undefined), retryAfter, fc.string(), fc.string({ unit: "binary" })),
        fc.oneof(fc.constant(Date.now()), fc.integer({ min: 0, max: 8_640_000_000_000_000 }), fc.integer()),
        (header, at) => {
          const millis = ErrorTexts.retryAfterMillis(header, at)
          if (millis === undefined) return
          expect(Number.isNaN(millis)).toBe(false)
          expect(millis).toBeGreaterThanOrEqual(0)
        }
      ),
      { numRuns: 2_000 }
    )
  })

  it("a refusal that gives no wait waits 1 second", () => {
    expect(ErrorTexts.defaultRetryAfterMillis).toBe(1_000)
  })
})

describe("ErrorTexts.messages", () => {
  it("the errors of an answer: what, then the detail, then the request id, each when known", () => {
    const problem = { requestId: "req_1", detail: "Some detail." }
    const none = { requestId: null, detail: null }
    const { messages } = ErrorTexts
    const cases: ReadonlyArray<readonly [string, string]> = [
      [messages.InvalidRequest({ requestId: null, detail: "limit must be at most 100" }), "Invalid request: limit must be at most 100"],
      [messages.InvalidRequest(problem), "Invalid request: Some detail. (request req_1)"],
      [messages.InvalidApiKey(problem), "Invalid API key: Some detail. (request req_1)"],
      [messages.InvalidApiKey(none), "Invalid API key"],
      [messages.ScopeMissing({ ...problem, requiredScope: "skills:read" }), "Key lacks the scope skills:read: Some detail. (request req_1)"],
      [messages.ScopeMissing({ ...none, requiredScope: null }), "Key lacks the scope (unknown)"],
      [messages.NotFound(problem), "Not found: Some detail. (request req_1)"],
      [messages.NotFound({ ...none, requestId: "req_2" }), "Not found (request req_2)"],
      [messages.CursorExpired(none), "Cursor expired"],
      [messages.ResponseTooLarge({ ...none, detail: "Ask for a smaller page." }), "Response too large: Ask for a smaller page."],
      [messages.RateLimited(none), "Rate limited"],
      [messages.RateLimited(problem), "Rate limited: Some detail. (request req_1)"],
      [messages.ServiceUnavailable(none), "Service unavailable"],
      [
        messages.QuotaExhausted({ ...problem, resetsAt: new Date("2026-11-22T00:00:00.000Z") }),
        "Allowance used up until 2026-11-22T00:00:00.000Z: Some detail. (request req_1)"
      ],
      [messages.BudgetExceeded({ units: 5, spent: 998, budget: 1_000, of: "budget" }), "The request would cost 5 units; 998 of the daily budget of 1000 are spent"],
      [messages.BudgetExceeded({ units: 1, spent: 0, budget: 0, of: "budget" }), "The request would cost 1 unit; 0 of the daily budget of 0 are spent"],
      [
        messages.BudgetExceeded({ units: 1, spent: 12, budget: 12, of: "account" }),
        "The request would cost 1 unit; 12 of the account's daily 12 are used (per /usage/)"
      ],
      [messages.TransportError({ reason: "Timeout", detail: "no answer in 30 seconds" }), "Transport error (Timeout): no answer in 30 seconds"],
      [messages.TransportError({ reason: "Resolution", detail: "ENOTFOUND" }), "Transport error (Resolution): ENOTFOUND"],
      [
        messages.UnexpectedResponse({ requestId: "req_exact_second", detail: "data[2].id: Expected string, actual 12", status: 200 }),
        "Unexpected response (status 200): data[2].id: Expected string, actual 12 (request req_exact_second)"
      ],
      [messages.UnexpectedResponse({ ...none, status: 418 }), "Unexpected response (status 418)"],
      [
        messages.UnsafeLink({ link: "https://evil.example", baseUrl: "https://catalog.example/api/v1" }),
        "Refused to follow a link to https://evil.example: it is not below https://catalog.example/api/v1"
      ],
      [
        messages.AdmissionUnavailable({ reason: "Authentication", detail: "Redis at redis://127.0.0.1:6379 refused the credentials: WRONGPASS" }),
        "Admission unavailable (Authentication): Redis at redis://127.0.0.1:6379 refused the credentials: WRONGPASS"
      ]
    ]
    for (const [message, expected] of cases) expect(message).toBe(expected)
  })
})
