/**
 * The tagged errors of the client, in Effect 4: each status mapped to its
 * class by `fromAnswer`, a problem body read tolerantly (and a body that is
 * not one kept as an excerpt), the key redacted from every text kept,
 * `Retry-After` as seconds or as an HTTP date, the messages word for word as
 * the Effect 3 edition gives them, and `Effect.catchTag` over the unions.
 */
import { describe, expect, expectTypeOf, it } from "@effect/vitest"
import { Duration, Effect, Exit, Schema } from "effect"
import * as Errors from "../../common/src/client/Errors.js"

// Helpers -----------------------------------------------------------------------

type Tagged = { readonly _tag: string }

const hasTag = <E extends Tagged, T extends E["_tag"]>(error: E, tag: T): error is Extract<E, { readonly _tag: T }> =>
  error._tag === tag

/** Asserts the error's tag and narrows to it. */
const expectTag = <E extends Tagged, T extends E["_tag"]>(error: E, tag: T): Extract<E, { readonly _tag: T }> => {
  expect(error._tag).toBe(tag)
  if (!hasTag(error, tag)) throw new Error(`expected ${tag}, got ${error._tag}`)
  return error
}

const testKey = "cat_test_key_0123456789"

/** What the client's redaction does: the key, wherever it is, becomes a marker. */
const redact = (text: string) => text.replaceAll(testKey, "[redacted]")

/** A fixed instant on a whole second, so that an HTTP date (second resolution) is exact. */
const now = Date.UTC(2026, 10, 21, 12, 0, 0)

const answer = (
  status: number,
  body: string | object = "",
  headers: Readonly<Record<string, string | undefined>> = {},
  scope: string | null = null
) =>
  Errors.fromAnswer(
    { status, headers, body: typeof body === "string" ? body : JSON.stringify(body) },
    { now, scope, redact }
  )

const millisOf = (wait: Duration.Duration | undefined) => wait === undefined ? undefined : Duration.toMillis(wait)

// Statuses ------------------------------------------------------------------------

describe("fromAnswer maps each status to its class", () => {
  it("the statuses of the contract", () => {
    const cases = [
      [400, "InvalidRequest", Errors.InvalidRequest],
      [401, "InvalidApiKey", Errors.InvalidApiKey],
      [403, "ScopeMissing", Errors.ScopeMissing],
      [404, "NotFound", Errors.NotFound],
      [409, "CursorExpired", Errors.CursorExpired],
      [422, "ResponseTooLarge", Errors.ResponseTooLarge],
      [429, "RateLimited", Errors.RateLimited],
      [503, "ServiceUnavailable", Errors.ServiceUnavailable]
    ] as const
    for (const [status, tag, Class] of cases) {
      const error = answer(status, { code: "some_code", detail: "Some detail." }, { "x-request-id": `req_${status}` })
      expect(error._tag, String(status)).toBe(tag)
      expect(error, String(status)).toBeInstanceOf(Class)
      expect(error, String(status)).toBeInstanceOf(Error)
      expect(Schema.is(Class)(error), String(status)).toBe(true)
      if (error._tag !== "TransportError") {
        expect(error.requestId).toBe(`req_${status}`)
        expect(error.code).toBe("some_code")
        expect(error.detail).toBe("Some detail.")
      }
    }
  })

  it("any other status is UnexpectedResponse, with the status kept", () => {
    for (const status of [200, 201, 204, 301, 302, 304, 307, 402, 405, 410, 418, 500, 502, 504, 599]) {
      const unexpected = expectTag(answer(status, "", { "x-request-id": `req_stub_${status}` }), "UnexpectedResponse")
      expect(unexpected.status).toBe(status)
      expect(unexpected.requestId).toBe(`req_stub_${status}`)
      expect(unexpected).toBeInstanceOf(Errors.UnexpectedResponse)
    }
    const internal = expectTag(answer(500, { code: "internal_error", detail: "Something broke." }, { "x-request-id": "req_a" }), "UnexpectedResponse")
    expect(internal.code).toBe("internal_error")
    expect(internal.detail).toBe("Something broke.")
    const teapot = expectTag(answer(418, "I'm a teapot"), "UnexpectedResponse")
    expect(teapot.detail).toBe("I'm a teapot")
    expect(teapot.code).toBeNull()
    expect(teapot.requestId).toBeNull()
  })
})

