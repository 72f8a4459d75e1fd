/**
 * Generated answers, against a stub server over real HTTP: any status,
 * headers and body (garbage, cut JSON, problems whose members have any
 * type, pages whose links lead anywhere, huge bodies, `Retry-After`s of any
 * form) give each operation a success or a tagged error of its own union,
 * the one the status maps to, and never a defect. The answers come from a
 * seeded generator, so every run meets the same ones.
 */
import { describe, expect, it } from "@effect/vitest"
import { Cause, Duration, Effect, Exit, Option, References, Stream } from "effect"
import { CatalogClient, type Errors } from "effect-catalog"
import { wireModel as wireModelBelow } from "../../test/support/Fixtures.js"
import { clientOf, optionsOf } from "./support/Client.js"
import * as Stub from "./support/Stub.js"

// A seeded generator --------------------------------------------------------------

/** Numbers in [0, 1) from a seed (mulberry32). */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
}

type Next = () => number

const int = (next: Next, min: number, max: number) => min + Math.floor(next() * (max - min + 1))
const pick = <A>(next: Next, values: readonly [A, ...Array<A>]): A => values[int(next, 0, values.length - 1)] ?? values[0]
const text = (next: Next, alphabet: readonly [string, ...Array<string>], max: number) => Array.from({ length: int(next, 0, max) }, () => pick(next, alphabet)).join("")

const printable: readonly [string, ...Array<string>] = [" ", ...Array.from({ length: 0x7e - 0x20 }, (_, index) => String.fromCharCode(0x21 + index))]
const anyUnit: readonly [string, ...Array<string>] = [...printable, "\t", "é", "\u0000", "😀", "\ud800", "\"", "\\", "{", "}", "[", "]"]

// What the stub answers ------------------------------------------------------------

/** Replaced by the stub's base URL when the answer is sent. */
const BASE = "{{BASE}}"

const wireModel = wireModelBelow(BASE)

/** The fields of a model a page may send with a value of any type. */
const modelFields = ["id", "name", "released_on", "context_tokens", "reasoning", "offer_count", "api_url", "specifications"] as const

const wireStats = { id: "catalog", models: 1, skills: 2, mcps: 3, organizations: 4, providers: 5, families: 6 }

/** A JSON value of any type, for a member of a problem or a field of a model. */
const anyValue = (next: Next): unknown =>
  pick<() => unknown>(next, [
    () => null,
    () => next() < 0.5,
    () => int(next, -1_000, 1_000_000),
    () => next() * 1e300,
    () => text(next, anyUnit, 20),
    () => [text(next, printable, 5), int(next, 0, 9)],
    () => ({ nested: text(next, printable, 5) })
  ])()

const retryAfter = (next: Next) =>
  pick<() => string>(next, [
    () => String(int(next, 0, 100_000)),
    () => `${int(next, 0, 100)}.${int(next, 0, 999)}`,
    () => String(10n ** BigInt(int(next, 0, 400))),
    () => new Date(int(next, 0, 4_000_000_000_000)).toUTCString(),
    () => new Date(int(next, 0, 4_000_000_000_000)).toISOString(),
    () => pick(next, ["", " ", "-1", "1.", ".5", "1.5e3", "Infinity", "NaN", "0x10", "Fri, 31 Dec 9999 23:59:59 GMT", "1, 2"]),
    () => text(next, printable, 30)
  ])()

const headers = (next: Next): Record<string, string> => {
  const all: Record<string, string> = {}
  if (next() < 0.6) all["retry-after"] = retryAfter(next)
  if (next() < 0.7) {
    all["content-type"] = pick(next, [
      "application/json",
      "application/problem+json",
      "text/plain",
      "text/html; charset=utf-8",
      "application/octet-stream",
      text(next, printable, 20)
    ])
  }
  if (next() < 0.5) all["x-request-id"] = text(next, printable, 40)
  if (next() < 0.3) all["etag"] = text(next, printable, 20)
  return all
}

const problem = (next: Next) =>
  JSON.stringify(Object.fromEntries(
    ["type", "title", "status", "code", "detail", "request_id", "required_scope"].filter(() => next() < 0.7).map((name) => [name, anyValue(next)])
  ))

/** A list page of up to 3 models, one of them perhaps with a field of any value, whose link leads anywhere. */
const page = (next: Next) => {
  const link = pick(next, [null, `${BASE}/models/?cursor=c2`, `${BASE}/stats/`, "https://elsewhere.invalid/api/v1/models/?cursor=c2", text(next, printable, 30)])
  const models = Array.from({ length: int(next, 0, 3) }, () =>
    next() < 0.3 ? { ...wireModel, [pick(next, modelFields)]: anyValue(next) } : wireModel)
  return JSON.stringify({
    data: models,
    pagination: { limit: 10, has_more: link !== null, next_cursor: next() < 0.5 ? null : text(next, printable, 10) },
    links: { next: link },
    meta: { observed_at: null, stale: null }
  })
}

const wellFormed = (next: Next) => pick(next, [JSON.stringify({ data: wireModel }), JSON.stringify({ data: wireStats })])

const body = (next: Next): string =>
  pick<() => string>(next, [
    () => text(next, anyUnit, 200),
    () => JSON.stringify(anyValue(next)),
    () => problem(next),
    () => problem(next),
    () => page(next),
    () => page(next),
    () => wellFormed(next),
    () => {
      const whole = pick<() => string>(next, [() => problem(next), () => page(next), () => wellFormed(next)])()
      return whole.slice(0, int(next, 0, whole.length))
    },
    () => pick(next, ["x", "é", "{", "\"", "\u0000", "😀"]).repeat(int(next, 50_000, 600_000))
  ])()

