/**
 * Property tests of the CatalogClient against a stub server that answers
 * arbitrary statuses, headers and bodies: nothing the network or the server
 * does becomes a defect, and every failure is a tagged error of the
 * operation's own union. Also arbitrary JSON as a list page, and arbitrary
 * strings (any UTF-16 code units, lone surrogates among them) as every
 * parameter of every operation and as URLs to follow: no defect, a string
 * without a UTF-8 form refused before sending, and every request the stub receives exactly the
 * one the parameters name (each in its own segment, only the documented
 * query parameters with the values given, no fragment).
 *
 * Statuses 1xx are left out: Node's server sends them, but undici takes 100
 * and 101 as a broken answer and 102, 103 and other 1xx as interim answers
 * and keeps waiting for the final one (the request then ends in a Timeout
 * TransportError). 204 and 304 cannot carry the body the stub sends, so they
 * may end as a Body TransportError. `Retry-After` on arbitrary headers, a
 * rule both editions share, is tested once in
 * rules/test/client/ErrorTexts.test.ts.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Chunk, Duration, Effect, Exit, Layer, Logger, LogLevel, Option, Redacted, Runtime, Schema, Stream } from "effect"
import fc from "fast-check"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import type * as Errors from "../../common/src/client/Errors.js"
import * as Operations from "../../common/src/contract/Operations.js"
import { KindFilter, PathParameter, SearchType } from "../../common/src/contract/Parameters.js"
import { wireModel } from "../support/Fixtures.js"
import * as Stub from "../support/Stub.js"
import { direct } from "../support/Client.js"

// The client's tags and each operation's union ---------------------------------

type Tag = Errors.CatalogError["_tag"]

const allTags: ReadonlySet<string> = new Set<Tag>([
  "InvalidRequest",
  "InvalidApiKey",
  "ScopeMissing",
  "NotFound",
  "CursorExpired",
  "ResponseTooLarge",
  "RateLimited",
  "QuotaExhausted",
  "BudgetExceeded",
  "ServiceUnavailable",
  "TransportError",
  "UnexpectedResponse",
  "UnsafeLink"
])

const common: ReadonlyArray<Tag> = ["InvalidRequest", "InvalidApiKey", "RateLimited", "QuotaExhausted", "ServiceUnavailable", "TransportError", "UnexpectedResponse", "BudgetExceeded"]
const parameterized: ReadonlyArray<Tag> = [...common, "ScopeMissing", "ResponseTooLarge"]

/** The tag the client gives a refused status, when the operation can give it. */
const statusTags: ReadonlyMap<number, Tag> = new Map<number, Tag>([
  [400, "InvalidRequest"],
  [401, "InvalidApiKey"],
  [403, "ScopeMissing"],
  [404, "NotFound"],
  [409, "CursorExpired"],
  [422, "ResponseTooLarge"],
  [429, "RateLimited"],
  [503, "ServiceUnavailable"]
])

interface Operation {
  readonly name: string
  readonly tags: ReadonlySet<Tag>
  /** Whether the operation reads links (a stream's `links.next`, `follow`). */
  readonly followsLinks: boolean
  readonly run: (catalog: CatalogClient.Service, stub: Stub.Service) => Effect.Effect<unknown, Errors.CatalogError>
}

const operations: ReadonlyArray<Operation> = [
  {
    name: "model",
    tags: new Set<Tag>([...parameterized, "NotFound"]),
    followsLinks: false,
    run: (catalog) => catalog.model({ organization: "o0000-falcon", model: "m0000000-kestrel-8b" })
  },
  {
    name: "modelsPage",
    tags: new Set<Tag>([...parameterized, "CursorExpired"]),
    followsLinks: false,
    run: (catalog) => catalog.modelsPage({ limit: 10, reasoning: true })
  },
  { name: "stats", tags: new Set<Tag>(common), followsLinks: false, run: (catalog) => catalog.stats() },
  {
    name: "models",
    tags: new Set<Tag>([...parameterized, "CursorExpired", "UnsafeLink"]),
    followsLinks: true,
    run: (catalog) => Stream.runCollect(catalog.models({ limit: 10 }))
  },
  {
    name: "follow",
    tags: new Set<Tag>([...parameterized, "NotFound", "UnsafeLink"]),
    followsLinks: true,
    run: (catalog, stub) => catalog.follow(`${stub.baseUrl}/models/o0000-falcon/m0000000-kestrel-8b/`)
  }
]

