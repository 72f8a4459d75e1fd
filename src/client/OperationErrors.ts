/**
 * The exact error union of each kind of operation, as types and as the set of
 * tags the client lets through at run time; anything else the service answers
 * becomes `UnexpectedResponse`.
 *
 * - `stats` and `usage` (no path, any valid key): no `ScopeMissing`,
 *   `NotFound`, `CursorExpired` or `ResponseTooLarge`.
 * - detail reads: no `CursorExpired`.
 * - list pages: `CursorExpired`; `NotFound` only below a parent resource.
 * - list streams: a page's errors, and `UnsafeLink` for a foreign `links.next`.
 *
 * @since 0.1.0
 */
import type * as Operations from "../contract/Operations.js"
import type { PathParameterName } from "../contract/Operations.js"
import type * as Errors from "./Errors.js"

/**
 * Errors any request can meet.
 *
 * @example
 * ```ts
 * import type { OperationErrors } from "effect-catalog"
 *
 * const advice = (error: OperationErrors.CommonError): string =>
 *   error._tag === "QuotaExhausted" ? `wait until ${error.resetsAt.toISOString()}` : error.message
 * ```
 * @since 0.1.0
 */
export type CommonError =
  | Errors.InvalidRequest
  | Errors.InvalidApiKey
  | Errors.RateLimited
  | Errors.QuotaExhausted
  | Errors.ServiceUnavailable
  | Errors.TransportError
  | Errors.UnexpectedResponse

/**
 * Errors of a request that costs units (all but `usage`).
 *
 * @example
 * ```ts
 * import type { OperationErrors } from "effect-catalog"
 *
 * const advice = (error: OperationErrors.ChargedError): string =>
 *   error._tag === "BudgetExceeded" ? `${error.spent} of ${error.budget} units spent today` : error.message
 * ```
 * @since 0.1.0
 */
export type ChargedError = CommonError | Errors.BudgetExceeded

/**
 * Errors of a request that names a resource or takes parameters.
 *
 * @example
 * ```ts
 * import type { OperationErrors } from "effect-catalog"
 *
 * const advice = (error: OperationErrors.ParameterizedError): string =>
 *   error._tag === "ScopeMissing" ? `the key needs ${error.requiredScope}` : error.message
 * ```
 * @since 0.1.0
 */
export type ParameterizedError = ChargedError | Errors.ScopeMissing | Errors.ResponseTooLarge

type HasPath<Path extends string> = [PathParameterName<Path>] extends [never] ? false : true

/**
 * The errors of a detail read.
 *
 * @example
 * ```ts
 * import type { OperationErrors, Operations } from "effect-catalog"
 *
 * type OfferError = OperationErrors.DetailError<typeof Operations.offer.path> // with NotFound
 * type StatsError = OperationErrors.DetailError<"/stats/"> // a path without parameters: no NotFound
 * ```
 * @since 0.1.0
 */
export type DetailError<Path extends string, Units extends number = 1> = HasPath<Path> extends true
  ? ParameterizedError | Errors.NotFound
  : Units extends 0 ? CommonError
  : ChargedError

/**
 * The errors of one page of a list.
 *
 * @example
 * ```ts
 * import type { OperationErrors, Operations } from "effect-catalog"
 *
 * const advice = (error: OperationErrors.PageError<typeof Operations.familyModels.path>): string =>
 *   error._tag === "NotFound" ? "no such family" : error._tag === "CursorExpired" ? "start again" : error.message
 * ```
 * @since 0.1.0
 */
export type PageError<Path extends string> =
  | ParameterizedError
  | Errors.CursorExpired
  | (HasPath<Path> extends true ? Errors.NotFound : never)

/**
 * The errors of a whole list, followed page by page.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const models = (catalog: CatalogClient.Service): Stream.Stream<string, OperationErrors.ListError<"/models/">> =>
 *   catalog.models({ open_weights: true }).pipe(Stream.map((model) => model.name))
 * ```
 * @since 0.1.0
 */
export type ListError<Path extends string> = PageError<Path> | Errors.UnsafeLink

