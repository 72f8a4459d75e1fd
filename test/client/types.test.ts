/**
 * Type-level proofs that each operation's error channel is its exact union,
 * no wider and no narrower. They are checked by `npm run typecheck`.
 */
import { describe, expect, expectTypeOf, it } from "@effect/vitest"
import { BigDecimal, Effect, Stream } from "effect"
import type { Model, Offer } from "../../src/contract/Resources.js"
import type { CatalogClient, OperationErrors, Primitives } from "../../src/index.js"
import type {
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

type Service = CatalogClient.Service
type ErrorOf<F> = F extends (...args: ReadonlyArray<never>) => Effect.Effect<infer _A, infer E, infer _R> ? E : never
type StreamErrorOf<F> = F extends (...args: ReadonlyArray<never>) => Stream.Stream<infer _A, infer E, infer _R> ? E : never

/** Written out here, independently of the library's own types. */
type Account = InvalidRequest | InvalidApiKey | RateLimited | QuotaExhausted | ServiceUnavailable | TransportError | UnexpectedResponse
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
    expectTypeOf<OperationErrors.ModelsError>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.ModelsPageError>().toEqualTypeOf<TopPage>()
    expectTypeOf<ErrorOf<Service["model"]>>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.ModelError>().toEqualTypeOf<Detail>()
    expectTypeOf<StreamErrorOf<Service["modelOffers"]>>().toEqualTypeOf<NestedList>()
    expectTypeOf<ErrorOf<Service["modelOffersPage"]>>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ModelOffersError>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.ModelOffersPageError>().toEqualTypeOf<NestedPage>()
    expectTypeOf<StreamErrorOf<Service["modelBenchmarks"]>>().toEqualTypeOf<NestedList>()
    expectTypeOf<ErrorOf<Service["modelBenchmarksPage"]>>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ModelBenchmarksError>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.ModelBenchmarksPageError>().toEqualTypeOf<NestedPage>()
    expectTypeOf<StreamErrorOf<Service["modelPerformance"]>>().toEqualTypeOf<NestedList>()
    expectTypeOf<ErrorOf<Service["modelPerformancePage"]>>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ModelPerformanceError>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.ModelPerformancePageError>().toEqualTypeOf<NestedPage>()
    expectTypeOf<StreamErrorOf<Service["modelActivity"]>>().toEqualTypeOf<NestedList>()
    expectTypeOf<ErrorOf<Service["modelActivityPage"]>>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ModelActivityError>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.ModelActivityPageError>().toEqualTypeOf<NestedPage>()
    expectTypeOf<StreamErrorOf<Service["modelApplications"]>>().toEqualTypeOf<NestedList>()
    expectTypeOf<ErrorOf<Service["modelApplicationsPage"]>>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ModelApplicationsError>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.ModelApplicationsPageError>().toEqualTypeOf<NestedPage>()
    expectTypeOf<ErrorOf<Service["offer"]>>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.OfferError>().toEqualTypeOf<Detail>()
    expectTypeOf<StreamErrorOf<Service["families"]>>().toEqualTypeOf<TopList>()
    expectTypeOf<ErrorOf<Service["familiesPage"]>>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.FamiliesError>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.FamiliesPageError>().toEqualTypeOf<TopPage>()
    expectTypeOf<ErrorOf<Service["family"]>>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.FamilyError>().toEqualTypeOf<Detail>()
    expectTypeOf<StreamErrorOf<Service["familyModels"]>>().toEqualTypeOf<NestedList>()
    expectTypeOf<ErrorOf<Service["familyModelsPage"]>>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.FamilyModelsError>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.FamilyModelsPageError>().toEqualTypeOf<NestedPage>()
    expectTypeOf<StreamErrorOf<Service["providers"]>>().toEqualTypeOf<TopList>()
    expectTypeOf<ErrorOf<Service["providersPage"]>>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.ProvidersError>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.ProvidersPageError>().toEqualTypeOf<TopPage>()
    expectTypeOf<ErrorOf<Service["provider"]>>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.ProviderError>().toEqualTypeOf<Detail>()
    expectTypeOf<StreamErrorOf<Service["providerModels"]>>().toEqualTypeOf<NestedList>()
    expectTypeOf<ErrorOf<Service["providerModelsPage"]>>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ProviderModelsError>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.ProviderModelsPageError>().toEqualTypeOf<NestedPage>()
    expectTypeOf<StreamErrorOf<Service["providerOffers"]>>().toEqualTypeOf<NestedList>()
    expectTypeOf<ErrorOf<Service["providerOffersPage"]>>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.ProviderOffersError>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.ProviderOffersPageError>().toEqualTypeOf<NestedPage>()
    expectTypeOf<StreamErrorOf<Service["organizations"]>>().toEqualTypeOf<TopList>()
    expectTypeOf<ErrorOf<Service["organizationsPage"]>>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.OrganizationsError>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.OrganizationsPageError>().toEqualTypeOf<TopPage>()
    expectTypeOf<ErrorOf<Service["organization"]>>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.OrganizationError>().toEqualTypeOf<Detail>()
    expectTypeOf<StreamErrorOf<Service["organizationModels"]>>().toEqualTypeOf<NestedList>()
    expectTypeOf<ErrorOf<Service["organizationModelsPage"]>>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.OrganizationModelsError>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.OrganizationModelsPageError>().toEqualTypeOf<NestedPage>()
    expectTypeOf<StreamErrorOf<Service["organizationResources"]>>().toEqualTypeOf<NestedList>()
    expectTypeOf<ErrorOf<Service["organizationResourcesPage"]>>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.OrganizationResourcesError>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.OrganizationResourcesPageError>().toEqualTypeOf<NestedPage>()
    expectTypeOf<ErrorOf<Service["organizationResource"]>>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.OrganizationResourceError>().toEqualTypeOf<Detail>()
    expectTypeOf<StreamErrorOf<Service["skills"]>>().toEqualTypeOf<TopList>()
    expectTypeOf<ErrorOf<Service["skillsPage"]>>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.SkillsError>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.SkillsPageError>().toEqualTypeOf<TopPage>()
    expectTypeOf<ErrorOf<Service["skill"]>>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.SkillError>().toEqualTypeOf<Detail>()
    expectTypeOf<ErrorOf<Service["skillAudits"]>>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.SkillAuditsError>().toEqualTypeOf<Detail>()
    expectTypeOf<ErrorOf<Service["skillDocument"]>>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.SkillDocumentError>().toEqualTypeOf<Detail>()
    expectTypeOf<StreamErrorOf<Service["publishers"]>>().toEqualTypeOf<TopList>()
    expectTypeOf<ErrorOf<Service["publishersPage"]>>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.PublishersError>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.PublishersPageError>().toEqualTypeOf<TopPage>()
    expectTypeOf<StreamErrorOf<Service["mcps"]>>().toEqualTypeOf<TopList>()
    expectTypeOf<ErrorOf<Service["mcpsPage"]>>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.McpsError>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.McpsPageError>().toEqualTypeOf<TopPage>()
    expectTypeOf<ErrorOf<Service["mcp"]>>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.McpError>().toEqualTypeOf<Detail>()
    expectTypeOf<ErrorOf<Service["mcpConnection"]>>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.McpConnectionError>().toEqualTypeOf<Detail>()
    expectTypeOf<StreamErrorOf<Service["topics"]>>().toEqualTypeOf<TopList>()
    expectTypeOf<ErrorOf<Service["topicsPage"]>>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.TopicsError>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.TopicsPageError>().toEqualTypeOf<TopPage>()
    expectTypeOf<StreamErrorOf<Service["topicSkills"]>>().toEqualTypeOf<NestedList>()
    expectTypeOf<ErrorOf<Service["topicSkillsPage"]>>().toEqualTypeOf<NestedPage>()
    expectTypeOf<OperationErrors.TopicSkillsError>().toEqualTypeOf<NestedList>()
    expectTypeOf<OperationErrors.TopicSkillsPageError>().toEqualTypeOf<NestedPage>()
    expectTypeOf<StreamErrorOf<Service["articles"]>>().toEqualTypeOf<TopList>()
    expectTypeOf<ErrorOf<Service["articlesPage"]>>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.ArticlesError>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.ArticlesPageError>().toEqualTypeOf<TopPage>()
    expectTypeOf<ErrorOf<Service["article"]>>().toEqualTypeOf<Detail>()
    expectTypeOf<OperationErrors.ArticleError>().toEqualTypeOf<Detail>()
    expectTypeOf<StreamErrorOf<Service["search"]>>().toEqualTypeOf<TopList>()
    expectTypeOf<ErrorOf<Service["searchPage"]>>().toEqualTypeOf<TopPage>()
    expectTypeOf<OperationErrors.SearchError>().toEqualTypeOf<TopList>()
    expectTypeOf<OperationErrors.SearchPageError>().toEqualTypeOf<TopPage>()
    expectTypeOf<ErrorOf<Service["stats"]>>().toEqualTypeOf<Charged>()
    expectTypeOf<OperationErrors.StatsError>().toEqualTypeOf<Charged>()
    expectTypeOf<ErrorOf<Service["usage"]>>().toEqualTypeOf<Account>()
    expectTypeOf<OperationErrors.UsageError>().toEqualTypeOf<Account>()
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
        UnexpectedResponse: (error) => Effect.succeed(`status ${error.status}`)
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
          UnexpectedResponse: () => Effect.void
        })
      )
    )
  }))
})