// What the stub answers ----------------------------------------------------------

/** Replaced by the stub's base URL when the answer is sent. */
const BASE = "{{BASE}}"

interface Answer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}


const wireStats = { id: "catalog", models: 1, skills: 2, mcps: 3, organizations: 4, providers: 5, families: 6 }

const char = (min: number, max: number) => fc.integer({ min, max }).map((code) => String.fromCharCode(code))

/** A header value Node can send: tab, printable ASCII, and Latin-1. */
const headerValue = fc.string({ unit: fc.oneof({ weight: 20, arbitrary: char(0x20, 0x7e) }, { weight: 1, arbitrary: fc.constant("\t") }, { weight: 2, arbitrary: char(0x80, 0xff) }), maxLength: 60 })

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

const contentType = fc.oneof(
  fc.constantFrom("application/json", "application/problem+json", "text/plain", "text/html; charset=utf-8", "application/json; charset=latin1", "application/octet-stream"),
  headerValue
)

const headers: fc.Arbitrary<Readonly<Record<string, string>>> = fc
  .tuple(
    fc.record(
      { "retry-after": retryAfter, "x-request-id": headerValue, "content-type": contentType, etag: headerValue, "cache-control": headerValue },
      { requiredKeys: [] }
    ),
    fc.dictionary(fc.stringMatching(/^x-[a-z0-9-]{1,16}$/), headerValue, { maxKeys: 3 })
  )
  .map(([known, extra]) => {
    const all: Record<string, string> = { ...extra }
    for (const [name, value] of Object.entries(known)) if (value !== undefined) all[name] = value
    return all
  })

/** A JSON value of any type, or a string, for a member of a problem. */
const member = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.string())

const problem = fc
  .record(
    { type: member, title: member, status: member, code: member, detail: member, request_id: member, required_scope: member },
    { requiredKeys: [] }
  )
  .map((value) => JSON.stringify(value))

/** A link in a page: none, the stub itself, inside or outside the base URL, or junk. */
const next = fc.oneof(
  fc.constant(null),
  fc.constant(`${BASE}/models/?cursor=c2`),
  fc.constant(`${BASE}/stats/`),
  fc.constant("https://elsewhere.invalid/api/v1/models/?cursor=c2"),
  fc.webUrl(),
  fc.string({ maxLength: 40 })
)

const page = fc
  .tuple(fc.nat({ max: 3 }), next, fc.oneof(fc.constant(null), fc.string({ maxLength: 20 })))
  .map(([count, link, cursor]) =>
    JSON.stringify({
      data: Array.from({ length: count }, () => wireModel(BASE)),
      pagination: { limit: 10, has_more: link !== null, next_cursor: cursor },
      links: { next: link },
      meta: { observed_at: null, stale: null }
    })
  )

const wellFormed = fc.constantFrom(JSON.stringify({ data: wireModel(BASE) }), JSON.stringify({ data: wireStats }))

const body: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string() },
  { weight: 2, arbitrary: fc.string({ unit: "binary" }) },
  { weight: 3, arbitrary: fc.json() },
  { weight: 4, arbitrary: problem },
  { weight: 3, arbitrary: page },
  { weight: 2, arbitrary: wellFormed },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.oneof(fc.json(), problem, page, wellFormed), fc.nat())
      .map(([text, cut]) => text.slice(0, cut % (text.length + 1)))
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 50_000, max: 1_500_000 }), fc.constantFrom("x", "é", "{", "\"", "\u0000", "😀"))
      .map(([length, unit]) => unit.repeat(length))
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 50_000, max: 1_000_000 }).map((length) => JSON.stringify({ detail: "d".repeat(length), code: "x" }))
  }
)

const status = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(200, 400, 401, 403, 404, 409, 422, 429, 503, 500, 204, 304) },
  { weight: 2, arbitrary: fc.integer({ min: 200, max: 599 }) }
)

const answer: fc.Arbitrary<Answer> = fc.record({ status, headers, body })

/**
 * Answers with `answer` for the first three requests, then with a last,
 * empty page, so that a stream that keeps following the stub ends.
 */