/**
 * One kind of operation's error union, as a value: the tags its answers may
 * produce and a guard that narrows an answer's error to the union.
 *
 * @example
 * ```ts
 * import { Errors, OperationErrors } from "effect-catalog"
 *
 * const kind: OperationErrors.ErrorKind<OperationErrors.CommonError> = OperationErrors.usageRead
 * kind.is(new Errors.NotFound({ requestId: null, code: null, detail: null })) // false
 * ```
 * @since 0.1.0
 */
export interface ErrorKind<E> {
  readonly tags: ReadonlySet<Errors.ResponseError["_tag"]>
  readonly is: (error: Errors.ResponseError) => error is Extract<E, Errors.ResponseError>
}

const kind = <E>(tags: ReadonlyArray<Extract<E, Errors.ResponseError>["_tag"]>): ErrorKind<E> => {
  const set = new Set<Errors.ResponseError["_tag"]>(tags)
  return { tags: set, is: (error): error is Extract<E, Errors.ResponseError> => set.has(error._tag) }
}

const answered = ["InvalidRequest", "InvalidApiKey", "RateLimited", "ServiceUnavailable", "TransportError", "UnexpectedResponse"] as const
const parameterized = [...answered, "ScopeMissing", "ResponseTooLarge"] as const

/**
 * `usage`: any valid key, no units.
 *
 * @example
 * ```ts
 * import { OperationErrors } from "effect-catalog"
 *
 * OperationErrors.usageRead.tags.has("ScopeMissing") // false
 * ```
 * @since 0.1.0
 */
export const usageRead: ErrorKind<CommonError> = kind<CommonError>(answered)

/**
 * `stats`: any valid key.
 *
 * @example
 * ```ts
 * import { OperationErrors } from "effect-catalog"
 *
 * OperationErrors.accountRead.tags.has("RateLimited") // true
 * OperationErrors.accountRead.tags.has("NotFound") // false
 * ```
 * @since 0.1.0
 */
export const accountRead: ErrorKind<ChargedError> = kind<ChargedError>(answered)

/**
 * Detail reads of a named resource.
 *
 * @example
 * ```ts
 * import { OperationErrors } from "effect-catalog"
 *
 * OperationErrors.detailRead.tags.has("NotFound") // true
 * OperationErrors.detailRead.tags.has("CursorExpired") // false
 * ```
 * @since 0.1.0
 */
export const detailRead: ErrorKind<ParameterizedError | Errors.NotFound> = kind<ParameterizedError | Errors.NotFound>([...parameterized, "NotFound"])

/**
 * Pages of a top-level list.
 *
 * @example
 * ```ts
 * import { OperationErrors } from "effect-catalog"
 *
 * OperationErrors.listPage.tags.has("CursorExpired") // true
 * OperationErrors.listPage.tags.has("NotFound") // false
 * ```
 * @since 0.1.0
 */
export const listPage: ErrorKind<ParameterizedError | Errors.CursorExpired> = kind<ParameterizedError | Errors.CursorExpired>([...parameterized, "CursorExpired"])

/**
 * Pages of a list below a parent resource.
 *
 * @example
 * ```ts
 * import { OperationErrors } from "effect-catalog"
 *
 * OperationErrors.nestedListPage.tags.has("NotFound") // true
 * ```
 * @since 0.1.0
 */
export const nestedListPage: ErrorKind<ParameterizedError | Errors.CursorExpired | Errors.NotFound> = kind<
  ParameterizedError | Errors.CursorExpired | Errors.NotFound
>([...parameterized, "CursorExpired", "NotFound"])

// The error union of each operation, by name, for exhaustive `catchTags`.

