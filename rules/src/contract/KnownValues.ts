/**
 * The values the contract names for its open value lists: lists it shows
 * in part, so that a value outside them may still be one the service
 * knows, and is sent. Stated once here for both editions: their
 * `Resources` decode the fields with them, their `Parameters` type the
 * filters with them (editors offer the known values, and any other string
 * still typechecks), and the `catalog` command warns when a filter value
 * is none of them, since a misspelt one answers an empty list and no
 * error.
 *
 * Imports nothing of Effect.
 */
import type { FilterName } from "./OperationTable.js"

/** The statuses of MCP servers: the listing holds active and deprecated servers, and `status` filters them. */
export const mcpStatuses = ["active", "deprecated"] as const

/**
 * The known values of the filters that have some, by the name of the
 * filters in the operation table (`ListRow.filters`) and then by parameter.
 */
export const filterValues = {
  mcps: { status: mcpStatuses }
} as const

const filterValuesByName: { readonly [Name in FilterName]?: Readonly<Record<string, ReadonlyArray<string>>> } = filterValues

/** The known values of one filter of a list, or `undefined` when the contract names none (a free text, an id). */
export const knownValuesOf = (filters: FilterName, parameter: string): ReadonlyArray<string> | undefined =>
  filterValuesByName[filters]?.[parameter]