const responder = (reply: Answer, baseUrl: string) => {
  let served = 0
  const last = Stub.json(200, { data: [], pagination: { limit: 10, has_more: false, next_cursor: null }, links: { next: null }, meta: { observed_at: null, stale: null } })
  return (): Stub.Reply => {
    served += 1
    if (served > 3) return last
    return { status: reply.status, headers: reply.headers, body: reply.body.split(BASE).join(baseUrl) }
  }
}

// Checks -------------------------------------------------------------------------

/** The one typed error of an exit, or `undefined` on success; anything else fails. */
const typedFailure = <A>(exit: Exit.Exit<A, Errors.CatalogError>, context: string): Errors.CatalogError | undefined => {
  if (Exit.isSuccess(exit)) return undefined
  expect(Cause.isDie(exit.cause), `${context}: a defect\n${Cause.pretty(exit.cause)}`).toBe(false)
  expect(Cause.isInterruptedOnly(exit.cause), `${context}: interrupted`).toBe(false)
  expect(Cause.isInterrupted(exit.cause), `${context}: interrupted`).toBe(false)
  const failures = Chunk.toReadonlyArray(Cause.failures(exit.cause))
  expect(failures.length, `${context}: not a single Fail\n${Cause.pretty(exit.cause)}`).toBe(1)
  const error = failures[0]
  if (error === undefined) return expect.fail(context)
  expect(allTags.has(error._tag), `${context}: unknown tag ${String(error._tag)}`).toBe(true)
  if (error._tag === "RateLimited" || error._tag === "ServiceUnavailable") {
    const millis = Duration.toMillis(error.retryAfter)
    expect(Number.isNaN(millis), `${context}: NaN retryAfter`).toBe(false)
    expect(millis, `${context}: negative retryAfter`).toBeGreaterThanOrEqual(0)
  }
  return error
}

/** The tags an answer with this status may give this operation. */
const tagsFor = (operation: Operation, status: number): ReadonlySet<Tag> => {
  if (status === 200) return new Set<Tag>(operation.followsLinks ? ["UnexpectedResponse", "UnsafeLink"] : ["UnexpectedResponse"])
  const tag = statusTags.get(status)
  const mapped: Tag = tag !== undefined && operation.tags.has(tag) ? tag : "UnexpectedResponse"
  // A 429 that asks for a longer wait than the client's cap is a spent allowance.
  if (status === 429) return new Set<Tag>([mapped, "QuotaExhausted"])
  return new Set<Tag>(status === 204 || status === 304 ? [mapped, "TransportError"] : [mapped])
}

/** Checks every operation against one answer, counting the outcomes in `seen`. */
const check = (seen: Map<string, number>) => (reply: Answer) =>
  Effect.gen(function*() {
    const stub = yield* Stub.Stub
    for (const operation of operations) {
      yield* stub.answer(responder(reply, stub.baseUrl))
      // A fresh client for each call: a 429 must not pause, nor a spent allowance stop, the next one.
      const exit = yield* Effect.exit(
        Effect.flatMap(CatalogClient.CatalogClient, (catalog) => operation.run(catalog, stub)).pipe(
          Effect.provide(client(stub)),
          // The client's layer is built from valid options and cannot fail.
          Effect.catchTag("ConfigError", (error) => Effect.die(error))
        )
      )
      const context = `${operation.name} <- ${reply.status}`
      const error = typedFailure(exit, context)
      const outcome = error === undefined ? "success" : error._tag
      seen.set(outcome, (seen.get(outcome) ?? 0) + 1)
      if (error === undefined) {
        // A stream heals a 409 (restarting) and a 422 (smaller pages); the stub then ends the list.
        const healed = operation.followsLinks && (reply.status === 409 || reply.status === 422)
        expect(reply.status === 200 || healed, `${context}: success`).toBe(true)
        continue
      }
      expect(operation.tags.has(error._tag), `${context}: ${error._tag} is not in the operation's union`).toBe(true)
      expect([...tagsFor(operation, reply.status)], `${context}: ${error._tag}`).toContain(error._tag)
    }
  })

/** A client of the stub that gives up after 5 seconds. */
const client = (stub: Stub.Service) =>
  CatalogClient.layer({ ...direct, baseUrl: stub.baseUrl, apiKey: Redacted.make("cat_live_fuzz_key_0123456789"), timeout: "5 seconds" })