// Bodies ------------------------------------------------------------------------------

describe("fromAnswer reads a problem body tolerantly", () => {
  it("missing members: the tag of the status, nothing invented", () => {
    const bare = expectTag(answer(404, {}), "NotFound")
    expect(bare.code).toBeNull()
    expect(bare.requestId).toBeNull()
    expect(bare.detail).toBeNull()
    const empty = expectTag(answer(404, ""), "NotFound")
    expect(empty.detail).toBeNull()
    expect(expectTag(answer(404, "   \n"), "NotFound").detail).toBeNull()
  })

  it("extra members and an unknown code; the header's request id wins over the body's", () => {
    const unknownCode = expectTag(
      answer(400, {
        type: "https://catalog.example/problems/brand_new_rule",
        title: "Bad Request",
        status: 400,
        code: "brand_new_rule",
        detail: "A rule the client has never heard of.",
        request_id: "req_from_body",
        errors: [{ parameter: "q" }],
        docs: "https://catalog.example/docs"
      }, { "x-request-id": "req_from_header" }),
      "InvalidRequest"
    )
    expect(unknownCode.code).toBe("brand_new_rule")
    expect(unknownCode.detail).toBe("A rule the client has never heard of.")
    expect(unknownCode.requestId).toBe("req_from_header")
  })

  it("only the body's request id", () => {
    const bodyId = expectTag(answer(401, { code: "invalid_api_key", detail: "Nope.", request_id: "req_only_body" }), "InvalidApiKey")
    expect(bodyId.requestId).toBe("req_only_body")
    expect(bodyId.code).toBe("invalid_api_key")
    expect(bodyId.detail).toBe("Nope.")
  })

  it("members of unexpected types are dropped; the title stands in for a missing detail", () => {
    const oddTypes = expectTag(
      answer(409, { code: 409, detail: ["no"], title: "Conflict", request_id: 7 }, { "x-request-id": "req_typed" }),
      "CursorExpired"
    )
    expect(oddTypes.code).toBeNull()
    expect(oddTypes.detail).toBe("Conflict")
    expect(oddTypes.requestId).toBe("req_typed")
    const nulls = expectTag(answer(422, { code: null, detail: null, title: null, request_id: null }), "ResponseTooLarge")
    expect([nulls.code, nulls.detail, nulls.requestId]).toEqual([null, null, null])
    const empties = expectTag(answer(400, { code: "", detail: "", title: "Bad" }, { "x-request-id": "" }), "InvalidRequest")
    expect([empties.code, empties.detail, empties.requestId]).toEqual([null, "Bad", null])
  })

  it("a problem that is JSON but has no detail keeps no excerpt of itself", () => {
    expect(expectTag(answer(404, { code: "not_found" }), "NotFound").detail).toBeNull()
  })

  it("a body that is not a problem is kept, trimmed, as an excerpt of at most 500 characters", () => {
    const gateway = expectTag(answer(503, "<html>Bad gateway</html>", { "x-request-id": "req_gateway" }), "ServiceUnavailable")
    expect(gateway.detail).toBe("<html>Bad gateway</html>")
    expect(gateway.code).toBeNull()
    expect(gateway.requestId).toBe("req_gateway")
    expect(expectTag(answer(422, "too big"), "ResponseTooLarge").detail).toBe("too big")
    expect(expectTag(answer(429, "  slow down \n"), "RateLimited").detail).toBe("slow down")
    // JSON that is not an object is not a problem either.
    expect(expectTag(answer(400, "[1,2]"), "InvalidRequest").detail).toBe("[1,2]")
    expect(expectTag(answer(400, "\"just a string\""), "InvalidRequest").detail).toBe("\"just a string\"")
    expect(expectTag(answer(400, "null"), "InvalidRequest").detail).toBe("null")
    // A JSON object cut off is not JSON.
    expect(expectTag(answer(400, "{\"code\":\"cut"), "InvalidRequest").detail).toBe("{\"code\":\"cut")
    const long = expectTag(answer(500, `  ${"é".repeat(800)}  `), "UnexpectedResponse")
    expect(long.detail).toBe("é".repeat(500))
  })

  it("kept texts are cut: 200 characters for the code and request id, 500 for the detail", () => {
    const long = expectTag(
      answer(400, { code: "c".repeat(300), detail: "d".repeat(900), request_id: "r".repeat(300) }),
      "InvalidRequest"
    )
    expect(long.code).toBe("c".repeat(200))
    expect(long.detail).toBe("d".repeat(500))
    expect(long.requestId).toBe("r".repeat(200))
    expect(expectTag(answer(400, { title: "t".repeat(900) }), "InvalidRequest").detail).toBe("t".repeat(500))
    expect(expectTag(answer(401, "", { "x-request-id": "h".repeat(300) }), "InvalidApiKey").requestId).toBe("h".repeat(200))
  })

  it("403: the problem's required_scope, else the scope of the operation, else null", () => {
    expect(expectTag(answer(403, { code: "insufficient_scope" }, {}, "skills:read"), "ScopeMissing").requiredScope).toBe("skills:read")
    const named = expectTag(answer(403, { code: "insufficient_scope", required_scope: "skill_content:read" }, {}, "skills:read"), "ScopeMissing")
    expect(named.requiredScope).toBe("skill_content:read")
    expect(expectTag(answer(403, { required_scope: 5 }, {}, "mcps:read"), "ScopeMissing").requiredScope).toBe("mcps:read")
    expect(expectTag(answer(403, "Forbidden"), "ScopeMissing").requiredScope).toBeNull()
  })
})

