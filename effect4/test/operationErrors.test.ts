/**
 * The error unions of the operations in Effect 4, against the Effect 3
 * edition's: a child process runs the Effect 3 edition's `errorKindOf` under
 * tsx over its own table, and for every one of the 35 operations the tags an
 * answer may produce, and the errors `is` and `allows` let through, must be
 * the same here. Type tests prove the unions exact, written out
 * independently of the library's own types as the Effect 3 edition's
 * types.test.ts does.
 */
import { describe, expect, expectTypeOf, it, layer } from "@effect/vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { Context, Duration, Effect, Layer, Schema } from "effect"
import * as Errors from "../../common/src/client/Errors.js"
import type {
  AdmissionUnavailable,
  BudgetExceeded,
  CursorExpired,
  InvalidApiKey,
  InvalidRequest,
  NotFound,
  QuotaExhausted,
  RateLimited,
  ResponseTooLarge,
  ScopeMissing,
  ServiceUnavailable,
  TransportError,
  UnexpectedResponse,
  UnsafeLink
} from "../../common/src/client/Errors.js"
import * as OperationErrors from "../../common/src/client/OperationErrors.js"
import * as Operations from "../../common/src/contract/Operations.js"

/** The repository root, home of the Effect 3 edition. */
const root = new URL("../../", import.meta.url)
/** Node's flags that run the Effect 3 edition's TypeScript as it is. */
const withTsx = ["--import", new URL("node_modules/tsx/dist/loader.mjs", root).href]

// ---------------------------------------------------------------------------
// One error of each tag, and what an operation's kind makes of them
// ---------------------------------------------------------------------------

const problem = { requestId: "req_1", code: null, detail: null }

/** One answer's error of each tag. */
const answers: ReadonlyArray<Errors.ResponseError> = [
  new Errors.InvalidRequest(problem),
  new Errors.InvalidApiKey(problem),
  new Errors.ScopeMissing({ ...problem, requiredScope: "models:read" }),
  new Errors.NotFound(problem),
  new Errors.CursorExpired(problem),
  new Errors.ResponseTooLarge(problem),
  new Errors.RateLimited({ ...problem, retryAfter: Duration.seconds(1) }),
  new Errors.ServiceUnavailable({ ...problem, retryAfter: Duration.seconds(1) }),
  new Errors.TransportError({ reason: "Timeout", detail: "no answer in 30 seconds" }),
  new Errors.UnexpectedResponse({ ...problem, status: 500 })
]

/** One error of each tag of the client. */
const everyError: ReadonlyArray<Errors.CatalogError> = [
  ...answers,
  new Errors.QuotaExhausted({ ...problem, retryAfter: Duration.hours(1), resetsAt: new Date(0) }),
  new Errors.BudgetExceeded({ units: 5, spent: 998, budget: 1_000 }),
  new Errors.UnsafeLink({ link: "https://elsewhere.example", baseUrl: "https://catalog.example/v1" }),
  new Errors.AdmissionUnavailable({ address: "redis://127.0.0.1:1", reason: "Connection", detail: "refused" })
]

const kindOf = (operation: Operations.AnyOperation) => {
  const kind = OperationErrors.errorKindOf(operation)
  return {
    id: operation.id,
    tags: [...kind.tags].sort(),
    is: answers.filter((error) => kind.is(error)).map((error) => error._tag).sort(),
    allows: everyError.filter((error) => kind.allows(error)).map((error) => error._tag).sort()
  }
}