/** A stub, and an HTTP client. */
const env = Layer.merge(Stub.layer, NodeHttpClient.layerUndici)

/** Runs an asynchronous property with the runtime of the current test, without the client's log lines (restarts, smaller pages), which are expected here. */
const property = <T, R>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Effect.Effect<void, never, R>, numRuns: number) =>
  Effect.gen(function*() {
    const runtime = yield* Effect.runtime<R>()
    yield* Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(arbitrary, (value) => Runtime.runPromise(runtime, predicate(value).pipe(Logger.withMinimumLogLevel(LogLevel.None)))),
        { numRuns }
      )
    )
  })

// Strings a caller passes --------------------------------------------------------

/** Whether a string has a UTF-8 form: it comes back unchanged from a round trip through UTF-8. */
const isWellFormed = (text: string) => new TextDecoder().decode(new TextEncoder().encode(text)) === text

/** Any UTF-16 code unit: a lone surrogate as often as not in the surrogate range. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code))

/** Text that means something in a URL or a path. */
const urlUnit = fc.constantFrom("/", "?", "#", "&", "=", "+", "%", "%2F", "%ED%A0%80", ".", "..", " ", "\\", "\u0000", "\r\n", "é", "😀", "\ud800", "\udc00")

/**
 * Any string: code points of the whole range (`binary`, which gives no lone
 * surrogate), any code units, text that means something in a URL, and a lone
 * surrogate at the start, the end or inside.
 */
const anyString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.string({ unit: fc.oneof(codeUnit, urlUnit, fc.constantFrom("a", "b", "-")), maxLength: 12 }),
  fc.tuple(fc.string({ maxLength: 6 }), fc.integer({ min: 0xd800, max: 0xdfff }), fc.string({ maxLength: 6 }))
    .map(([before, code, after]) => `${before}${String.fromCharCode(code)}${after}`),
  fc.constantFrom("a\ud800b", "\ud800", "\udfff", "x\udbff", "\udc00y", "\udc00\ud800", "😀\ud83d", ".", "..", "", "kestrel")
)

/** Values a query parameter of some operation takes: each field is given these or any string. */
const validCandidates: ReadonlyArray<unknown> = [true, false, 1, 7, 25, 100, "kestrel", ...SearchType.literals, ...KindFilter.literals]

/**
 * The arbitrary value of one query parameter: a value its schema takes, or a
 * number out of range; and any string, but for `limit`, which a scan reads as
 * its page size and takes only as a number.
 */
const queryValue = (field: Schema.Struct.Fields[string], name: string) => {
  const accepts = Schema.is(Schema.typeSchema(Schema.Struct({ [name]: field })))
  const valid = validCandidates.filter((candidate) => accepts({ [name]: candidate }))
  const number = fc.integer({ min: -3, max: 200 }).map((value): unknown => value)
  return name === "limit"
    ? fc.oneof(fc.constantFrom(...valid), number)
    : fc.oneof(fc.constantFrom(...valid), anyString.map((text): unknown => text), number)
}

/** What a call to an operation gives: its path and query parameters and, for a list, the cursor of an earlier scan to go on from. */
interface Call {
  readonly parameters: Readonly<Record<string, unknown>>
  readonly from: string | undefined
}

const callOf = (operation: Operations.AnyOperation): fc.Arbitrary<Call> => {
  const fields: Schema.Struct.Fields = operation.query.fields
  const path = Object.fromEntries(operation.pathParameters.map((name) => [name, anyString.map((text): unknown => text)]))
  const query = Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, queryValue(field, name)]))
  return fc.record({
    parameters: fc.record({ ...query, ...path }, { requiredKeys: [...operation.pathParameters] }),
    from: operation.kind === "list" ? fc.option(anyString, { nil: undefined }) : fc.constant(undefined)
  })
}