const status = (next: Next) => next() < 0.6 ? pick(next, [200, 200, 400, 401, 403, 404, 409, 422, 429, 503, 500, 204, 304]) : int(next, 200, 599)

interface Answer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

const answer = (next: Next): Answer => ({ status: status(next), headers: headers(next), body: body(next) })

/** Answers `reply` to the first three requests, then a last, empty page, so that a stream that keeps following the stub ends. */
const responder = (reply: Answer, baseUrl: string) => {
  let served = 0
  const last = Stub.json(200, {
    data: [],
    pagination: { limit: 10, has_more: false, next_cursor: null },
    links: { next: null },
    meta: { observed_at: null, stale: null }
  })
  return (): Stub.Reply => {
    served += 1
    return served > 3 ? last : { status: reply.status, headers: reply.headers, body: reply.body.split(BASE).join(baseUrl) }
  }
}

// Each operation's union -----------------------------------------------------------

type Tag = Errors.CatalogError["_tag"]

const common: ReadonlyArray<Tag> = [
  "InvalidRequest",
  "InvalidApiKey",
  "RateLimited",
  "QuotaExhausted",
  "ServiceUnavailable",
  "TransportError",
  "UnexpectedResponse",
  "BudgetExceeded"
]
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
  /** Whether it reads links (a stream's `links.next`, `follow`), and so heals a 409 and a 422 when it is a stream. */
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
  { name: "modelsPage", tags: new Set<Tag>([...parameterized, "CursorExpired"]), followsLinks: false, run: (catalog) => catalog.modelsPage({ limit: 10 }) },
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

/** The tags an answer of this status may give this operation. */
const tagsFor = (operation: Operation, status: number): ReadonlyArray<Tag> => {
  if (status === 200) return operation.followsLinks ? ["UnexpectedResponse", "UnsafeLink"] : ["UnexpectedResponse"]
  const tag = statusTags.get(status)
  const mapped: Tag = tag !== undefined && operation.tags.has(tag) ? tag : "UnexpectedResponse"
  // A 429 that asks for a longer wait than the client's cap is a spent allowance.
  if (status === 429) return [mapped, "QuotaExhausted"]
  return status === 204 || status === 304 ? [mapped, "TransportError"] : [mapped]
}

/** The one typed error of an exit, or `undefined` on success; a defect or an interruption fails the test. */
const typedFailure = (exit: Exit.Exit<unknown, Errors.CatalogError>, context: string): Errors.CatalogError | undefined => {
  if (Exit.isSuccess(exit)) return undefined
  expect(Cause.hasDies(exit.cause), `${context}: a defect\n${Cause.pretty(exit.cause)}`).toBe(false)
  expect(Cause.hasInterrupts(exit.cause), `${context}: interrupted`).toBe(false)
  expect(exit.cause.reasons, `${context}: not a single failure\n${Cause.pretty(exit.cause)}`).toHaveLength(1)
  const error = Option.getOrUndefined(Cause.findErrorOption(exit.cause))
  if (error === undefined) return expect.fail(context)
  if (error._tag === "RateLimited" || error._tag === "ServiceUnavailable") {
    const millis = Duration.toMillis(error.retryAfter)
    expect(Number.isNaN(millis), `${context}: NaN retryAfter`).toBe(false)
    expect(millis, `${context}: negative retryAfter`).toBeGreaterThanOrEqual(0)
  }
  return error
}

/** Checks every operation against one answer, each with a fresh client (a 429 must not pause the next), counting the outcomes in `seen`. */
const check = (stub: Stub.Service, seen: Map<string, number>) => (reply: Answer) =>
  Effect.gen(function*() {
    for (const operation of operations) {
      yield* stub.answer(responder(reply, stub.baseUrl))
      const exit = yield* Effect.exit(
        CatalogClient.CatalogClient.use((catalog) => operation.run(catalog, stub)).pipe(
          Effect.provide(clientOf(optionsOf(stub.baseUrl, "cat_live_fuzz_key_0123456789", { timeout: "5 seconds" }))),
          // The client's layer is built from valid options and cannot fail.
          Effect.catchTag("ConfigError", (error) => Effect.die(error))
        )
      )
      const context = `${operation.name} <- ${reply.status} ${JSON.stringify(reply.headers)} ${JSON.stringify(reply.body.slice(0, 200))}`
      const error = typedFailure(exit, context)
      const outcome = error === undefined ? "success" : error._tag
      seen.set(outcome, (seen.get(outcome) ?? 0) + 1)
      if (error === undefined) {
        // A stream heals a 409 (restarting) and a 422 (smaller pages); the stub then ends the list.
        const healed = operation.name === "models" && (reply.status === 409 || reply.status === 422)
        expect(reply.status === 200 || healed, `${context}: success`).toBe(true)
        continue
      }
      expect(operation.tags.has(error._tag), `${context}: ${error._tag} is not in the operation's union`).toBe(true)
      expect(tagsFor(operation, reply.status), `${context}: ${error._tag}`).toContain(error._tag)
    }
  })

describe("client fuzz", () => {
  it.live("any status, headers and body: a success or a tagged error of the operation's union, never a defect", () =>
    Effect.gen(function*() {
      const stub = yield* Stub.make
      const next = random(20_261_126)
      const seen = new Map<string, number>()
      for (let run = 0; run < 150; run++) yield* check(stub, seen)(answer(next))
      // The property is not vacuous: successes and most kinds of failure occurred.
      expect(seen.get("success") ?? 0).toBeGreaterThan(0)
      expect(seen.get("UnexpectedResponse") ?? 0).toBeGreaterThan(0)
      expect(seen.size, [...seen].join(", ")).toBeGreaterThanOrEqual(8)
    }).pipe(Effect.provideService(References.MinimumLogLevel, "Error")), 100_000)
})
