/**
 * Request parameters of the contract with their rules: page sizes, cursors,
 * filters, boolean filters, search arguments and path parameters. The same
 * schemas validate input in the client (before anything is sent) and in the
 * simulator (which answers 400 when they are broken).
 *
 * @example
 * ```ts effect4
 * import { Result, Schema } from "effect"
 * import { Parameters } from "effect-catalog"
 *
 * const ModelsQuery = Schema.Struct({ ...Parameters.pageFields(100), ...Parameters.filters.models })
 * Schema.decodeUnknownSync(ModelsQuery)({ limit: "10", reasoning: "true" }) // { limit: 10, reasoning: true }
 * const refused = Schema.decodeUnknownResult(ModelsQuery)({ limit: "101" })
 * if (Result.isFailure(refused)) Parameters.describeError(refused.failure) // "limit: limit must be a whole number from 1 to 100"
 * ```
 *
 * In Effect 3, decoding gives an `Either`:
 *
 * ```ts effect3
 * import { Either, Schema } from "effect"
 * import { Parameters } from "effect-catalog"
 *
 * const ModelsQuery = Schema.Struct({ ...Parameters.pageFields(100), ...Parameters.filters.models })
 * const refused = Schema.decodeUnknownEither(ModelsQuery)({ limit: "101" })
 * if (Either.isLeft(refused)) Parameters.describeError(refused.left) // "limit: limit must be a whole number from 1 to 100"
 * ```
 * @since 0.1.0 (1.x: 1.0.0)
 */
import * as ParameterSchemas from "#edition/contract/internal/ParameterSchemas.js"
import { identified, literals } from "#edition/internal/Edition.js"
import * as KnownValues from "../../../rules/src/contract/KnownValues.js"
import * as ParameterTexts from "../../../rules/src/contract/ParameterTexts.js"
import * as Scopes from "../../../rules/src/contract/Scopes.js"
import { OrganizationKind } from "./Resources.js"

/**
 * The key scopes of the contract.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Parameters } from "effect-catalog"
 *
 * Schema.is(Parameters.Scope)("skill_content:read") // true
 * Parameters.Scope.literals.length // 9
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const Scope = literals(Scopes.scopes)

/**
 * A key scope of the contract.
 *
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type Scope = typeof Scope.Type

/**
 * The page size of a list whose pages hold at most `max` items when its
 * request has no `limit`: the contract's default, or `max` if that is lower.
 *
 * @example
 * ```ts
 * import { Parameters } from "effect-catalog"
 *
 * Parameters.defaultLimit(100) // 25
 * Parameters.defaultLimit(10) // 10
 * ```
 * @category utils
 * @since 0.5.0 (1.x: 1.0.0)
 */
export const defaultLimit: (max: number) => number = ParameterTexts.defaultLimit

/**
 * A page size from 1 to `max`, sent as a decimal string; a list without one
 * answers pages of the contract's default size (at most `max`).
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Parameters } from "effect-catalog"
 *
 * Schema.decodeSync(Parameters.Limit(100))("25") // 25
 * Schema.encodeSync(Parameters.Limit(100))(25) // "25"
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const Limit = (max: number) => ParameterSchemas.limit(max, defaultLimit(max))

/**
 * The opaque cursor that continues a scan (at most `Limits.maxCursorLength`
 * characters).
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Parameters } from "effect-catalog"
 *
 * Schema.is(Parameters.Cursor)("") // false: a cursor is never empty
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const Cursor = ParameterSchemas.lengthBetween(ParameterTexts.lengths.cursor).pipe(identified("Cursor"))

/**
 * The paging parameters of a list whose pages hold at most `maxLimit` items:
 * an optional `limit` and `cursor`, each described on its key.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Parameters } from "effect-catalog"
 *
 * const page = Schema.Struct(Parameters.pageFields(25))
 * Schema.decodeUnknownSync(page)({ limit: "10" }) // { limit: 10 }
 * ```
 * @category schemas
 * @since 0.5.0 (1.x: 1.0.0)
 */
export const pageFields = (maxLimit: number) => ({
  limit: ParameterSchemas.optionalKey(Limit(maxLimit), ParameterTexts.descriptions.limit(maxLimit)),
  cursor: ParameterSchemas.optionalKey(Cursor, ParameterTexts.descriptions.cursor)
})

/**
 * A filter value (at most 160 characters).
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Parameters } from "effect-catalog"
 *
 * Schema.is(Parameters.Filter)("kestrel") // true
 * Schema.is(Parameters.Filter)("x".repeat(161)) // false
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const Filter = ParameterSchemas.lengthBetween(ParameterTexts.lengths.filter).pipe(identified("Filter"))

/**
 * A boolean filter: exactly `true` or `false` on the wire.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Parameters } from "effect-catalog"
 *
 * Schema.decodeSync(Parameters.BooleanFilter)("false") // false
 * Schema.encodeSync(Parameters.BooleanFilter)(true) // "true"
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const BooleanFilter = ParameterSchemas.booleanFilter

/**
 * A path parameter (1 to 200 characters).
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Parameters } from "effect-catalog"
 *
 * Schema.is(Parameters.PathParameter)("o0000-falcon") // true
 * Schema.is(Parameters.PathParameter)("") // false
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const PathParameter = ParameterSchemas.lengthBetween(ParameterTexts.lengths.pathParameter).pipe(identified("PathParameter"))

/**
 * The path parameters of the contract's paths by name, each a
 * `PathParameter`, described on its key where the name alone does not say
 * what it holds (the OpenAPI document reads the descriptions from there).
 *
 * @example
 * ```ts
 * import { Parameters } from "effect-catalog"
 *
 * Object.keys(Parameters.pathParameters).includes("repository") // true
 * ```
 * @category schemas
 * @since 0.5.0 (1.x: 1.0.0)
 */