/**
 * The errors of the `models` stream: those of `modelsPage`, and `UnsafeLink` for
 * a `links.next` outside the base URL.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.ModelsError): string =>
 *   error._tag === "UnsafeLink" ? "a next link outside the base URL was refused" : error.message
 *
 * const models = (catalog: CatalogClient.Service) =>
 *   catalog.models({ reasoning: true }).pipe(Stream.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type ModelsError = ListError<typeof Operations.models.path>

/**
 * The errors of `modelsPage`, one page of `models`: `CursorExpired`, and those
 * of any charged request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.ModelsPageError): string =>
 *   error._tag === "CursorExpired" ? "the cursor expired: start again from the first page" : error.message
 *
 * const nextPage = (catalog: CatalogClient.Service, cursor: string) =>
 *   catalog.modelsPage({ cursor }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type ModelsPageError = PageError<typeof Operations.models.path>

/**
 * The errors of `model`: `NotFound` for a missing model, and those of any
 * charged request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.ModelError): string =>
 *   error._tag === "NotFound" ? "no such model" : error.message
 *
 * const read = (catalog: CatalogClient.Service, organization: string, model: string) =>
 *   catalog.model({ organization, model }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type ModelError = DetailError<typeof Operations.model.path>

/**
 * The errors of the `modelOffers` stream: those of `modelOffersPage`, and
 * `UnsafeLink` for a `links.next` outside the base URL.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.ModelOffersError): string =>
 *   error._tag === "NotFound" ? "no such model" : error.message
 *
 * const modelOffers = (catalog: CatalogClient.Service, organization: string, model: string) =>
 *   catalog.modelOffers({ organization, model }).pipe(Stream.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type ModelOffersError = ListError<typeof Operations.modelOffers.path>

/**
 * The errors of `modelOffersPage`, one page of `modelOffers`: `CursorExpired`,
 * `NotFound` for a missing model, and those of any charged request with
 * parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.ModelOffersPageError): string =>
 *   error._tag === "CursorExpired" ? "the cursor expired: start again from the first page" : error.message
 *
 * const nextPage = (catalog: CatalogClient.Service, organization: string, model: string, cursor: string) =>
 *   catalog.modelOffersPage({ organization, model, cursor }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type ModelOffersPageError = PageError<typeof Operations.modelOffers.path>

/**
 * The errors of the `modelBenchmarks` stream: those of `modelBenchmarksPage`,
 * and `UnsafeLink` for a `links.next` outside the base URL.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.ModelBenchmarksError): string =>
 *   error._tag === "NotFound" ? "no such model" : error.message
 *
 * const modelBenchmarks = (catalog: CatalogClient.Service, organization: string, model: string) =>
 *   catalog.modelBenchmarks({ organization, model }).pipe(Stream.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type ModelBenchmarksError = ListError<typeof Operations.modelBenchmarks.path>

/**
 * The errors of `modelBenchmarksPage`, one page of `modelBenchmarks`:
 * `CursorExpired`, `NotFound` for a missing model, and those of any charged
 * request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.ModelBenchmarksPageError): string =>
 *   error._tag === "CursorExpired" ? "the cursor expired: start again from the first page" : error.message
 *
 * const nextPage = (catalog: CatalogClient.Service, organization: string, model: string, cursor: string) =>
 *   catalog.modelBenchmarksPage({ organization, model, cursor }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type ModelBenchmarksPageError = PageError<typeof Operations.modelBenchmarks.path>

/**
 * The errors of the `modelPerformance` stream: those of `modelPerformancePage`,
 * and `UnsafeLink` for a `links.next` outside the base URL.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.ModelPerformanceError): string =>
 *   error._tag === "NotFound" ? "no such model" : error.message
 *
 * const modelPerformance = (catalog: CatalogClient.Service, organization: string, model: string) =>
 *   catalog.modelPerformance({ organization, model }).pipe(Stream.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type ModelPerformanceError = ListError<typeof Operations.modelPerformance.path>

/**
 * The errors of `modelPerformancePage`, one page of `modelPerformance`:
 * `CursorExpired`, `NotFound` for a missing model, and those of any charged
 * request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.ModelPerformancePageError): string =>
 *   error._tag === "CursorExpired" ? "the cursor expired: start again from the first page" : error.message
 *
 * const nextPage = (catalog: CatalogClient.Service, organization: string, model: string, cursor: string) =>
 *   catalog.modelPerformancePage({ organization, model, cursor }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type ModelPerformancePageError = PageError<typeof Operations.modelPerformance.path>

/**
 * The errors of the `modelActivity` stream: those of `modelActivityPage`, and
 * `UnsafeLink` for a `links.next` outside the base URL.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.ModelActivityError): string =>
 *   error._tag === "NotFound" ? "no such model" : error.message
 *
 * const modelActivity = (catalog: CatalogClient.Service, organization: string, model: string) =>
 *   catalog.modelActivity({ organization, model }).pipe(Stream.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type ModelActivityError = ListError<typeof Operations.modelActivity.path>

/**
 * The errors of `modelActivityPage`, one page of `modelActivity`:
 * `CursorExpired`, `NotFound` for a missing model, and those of any charged
 * request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.ModelActivityPageError): string =>
 *   error._tag === "CursorExpired" ? "the cursor expired: start again from the first page" : error.message
 *
 * const nextPage = (catalog: CatalogClient.Service, organization: string, model: string, cursor: string) =>
 *   catalog.modelActivityPage({ organization, model, cursor }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type ModelActivityPageError = PageError<typeof Operations.modelActivity.path>

/**
 * The errors of the `modelApplications` stream: those of
 * `modelApplicationsPage`, and `UnsafeLink` for a `links.next` outside the base
 * URL.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.ModelApplicationsError): string =>
 *   error._tag === "NotFound" ? "no such model" : error.message
 *
 * const modelApplications = (catalog: CatalogClient.Service, organization: string, model: string) =>
 *   catalog.modelApplications({ organization, model }).pipe(Stream.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type ModelApplicationsError = ListError<typeof Operations.modelApplications.path>

/**
 * The errors of `modelApplicationsPage`, one page of `modelApplications`:
 * `CursorExpired`, `NotFound` for a missing model, and those of any charged
 * request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.ModelApplicationsPageError): string =>
 *   error._tag === "CursorExpired" ? "the cursor expired: start again from the first page" : error.message
 *
 * const nextPage = (catalog: CatalogClient.Service, organization: string, model: string, cursor: string) =>
 *   catalog.modelApplicationsPage({ organization, model, cursor }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type ModelApplicationsPageError = PageError<typeof Operations.modelApplications.path>

/**
 * The errors of `offer`: `NotFound` for a missing offer, and those of any
 * charged request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.OfferError): string =>
 *   error._tag === "NotFound" ? "no such offer" : error.message
 *
 * const read = (catalog: CatalogClient.Service, id: string) =>
 *   catalog.offer({ id }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type OfferError = DetailError<typeof Operations.offer.path>

/**
 * The errors of the `families` stream: those of `familiesPage`, and `UnsafeLink`
 * for a `links.next` outside the base URL.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.FamiliesError): string =>
 *   error._tag === "UnsafeLink" ? "a next link outside the base URL was refused" : error.message
 *
 * const families = (catalog: CatalogClient.Service) =>
 *   catalog.families().pipe(Stream.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type FamiliesError = ListError<typeof Operations.families.path>

/**
 * The errors of `familiesPage`, one page of `families`: `CursorExpired`, and
 * those of any charged request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.FamiliesPageError): string =>
 *   error._tag === "CursorExpired" ? "the cursor expired: start again from the first page" : error.message
 *
 * const nextPage = (catalog: CatalogClient.Service, cursor: string) =>
 *   catalog.familiesPage({ cursor }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type FamiliesPageError = PageError<typeof Operations.families.path>

/**
 * The errors of `family`: `NotFound` for a missing family, and those of any
 * charged request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.FamilyError): string =>
 *   error._tag === "NotFound" ? "no such family" : error.message
 *
 * const read = (catalog: CatalogClient.Service, id: string) =>
 *   catalog.family({ id }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type FamilyError = DetailError<typeof Operations.family.path>

/**
 * The errors of the `familyModels` stream: those of `familyModelsPage`, and
 * `UnsafeLink` for a `links.next` outside the base URL.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.FamilyModelsError): string =>
 *   error._tag === "NotFound" ? "no such family" : error.message
 *
 * const familyModels = (catalog: CatalogClient.Service, id: string) =>
 *   catalog.familyModels({ id }).pipe(Stream.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type FamilyModelsError = ListError<typeof Operations.familyModels.path>

/**
 * The errors of `familyModelsPage`, one page of `familyModels`: `CursorExpired`,
 * `NotFound` for a missing family, and those of any charged request with
 * parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.FamilyModelsPageError): string =>
 *   error._tag === "CursorExpired" ? "the cursor expired: start again from the first page" : error.message
 *
 * const nextPage = (catalog: CatalogClient.Service, id: string, cursor: string) =>
 *   catalog.familyModelsPage({ id, cursor }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type FamilyModelsPageError = PageError<typeof Operations.familyModels.path>

/**
 * The errors of the `providers` stream: those of `providersPage`, and
 * `UnsafeLink` for a `links.next` outside the base URL.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.ProvidersError): string =>
 *   error._tag === "UnsafeLink" ? "a next link outside the base URL was refused" : error.message
 *
 * const providers = (catalog: CatalogClient.Service) =>
 *   catalog.providers().pipe(Stream.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type ProvidersError = ListError<typeof Operations.providers.path>

/**
 * The errors of `providersPage`, one page of `providers`: `CursorExpired`, and
 * those of any charged request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.ProvidersPageError): string =>
 *   error._tag === "CursorExpired" ? "the cursor expired: start again from the first page" : error.message
 *
 * const nextPage = (catalog: CatalogClient.Service, cursor: string) =>
 *   catalog.providersPage({ cursor }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type ProvidersPageError = PageError<typeof Operations.providers.path>

/**
 * The errors of `provider`: `NotFound` for a missing provider, and those of any
 * charged request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.ProviderError): string =>
 *   error._tag === "NotFound" ? "no such provider" : error.message
 *
 * const read = (catalog: CatalogClient.Service, id: string) =>
 *   catalog.provider({ id }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type ProviderError = DetailError<typeof Operations.provider.path>

/**
 * The errors of the `providerModels` stream: those of `providerModelsPage`, and
 * `UnsafeLink` for a `links.next` outside the base URL.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.ProviderModelsError): string =>
 *   error._tag === "NotFound" ? "no such provider" : error.message
 *
 * const providerModels = (catalog: CatalogClient.Service, id: string) =>
 *   catalog.providerModels({ id }).pipe(Stream.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type ProviderModelsError = ListError<typeof Operations.providerModels.path>

/**
 * The errors of `providerModelsPage`, one page of `providerModels`:
 * `CursorExpired`, `NotFound` for a missing provider, and those of any charged
 * request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.ProviderModelsPageError): string =>
 *   error._tag === "CursorExpired" ? "the cursor expired: start again from the first page" : error.message
 *
 * const nextPage = (catalog: CatalogClient.Service, id: string, cursor: string) =>
 *   catalog.providerModelsPage({ id, cursor }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type ProviderModelsPageError = PageError<typeof Operations.providerModels.path>

/**
 * The errors of the `providerOffers` stream: those of `providerOffersPage`, and
 * `UnsafeLink` for a `links.next` outside the base URL.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.ProviderOffersError): string =>
 *   error._tag === "NotFound" ? "no such provider" : error.message
 *
 * const providerOffers = (catalog: CatalogClient.Service, id: string) =>
 *   catalog.providerOffers({ id }).pipe(Stream.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type ProviderOffersError = ListError<typeof Operations.providerOffers.path>

/**
 * The errors of `providerOffersPage`, one page of `providerOffers`:
 * `CursorExpired`, `NotFound` for a missing provider, and those of any charged
 * request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.ProviderOffersPageError): string =>
 *   error._tag === "CursorExpired" ? "the cursor expired: start again from the first page" : error.message
 *
 * const nextPage = (catalog: CatalogClient.Service, id: string, cursor: string) =>
 *   catalog.providerOffersPage({ id, cursor }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type ProviderOffersPageError = PageError<typeof Operations.providerOffers.path>

/**
 * The errors of the `organizations` stream: those of `organizationsPage`, and
 * `UnsafeLink` for a `links.next` outside the base URL.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.OrganizationsError): string =>
 *   error._tag === "UnsafeLink" ? "a next link outside the base URL was refused" : error.message
 *
 * const organizations = (catalog: CatalogClient.Service) =>
 *   catalog.organizations().pipe(Stream.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type OrganizationsError = ListError<typeof Operations.organizations.path>

/**
 * The errors of `organizationsPage`, one page of `organizations`:
 * `CursorExpired`, and those of any charged request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.OrganizationsPageError): string =>
 *   error._tag === "CursorExpired" ? "the cursor expired: start again from the first page" : error.message
 *
 * const nextPage = (catalog: CatalogClient.Service, cursor: string) =>
 *   catalog.organizationsPage({ cursor }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type OrganizationsPageError = PageError<typeof Operations.organizations.path>

/**
 * The errors of `organization`: `NotFound` for a missing organization, and those
 * of any charged request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.OrganizationError): string =>
 *   error._tag === "NotFound" ? "no such organization" : error.message
 *
 * const read = (catalog: CatalogClient.Service, slug: string) =>
 *   catalog.organization({ slug }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type OrganizationError = DetailError<typeof Operations.organization.path>

/**
 * The errors of the `organizationModels` stream: those of
 * `organizationModelsPage`, and `UnsafeLink` for a `links.next` outside the base
 * URL.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.OrganizationModelsError): string =>
 *   error._tag === "NotFound" ? "no such organization" : error.message
 *
 * const organizationModels = (catalog: CatalogClient.Service, slug: string) =>
 *   catalog.organizationModels({ slug }).pipe(Stream.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type OrganizationModelsError = ListError<typeof Operations.organizationModels.path>

/**
 * The errors of `organizationModelsPage`, one page of `organizationModels`:
 * `CursorExpired`, `NotFound` for a missing organization, and those of any
 * charged request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.OrganizationModelsPageError): string =>
 *   error._tag === "CursorExpired" ? "the cursor expired: start again from the first page" : error.message
 *
 * const nextPage = (catalog: CatalogClient.Service, slug: string, cursor: string) =>
 *   catalog.organizationModelsPage({ slug, cursor }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type OrganizationModelsPageError = PageError<typeof Operations.organizationModels.path>

/**
 * The errors of the `organizationResources` stream: those of
 * `organizationResourcesPage`, and `UnsafeLink` for a `links.next` outside the
 * base URL.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.OrganizationResourcesError): string =>
 *   error._tag === "NotFound" ? "no such organization" : error.message
 *
 * const organizationResources = (catalog: CatalogClient.Service, slug: string) =>
 *   catalog.organizationResources({ slug }).pipe(Stream.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type OrganizationResourcesError = ListError<typeof Operations.organizationResources.path>

/**
 * The errors of `organizationResourcesPage`, one page of
 * `organizationResources`: `CursorExpired`, `NotFound` for a missing
 * organization, and those of any charged request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.OrganizationResourcesPageError): string =>
 *   error._tag === "CursorExpired" ? "the cursor expired: start again from the first page" : error.message
 *
 * const nextPage = (catalog: CatalogClient.Service, slug: string, cursor: string) =>
 *   catalog.organizationResourcesPage({ slug, cursor }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type OrganizationResourcesPageError = PageError<typeof Operations.organizationResources.path>

/**
 * The errors of `organizationResource`: `NotFound` for a missing resource, and
 * those of any charged request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.OrganizationResourceError): string =>
 *   error._tag === "NotFound" ? "no such resource" : error.message
 *
 * const read = (catalog: CatalogClient.Service, slug: string, id: string) =>
 *   catalog.organizationResource({ slug, id }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type OrganizationResourceError = DetailError<typeof Operations.organizationResource.path>

/**
 * The errors of the `skills` stream: those of `skillsPage`, and `UnsafeLink` for
 * a `links.next` outside the base URL.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.SkillsError): string =>
 *   error._tag === "UnsafeLink" ? "a next link outside the base URL was refused" : error.message
 *
 * const skills = (catalog: CatalogClient.Service) =>
 *   catalog.skills({ official: true }).pipe(Stream.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type SkillsError = ListError<typeof Operations.skills.path>

/**
 * The errors of `skillsPage`, one page of `skills`: `CursorExpired`, and those
 * of any charged request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.SkillsPageError): string =>
 *   error._tag === "CursorExpired" ? "the cursor expired: start again from the first page" : error.message
 *
 * const nextPage = (catalog: CatalogClient.Service, cursor: string) =>
 *   catalog.skillsPage({ cursor }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type SkillsPageError = PageError<typeof Operations.skills.path>

/**
 * The errors of `skill`: `NotFound` for a missing Skill, and those of any
 * charged request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.SkillError): string =>
 *   error._tag === "NotFound" ? "no such Skill" : error.message
 *
 * const read = (catalog: CatalogClient.Service, sourceType: string, owner: string, repository: string, skill: string) =>
 *   catalog.skill({ sourceType, owner, repository, skill }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type SkillError = DetailError<typeof Operations.skill.path>

/**
 * The errors of `skillAudits`: `NotFound` for a missing Skill, and those of any
 * charged request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.SkillAuditsError): string =>
 *   error._tag === "NotFound" ? "no such Skill" : error.message
 *
 * const read = (catalog: CatalogClient.Service, sourceType: string, owner: string, repository: string, skill: string) =>
 *   catalog.skillAudits({ sourceType, owner, repository, skill }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type SkillAuditsError = DetailError<typeof Operations.skillAudits.path>

/**
 * The errors of `skillDocument`: `NotFound` for a missing Skill, and those of
 * any charged request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.SkillDocumentError): string =>
 *   error._tag === "NotFound" ? "no such Skill" : error.message
 *
 * const read = (catalog: CatalogClient.Service, sourceType: string, owner: string, repository: string, skill: string) =>
 *   catalog.skillDocument({ sourceType, owner, repository, skill }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type SkillDocumentError = DetailError<typeof Operations.skillDocument.path>

/**
 * The errors of the `publishers` stream: those of `publishersPage`, and
 * `UnsafeLink` for a `links.next` outside the base URL.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.PublishersError): string =>
 *   error._tag === "UnsafeLink" ? "a next link outside the base URL was refused" : error.message
 *
 * const publishers = (catalog: CatalogClient.Service) =>
 *   catalog.publishers().pipe(Stream.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type PublishersError = ListError<typeof Operations.publishers.path>

/**
 * The errors of `publishersPage`, one page of `publishers`: `CursorExpired`, and
 * those of any charged request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.PublishersPageError): string =>
 *   error._tag === "CursorExpired" ? "the cursor expired: start again from the first page" : error.message
 *
 * const nextPage = (catalog: CatalogClient.Service, cursor: string) =>
 *   catalog.publishersPage({ cursor }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type PublishersPageError = PageError<typeof Operations.publishers.path>

/**
 * The errors of the `mcps` stream: those of `mcpsPage`, and `UnsafeLink` for a
 * `links.next` outside the base URL.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.McpsError): string =>
 *   error._tag === "UnsafeLink" ? "a next link outside the base URL was refused" : error.message
 *
 * const mcps = (catalog: CatalogClient.Service) =>
 *   catalog.mcps().pipe(Stream.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type McpsError = ListError<typeof Operations.mcps.path>

/**
 * The errors of `mcpsPage`, one page of `mcps`: `CursorExpired`, and those of
 * any charged request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.McpsPageError): string =>
 *   error._tag === "CursorExpired" ? "the cursor expired: start again from the first page" : error.message
 *
 * const nextPage = (catalog: CatalogClient.Service, cursor: string) =>
 *   catalog.mcpsPage({ cursor }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type McpsPageError = PageError<typeof Operations.mcps.path>

/**
 * The errors of `mcp`: `NotFound` for a missing MCP server, and those of any
 * charged request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.McpError): string =>
 *   error._tag === "NotFound" ? "no such MCP server" : error.message
 *
 * const read = (catalog: CatalogClient.Service, namespace: string, name: string) =>
 *   catalog.mcp({ namespace, name }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type McpError = DetailError<typeof Operations.mcp.path>

/**
 * The errors of `mcpConnection`: `NotFound` for a missing MCP server, and those
 * of any charged request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.McpConnectionError): string =>
 *   error._tag === "NotFound" ? "no such MCP server" : error.message
 *
 * const read = (catalog: CatalogClient.Service, namespace: string, name: string) =>
 *   catalog.mcpConnection({ namespace, name }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type McpConnectionError = DetailError<typeof Operations.mcpConnection.path>

/**
 * The errors of the `topics` stream: those of `topicsPage`, and `UnsafeLink` for
 * a `links.next` outside the base URL.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.TopicsError): string =>
 *   error._tag === "UnsafeLink" ? "a next link outside the base URL was refused" : error.message
 *
 * const topics = (catalog: CatalogClient.Service) =>
 *   catalog.topics().pipe(Stream.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type TopicsError = ListError<typeof Operations.topics.path>

/**
 * The errors of `topicsPage`, one page of `topics`: `CursorExpired`, and those
 * of any charged request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.TopicsPageError): string =>
 *   error._tag === "CursorExpired" ? "the cursor expired: start again from the first page" : error.message
 *
 * const nextPage = (catalog: CatalogClient.Service, cursor: string) =>
 *   catalog.topicsPage({ cursor }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type TopicsPageError = PageError<typeof Operations.topics.path>

/**
 * The errors of the `topicSkills` stream: those of `topicSkillsPage`, and
 * `UnsafeLink` for a `links.next` outside the base URL.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.TopicSkillsError): string =>
 *   error._tag === "NotFound" ? "no such topic" : error.message
 *
 * const topicSkills = (catalog: CatalogClient.Service, slug: string) =>
 *   catalog.topicSkills({ slug }).pipe(Stream.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type TopicSkillsError = ListError<typeof Operations.topicSkills.path>

/**
 * The errors of `topicSkillsPage`, one page of `topicSkills`: `CursorExpired`,
 * `NotFound` for a missing topic, and those of any charged request with
 * parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.TopicSkillsPageError): string =>
 *   error._tag === "CursorExpired" ? "the cursor expired: start again from the first page" : error.message
 *
 * const nextPage = (catalog: CatalogClient.Service, slug: string, cursor: string) =>
 *   catalog.topicSkillsPage({ slug, cursor }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type TopicSkillsPageError = PageError<typeof Operations.topicSkills.path>

/**
 * The errors of the `articles` stream: those of `articlesPage`, and `UnsafeLink`
 * for a `links.next` outside the base URL.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.ArticlesError): string =>
 *   error._tag === "UnsafeLink" ? "a next link outside the base URL was refused" : error.message
 *
 * const articles = (catalog: CatalogClient.Service) =>
 *   catalog.articles().pipe(Stream.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type ArticlesError = ListError<typeof Operations.articles.path>

/**
 * The errors of `articlesPage`, one page of `articles`: `CursorExpired`, and
 * those of any charged request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.ArticlesPageError): string =>
 *   error._tag === "CursorExpired" ? "the cursor expired: start again from the first page" : error.message
 *
 * const nextPage = (catalog: CatalogClient.Service, cursor: string) =>
 *   catalog.articlesPage({ cursor }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type ArticlesPageError = PageError<typeof Operations.articles.path>

/**
 * The errors of `article`: `NotFound` for a missing article, and those of any
 * charged request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.ArticleError): string =>
 *   error._tag === "NotFound" ? "no such article" : error.message
 *
 * const read = (catalog: CatalogClient.Service, slug: string) =>
 *   catalog.article({ slug }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type ArticleError = DetailError<typeof Operations.article.path>

/**
 * The errors of the `search` stream: those of `searchPage`, and `UnsafeLink` for
 * a `links.next` outside the base URL.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.SearchError): string =>
 *   error._tag === "UnsafeLink" ? "a next link outside the base URL was refused" : error.message
 *
 * const search = (catalog: CatalogClient.Service, q: string) =>
 *   catalog.search({ q, type: "models" }).pipe(Stream.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type SearchError = ListError<typeof Operations.search.path>

/**
 * The errors of `searchPage`, one page of `search`: `CursorExpired`, and those
 * of any charged request with parameters.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.SearchPageError): string =>
 *   error._tag === "CursorExpired" ? "the cursor expired: start again from the first page" : error.message
 *
 * const nextPage = (catalog: CatalogClient.Service, q: string, cursor: string) =>
 *   catalog.searchPage({ q, type: "models", cursor }).pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type SearchPageError = PageError<typeof Operations.search.path>

/**
 * The errors of `stats`: those of any charged request; it needs no scope and
 * takes no parameters, so no `ScopeMissing`, `ResponseTooLarge` or `NotFound`.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.StatsError): string =>
 *   error._tag === "BudgetExceeded" ? "the daily budget is spent" : error.message
 *
 * const read = (catalog: CatalogClient.Service) =>
 *   catalog.stats().pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type StatsError = DetailError<typeof Operations.stats.path, typeof Operations.stats.units>

/**
 * The errors of `usage`: those any request can meet (it costs no units, so no
 * `BudgetExceeded`).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { CatalogClient, OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.UsageError): string =>
 *   error._tag === "InvalidApiKey" ? "replace the key" : error.message
 *
 * const read = (catalog: CatalogClient.Service) =>
 *   catalog.usage().pipe(Effect.mapError(explain))
 * ```
 * @since 0.1.0
 */
export type UsageError = DetailError<typeof Operations.usage.path, typeof Operations.usage.units>
