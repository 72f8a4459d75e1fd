/**
 * Type-level proofs that each operation's error channel is its exact union,
 * no wider and no narrower, in each edition: one text, compiled against
 * either major of Effect as the client it proves is (`#edition/…`), and
 * checked by each edition's `npm run typecheck`. The tags computed from the
 * table, a rule both editions share, are tested once in
 * rules/test/client/OperationErrorTags.test.ts.
 */
import { describe, expect, expectTypeOf, it } from "#edition-test/support/Vitest.js"
import { BigDecimal, Effect, Stream } from "#edition/internal/Edition.js"
import * as OperationErrorTags from "../../../rules/src/client/OperationErrorTags.js"
import type { Mcp, Model, Offer, Organization, Skill, Topic } from "../../src/contract/Resources.js"
import { Admission, type CatalogClient, Errors, OperationErrors, Operations, type Primitives } from "#edition/index.js"
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

type Service = CatalogClient.Service
type ErrorOf<F> = F extends (...args: ReadonlyArray<never>) => Effect.Effect<infer _A, infer E, infer _R> ? E : never
type StreamErrorOf<F> = F extends (...args: ReadonlyArray<never>) => Stream.Stream<infer _A, infer E, infer _R> ? E : never
/** What an effect succeeds and fails with, and what a stream emits, read the same way in either edition. */
type Success<T> = T extends Effect.Effect<infer A, infer _E, infer _R> ? A : never
type Failure<T> = T extends Effect.Effect<infer _A, infer E, infer _R> ? E : never
type Item<T> = T extends Stream.Stream<infer A, infer _E, infer _R> ? A : never

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

describe("ids go back in", () => {
  it("an operation whose key is the resource's id takes the id or the resource, with the same error union", () =>
    typeOnly((catalog) => {
    const fromResources = (model: Model, mcp: Mcp, topic: Topic, skill: Skill) => {
      expectTypeOf(catalog.model("o0000-falcon/m0000000-kestrel-8b")).toEqualTypeOf<Effect.Effect<Model, Detail>>()
      expectTypeOf(catalog.model({ id: model.id })).toEqualTypeOf<Effect.Effect<Model, Detail>>()
      expectTypeOf(catalog.model(model)).toEqualTypeOf<Effect.Effect<Model, Detail>>()
      expectTypeOf(catalog.modelOffers(model)).toEqualTypeOf<Stream.Stream<Offer, NestedList>>()
      expectTypeOf(catalog.modelOffers(model.id, { limit: 10 })).toEqualTypeOf<Stream.Stream<Offer, NestedList>>()
      expectTypeOf(catalog.modelOffersPage(model, { limit: 10, cursor: "c" })).toEqualTypeOf<Effect.Effect<CatalogClient.Page<Offer>, NestedPage>>()
      expectTypeOf(catalog.skill(skill)).toEqualTypeOf<Effect.Effect<Skill, Detail>>()
      expectTypeOf(catalog.skillDocument(skill.id)).toEqualTypeOf<Effect.Effect<Success<ReturnType<Service["skillDocument"]>>, Detail>>()
      expectTypeOf(catalog.mcp("io.example.n0000-x/s000000-y")).toEqualTypeOf<Effect.Effect<Mcp, Detail>>()
      expectTypeOf(catalog.mcpConnection(mcp)).toEqualTypeOf<ReturnType<Service["mcpConnection"]>>()
      expectTypeOf(catalog.topicSkills(topic)).toEqualTypeOf<Stream.Stream<Skill, NestedList>>()
      expectTypeOf(catalog.offer("f00d")).toEqualTypeOf<Effect.Effect<Offer, Detail>>()
    }
    expect(fromResources).toBeTypeOf("function")
  }))

  it("a slug is taken alone, an id that does not name the path is not taken", () =>
    typeOnly((catalog) => {
    expectTypeOf(catalog.organization("falcon-tundra-0")).toEqualTypeOf<Effect.Effect<Organization, Detail>>()
    expectTypeOf(catalog.organizationModels("falcon-tundra-0", { limit: 5 })).toEqualTypeOf<Stream.Stream<Model, NestedList>>()
    catalog.article("a-slug")
    // @ts-expect-error an organization's id is a UUID, not the slug its path takes
    catalog.organization({ id: "6f1c2a0e-0000-4000-8000-000000000000" })
    // @ts-expect-error an article's id is not its slug
    catalog.article({ id: "a00001" })
    // @ts-expect-error a Collection's id does not name its organization
    catalog.organizationResource("6f1c2a0e-0000-4000-8000-000000000000")
    // @ts-expect-error the query goes apart from a key
    catalog.modelOffers({ id: "o/m", limit: 10 })
    // @ts-expect-error streams take no cursor
    catalog.modelOffers("o/m", { cursor: "c" })
  }))

  it("followList and locate have exact unions", () =>
    typeOnly((catalog) => {
    expectTypeOf(catalog.followList("http://127.0.0.1/api/v1/models/o/m/offers/")).toEqualTypeOf<
      Stream.Stream<CatalogClient.FollowedItem, NestedList>
    >()
    expectTypeOf<Extract<CatalogClient.FollowedItem, { readonly operation: "modelOffers" }>["value"]>().toEqualTypeOf<Offer>()
    expectTypeOf(catalog.locate("http://127.0.0.1/api/v1/models/")).toEqualTypeOf<
      Effect.Effect<CatalogClient.Located, InvalidRequest | UnsafeLink>
    >()
  }))
})