// Redaction ------------------------------------------------------------------------------

describe("the key is redacted from every text kept", () => {
  it("from the header, each member of a problem, and a raw body", () => {
    const everywhere = {
      code: `code_${testKey}`,
      detail: `Unknown key ${testKey}`,
      request_id: `req_${testKey}`,
      required_scope: `scope_${testKey}`
    }
    const errors = [
      answer(401, { code: "invalid_api_key", detail: `Unknown key ${testKey}` }),
      answer(403, everywhere),
      answer(403, { ...everywhere, request_id: undefined }, { "x-request-id": `req_${testKey}` }),
      answer(400, { title: `Bad key ${testKey}` }),
      answer(500, `<html>${testKey}</html>`, { "x-request-id": testKey }),
      answer(429, `slow down, ${testKey}`, { "retry-after": "1" }),
      answer(503, { detail: `${testKey} ${testKey}` })
    ]
    for (const error of errors) {
      expect(JSON.stringify(error)).not.toContain(testKey)
      expect(error.message).not.toContain(testKey)
      expect(String(error)).not.toContain(testKey)
      if (error._tag !== "TransportError") {
        for (const kept of [error.code, error.detail, error.requestId]) expect(kept ?? "").not.toContain(testKey)
        expect(error.detail ?? "").toContain("[redacted]")
      }
    }
    const scoped = expectTag(answer(403, everywhere), "ScopeMissing")
    expect(scoped.code).toBe("code_[redacted]")
    expect(scoped.detail).toBe("Unknown key [redacted]")
    expect(scoped.requestId).toBe("req_[redacted]")
    expect(scoped.requiredScope).toBe("scope_[redacted]")
    expect(expectTag(answer(500, `<html>${testKey}</html>`), "UnexpectedResponse").detail).toBe("<html>[redacted]</html>")
  })

  it("before the text is cut, so that no part of the key survives at the cut", () => {
    const straddling = `${"x".repeat(495)}${testKey}`
    expect(expectTag(answer(401, { detail: straddling }), "InvalidApiKey").detail).toBe(`${"x".repeat(495)}[reda`)
    expect(expectTag(answer(401, straddling), "InvalidApiKey").detail).toBe(`${"x".repeat(495)}[reda`)
    expect(expectTag(answer(401, "", { "x-request-id": `${"r".repeat(195)}${testKey}` }), "InvalidApiKey").requestId).toBe(
      `${"r".repeat(195)}[reda`
    )
  })
})

