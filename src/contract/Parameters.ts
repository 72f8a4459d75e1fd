/**
 * Request parameters of the contract with their rules: page sizes, cursors,
 * filters, boolean filters, search arguments and path parameters. The same
 * schemas validate input in the client (before anything is sent) and in the
 * simulator (which answers 400 when they are broken).
 *
 * @since 0.1.0
 */
import { ParseResult, Schema } from "effect"
import { OrganizationKind } from "./Resources.js"

/**
 * The largest response the service sends (512 KiB); it also reserves this
 * many bytes of the daily transfer for every request until it is answered.
 *
 * @example
 * ```ts
 * import { Parameters } from "effect-catalog"
 *
 * Parameters.maxResponseBytes // 524288
 * ```
 * @category constants
 * @since 0.1.0
 */
export const maxResponseBytes = 512 * 1024

/**
 * How many articles the article list holds: the latest published ones
 * (older articles stay readable by slug).
 *
 * @example
 * ```ts
 * import { Parameters } from "effect-catalog"
 *
 * Parameters.articleListWindow // 24
 * ```
 * @category constants
 * @since 0.3.0
 */
export const articleListWindow = 24

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
export const Scope = Schema.Literal(
  "models:read",
  "families:read",
  "providers:read",
  "organizations:read",
  "skills:read",
  "skill_content:read",
  "mcps:read",
  "topics:read",
  "articles:read"
)
/**
 * One key scope.
 *
 * @example
 * ```ts
 * import { Operations, type Parameters } from "effect-catalog"
 *
 * const needed: Parameters.Scope | undefined = Operations.requiredScope(Operations.skillDocument, {}) // "skill_content:read"
 * ```
 * @category models
 * @since 0.1.0
 */
export type Scope = typeof Scope.Type

/**
 * A page size from 1 to `max`, sent as a decimal string.
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
    Schema.String.pipe(Schema.pattern(/^[1-9][0-9]{0,2}$/)),
    Schema.NumberFromString
  ).pipe(
    Schema.int(),
    Schema.between(1, max)
  ).annotations({
    identifier: `Limit${max}`,
    description: `Page size, 1 to ${max}`,
    message: () => ({ message: `limit must be a whole number from 1 to ${max}`, override: true })
  })

/**
 * The opaque cursor that continues a scan (at most 1600 characters).
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
export const Cursor = Schema.String.pipe(
  Schema.minLength(1, { message: () => "cursor must not be empty" }),
  Schema.maxLength(1600, { message: () => "cursor must be at most 1600 characters" })
).annotations({ identifier: "Cursor" })

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
export const Filter = Schema.String.pipe(
  Schema.minLength(1, { message: () => "a filter must not be empty" }),
  Schema.maxLength(160, { message: () => "a filter must be at most 160 characters" })
).annotations({ identifier: "Filter" })

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
  message: () => ({ message: "a boolean filter must be exactly true or false", override: true })
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
export const PathParameter = Schema.String.pipe(
  Schema.minLength(1, { message: () => "a path parameter must not be empty" }),
  Schema.maxLength(200, { message: () => "a path parameter must be at most 200 characters" })
).annotations({ identifier: "PathParameter" })

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
export const SearchType = Schema.Literal("models", "skills", "mcps", "organizations", "providers", "families").annotations({
  message: () => ({ message: "type must be one of models, skills, mcps, organizations, providers, families", override: true })
})
/**
 * One catalog a search can select.
 *
 * @example
 * ```ts
 * import type { Parameters } from "effect-catalog"
 *
 * const type: Parameters.SearchType = "mcps"
 * ```
 * @category models
 * @since 0.1.0
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
 * @since 0.1.0
 */
export const searchScope: Readonly<Record<SearchType, Scope>> = {
  models: "models:read",
  skills: "skills:read",
  mcps: "mcps:read",
  organizations: "organizations:read",
  providers: "providers:read",
  families: "families:read"
}

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
export const SearchQuery = Schema.String.pipe(
  Schema.minLength(2, { message: () => "q must be at least 2 characters" }),
  Schema.maxLength(120, { message: () => "q must be at most 120 characters" })
).annotations({ identifier: "SearchQuery" })

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
  message: () => ({ message: `kind must be one of ${OrganizationKind.literals.join(", ")}`, override: true })
})

const optionalFilter = Schema.optional(Filter)
const optionalBoolean = Schema.optional(BooleanFilter)

/**
 * The filters of each list operation that has any.
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
    q: optionalFilter,
    family: optionalFilter,
    provider: optionalFilter,
    organization: optionalFilter,
    reasoning: optionalBoolean,
    open_weights: optionalBoolean
  },
  text: { q: optionalFilter },
  organizations: { q: optionalFilter, kind: Schema.optional(KindFilter) },
  skills: { q: optionalFilter, source: optionalFilter, official: optionalBoolean, topic: optionalFilter },
  mcps: { q: optionalFilter, namespace: optionalFilter, status: optionalFilter },
  search: { q: SearchQuery, type: SearchType },
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
  if (first === undefined) return "invalid parameters"
  return first.path.length === 0 ? first.message : `${first.path.join(".")}: ${first.message}`
}