describe("parameters and results", () => {
  it("takes path parameters as one object and filters with their wire types", () =>
    typeOnly((catalog) => {
    catalog.model({ organization: "o", model: "m" })
    catalog.skill({ sourceType: "github", owner: "o", repository: "r", skill: "s" })
    // @ts-expect-error every path parameter is needed
    catalog.skill({ sourceType: "github", owner: "o", repository: "r" })
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
    type Decoded = Success<ReturnType<Service["model"]>>
    expectTypeOf<Decoded["context_tokens"]>().toEqualTypeOf<bigint | null>()
    expectTypeOf<Decoded["released_on"]>().toEqualTypeOf<Primitives.CalendarDate | null>()
    type Listed = Item<ReturnType<Service["modelOffers"]>>
    expectTypeOf<NonNullable<Listed["pricing"]["input"]>>().toEqualTypeOf<BigDecimal.BigDecimal>()
    type Skill = Item<ReturnType<Service["skills"]>>
    expectTypeOf<Skill["installs"]>().toEqualTypeOf<bigint>()
    expectTypeOf<"github">().toExtend<Skill["source_type"]>()
  }))

  it("the tags let through at run time are the shared rules' tags of each operation, and AdmissionUnavailable everywhere", () => {
    for (const operation of Operations.all) {
      expect([...OperationErrors.errorKindOf(operation).tags].sort(), operation.id).toEqual([...OperationErrorTags.tagsOf(operation).answered].sort())
    }
    const unavailable = new Errors.AdmissionUnavailable({ address: "redis://127.0.0.1:1", reason: "Connection", detail: "refused" })
    for (const operation of Operations.all) expect(OperationErrors.errorKindOf(operation).allows(unavailable), operation.id).toBe(true)
  })

  it("a store in memory cannot fail; admission through a store that can adds AdmissionUnavailable, and nothing else", () => {
    type MemoryStore = Success<ReturnType<typeof Admission.memoryStore>>
    expectTypeOf<Failure<MemoryStore["turn"]>>().toEqualTypeOf<never>()
    expectTypeOf<Failure<MemoryStore["slot"]>>().toEqualTypeOf<never>()
    expectTypeOf<Failure<MemoryStore["paused"]>>().toEqualTypeOf<never>()
    expectTypeOf<Failure<ReturnType<MemoryStore["pause"]>>>().toEqualTypeOf<never>()
    const admitted = (service: Admission.Service) => service.admit(Effect.fail(new Errors.NotFound({ requestId: null, code: null, detail: null })))
    expectTypeOf<Failure<ReturnType<typeof admitted>>>().toEqualTypeOf<NotFound | AdmissionUnavailable>()
  })

  it("ErrorOf and PageErrorOf name each method's union by its operation id", () => {
    expectTypeOf<OperationErrors.ErrorOf<"models">>().toEqualTypeOf<StreamErrorOf<Service["models"]>>()
    expectTypeOf<OperationErrors.PageErrorOf<"models">>().toEqualTypeOf<ErrorOf<Service["modelsPage"]>>()
    expectTypeOf<OperationErrors.ErrorOf<"usage">>().toEqualTypeOf<Account>()
    expectTypeOf<OperationErrors.ErrorOf<"stats">>().toEqualTypeOf<Charged>()
  })
})