// Retry-After ------------------------------------------------------------------------------

describe("Retry-After", () => {
  it("as whole or decimal seconds, rounded up to the millisecond", () => {
    expect(millisOf(Errors.parseRetryAfter("3", now))).toBe(3_000)
    expect(millisOf(Errors.parseRetryAfter("0", now))).toBe(0)
    expect(millisOf(Errors.parseRetryAfter("0.250", now))).toBe(250)
    expect(millisOf(Errors.parseRetryAfter("2.5", now))).toBe(2_500)
    expect(millisOf(Errors.parseRetryAfter("0.0001", now))).toBe(1)
    expect(millisOf(Errors.parseRetryAfter("  7 ", now))).toBe(7_000)
    expect(millisOf(Errors.parseRetryAfter("86400", now))).toBe(86_400_000)
  })

  it("as an HTTP date: the time until then, never negative", () => {
    expect(millisOf(Errors.parseRetryAfter(new Date(now + 3_000).toUTCString(), now))).toBe(3_000)
    expect(millisOf(Errors.parseRetryAfter("Sat, 21 Nov 2026 12:01:00 GMT", now))).toBe(60_000)
    expect(millisOf(Errors.parseRetryAfter(new Date(now - 60_000).toUTCString(), now))).toBe(0)
    // A signed number is not seconds; where the engine's Date.parse reads it as a date, it is one long past.
    for (const header of ["-5", "+3"]) expect(millisOf(Errors.parseRetryAfter(header, now)) ?? 0, header).toBe(0)
  })

  it("missing or unreadable: undefined", () => {
    for (const header of [undefined, "", " ", "soon", "tomorrow", "1e3", "3s", "Infinity", "NaN", "9".repeat(400), "Sat, 32 Nov 2026 12:00:00 GMT"]) {
      expect(Errors.parseRetryAfter(header, now), String(header)).toBeUndefined()
    }
  })

  it.prop("never throws and is never negative", [Schema.String, Schema.Int], ([header, at]) => {
    const wait = Errors.parseRetryAfter(header, at)
    if (wait === undefined) return
    const millis = Duration.toMillis(wait)
    expect(Number.isNaN(millis)).toBe(false)
    expect(millis).toBeGreaterThanOrEqual(0)
  })

  it("fromAnswer: the header's wait on RateLimited and ServiceUnavailable, 1 second when missing or malformed", () => {
    for (const status of [429, 503]) {
      const waitOf = (headers: Readonly<Record<string, string | undefined>>) => {
        const error = answer(status, { code: "rate_limited" }, headers)
        if (error._tag !== "RateLimited" && error._tag !== "ServiceUnavailable") throw new Error(`${status} gave ${error._tag}`)
        return Duration.toMillis(error.retryAfter)
      }
      expect(waitOf({ "retry-after": "3" })).toBe(3_000)
      expect(waitOf({ "retry-after": "0.250" })).toBe(250)
      expect(waitOf({ "retry-after": new Date(now + 3_000).toUTCString() })).toBe(3_000)
      expect(waitOf({})).toBe(1_000)
      expect(waitOf({ "retry-after": undefined })).toBe(1_000)
      expect(waitOf({ "retry-after": "soon" })).toBe(1_000)
      expect(waitOf({ "retry-after": "3s" })).toBe(1_000)
      expect(waitOf({ "retry-after": "" })).toBe(1_000)
    }
  })
})

