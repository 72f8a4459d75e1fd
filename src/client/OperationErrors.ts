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
 * @since 0.1.0
 */
export type ChargedError = CommonError | Errors.BudgetExceeded

/**
 * Errors of a request that names a resource or takes parameters.
 *
 * @since 0.1.0
 */
export type ParameterizedError = ChargedError | Errors.ScopeMissing | Errors.ResponseTooLarge

type HasPath<Path extends string> = [PathParameterName<Path>] extends [never] ? false : true

/**
 * The errors of a detail read.
 *
 * @since 0.1.0
 */
export type DetailError<Path extends string, Units extends number = 1> = HasPath<Path> extends true
  ? ParameterizedError | Errors.NotFound
  : Units extends 0 ? CommonError
  : ChargedError

/**
 * The errors of one page of a list.
 *
 * @since 0.1.0
 */
export type PageError<Path extends string> =
  | ParameterizedError
  | Errors.CursorExpired
  | (HasPath<Path> extends true ? Errors.NotFound : never)

/**
 * The errors of a whole list, followed page by page.
 *
 * @since 0.1.0
 */
export type ListError<Path extends string> = PageError<Path> | Errors.UnsafeLink

/**
 * One kind of operation's error union, as a value: the tags its answers may
 * produce and a guard that narrows an answer's error to the union.
 *
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
 * @since 0.1.0
 */
export const accountRead: ErrorKind<ChargedError> = kind<ChargedError>(answered)

/**
 * Detail reads of a named resource.
 *
 * @since 0.1.0
 */
export const detailRead: ErrorKind<ParameterizedError | Errors.NotFound> = kind<ParameterizedError | Errors.NotFound>([...parameterized, "NotFound"])

/**
 * Pages of a top-level list.
 *
 * @since 0.1.0
 */
export const listPage: ErrorKind<ParameterizedError | Errors.CursorExpired> = kind<ParameterizedError | Errors.CursorExpired>([...parameterized, "CursorExpired"])

/**
 * Pages of a list below a parent resource.
 *
 * @since 0.1.0
 */
export const nestedListPage: ErrorKind<ParameterizedError | Errors.CursorExpired | Errors.NotFound> = kind<
  ParameterizedError | Errors.CursorExpired | Errors.NotFound
>([...parameterized, "CursorExpired", "NotFound"])

// The error union of each operation, by name, for exhaustive `catchTags`.