/** Whether the client may send a call: the contract's rules hold, and every string has a UTF-8 form. */
const sendable = (operation: Operations.AnyOperation, call: Call): boolean => {
  const query = Object.fromEntries(Object.entries(call.parameters).filter(([name]) => name in operation.query.fields))
  const querySchema: Schema.Schema.AnyNoContext = operation.query
  return operation.pathParameters.every((name) => {
    const value = call.parameters[name]
    return Schema.is(PathParameter)(value) && value !== "." && value !== ".." && isWellFormed(value)
  }) &&
    Schema.is(Schema.typeSchema(querySchema))(query) &&
    Object.values(query).every((value) => typeof value !== "string" || isWellFormed(value)) &&
    (call.from === undefined || isWellFormed(call.from))
}

/** The query value a given parameter is sent as. */
const wireValue = (value: unknown): string => (typeof value === "string" ? value : String(value))

/**
 * Checks the one request a call sent: no fragment, the operation's segments
 * below `/api/v1` with each path parameter in its own, decoded to the value
 * given, and only the documented query parameters, with the values given.
 */
const expectSentAsGiven = (operation: Operations.AnyOperation, call: Call, request: Stub.Received, context: string) => {
  expect(request.url, `${context}: a fragment on the request line`).not.toContain("#")
  const [rawPath = "", rawQuery = ""] = request.url.split("?", 2)
  expect(rawPath.startsWith("/api/v1/"), `${context}: ${request.url}`).toBe(true)
  const segments = rawPath.slice("/api/v1".length).split("/")
  const template = operation.path.split("/")
  expect(segments.length, `${context}: ${request.url}`).toBe(template.length)
  template.forEach((part, index) => {
    const name = /^\{(.+)\}$/.exec(part)?.[1]
    expect(decodeURIComponent(segments[index] ?? ""), `${context}: segment ${index} of ${request.url}`).toBe(name === undefined ? part : call.parameters[name])
  })
  const query = new URLSearchParams(rawQuery)
  const expected = new Map<string, string>()
  for (const [name, value] of Object.entries(call.parameters)) {
    if (name in operation.query.fields && value !== undefined) expected.set(name, wireValue(value))
  }
  if (operation.kind === "list") {
    if (!expected.has("limit")) expected.set("limit", String(operation.maxLimit))
    if (call.from !== undefined) expected.set("cursor", call.from)
  }
  expect([...query.keys()].sort(), `${context}: ${request.url}`).toEqual([...expected.keys()].sort())
  for (const [name, value] of expected) expect(query.get(name), `${context}: ${name} in ${request.url}`).toBe(value)
}

/** Calls one operation as the command and programs that choose it at run time do: `read` for a detail, `wirePages` for a list. */
const callOperation = (catalog: CatalogClient.Service, operation: Operations.AnyOperation, call: Call): Effect.Effect<unknown, Errors.CatalogError> => {
  if (operation.kind === "detail") {
    const path = Object.fromEntries(Object.entries(call.parameters).flatMap(([name, value]) => (typeof value === "string" ? [[name, value]] : [])))
    return catalog.read(operation.id, path)
  }
  return Stream.runDrain(catalog.wirePages(operation.id, call.parameters, call.from ?? null))
}

const emptyPage = Stub.json(200, { data: [], pagination: { limit: 10, has_more: false, next_cursor: null }, links: { next: null }, meta: { observed_at: null, stale: null } })

/** A client of the stub in context, the stub and an HTTP client. */
const stubWithClient = Layer.unwrapEffect(Effect.map(Stub.Stub, client)).pipe(Layer.provideMerge(env))

/** Counts of what the string properties saw, so that they are not vacuous. */
interface Tally {
  sent: number
  refused: number
  illFormed: number
}