/** Runs under Effect 3, from the repository root; answers with a structured clone. */
const effect3Program = `
import { Duration } from "effect"
import * as Errors from ${JSON.stringify(new URL("common/src/client/Errors.ts", root).href)}
import * as OperationErrors from ${JSON.stringify(new URL("common/src/client/OperationErrors.ts", root).href)}
import * as Operations from ${JSON.stringify(new URL("common/src/contract/Operations.ts", root).href)}

const problem = { requestId: "req_1", code: null, detail: null }
const answers = [
  new Errors.InvalidRequest(problem),
  new Errors.InvalidApiKey(problem),
  new Errors.ScopeMissing({ ...problem, requiredScope: "models:read" }),
  new Errors.NotFound(problem),
  new Errors.CursorExpired(problem),
  new Errors.ResponseTooLarge(problem),
  new Errors.RateLimited({ ...problem, retryAfter: Duration.seconds(1) }),
  new Errors.ServiceUnavailable({ ...problem, retryAfter: Duration.seconds(1) }),
  new Errors.TransportError({ reason: "Timeout", detail: "no answer in 30 seconds" }),
  new Errors.UnexpectedResponse({ ...problem, status: 500 })
]
const everyError = [
  ...answers,
  new Errors.QuotaExhausted({ ...problem, retryAfter: Duration.hours(1), resetsAt: new Date(0) }),
  new Errors.BudgetExceeded({ units: 5, spent: 998, budget: 1000 }),
  new Errors.UnsafeLink({ link: "https://elsewhere.example", baseUrl: "https://catalog.example/v1" }),
  new Errors.AdmissionUnavailable({ address: "redis://127.0.0.1:1", reason: "Connection", detail: "refused" })
]
const kindOf = (operation) => {
  const kind = OperationErrors.errorKindOf(operation)
  return {
    id: operation.id,
    tags: [...kind.tags].sort(),
    is: answers.filter((error) => kind.is(error)).map((error) => error._tag).sort(),
    allows: everyError.filter((error) => kind.allows(error)).map((error) => error._tag).sort()
  }
}

process.once("message", () => {
  process.send({
    exports: Object.keys(OperationErrors).sort(),
    tags: everyError.map((error) => error._tag),
    kinds: Operations.all.map(kindOf)
  }, () => process.disconnect())
})
`

// ---------------------------------------------------------------------------
// The Effect 3 edition, as a child process
// ---------------------------------------------------------------------------

/** Stops a child process and waits until it has ended. */
const stop = (child: ChildProcess) =>
  Effect.callback<void>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.void)
    child.once("exit", () => resume(Effect.void))
    child.kill("SIGTERM")
  })

const Kind = Schema.Struct({
  id: Schema.String,
  tags: Schema.Array(Schema.String),
  is: Schema.Array(Schema.String),
  allows: Schema.Array(Schema.String)
})

const Effect3Report = Schema.Struct({
  exports: Schema.Array(Schema.String),
  tags: Schema.Array(Schema.String),
  kinds: Schema.Array(Kind)
})

