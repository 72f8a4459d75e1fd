/**
 * Request parameters of the contract with their rules: page sizes, cursors,
 * filters, boolean filters, search arguments and path parameters. The same
 * schemas validate input in the client (before anything is sent) and in the
 * simulator (which answers 400 when they are broken).
 *
 * @example
 * ```ts
 * import { Result, Schema } from "effect"
 * import { Parameters } from "effect-catalog"
 *
 * const ModelsQuery = Schema.Struct({ ...Parameters.pageFields(100), ...Parameters.filters.models })
 * Schema.decodeUnknownSync(ModelsQuery)({ limit: "10", reasoning: "true" }) // { limit: 10, reasoning: true }
 * const refused = Schema.decodeUnknownResult(ModelsQuery)({ limit: "101" })
 * if (Result.isFailure(refused)) Parameters.describeError(refused.failure) // "limit: limit must be a whole number from 1 to 100"
 * ```
 * @since 1.0.0
 */
import { Schema, SchemaIssue, SchemaTransformation } from "effect"
import * as KnownValues from "../../../rules/src/contract/KnownValues.js"
import * as ParameterTexts from "../../../rules/src/contract/ParameterTexts.js"
import * as Scopes from "../../../rules/src/contract/Scopes.js"
import { OrganizationKind } from "../../../common/src/contract/Resources.js"

/**
 * A closed list whose failure message names the parameter and its values.
 */
const closedList = <const L extends ReadonlyArray<string>>(name: string, list: Schema.Literals<L>) =>
  list.annotate({ message: ParameterTexts.closedListMessage(name, list.literals) })

/** A string within a length's bounds, each bound with its message. */
const lengthBetween = (length: ParameterTexts.Length) =>
  Schema.String.check(
    Schema.isMinLength(length.min, { message: ParameterTexts.tooShortMessage(length) }),
    Schema.isMaxLength(length.max, { message: ParameterTexts.tooLongMessage(length) })
  )

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
 * @since 1.0.0
 */
export const Scope = Schema.Literals(Scopes.scopes)

/**
 * A key scope of the contract.
 *
 * @category models
 * @since 1.0.0
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
 * @since 1.0.0
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
 * @since 1.0.0
 */
export const Limit = (max: number) => {
  const message = ParameterTexts.limitMessage(max)
  return Schema.String.annotate({ message }).check(Schema.isPattern(ParameterTexts.limitPattern, { message })).pipe(
    Schema.decodeTo(
      Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: max }, { message })),
      SchemaTransformation.numberFromString
    )
  ).annotate({ identifier: `Limit${max}`, default: defaultLimit(max) })
}

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
 * @since 1.0.0
 */
export const Cursor = lengthBetween(ParameterTexts.lengths.cursor).annotate({ identifier: "Cursor" })

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
 * @since 1.0.0
 */