// Messages ------------------------------------------------------------------------------------

describe("messages, as the Effect 3 edition gives them", () => {
  it("the errors of an answer: what, then the detail, then the request id, each when known", () => {
    const problem = { requestId: "req_1", code: "some_code", detail: "Some detail." }
    const none = { requestId: null, code: null, detail: null }
    const cases: ReadonlyArray<readonly [Errors.CatalogError, string]> = [
      [new Errors.InvalidRequest({ requestId: null, code: "local_validation", detail: "limit must be at most 100" }), "Invalid request: limit must be at most 100"],
      [new Errors.InvalidRequest(problem), "Invalid request: Some detail. (request req_1)"],
      [new Errors.InvalidApiKey(problem), "Invalid API key: Some detail. (request req_1)"],
      [new Errors.InvalidApiKey(none), "Invalid API key"],
      [new Errors.ScopeMissing({ ...problem, requiredScope: "skills:read" }), "Key lacks the scope skills:read: Some detail. (request req_1)"],
      [new Errors.ScopeMissing({ ...none, requiredScope: null }), "Key lacks the scope (unknown)"],
      [new Errors.NotFound(problem), "Not found: Some detail. (request req_1)"],
      [new Errors.NotFound({ ...none, requestId: "req_2" }), "Not found (request req_2)"],
      [new Errors.CursorExpired(none), "Cursor expired"],
      [new Errors.ResponseTooLarge({ ...none, detail: "Ask for a smaller page." }), "Response too large: Ask for a smaller page."],
      [new Errors.RateLimited({ ...none, retryAfter: Duration.seconds(2) }), "Rate limited"],
      [new Errors.RateLimited({ ...problem, retryAfter: Duration.seconds(2) }), "Rate limited: Some detail. (request req_1)"],
      [new Errors.ServiceUnavailable({ ...none, retryAfter: Duration.seconds(1) }), "Service unavailable"],
      [
        new Errors.QuotaExhausted({ ...problem, retryAfter: Duration.hours(3), resetsAt: new Date("2026-11-22T00:00:00.000Z") }),
        "Allowance used up until 2026-11-22T00:00:00.000Z: Some detail. (request req_1)"
      ],
      [new Errors.BudgetExceeded({ units: 5, spent: 998, budget: 1_000 }), "The request would cost 5 units; 998 of the daily budget of 1000 are spent"],
      [new Errors.BudgetExceeded({ units: 1, spent: 0, budget: 0 }), "The request would cost 1 unit; 0 of the daily budget of 0 are spent"],
      [
        new Errors.BudgetExceeded({ units: 1, spent: 12, budget: 12, of: "account" }),
        "The request would cost 1 unit; 12 of the account's daily 12 are used (per /usage/)"
      ],
      [
        new Errors.BudgetExceeded({ units: 2, spent: 5, budget: 6, of: "budget" }),
        "The request would cost 2 units; 5 of the daily budget of 6 are spent"
      ],
      [new Errors.TransportError({ reason: "Timeout", detail: "no answer in 30 seconds" }), "Transport error (Timeout): no answer in 30 seconds"],
      [new Errors.TransportError({ reason: "Resolution", detail: "ENOTFOUND" }), "Transport error (Resolution): ENOTFOUND"],
      [
        new Errors.UnexpectedResponse({ requestId: "req_exact_second", code: null, detail: "data[2].id: Expected string, actual 12", status: 200 }),
        "Unexpected response (status 200): data[2].id: Expected string, actual 12 (request req_exact_second)"
      ],
      [new Errors.UnexpectedResponse({ ...none, status: 418 }), "Unexpected response (status 418)"],
      [
        new Errors.UnsafeLink({ link: "https://evil.example", baseUrl: "https://catalog.example/api/v1" }),
        "Refused to follow a link to https://evil.example: it is not below https://catalog.example/api/v1"
      ],
      [
        new Errors.AdmissionUnavailable({
          address: "redis://127.0.0.1:6379",
          reason: "Authentication",
          detail: "Redis at redis://127.0.0.1:6379 refused the credentials: WRONGPASS"
        }),
        "Admission unavailable (Authentication): Redis at redis://127.0.0.1:6379 refused the credentials: WRONGPASS"
      ]
    ]
    for (const [error, message] of cases) {
      expect(error.message, error._tag).toBe(message)
      expect(String(error), error._tag).toContain(message)
    }
  })

  it("of errors made by fromAnswer", () => {
    expect(answer(404, { code: "not_found", detail: "No such resource." }, { "x-request-id": "req_9" }).message).toBe(
      "Not found: No such resource. (request req_9)"
    )
    expect(answer(403, { code: "insufficient_scope" }, {}, "skills:read").message).toBe("Key lacks the scope skills:read")
    expect(answer(503, "<html>Bad gateway</html>").message).toBe("Service unavailable: <html>Bad gateway</html>")
    expect(answer(500, {}, { "x-request-id": "req_a" }).message).toBe("Unexpected response (status 500) (request req_a)")
  })
})