/** Calls every operation with arbitrary parameters and checks what the stub received. */
const checkOperations = (tally: Tally) => (calls: ReadonlyArray<Call>) =>
  Effect.gen(function*() {
    const catalog = yield* CatalogClient.CatalogClient
    const stub = yield* Stub.Stub
    for (const [index, operation] of Operations.all.entries()) {
      const call = calls[index]
      if (call === undefined) return expect.fail(`no call for ${operation.id}`)
      yield* stub.answer(() => (operation.kind === "list" ? emptyPage : Stub.json(404, { code: "not_found", detail: "no such resource" })))
      const before = (yield* stub.received).length
      const context = `${operation.id}(${JSON.stringify(call)})`
      // A call the stub answers at once ends within milliseconds: one that does not end in 30 s fails, naming its input.
      const ended = yield* Effect.timeoutOption(Effect.exit(callOperation(catalog, operation, call)), "30 seconds")
      if (Option.isNone(ended)) return expect.fail(`${context} did not end within 30 s`)
      const exit = ended.value
      const sent = (yield* stub.received).slice(before)
      const error = typedFailure(exit, context)
      if (sendable(operation, call)) {
        expect(sent, context).toHaveLength(1)
        const [request] = sent
        if (request !== undefined) expectSentAsGiven(operation, call, request, context)
        // The stub answers a detail with 404: NotFound, or UnexpectedResponse where the operation has no such answer (stats, usage).
        expect(operation.kind === "list" ? ["success"] : ["NotFound", "UnexpectedResponse"], context).toContain(error?._tag ?? "success")
        tally.sent += 1
      } else {
        expect(sent, `${context}: sent ${sent.map((request) => request.url).join(", ")}`).toEqual([])
        expect(error?._tag, context).toBe("InvalidRequest")
        if (error?._tag === "InvalidRequest") expect(error.code, context).toBe("local_validation")
        tally.refused += 1
        const strings = [...Object.values(call.parameters), call.from].filter((value) => typeof value === "string")
        if (!strings.every(isWellFormed)) tally.illFormed += 1
      }
    }
  })

/** A path segment of a link: mostly well-formed, so that most links reach the stub. */
const linkSegment = fc.oneof({ weight: 3, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 10 }) }, { weight: 1, arbitrary: anyString })

/** A URL to follow: any string after the base URL, or a model's URL with any segments, any query and any fragment. */
const linkSuffix = fc.oneof(
  { weight: 1, arbitrary: anyString.map((text) => `/${text}`) },
  {
    weight: 3,
    arbitrary: fc.tuple(linkSegment, linkSegment, fc.constantFrom("", "", "offers/", "../", "%2E%2E/", "?view=full", "x/y/"), fc.option(linkSegment, { nil: undefined }))
    .map(([organization, model, tail, fragment]) => {
      const segment = (text: string) => (isWellFormed(text) ? encodeURIComponent(text) : text)
      return `/models/${segment(organization)}/${segment(model)}/${tail}${fragment === undefined ? "" : `#${fragment}`}`
    })
  }
)

const detailTemplates = Operations.all.flatMap((operation) =>
  operation.kind === "detail" ? [new RegExp(`^/api/v1${operation.path.replace(/\{[^}]+\}/g, "[^/]+")}$`)] : []
)

/** Follows the base URL and a suffix, and checks what the stub received. */
const checkFollow = (tally: Tally) => (suffix: string) =>
  Effect.gen(function*() {
    const catalog = yield* CatalogClient.CatalogClient
    const stub = yield* Stub.Stub
    const link = `${stub.baseUrl}${suffix}`
    const before = (yield* stub.received).length
    const exit = yield* Effect.exit(catalog.follow(link))
    const sent = (yield* stub.received).slice(before)
    const context = `follow(${JSON.stringify(link)})`
    const error = typedFailure(exit, context)
    if (!isWellFormed(link)) {
      expect(sent, context).toEqual([])
      expect(error?._tag, context).toBe("InvalidRequest")
      tally.illFormed += 1
      return
    }
    const [request, ...more] = sent
    expect(more, context).toEqual([])
    if (request === undefined) {
      expect(["InvalidRequest", "UnsafeLink"], context).toContain(error?._tag)
      tally.refused += 1
      return
    }
    tally.sent += 1
    expect(error?._tag, context).toBe("NotFound")
    expect(request.url, `${context}: a fragment on the request line`).not.toContain("#")
    const [rawPath = "", rawQuery = ""] = request.url.split("?", 2)
    const target = new URL(link)
    expect(rawPath, context).toBe(target.pathname)
    expect([...new URLSearchParams(rawQuery)], context).toEqual([...target.searchParams])
    expect(detailTemplates.some((template) => template.test(rawPath)), `${context}: ${rawPath} names no detail operation`).toBe(true)
  })

// Tests --------------------------------------------------------------------------