export const pageFields = (maxLimit: number) => ({
  limit: Schema.optional(Limit(maxLimit)).annotateKey({ description: ParameterTexts.descriptions.limit(maxLimit) }),
  cursor: Schema.optional(Cursor).annotateKey({ description: ParameterTexts.descriptions.cursor })
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
 * @since 1.0.0
 */
export const Filter = lengthBetween(ParameterTexts.lengths.filter).annotate({ identifier: "Filter" })

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
 * @since 1.0.0
 */
export const BooleanFilter = Schema.Literals(["true", "false"]).transform([true, false]).annotate({
  identifier: "BooleanFilter",
  message: ParameterTexts.booleanFilterMessage
})

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
 * @since 1.0.0
 */
export const PathParameter = lengthBetween(ParameterTexts.lengths.pathParameter).annotate({ identifier: "PathParameter" })

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
 * @since 1.0.0
 */
export const pathParameters = {
  organization: PathParameter,
  model: PathParameter,
  id: PathParameter,
  slug: PathParameter,
  sourceType: PathParameter.annotateKey({ description: ParameterTexts.descriptions.sourceType }),
  owner: PathParameter.annotateKey({ description: ParameterTexts.descriptions.owner }),
  repository: PathParameter.annotateKey({ description: ParameterTexts.descriptions.repository }),
  skill: PathParameter,
  namespace: PathParameter,
  name: PathParameter
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
 * @since 1.0.0
 */
export const SearchType = closedList("type", Schema.Literals(Scopes.searchTypes))

/**
 * A catalog a search can select.
 *
 * @category models
 * @since 1.0.0
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
 * @since 1.0.0
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
 * @since 1.0.0
 */
export const SearchQuery = lengthBetween(ParameterTexts.lengths.searchQuery).annotate({ identifier: "SearchQuery" })

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
 * @since 1.0.0
 */
export const KindFilter = closedList("kind", OrganizationKind)

/**
 * Any string of a filter's length, typed `string & {}` (which every string
 * is): in a union with the known values, plain `string` would absorb their
 * literals, and editors would offer none.
 */
const AnyOtherValue = lengthBetween(ParameterTexts.lengths.filter).pipe(
  Schema.refine((value: string): value is string & {} => typeof value === "string")
)

/**
 * A filter whose contract names some of its values: typed as them or any
 * other string, which is sent as it is (the list is open). Any other
 * string is the first member, so that a value too long is told the
 * filter's rule rather than that it is none of the known ones.
 */
const openFilter = <const Known extends readonly [string, ...Array<string>]>(known: Known) =>
  Schema.Union([AnyOtherValue, Schema.Literals(known)])

/** An optional filter that narrows a list to items related to `what`. */
const narrowBy = (what: string) => Schema.optional(Filter).annotateKey({ description: ParameterTexts.descriptions.narrowBy(what) })
const freeText = Schema.optional(Filter).annotateKey({ description: ParameterTexts.descriptions.freeText })
const booleanFilter = Schema.optional(BooleanFilter).annotateKey({ description: ParameterTexts.descriptions.booleanFilter })

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
 * @since 1.0.0
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
  organizations: { q: freeText, kind: Schema.optional(KindFilter).annotateKey({ description: ParameterTexts.descriptions.organizationKind }) },
  skills: { q: freeText, source: narrowBy("source"), official: booleanFilter, topic: narrowBy("topic") },
  mcps: {
    q: freeText,
    namespace: narrowBy("namespace"),
    status: Schema.optional(openFilter(KnownValues.filterValues.mcps.status)).annotateKey({
      description: ParameterTexts.descriptions.narrowBy("status")
    })
  },
  search: {
    q: SearchQuery.annotateKey({ description: ParameterTexts.descriptions.freeText, messageMissingKey: "is missing" }),
    type: SearchType.annotateKey({
      description: ParameterTexts.descriptions.searchType,
      messageMissingKey: "is missing"
    })
  },
  none: {}
} as const

const formatIssue = SchemaIssue.makeFormatterStandardSchemaV1()

/**
 * One line that says which parameter broke which rule, from a decoding error
 * of parameters.
 *
 * @example
 * ```ts
 * import { Result, Schema } from "effect"
 * import { Parameters } from "effect-catalog"
 *
 * const query = Schema.Struct({ ...Parameters.pageFields(100), ...Parameters.filters.models })
 * const result = Schema.decodeUnknownResult(query)({ limit: "101" })
 * if (Result.isFailure(result)) Parameters.describeError(result.failure) // "limit: limit must be a whole number from 1 to 100"
 * ```
 * @category utils
 * @since 1.0.0
 */
export const describeError = (error: Schema.SchemaError): string => {
  const [first] = formatIssue(error.issue).issues
  return ParameterTexts.issueLine(
    first === undefined
      ? undefined
      : { path: (first.path ?? []).map((segment) => String(typeof segment === "object" ? segment.key : segment)), message: first.message }
  )
}