// Fields -------------------------------------------------------------------------------------

describe("fields", () => {
  it("BudgetExceeded is of the client's budget unless said otherwise, when made or decoded", () => {
    expect(new Errors.BudgetExceeded({ units: 1, spent: 0, budget: 0 }).of).toBe("budget")
    expect(new Errors.BudgetExceeded({ units: 1, spent: 0, budget: 0, of: "account" }).of).toBe("account")
    const decoded = Schema.decodeUnknownSync(Errors.BudgetExceeded)({ _tag: "BudgetExceeded", units: 3, spent: 1, budget: 2 })
    expect(decoded).toBeInstanceOf(Errors.BudgetExceeded)
    expect(decoded.of).toBe("budget")
    expectTypeOf(decoded.of).toEqualTypeOf<"budget" | "account">()
  })

  it("the constructors check their fields", () => {
    expect(() => new Errors.TransportError({ reason: "Connection", detail: "ECONNRESET" })).not.toThrow()
    expect(() => Schema.decodeUnknownSync(Errors.TransportError)({ _tag: "TransportError", reason: "Lost", detail: "?" })).toThrow()
    expect(() => Schema.decodeUnknownSync(Errors.AdmissionUnavailable)({ _tag: "AdmissionUnavailable", address: "a", reason: "Body", detail: "?" })).toThrow()
    expect(() => Schema.decodeUnknownSync(Errors.RateLimited)({ _tag: "RateLimited", requestId: null, code: null, detail: null, retryAfter: 1_000 })).toThrow()
  })

  it("the Duration and Date fields hold what they were given", () => {
    const resetsAt = new Date("2026-11-22T00:00:00.000Z")
    const quota = new Errors.QuotaExhausted({ requestId: null, code: "daily_units", detail: null, retryAfter: Duration.minutes(90), resetsAt })
    expect(Duration.toMillis(quota.retryAfter)).toBe(5_400_000)
    expect(quota.resetsAt.getTime()).toBe(resetsAt.getTime())
    expectTypeOf(quota.retryAfter).toEqualTypeOf<Duration.Duration>()
    expectTypeOf(quota.resetsAt).toEqualTypeOf<Date>()
  })
})

// Matching on the unions -------------------------------------------------------------------------