/** What the Effect 3 edition's `errorKindOf` makes of its table. */
class Effect3 extends Context.Service<Effect3, typeof Effect3Report.Type>()("effect-catalog/test/operationErrors/Effect3") {
  static readonly layer = Layer.effect(
    Effect3,
    Effect.gen(function*() {
      const child = yield* Effect.acquireRelease(
        Effect.sync(() =>
          spawn(process.execPath, [...withTsx, "--input-type=module", "--eval", effect3Program], {
            cwd: root,
            stdio: ["ignore", "inherit", "inherit", "ipc"],
            serialization: "advanced"
          })
        ),
        stop
      )
      const report = yield* Effect.callback<unknown, Error>((resume) => {
        child.once("message", (message) => resume(Effect.succeed(message)))
        child.once("exit", (code) => resume(Effect.fail(new Error(`the Effect 3 edition ended (${code}) without an answer`))))
        child.send("report")
      })
      return yield* Schema.decodeUnknownEffect(Effect3Report)(report)
    }).pipe(Effect.orDie)
  )
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

layer(Effect3.layer)("errorKindOf, against the Effect 3 edition's", (it) => {
  it.effect("has the same public names and tries the same tags", () =>
    Effect.gen(function*() {
      const effect3 = yield* Effect3
      expect(Object.keys(OperationErrors).sort()).toEqual(effect3.exports)
      expect(everyError.map((error) => error._tag)).toEqual(effect3.tags)
      expect(new Set(effect3.tags).size).toBe(14)
    }))

  it.effect("gives each of the 35 operations the same tags, and lets the same errors through", () =>
    Effect.gen(function*() {
      const effect3 = yield* Effect3
      const kinds = Operations.all.map(kindOf)
      expect(kinds).toHaveLength(35)
      expect(kinds.map(({ id }) => id)).toEqual(effect3.kinds.map(({ id }) => id))
      kinds.forEach((kind, index) => expect(kind, kind.id).toEqual(effect3.kinds[index]))
    }))
})

describe("errorKindOf, by hand", () => {
  const account = ["InvalidApiKey", "InvalidRequest", "RateLimited", "ServiceUnavailable", "TransportError", "UnexpectedResponse"]
  const parameterized = [...account, "ResponseTooLarge", "ScopeMissing"]
  const tagsOf = (operation: Operations.AnyOperation) => [...OperationErrors.errorKindOf(operation).tags].sort()

  it("computes the tags from the table", () => {
    const expected = (operation: Operations.AnyOperation) =>
      [
        ...(operation.kind === "list" || operation.pathParameters.length > 0 ? parameterized : account),
        ...(operation.kind === "list" ? ["CursorExpired"] : []),
        ...(operation.pathParameters.length > 0 ? ["NotFound"] : [])
      ].sort()
    for (const operation of Operations.all) expect(tagsOf(operation), operation.id).toEqual(expected(operation))
    expect(tagsOf(Operations.stats)).toEqual([...account].sort())
    expect(tagsOf(Operations.usage)).toEqual([...account].sort())
    expect(tagsOf(Operations.models)).toEqual([...parameterized, "CursorExpired"].sort())
    expect(tagsOf(Operations.modelOffers)).toEqual([...parameterized, "CursorExpired", "NotFound"].sort())
    expect(tagsOf(Operations.model)).toEqual([...parameterized, "NotFound"].sort())
  })

  it("lets AdmissionUnavailable and QuotaExhausted through everywhere, BudgetExceeded where units are spent, UnsafeLink nowhere", () => {
    for (const operation of Operations.all) {
      const kind = OperationErrors.errorKindOf(operation)
      const allowed = (tag: Errors.CatalogError["_tag"]) => everyError.filter((error) => error._tag === tag).every((error) => kind.allows(error))
      expect(allowed("AdmissionUnavailable"), operation.id).toBe(true)
      expect(allowed("QuotaExhausted"), operation.id).toBe(true)
      expect(allowed("BudgetExceeded"), operation.id).toBe(operation.units > 0)
      expect(allowed("UnsafeLink"), operation.id).toBe(false)
    }
  })

  it("narrows an answer's error to the operation's union", () => {
    const error = new Errors.NotFound(problem)
    const kind = OperationErrors.errorKindOf(Operations.offer)
    const narrowed = (answer: Errors.ResponseError) => (kind.is(answer) ? answer : null)
    expect(narrowed(error)).toBe(error)
    expectTypeOf(narrowed).returns.toEqualTypeOf<Extract<Detail, Errors.ResponseError> | null>()
    expect(OperationErrors.errorKindOf(Operations.usage).is(error)).toBe(false)
    expect(OperationErrors.errorKindOf(Operations.search).is(error)).toBe(false)
  })
})

// ---------------------------------------------------------------------------
// The unions, written out here independently of the library's own types
// ---------------------------------------------------------------------------

/** Every request waits for admission: AdmissionUnavailable is in each. */
type Account =
  | InvalidRequest
  | InvalidApiKey
  | RateLimited
  | QuotaExhausted
  | ServiceUnavailable
  | TransportError
  | UnexpectedResponse
  | AdmissionUnavailable
type Charged = Account | BudgetExceeded
type Detail = Charged | ScopeMissing | ResponseTooLarge | NotFound
type TopPage = Charged | ScopeMissing | ResponseTooLarge | CursorExpired
type NestedPage = TopPage | NotFound
type TopList = TopPage | UnsafeLink
type NestedList = NestedPage | UnsafeLink

describe("the unions", () => {
  it("of each operation are exact, no wider and no narrower", () => {
    expectTypeOf<OperationErrors.ErrorOf<"models">>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.PageErrorOf<"models">>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.ErrorOf<"model">>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.ErrorOf<"modelOffers">>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.PageErrorOf<"modelOffers">>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ErrorOf<"modelBenchmarks">>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.PageErrorOf<"modelBenchmarks">>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ErrorOf<"modelPerformance">>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.PageErrorOf<"modelPerformance">>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ErrorOf<"modelActivity">>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.PageErrorOf<"modelActivity">>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ErrorOf<"modelApplications">>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.PageErrorOf<"modelApplications">>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ErrorOf<"offer">>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.ErrorOf<"families">>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.PageErrorOf<"families">>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.ErrorOf<"family">>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.ErrorOf<"familyModels">>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.PageErrorOf<"familyModels">>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ErrorOf<"providers">>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.PageErrorOf<"providers">>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.ErrorOf<"provider">>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.ErrorOf<"providerModels">>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.PageErrorOf<"providerModels">>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ErrorOf<"providerOffers">>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.PageErrorOf<"providerOffers">>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ErrorOf<"organizations">>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.PageErrorOf<"organizations">>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.ErrorOf<"organization">>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.ErrorOf<"organizationModels">>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.PageErrorOf<"organizationModels">>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ErrorOf<"organizationResources">>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.PageErrorOf<"organizationResources">>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ErrorOf<"organizationResource">>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.ErrorOf<"skills">>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.PageErrorOf<"skills">>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.ErrorOf<"skill">>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.ErrorOf<"skillAudits">>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.ErrorOf<"skillDocument">>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.ErrorOf<"publishers">>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.PageErrorOf<"publishers">>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.ErrorOf<"mcps">>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.PageErrorOf<"mcps">>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.ErrorOf<"mcp">>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.ErrorOf<"mcpConnection">>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.ErrorOf<"topics">>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.PageErrorOf<"topics">>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.ErrorOf<"topicSkills">>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.PageErrorOf<"topicSkills">>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ErrorOf<"articles">>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.PageErrorOf<"articles">>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.ErrorOf<"article">>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.ErrorOf<"search">>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.PageErrorOf<"search">>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.ErrorOf<"stats">>().toEqualTypeOf<Charged>()
    expectTypeOf<OperationErrors.ErrorOf<"usage">>().toEqualTypeOf<Account>()
  })

  it("by rule: common, charged, parameterized, detail, page, list and answer", () => {
    expectTypeOf<OperationErrors.CommonError>().toEqualTypeOf<Account>()
    expectTypeOf<OperationErrors.ChargedError>().toEqualTypeOf<Charged>()
    expectTypeOf<OperationErrors.ParameterizedError>().toEqualTypeOf<Charged | ScopeMissing | ResponseTooLarge>()
    expectTypeOf<OperationErrors.DetailError<typeof Operations.offer.path>>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.DetailError<"/stats/">>().toEqualTypeOf<Charged>()
    expectTypeOf<OperationErrors.DetailError<"/usage/", 0>>().toEqualTypeOf<Account>()
    expectTypeOf<OperationErrors.PageError<"/models/">>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.PageError<typeof Operations.familyModels.path>>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ListError<"/models/">>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.AnswerError<typeof Operations.offer>>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.AnswerError<typeof Operations.modelOffers>>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.AnswerError<typeof Operations.usage>>().toEqualTypeOf<Account>()
    expectTypeOf(OperationErrors.errorKindOf(Operations.search)).toEqualTypeOf<OperationErrors.ErrorKind<TopPage>>()
    expectTypeOf(OperationErrors.errorKindOf(Operations.stats)).toEqualTypeOf<OperationErrors.ErrorKind<Charged>>()
  })

  it("let a handler match every tag of its union and nothing else", () => {
    const explain = (error: OperationErrors.ErrorOf<"usage">): string => {
      switch (error._tag) {
        case "InvalidRequest":
        case "InvalidApiKey":
        case "RateLimited":
        case "QuotaExhausted":
        case "ServiceUnavailable":
        case "TransportError":
        case "UnexpectedResponse":
        case "AdmissionUnavailable":
          return error._tag
      }
    }
    expect(explain(new Errors.InvalidApiKey(problem))).toBe("InvalidApiKey")
    expectTypeOf<Extract<OperationErrors.ErrorOf<"usage">, { readonly _tag: "BudgetExceeded" | "NotFound" | "ScopeMissing" }>>().toEqualTypeOf<never>()
  })
})
