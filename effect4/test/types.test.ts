/**
 * Type-level proofs that each operation's error channel of the Effect 4
 * client is its exact union, no wider and no narrower, as the Effect 3
 * edition's `test/client/types.test.ts` proves for its client. They are
 * checked by `npx tsc --noEmit`.
 */
import { describe, expect, expectTypeOf, it } from "@effect/vitest"
import { Effect, type Stream } from "effect"
import type { Model, Offer } from "../../common/src/contract/Resources.js"
import type { CatalogClient, OperationErrors } from "effect-catalog"
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

type Service = CatalogClient.Service
type ErrorOf<F> = F extends (...args: ReadonlyArray<never>) => Effect.Effect<infer _A, infer E, infer _R> ? E : never
type StreamErrorOf<F> = F extends (...args: ReadonlyArray<never>) => Stream.Stream<infer _A, infer E, infer _R> ? E : never

/** Written out here, independently of the library's own types. Every request waits for admission: AdmissionUnavailable is in each. */
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

/**
 * The checks that call methods run only in the type checker: each is a
 * function of a client that the tests never call.
 */
const typeOnly = (check: (catalog: Service) => void) => expect(check).toBeTypeOf("function")

describe("error unions", () => {
  it("each operation fails with exactly its union", () => {
    expectTypeOf<StreamErrorOf<Service["models"]>>().toEqualTypeOf<TopList>()
    expectTypeOf<ErrorOf<Service["modelsPage"]>>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.ErrorOf<"models">>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.PageErrorOf<"models">>().toEqualTypeOf<TopPage>()
    expectTypeOf<ErrorOf<Service["model"]>>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.ErrorOf<"model">>().toEqualTypeOf<Detail>()
    expectTypeOf<StreamErrorOf<Service["modelOffers"]>>().toEqualTypeOf<NestedList>()
    expectTypeOf<ErrorOf<Service["modelOffersPage"]>>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ErrorOf<"modelOffers">>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.PageErrorOf<"modelOffers">>().toEqualTypeOf<NestedPage>()
    expectTypeOf<StreamErrorOf<Service["modelBenchmarks"]>>().toEqualTypeOf<NestedList>()
    expectTypeOf<ErrorOf<Service["modelBenchmarksPage"]>>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ErrorOf<"modelBenchmarks">>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.PageErrorOf<"modelBenchmarks">>().toEqualTypeOf<NestedPage>()
    expectTypeOf<StreamErrorOf<Service["modelPerformance"]>>().toEqualTypeOf<NestedList>()
    expectTypeOf<ErrorOf<Service["modelPerformancePage"]>>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ErrorOf<"modelPerformance">>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.PageErrorOf<"modelPerformance">>().toEqualTypeOf<NestedPage>()
    expectTypeOf<StreamErrorOf<Service["modelActivity"]>>().toEqualTypeOf<NestedList>()
    expectTypeOf<ErrorOf<Service["modelActivityPage"]>>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ErrorOf<"modelActivity">>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.PageErrorOf<"modelActivity">>().toEqualTypeOf<NestedPage>()
    expectTypeOf<StreamErrorOf<Service["modelApplications"]>>().toEqualTypeOf<NestedList>()
    expectTypeOf<ErrorOf<Service["modelApplicationsPage"]>>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ErrorOf<"modelApplications">>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.PageErrorOf<"modelApplications">>().toEqualTypeOf<NestedPage>()
    expectTypeOf<ErrorOf<Service["offer"]>>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.ErrorOf<"offer">>().toEqualTypeOf<Detail>()
    expectTypeOf<StreamErrorOf<Service["families"]>>().toEqualTypeOf<TopList>()
    expectTypeOf<ErrorOf<Service["familiesPage"]>>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.ErrorOf<"families">>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.PageErrorOf<"families">>().toEqualTypeOf<TopPage>()
    expectTypeOf<ErrorOf<Service["family"]>>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.ErrorOf<"family">>().toEqualTypeOf<Detail>()
    expectTypeOf<StreamErrorOf<Service["familyModels"]>>().toEqualTypeOf<NestedList>()
    expectTypeOf<ErrorOf<Service["familyModelsPage"]>>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ErrorOf<"familyModels">>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.PageErrorOf<"familyModels">>().toEqualTypeOf<NestedPage>()
    expectTypeOf<StreamErrorOf<Service["providers"]>>().toEqualTypeOf<TopList>()
    expectTypeOf<ErrorOf<Service["providersPage"]>>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.ErrorOf<"providers">>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.PageErrorOf<"providers">>().toEqualTypeOf<TopPage>()
    expectTypeOf<ErrorOf<Service["provider"]>>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.ErrorOf<"provider">>().toEqualTypeOf<Detail>()
    expectTypeOf<StreamErrorOf<Service["providerModels"]>>().toEqualTypeOf<NestedList>()
    expectTypeOf<ErrorOf<Service["providerModelsPage"]>>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ErrorOf<"providerModels">>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.PageErrorOf<"providerModels">>().toEqualTypeOf<NestedPage>()
    expectTypeOf<StreamErrorOf<Service["providerOffers"]>>().toEqualTypeOf<NestedList>()
    expectTypeOf<ErrorOf<Service["providerOffersPage"]>>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ErrorOf<"providerOffers">>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.PageErrorOf<"providerOffers">>().toEqualTypeOf<NestedPage>()
    expectTypeOf<StreamErrorOf<Service["organizations"]>>().toEqualTypeOf<TopList>()
    expectTypeOf<ErrorOf<Service["organizationsPage"]>>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.ErrorOf<"organizations">>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.PageErrorOf<"organizations">>().toEqualTypeOf<TopPage>()
    expectTypeOf<ErrorOf<Service["organization"]>>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.ErrorOf<"organization">>().toEqualTypeOf<Detail>()
    expectTypeOf<StreamErrorOf<Service["organizationModels"]>>().toEqualTypeOf<NestedList>()
    expectTypeOf<ErrorOf<Service["organizationModelsPage"]>>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ErrorOf<"organizationModels">>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.PageErrorOf<"organizationModels">>().toEqualTypeOf<NestedPage>()
    expectTypeOf<StreamErrorOf<Service["organizationResources"]>>().toEqualTypeOf<NestedList>()
    expectTypeOf<ErrorOf<Service["organizationResourcesPage"]>>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ErrorOf<"organizationResources">>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.PageErrorOf<"organizationResources">>().toEqualTypeOf<NestedPage>()
    expectTypeOf<ErrorOf<Service["organizationResource"]>>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.ErrorOf<"organizationResource">>().toEqualTypeOf<Detail>()
    expectTypeOf<StreamErrorOf<Service["skills"]>>().toEqualTypeOf<TopList>()
    expectTypeOf<ErrorOf<Service["skillsPage"]>>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.ErrorOf<"skills">>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.PageErrorOf<"skills">>().toEqualTypeOf<TopPage>()
    expectTypeOf<ErrorOf<Service["skill"]>>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.ErrorOf<"skill">>().toEqualTypeOf<Detail>()
    expectTypeOf<ErrorOf<Service["skillAudits"]>>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.ErrorOf<"skillAudits">>().toEqualTypeOf<Detail>()
    expectTypeOf<ErrorOf<Service["skillDocument"]>>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.ErrorOf<"skillDocument">>().toEqualTypeOf<Detail>()
    expectTypeOf<StreamErrorOf<Service["publishers"]>>().toEqualTypeOf<TopList>()
    expectTypeOf<ErrorOf<Service["publishersPage"]>>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.ErrorOf<"publishers">>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.PageErrorOf<"publishers">>().toEqualTypeOf<TopPage>()
    expectTypeOf<StreamErrorOf<Service["mcps"]>>().toEqualTypeOf<TopList>()
    expectTypeOf<ErrorOf<Service["mcpsPage"]>>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.ErrorOf<"mcps">>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.PageErrorOf<"mcps">>().toEqualTypeOf<TopPage>()
    expectTypeOf<ErrorOf<Service["mcp"]>>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.ErrorOf<"mcp">>().toEqualTypeOf<Detail>()
    expectTypeOf<ErrorOf<Service["mcpConnection"]>>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.ErrorOf<"mcpConnection">>().toEqualTypeOf<Detail>()
    expectTypeOf<StreamErrorOf<Service["topics"]>>().toEqualTypeOf<TopList>()
    expectTypeOf<ErrorOf<Service["topicsPage"]>>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.ErrorOf<"topics">>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.PageErrorOf<"topics">>().toEqualTypeOf<TopPage>()
    expectTypeOf<StreamErrorOf<Service["topicSkills"]>>().toEqualTypeOf<NestedList>()
    expectTypeOf<ErrorOf<Service["topicSkillsPage"]>>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ErrorOf<"topicSkills">>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.PageErrorOf<"topicSkills">>().toEqualTypeOf<NestedPage>()
    expectTypeOf<StreamErrorOf<Service["articles"]>>().toEqualTypeOf<TopList>()
    expectTypeOf<ErrorOf<Service["articlesPage"]>>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.ErrorOf<"articles">>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.PageErrorOf<"articles">>().toEqualTypeOf<TopPage>()
    expectTypeOf<ErrorOf<Service["article"]>>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.ErrorOf<"article">>().toEqualTypeOf<Detail>()
    expectTypeOf<StreamErrorOf<Service["search"]>>().toEqualTypeOf<TopList>()
    expectTypeOf<ErrorOf<Service["searchPage"]>>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.ErrorOf<"search">>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.PageErrorOf<"search">>().toEqualTypeOf<TopPage>()
    expectTypeOf<ErrorOf<Service["stats"]>>().toEqualTypeOf<Charged>()
    expectTypeOf<OperationErrors.ErrorOf<"stats">>().toEqualTypeOf<Charged>()
    expectTypeOf<ErrorOf<Service["usage"]>>().toEqualTypeOf<Account>()
    expectTypeOf<OperationErrors.ErrorOf<"usage">>().toEqualTypeOf<Account>()
    expectTypeOf<ErrorOf<Service["follow"]>>().toEqualTypeOf<Detail | UnsafeLink>()
  })

  it("refuses handlers for tags an operation cannot produce", () =>
    typeOnly((catalog) => {
    // @ts-expect-error a detail read never fails with CursorExpired
    catalog.model({ organization: "o", model: "m" }).pipe(Effect.catchTag("CursorExpired", () => Effect.void))
    // @ts-expect-error usage needs no scope
    catalog.usage().pipe(Effect.catchTag("ScopeMissing", () => Effect.void))
    // @ts-expect-error stats names no resource
    catalog.stats().pipe(Effect.catchTag("NotFound", () => Effect.void))
    // @ts-expect-error a top-level list has no parent to miss
    catalog.modelsPage().pipe(Effect.catchTag("NotFound", () => Effect.void))
    // @ts-expect-error only streams follow links
    catalog.modelsPage().pipe(Effect.catchTag("UnsafeLink", () => Effect.void))
    expectTypeOf(catalog.modelOffersPage({ organization: "o", model: "m" }).pipe(Effect.catchTag("NotFound", () => Effect.void)))
      .toEqualTypeOf<Effect.Effect<void | CatalogClient.Page<Offer>, Exclude<NestedPage, NotFound>>>()
  }))

  it("an exhaustive catchTags leaves nothing unhandled, and compiles only when every tag is handled", () =>
    typeOnly((catalog) => {
    const handled = catalog.model({ organization: "o", model: "m" }).pipe(
      Effect.catchTags({
        InvalidRequest: () => Effect.succeed("fix the request"),
        InvalidApiKey: () => Effect.succeed("replace the key"),
        ScopeMissing: (error) => Effect.succeed(`needs ${error.requiredScope}`),
        NotFound: () => Effect.succeed("absent"),
        ResponseTooLarge: () => Effect.succeed("smaller"),
        RateLimited: (error) => Effect.succeed(`wait ${error.retryAfter.toString()}`),
        QuotaExhausted: (error) => Effect.succeed(`allowance back at ${error.resetsAt.toISOString()}`),
        BudgetExceeded: (error) => Effect.succeed(`budget of ${error.budget} spent`),
        ServiceUnavailable: () => Effect.succeed("later"),
        TransportError: (error) => Effect.succeed(error.reason),
        UnexpectedResponse: (error) => Effect.succeed(`status ${error.status}`),
        AdmissionUnavailable: (error) => Effect.succeed(`admission: ${error.reason}`)
      })
    )
    expectTypeOf(handled).toEqualTypeOf<Effect.Effect<string | Model, never>>()

    const exhaustive = <A>(effect: Effect.Effect<A, never>) => effect
    exhaustive(handled)
    exhaustive(
      // @ts-expect-error NotFound is not handled
      catalog.model({ organization: "o", model: "m" }).pipe(
        Effect.catchTags({
          InvalidRequest: () => Effect.void,
          InvalidApiKey: () => Effect.void,
          ScopeMissing: () => Effect.void,
          ResponseTooLarge: () => Effect.void,
          RateLimited: () => Effect.void,
          QuotaExhausted: () => Effect.void,
          BudgetExceeded: () => Effect.void,
          ServiceUnavailable: () => Effect.void,
          TransportError: () => Effect.void,
          UnexpectedResponse: () => Effect.void,
          AdmissionUnavailable: () => Effect.void
        })
      )
    )
    exhaustive(
      // @ts-expect-error AdmissionUnavailable is not handled: every operation goes through admission
      catalog.usage().pipe(
        Effect.catchTags({
          InvalidRequest: () => Effect.void,
          InvalidApiKey: () => Effect.void,
          RateLimited: () => Effect.void,
          QuotaExhausted: () => Effect.void,
          ServiceUnavailable: () => Effect.void,
          TransportError: () => Effect.void,
          UnexpectedResponse: () => Effect.void
        })
      )
    )
  }))
})