describe("Effect.catchTag over the unions", () => {
  const failWith = (error: Errors.ResponseError): Effect.Effect<string, Errors.ResponseError> => Effect.fail(error)

  it.effect("catches its tag and lets every other through, narrowing the error type", () =>
    Effect.gen(function*() {
      const caught = failWith(answer(404, { code: "not_found" }, { "x-request-id": "req_nf" })).pipe(
        Effect.catchTag("NotFound", (error) => Effect.succeed(`absent (${error.requestId})`))
      )
      expectTypeOf(caught).toEqualTypeOf<Effect.Effect<string, Exclude<Errors.ResponseError, Errors.NotFound>>>()
      expect(yield* caught).toBe("absent (req_nf)")

      const passed = failWith(answer(429, "", { "retry-after": "2" })).pipe(Effect.catchTag("NotFound", () => Effect.succeed("absent")))
      const limited = expectTag(yield* Effect.flip(passed), "RateLimited")
      expect(Duration.toMillis(limited.retryAfter)).toBe(2_000)

      const scoped = yield* failWith(answer(403, {}, {}, "mcps:read")).pipe(
        Effect.catchTag("ScopeMissing", (error) => Effect.succeed(error.requiredScope ?? ""))
      )
      expect(scoped).toBe("mcps:read")
    }))

  it.effect("catchTag on several tags, and an exhaustive catchTags over CatalogError leaves no error", () =>
    Effect.gen(function*() {
      const waits = yield* Effect.forEach([429, 503], (status) =>
        failWith(answer(status, "", { "retry-after": "4" })).pipe(
          Effect.catchTag(["RateLimited", "ServiceUnavailable"], (error) => Effect.succeed(Duration.toMillis(error.retryAfter)))
        ))
      expect(waits).toEqual([4_000, 4_000])

      const all = (error: Errors.CatalogError) =>
        Effect.fail(error).pipe(
          Effect.catchTags({
            InvalidRequest: (e) => Effect.succeed(e._tag),
            InvalidApiKey: (e) => Effect.succeed(e._tag),
            ScopeMissing: (e) => Effect.succeed(e._tag),
            NotFound: (e) => Effect.succeed(e._tag),
            CursorExpired: (e) => Effect.succeed(e._tag),
            ResponseTooLarge: (e) => Effect.succeed(e._tag),
            RateLimited: (e) => Effect.succeed(e._tag),
            ServiceUnavailable: (e) => Effect.succeed(e._tag),
            QuotaExhausted: (e) => Effect.succeed(e._tag),
            BudgetExceeded: (e) => Effect.succeed(e._tag),
            TransportError: (e) => Effect.succeed(e._tag),
            UnexpectedResponse: (e) => Effect.succeed(e._tag),
            UnsafeLink: (e) => Effect.succeed(e._tag),
            AdmissionUnavailable: (e) => Effect.succeed(e._tag)
          })
        )
      expectTypeOf<Effect.Error<ReturnType<typeof all>>>().toEqualTypeOf<never>()
      expect(yield* all(new Errors.BudgetExceeded({ units: 1, spent: 0, budget: 0 }))).toBe("BudgetExceeded")
      expect(yield* all(new Errors.UnsafeLink({ link: "https://evil.example", baseUrl: "https://catalog.example" }))).toBe("UnsafeLink")
      for (const status of [400, 401, 403, 404, 409, 422, 429, 503, 500]) {
        const error = answer(status)
        expect(yield* all(error)).toBe(error._tag)
      }
    }))

  it.effect("the errors are yieldable in Effect.gen", () =>
    Effect.gen(function*() {
      const program = Effect.gen(function*() {
        yield* new Errors.UnsafeLink({ link: "https://evil.example", baseUrl: "https://catalog.example" })
        return "followed"
      })
      const exit = yield* Effect.exit(program)
      expect(Exit.isFailure(exit)).toBe(true)
      const recovered = yield* program.pipe(Effect.catchTag("UnsafeLink", (error) => Effect.succeed(error.link)))
      expect(recovered).toBe("https://evil.example")
    }))
})
