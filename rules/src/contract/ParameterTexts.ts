/**
 * What the contract's request parameters say, as plain data: the page size
 * a list answers without a `limit`, the rules' messages (a page size, a
 * length, a closed list, a boolean filter), the descriptions of the page
 * fields, the path parameters and the filters, and the line that names the
 * first broken rule.
 *
 * Imports nothing of Effect. `Parameters` (common/src/contract/Parameters.ts)
 * and each edition's `contract/internal/ParameterSchemas.ts` give the
 * schemas these messages and descriptions, and `describeError` this line
 * for the first issue the edition's formatter reports.
 */
import { defaultPageSize, maxCursorLength } from "./Figures.js"

/** The page size of a list whose pages hold at most `max` items when its request has no `limit`. */
export const defaultLimit = (max: number): number => Math.min(defaultPageSize, max)

/** A page size as it is sent: a decimal string of one to three digits, without a leading zero. */
export const limitPattern = /^[1-9][0-9]{0,2}$/u

/**
 * What a page size that is not from 1 to `max` is told, by the name it was
 * given under: `limit` on the wire, the option typed on a command line.
 */
export const limitMessage = (max: number, name = "limit"): string => `${name} must be a whole number from 1 to ${max}`

/** A string parameter's bounds: how its messages call what it holds, and its fewest and most characters. */
export interface Length {
  readonly name: string
  readonly min: number
  readonly max: number
}

/** The bounds of the contract's string parameters. */
export const lengths = {
  cursor: { name: "cursor", min: 1, max: maxCursorLength },
  filter: { name: "a filter", min: 1, max: 160 },
  pathParameter: { name: "a path parameter", min: 1, max: 200 },
  searchQuery: { name: "q", min: 2, max: 120 }
} as const satisfies Record<string, Length>

/** What a string shorter than its bounds is told. */
export const tooShortMessage = ({ min, name }: Length): string =>
  min === 1 ? `${name} must not be empty` : `${name} must be at least ${min} characters`

/** What a string longer than its bounds is told. */
export const tooLongMessage = ({ max, name }: Length): string => `${name} must be at most ${max} characters`

/** What a value outside a closed list is told: the parameter's name and the list. */
export const closedListMessage = (name: string, literals: ReadonlyArray<string>): string => `${name} must be one of ${literals.join(", ")}`

/** What a boolean filter that is not exactly `true` or `false` is told. */
export const booleanFilterMessage = "a boolean filter must be exactly true or false"

/** The descriptions of the page fields, the path parameters whose names do not say what they hold, and the filters. */
export const descriptions = {
  limit: (maxLimit: number) => `Page size, 1 to ${maxLimit}; ${defaultLimit(maxLimit)} when absent`,
  cursor: "The opaque cursor from `pagination.next_cursor`; valid for one hour",
  sourceType: "Source kind: `github` or `well-known`",
  owner: "Repository owner, or the domain for well-known Skills",
  repository: "Repository name, or the literal `_` for well-known Skills",
  freeText: "Free-text query",
  narrowBy: (what: string) => `Narrow by ${what}`,
  booleanFilter: "Boolean filter: exactly `true` or `false`",
  organizationKind: "Organization kind",
  searchType: "The catalog to search; the request needs the read scope of that catalog"
} as const

/** One line that says which parameter broke which rule, from the first issue reported (`undefined` when none is). */
export const issueLine = (first: { readonly path: ReadonlyArray<string>; readonly message: string } | undefined): string => {
  if (first === undefined) return "invalid parameters"
  return first.path.length === 0 ? first.message : `${first.path.join(".")}: ${first.message}`
}