export const pathParameters = {
  organization: ParameterSchemas.requiredKey(PathParameter),
  model: ParameterSchemas.requiredKey(PathParameter),
  id: ParameterSchemas.requiredKey(PathParameter),
  slug: ParameterSchemas.requiredKey(PathParameter),
  sourceType: ParameterSchemas.requiredKey(PathParameter, ParameterTexts.descriptions.sourceType),
  owner: ParameterSchemas.requiredKey(PathParameter, ParameterTexts.descriptions.owner),
  repository: ParameterSchemas.requiredKey(PathParameter, ParameterTexts.descriptions.repository),
  skill: ParameterSchemas.requiredKey(PathParameter),
  namespace: ParameterSchemas.requiredKey(PathParameter),
  name: ParameterSchemas.requiredKey(PathParameter)
}

/**
 * The catalogs a search can select, and the scope each one needs.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Parameters } from "effect-catalog"
 *
 * Schema.is(Parameters.SearchType)("skills") // true
 * Schema.is(Parameters.SearchType)("articles") // false: articles are not searchable
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const SearchType = ParameterSchemas.closedList("type", literals(Scopes.searchTypes))

/**
 * A catalog a search can select.
 *
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type SearchType = typeof SearchType.Type

/**
 * The read scope of the catalog selected by a search `type`.
 *
 * @example
 * ```ts
 * import { Parameters } from "effect-catalog"
 *
 * Parameters.searchScope.skills // "skills:read"
 * ```
 * @category constants
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const searchScope: Readonly<Record<SearchType, Scope>> = Scopes.searchScope

/**
 * The search text: 2 to 120 characters.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Parameters } from "effect-catalog"
 *
 * Schema.is(Parameters.SearchQuery)("kestrel") // true
 * Schema.is(Parameters.SearchQuery)("k") // false: too short
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const SearchQuery = ParameterSchemas.lengthBetween(ParameterTexts.lengths.searchQuery).pipe(identified("SearchQuery"))

/**
 * The filter on organization kind: one of the closed list of kinds.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Parameters } from "effect-catalog"
 *
 * Schema.decodeUnknownSync(Parameters.KindFilter)("university") // "university"
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const KindFilter = ParameterSchemas.closedList("kind", OrganizationKind)

/** An optional filter that narrows a list to items related to `what`. */
const narrowBy = (what: string) => ParameterSchemas.optionalKey(Filter, ParameterTexts.descriptions.narrowBy(what))
const freeText = ParameterSchemas.optionalKey(Filter, ParameterTexts.descriptions.freeText)
const booleanFilter = ParameterSchemas.optionalKey(BooleanFilter, ParameterTexts.descriptions.booleanFilter)

/**
 * The filters of each list operation that has any, each described on its
 * key (the OpenAPI document reads the descriptions from there).
 *
 * @example
 * ```ts
 * import { Parameters } from "effect-catalog"
 *
 * Object.keys(Parameters.filters.mcps) // ["q", "namespace", "status"]
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const filters = {
  models: {
    q: freeText,
    family: narrowBy("family"),
    provider: narrowBy("serving provider"),
    organization: narrowBy("organization"),
    reasoning: booleanFilter,
    open_weights: booleanFilter
  },
  text: { q: freeText },
  organizations: { q: freeText, kind: ParameterSchemas.optionalKey(KindFilter, ParameterTexts.descriptions.organizationKind) },
  skills: { q: freeText, source: narrowBy("source"), official: booleanFilter, topic: narrowBy("topic") },
  mcps: {
    q: freeText,
    namespace: narrowBy("namespace"),
    status: ParameterSchemas.optionalKey(ParameterSchemas.openFilter(KnownValues.filterValues.mcps.status), ParameterTexts.descriptions.narrowBy("status"))
  },
  search: {
    q: ParameterSchemas.requiredKey(SearchQuery, ParameterTexts.descriptions.freeText),
    type: ParameterSchemas.requiredKey(SearchType, ParameterTexts.descriptions.searchType)
  },
  none: {}
} as const

/**
 * One line that says which parameter broke which rule, from a decoding error
 * of parameters.
 *
 * @example
 * ```ts effect4
 * import { Result, Schema } from "effect"
 * import { Parameters } from "effect-catalog"
 *
 * const query = Schema.Struct({ ...Parameters.pageFields(100), ...Parameters.filters.models })
 * const result = Schema.decodeUnknownResult(query)({ limit: "101" })
 * if (Result.isFailure(result)) Parameters.describeError(result.failure) // "limit: limit must be a whole number from 1 to 100"
 * ```
 *
 * In Effect 3:
 *
 * ```ts effect3
 * import { Either, Schema } from "effect"
 * import { Parameters } from "effect-catalog"
 *
 * const query = Schema.Struct({ ...Parameters.pageFields(100), ...Parameters.filters.models })
 * const result = Schema.decodeUnknownEither(query)({ limit: "101" })
 * if (Either.isLeft(result)) Parameters.describeError(result.left) // "limit: limit must be a whole number from 1 to 100"
 * ```
 * @category utils
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const describeError = ParameterSchemas.describeError
