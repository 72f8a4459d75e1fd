/**
 * The error unions of the operations, in each edition (one text compiled
 * against either major of Effect, `#edition/…`): which errors `errorKindOf`
 * lets through (the tags it computes from the table are the shared rules',
 * tested once in rules/test/client/OperationErrorTags.test.ts), and type
 * tests that prove each `ErrorOf`, `PageErrorOf` and rule's union exact,
 * written out independently of the library's own types.
 */
import { describe, expect, expectTypeOf, it } from "#edition-test/support/Vitest.js"
import { Duration } from "#edition/internal/Edition.js"
import * as Errors from "../../src/client/Errors.js"
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
} from "../../src/client/Errors.js"
import * as OperationErrors from "../../src/client/OperationErrors.js"
import * as Operations from "../../src/contract/Operations.js"

// ---------------------------------------------------------------------------
// One error of each tag
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

describe("errorKindOf", () => {
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
