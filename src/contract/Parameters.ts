/**
 * Request parameters of the contract with their rules: page sizes, cursors,
 * filters, boolean filters, search arguments and path parameters. The same
 * schemas validate input in the client (before anything is sent) and in the
 * simulator (which answers 400 when they are broken).
 *
 * @since 0.1.0
 */
import { ParseResult, Schema } from "effect"
import * as KnownValues from "../../rules/src/contract/KnownValues.js"
import * as ParameterTexts from "../../rules/src/contract/ParameterTexts.js"
import * as Scopes from "../../rules/src/contract/Scopes.js"
import { OrganizationKind } from "../../common/src/contract/Resources.js"

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
 * @since 0.1.0
 */
export const Scope = Schema.Literal(...Scopes.scopes)
export type Scope = typeof Scope.Type

/** A length's bounds, each with its message, on a schema of strings. */
const withinLength = (length: ParameterTexts.Length) => <A extends string, I, R>(self: Schema.Schema<A, I, R>) =>
  self.pipe(
    Schema.minLength(length.min, { message: () => ParameterTexts.tooShortMessage(length) }),
    Schema.maxLength(length.max, { message: () => ParameterTexts.tooLongMessage(length) })
  )

/** A string within a length's bounds, each bound with its message. */
const lengthBetween = (length: ParameterTexts.Length) => Schema.String.pipe(withinLength(length))

/**
 * The page size of a list whose pages hold at most `max` items when its
 * request has no `limit`: the contract's default, or `max` if that is lower.
 *
 * @example
 * ```ts
 * import { Parameters } from "effect-catalog"
 *
 * Parameters.defaultLimit(100) // 25
 * ```
 * @category utils
 * @since 0.5.0
 */
export const defaultLimit: (max: number) => number = ParameterTexts.defaultLimit

/**
 * A page size from 1 to `max`, sent as a decimal string; a list without one
 * answers pages of the contract's default size (at most `max`).
 *
 * @example
 * ```ts
 * import { ParseResult, Schema } from "effect"
 * import { Parameters } from "effect-catalog"
 *
 * Schema.decodeSync(Parameters.Limit(100))("25") // 25
 * ```
 * @category schemas
 * @since 0.1.0
 */
export const Limit = (max: number) =>
  Schema.compose(
    Schema.String.pipe(Schema.pattern(ParameterTexts.limitPattern)),
    Schema.NumberFromString
  ).pipe(
    Schema.int(),
    Schema.between(1, max)
  ).annotations({
    identifier: `Limit${max}`,
    default: defaultLimit(max),
    message: () => ({ message: ParameterTexts.limitMessage(max), override: true })
  })

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
 * @since 0.1.0
 */
export const Cursor = lengthBetween(ParameterTexts.lengths.cursor).annotations({ identifier: "Cursor" })

/**
 * The paging parameters of a list whose pages hold at most `maxLimit` items:
 * an optional `limit` and `cursor`, each described on its field.
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
 * @since 0.5.0
 */