/** The errors of the `models` stream. @since 0.1.0 */
export type ModelsError = ListError<typeof Operations.models.path>
/** The errors of `modelsPage`. @since 0.1.0 */
export type ModelsPageError = PageError<typeof Operations.models.path>
/** The errors of `model`. @since 0.1.0 */
export type ModelError = DetailError<typeof Operations.model.path>
/** The errors of the `modelOffers` stream. @since 0.1.0 */
export type ModelOffersError = ListError<typeof Operations.modelOffers.path>
/** The errors of `modelOffersPage`. @since 0.1.0 */
export type ModelOffersPageError = PageError<typeof Operations.modelOffers.path>
/** The errors of the `modelBenchmarks` stream. @since 0.1.0 */
export type ModelBenchmarksError = ListError<typeof Operations.modelBenchmarks.path>
/** The errors of `modelBenchmarksPage`. @since 0.1.0 */
export type ModelBenchmarksPageError = PageError<typeof Operations.modelBenchmarks.path>
/** The errors of the `modelPerformance` stream. @since 0.1.0 */
export type ModelPerformanceError = ListError<typeof Operations.modelPerformance.path>
/** The errors of `modelPerformancePage`. @since 0.1.0 */
export type ModelPerformancePageError = PageError<typeof Operations.modelPerformance.path>
/** The errors of the `modelActivity` stream. @since 0.1.0 */
export type ModelActivityError = ListError<typeof Operations.modelActivity.path>
/** The errors of `modelActivityPage`. @since 0.1.0 */
export type ModelActivityPageError = PageError<typeof Operations.modelActivity.path>
/** The errors of the `modelApplications` stream. @since 0.1.0 */
export type ModelApplicationsError = ListError<typeof Operations.modelApplications.path>
/** The errors of `modelApplicationsPage`. @since 0.1.0 */
export type ModelApplicationsPageError = PageError<typeof Operations.modelApplications.path>
/** The errors of `offer`. @since 0.1.0 */
export type OfferError = DetailError<typeof Operations.offer.path>
/** The errors of the `families` stream. @since 0.1.0 */
export type FamiliesError = ListError<typeof Operations.families.path>
/** The errors of `familiesPage`. @since 0.1.0 */
export type FamiliesPageError = PageError<typeof Operations.families.path>
/** The errors of `family`. @since 0.1.0 */
export type FamilyError = DetailError<typeof Operations.family.path>
/** The errors of the `familyModels` stream. @since 0.1.0 */
export type FamilyModelsError = ListError<typeof Operations.familyModels.path>
/** The errors of `familyModelsPage`. @since 0.1.0 */
export type FamilyModelsPageError = PageError<typeof Operations.familyModels.path>
/** The errors of the `providers` stream. @since 0.1.0 */
export type ProvidersError = ListError<typeof Operations.providers.path>
/** The errors of `providersPage`. @since 0.1.0 */
export type ProvidersPageError = PageError<typeof Operations.providers.path>
/** The errors of `provider`. @since 0.1.0 */
export type ProviderError = DetailError<typeof Operations.provider.path>
/** The errors of the `providerModels` stream. @since 0.1.0 */
export type ProviderModelsError = ListError<typeof Operations.providerModels.path>
/** The errors of `providerModelsPage`. @since 0.1.0 */
export type ProviderModelsPageError = PageError<typeof Operations.providerModels.path>
/** The errors of the `providerOffers` stream. @since 0.1.0 */
export type ProviderOffersError = ListError<typeof Operations.providerOffers.path>
/** The errors of `providerOffersPage`. @since 0.1.0 */
export type ProviderOffersPageError = PageError<typeof Operations.providerOffers.path>
/** The errors of the `organizations` stream. @since 0.1.0 */
export type OrganizationsError = ListError<typeof Operations.organizations.path>
/** The errors of `organizationsPage`. @since 0.1.0 */
export type OrganizationsPageError = PageError<typeof Operations.organizations.path>
/** The errors of `organization`. @since 0.1.0 */
export type OrganizationError = DetailError<typeof Operations.organization.path>
/** The errors of the `organizationModels` stream. @since 0.1.0 */
export type OrganizationModelsError = ListError<typeof Operations.organizationModels.path>
/** The errors of `organizationModelsPage`. @since 0.1.0 */
export type OrganizationModelsPageError = PageError<typeof Operations.organizationModels.path>
/** The errors of the `organizationResources` stream. @since 0.1.0 */
export type OrganizationResourcesError = ListError<typeof Operations.organizationResources.path>
/** The errors of `organizationResourcesPage`. @since 0.1.0 */
export type OrganizationResourcesPageError = PageError<typeof Operations.organizationResources.path>
/** The errors of `organizationResource`. @since 0.1.0 */
export type OrganizationResourceError = DetailError<typeof Operations.organizationResource.path>
/** The errors of the `skills` stream. @since 0.1.0 */
export type SkillsError = ListError<typeof Operations.skills.path>
/** The errors of `skillsPage`. @since 0.1.0 */
export type SkillsPageError = PageError<typeof Operations.skills.path>
/** The errors of `skill`. @since 0.1.0 */
export type SkillError = DetailError<typeof Operations.skill.path>
/** The errors of `skillAudits`. @since 0.1.0 */
export type SkillAuditsError = DetailError<typeof Operations.skillAudits.path>
/** The errors of `skillDocument`. @since 0.1.0 */
export type SkillDocumentError = DetailError<typeof Operations.skillDocument.path>
/** The errors of the `publishers` stream. @since 0.1.0 */
export type PublishersError = ListError<typeof Operations.publishers.path>
/** The errors of `publishersPage`. @since 0.1.0 */
export type PublishersPageError = PageError<typeof Operations.publishers.path>
/** The errors of the `mcps` stream. @since 0.1.0 */
export type McpsError = ListError<typeof Operations.mcps.path>
/** The errors of `mcpsPage`. @since 0.1.0 */
export type McpsPageError = PageError<typeof Operations.mcps.path>
/** The errors of `mcp`. @since 0.1.0 */
export type McpError = DetailError<typeof Operations.mcp.path>
/** The errors of `mcpConnection`. @since 0.1.0 */
export type McpConnectionError = DetailError<typeof Operations.mcpConnection.path>
/** The errors of the `topics` stream. @since 0.1.0 */
export type TopicsError = ListError<typeof Operations.topics.path>
/** The errors of `topicsPage`. @since 0.1.0 */
export type TopicsPageError = PageError<typeof Operations.topics.path>
/** The errors of the `topicSkills` stream. @since 0.1.0 */
export type TopicSkillsError = ListError<typeof Operations.topicSkills.path>
/** The errors of `topicSkillsPage`. @since 0.1.0 */
export type TopicSkillsPageError = PageError<typeof Operations.topicSkills.path>
/** The errors of the `articles` stream. @since 0.1.0 */
export type ArticlesError = ListError<typeof Operations.articles.path>
/** The errors of `articlesPage`. @since 0.1.0 */
export type ArticlesPageError = PageError<typeof Operations.articles.path>
/** The errors of `article`. @since 0.1.0 */
export type ArticleError = DetailError<typeof Operations.article.path>
/** The errors of the `search` stream. @since 0.1.0 */
export type SearchError = ListError<typeof Operations.search.path>
/** The errors of `searchPage`. @since 0.1.0 */
export type SearchPageError = PageError<typeof Operations.search.path>
/** The errors of `stats`. @since 0.1.0 */
export type StatsError = DetailError<typeof Operations.stats.path, typeof Operations.stats.units>
/** The errors of `usage`. @since 0.1.0 */
export type UsageError = DetailError<typeof Operations.usage.path, typeof Operations.usage.units>