describe("client fuzz", () => {
  it.live("any status, headers and body: a success or a tagged error of the operation's union, never a defect", () =>
    Effect.gen(function*() {
      const seen = new Map<string, number>()
      yield* property(answer, check(seen), 150)
      // The property is not vacuous: successes and most kinds of failure occurred.
      expect(seen.get("success") ?? 0).toBeGreaterThan(0)
      expect(seen.get("UnexpectedResponse") ?? 0).toBeGreaterThan(0)
      expect(seen.size, [...seen].join(", ")).toBeGreaterThanOrEqual(8)
    }).pipe(Effect.provide(env)), 120_000)

  it.live("arbitrary JSON as the 200 body of a list page: a success or UnexpectedResponse", () => {
    const looseModel = fc.oneof(
      fc.constant<unknown>(wireModel(BASE)),
      fc.tuple(fc.constantFrom(...Object.keys(wireModel(BASE))), fc.jsonValue({ maxDepth: 2 })).map(([key, value]): unknown => ({ ...wireModel(BASE), [key]: value }))
    )
    const envelope = fc
      .record(
        {
          data: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.array(looseModel, { maxLength: 3 })),
          pagination: fc.oneof(
            fc.jsonValue({ maxDepth: 2 }),
            fc.record({ limit: fc.oneof(fc.integer(), fc.jsonValue({ maxDepth: 1 })), has_more: fc.oneof(fc.boolean(), fc.jsonValue({ maxDepth: 1 })), next_cursor: fc.oneof(fc.string(), fc.constant(null), fc.jsonValue({ maxDepth: 1 })) })
          ),
          links: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.record({ next: fc.oneof(fc.constant(null), fc.webUrl(), fc.jsonValue({ maxDepth: 1 })) })),
          meta: fc.oneof(
            fc.jsonValue({ maxDepth: 2 }),
            fc.record({ observed_at: fc.oneof(fc.constant(null), fc.string(), fc.jsonValue({ maxDepth: 1 })), stale: fc.oneof(fc.constant(null), fc.boolean(), fc.jsonValue({ maxDepth: 1 })) })
          )
        },
        { requiredKeys: [] }
      )
      .map((value): unknown => value)
    const json = fc.oneof(fc.jsonValue({ maxDepth: 4 }), envelope)
    return property(
      json,
      (value) =>
        Effect.gen(function*() {
          const stub = yield* Stub.Stub
          yield* stub.answer(() => Stub.json(200, value, { "x-request-id": "req_fuzz" }))
          const exit = yield* Effect.exit(
            Effect.flatMap(CatalogClient.CatalogClient, (catalog) => catalog.modelsPage()).pipe(
              Effect.provide(client(stub)),
              Effect.catchTag("ConfigError", (error) => Effect.die(error))
            )
          )
          const error = typedFailure(exit, `modelsPage <- ${JSON.stringify(value).slice(0, 200)}`)
          if (error !== undefined) {
            expect(error._tag).toBe("UnexpectedResponse")
            return
          }
          if (Exit.isSuccess(exit)) {
            expect(exit.value.requestId).toBe("req_fuzz")
            expect(Array.isArray(exit.value.items)).toBe(true)
          }
        }),
      200
    ).pipe(Effect.provide(env))
  }, 60_000)

  it.live("any string as any parameter of every operation: refused before sending when it cannot be sent, otherwise sent exactly as given", () =>
    Effect.gen(function*() {
      const tally: Tally = { sent: 0, refused: 0, illFormed: 0 }
      yield* property(fc.tuple(...Operations.all.map(callOf)), checkOperations(tally), 60)
      expect(tally.sent).toBeGreaterThan(100)
      expect(tally.refused).toBeGreaterThan(100)
      expect(tally.illFormed).toBeGreaterThan(50)
    }).pipe(Effect.provide(stubWithClient)), 120_000)

  it.live("any string after the base URL to follow: refused before sending when it cannot be sent or leaves the base URL, otherwise sent without its fragment", () =>
    Effect.gen(function*() {
      const stub = yield* Stub.Stub
      yield* stub.answer(() => Stub.json(404, { code: "not_found", detail: "no such resource" }))
      const tally: Tally = { sent: 0, refused: 0, illFormed: 0 }
      yield* property(linkSuffix, checkFollow(tally), 400)
      expect(tally.sent).toBeGreaterThan(40)
      expect(tally.refused).toBeGreaterThan(40)
      expect(tally.illFormed).toBeGreaterThan(40)
    }).pipe(Effect.provide(stubWithClient)), 60_000)
})