export const pageFields = (maxLimit: number) => ({
  limit: Schema.optional(Limit(maxLimit)).annotations({ description: ParameterTexts.descriptions.limit(maxLimit) }),
  cursor: Schema.optional(Cursor).annotations({ description: ParameterTexts.descriptions.cursor })
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
 * @since 0.1.0
 */
export const Filter = lengthBetween(ParameterTexts.lengths.filter).annotations({ identifier: "Filter" })

/**
 * A boolean filter: exactly `true` or `false` on the wire.
 *
 * @example
 * ```ts
 * import { ParseResult, Schema } from "effect"
 * import { Parameters } from "effect-catalog"
 *
 * Schema.encodeSync(Parameters.BooleanFilter)(true) // "true"
 * ```
 * @category schemas
 * @since 0.1.0
 */
export const BooleanFilter = Schema.transform(
  Schema.Literal("true", "false"),
  Schema.Boolean,
  { strict: true, decode: (wire) => wire === "true", encode: (value) => (value ? "true" : "false") }
).annotations({
  identifier: "BooleanFilter",
  message: () => ({ message: ParameterTexts.booleanFilterMessage, override: true })
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
 * @since 0.1.0
 */
export const PathParameter = lengthBetween(ParameterTexts.lengths.pathParameter).annotations({ identifier: "PathParameter" })

const pathParameter = Schema.propertySignature(PathParameter)

/**
 * The path parameters of the contract's paths by name, each a
 * `PathParameter`, described on its field where the name alone does not say
 * what it holds (the OpenAPI document reads the descriptions from there).
 *
 * @example
 * ```ts
 * import { Parameters } from "effect-catalog"
 *
 * Object.keys(Parameters.pathParameters).includes("repository") // true
 * ```
 * @category schemas
 * @since 0.5.0
 */
export const pathParameters = {
  organization: pathParameter,
  model: pathParameter,
  id: pathParameter,
  slug: pathParameter,
  sourceType: pathParameter.annotations({ description: ParameterTexts.descriptions.sourceType }),
  owner: pathParameter.annotations({ description: ParameterTexts.descriptions.owner }),
  repository: pathParameter.annotations({ description: ParameterTexts.descriptions.repository }),
  skill: pathParameter,
  namespace: pathParameter,
  name: pathParameter
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
 * @since 0.1.0
 */
export const SearchType = Schema.Literal(...Scopes.searchTypes).annotations({
  message: () => ({ message: ParameterTexts.closedListMessage("type", Scopes.searchTypes), override: true })
})
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
 * @since 0.1.0
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
 * @since 0.1.0
 */
export const SearchQuery = lengthBetween(ParameterTexts.lengths.searchQuery).annotations({ identifier: "SearchQuery" })

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
 * @since 0.1.0
 */
export const KindFilter = OrganizationKind.annotations({
  message: () => ({ message: ParameterTexts.closedListMessage("kind", OrganizationKind.literals), override: true })
})

/**
 * Any string, typed `string & {}`: in a union with the known values, plain
 * `string` would absorb their literals, and editors would offer none.
 */
const AnyString = Schema.declare((input: unknown): input is string & {} => typeof input === "string", {
  description: "a string",
  jsonSchema: { type: "string" }
})

/**
 * A filter whose contract names some of its values: typed as them or any
 * other string of a filter's length, which is sent as it is (the list is
 * open). Any other string is the first member, so that a value too long
 * is told the filter's rule rather than that it is none of the known ones.
 */
const openFilter = <const Known extends readonly [string, ...Array<string>]>(known: Known) =>
  Schema.Union(AnyString.pipe(withinLength(ParameterTexts.lengths.filter)), Schema.Literal(...known))

/** An optional filter that narrows a list to items related to `what`. */
const narrowBy = (what: string) => Schema.optional(Filter).annotations({ description: ParameterTexts.descriptions.narrowBy(what) })
const freeText = Schema.optional(Filter).annotations({ description: ParameterTexts.descriptions.freeText })
const booleanFilter = Schema.optional(BooleanFilter).annotations({ description: ParameterTexts.descriptions.booleanFilter })

/**
 * The filters of each list operation that has any, each described on its
 * field (the OpenAPI document reads the descriptions from there).
 *
 * @example
 * ```ts
 * import { Parameters } from "effect-catalog"
 *
 * Object.keys(Parameters.filters.mcps) // ["q", "namespace", "status"]
 * ```
 * @category schemas
 * @since 0.1.0
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
  organizations: { q: freeText, kind: Schema.optional(KindFilter).annotations({ description: ParameterTexts.descriptions.organizationKind }) },
  skills: { q: freeText, source: narrowBy("source"), official: booleanFilter, topic: narrowBy("topic") },
  mcps: {
    q: freeText,
    namespace: narrowBy("namespace"),
    status: Schema.optional(openFilter(KnownValues.filterValues.mcps.status)).annotations({
      description: ParameterTexts.descriptions.narrowBy("status")
    })
  },
  search: {
    q: Schema.propertySignature(SearchQuery).annotations({ description: ParameterTexts.descriptions.freeText }),
    type: Schema.propertySignature(SearchType).annotations({ description: ParameterTexts.descriptions.searchType })
  },
  none: {}
} as const

/**
 * One line that says which parameter broke which rule, from a decoding error
 * of parameters.
 *
 * @example
 * ```ts
 * import { Either, Schema } from "effect"
 * import { Operations, Parameters } from "effect-catalog"
 *
 * const result = Schema.decodeUnknownEither(Operations.models.query)({ limit: "101" })
 * if (Either.isLeft(result)) Parameters.describeError(result.left) // "limit: limit must be a whole number from 1 to 100"
 * ```
 * @category utils
 * @since 0.1.0
 */
export const describeError = (error: ParseResult.ParseError): string => {
  const [first] = ParseResult.ArrayFormatter.formatErrorSync(error)
  return ParameterTexts.issueLine(first === undefined ? undefined : { path: first.path.map(String), message: first.message })
}