describe("parameters and results", () => {
  it("takes path parameters as one object and filters with their wire types", () =>
    typeOnly((catalog) => {
    expectTypeOf<Parameters<Service["model"]>>().toEqualTypeOf<[parameters: { readonly organization: string; readonly model: string }]>()
    expectTypeOf<Parameters<Service["skill"]>[0]>().toEqualTypeOf<{
      readonly sourceType: string
      readonly owner: string
      readonly repository: string
      readonly skill: string
    }>()
    // @ts-expect-error a detail read needs its path parameters
    catalog.model()
    // @ts-expect-error boolean filters are booleans
    catalog.models({ reasoning: "true" })
    // @ts-expect-error organization kinds are a closed list
    catalog.organizations({ kind: "startup" })
    // @ts-expect-error search needs q and type
    catalog.search({ q: "agents" })
    // @ts-expect-error streams take no cursor
    catalog.models({ cursor: "abc" })
    catalog.modelsPage({ cursor: "abc", limit: 10 })
    catalog.models()
    catalog.stats()
  }))

  it("decodes exact values", () =>
    typeOnly((catalog) => {
    expectTypeOf(catalog.model({ organization: "o", model: "m" })).toEqualTypeOf<Effect.Effect<Model, Detail>>()
    type Decoded = Effect.Effect.Success<ReturnType<Service["model"]>>
    expectTypeOf<Decoded["context_tokens"]>().toEqualTypeOf<bigint | null>()
    expectTypeOf<Decoded["released_on"]>().toEqualTypeOf<Primitives.CalendarDate | null>()
    type Listed = Stream.Stream.Success<ReturnType<Service["modelOffers"]>>
    expectTypeOf<NonNullable<Listed["pricing"]["input"]>>().toEqualTypeOf<BigDecimal.BigDecimal>()
    type Skill = Stream.Stream.Success<ReturnType<Service["skills"]>>
    expectTypeOf<Skill["installs"]>().toEqualTypeOf<bigint>()
    expectTypeOf<"github">().toExtend<Skill["source_type"]>()
  }))
})
