/**
 * The contract's key scopes and the catalogs a search can select, with the
 * scope each one needs, as plain lists: stated once here for both editions
 * (common/src/contract/Parameters.ts builds its `Scope` and `SearchType`
 * schemas from these lists and gives
 * `searchScope`; the operations table, rules/src/contract/OperationTable.ts,
 * reads them). Imports nothing of Effect.
 */

/** The key scopes of the contract. */
export const scopes = [
  "models:read",
  "families:read",
  "providers:read",
  "organizations:read",
  "skills:read",
  "skill_content:read",
  "mcps:read",
  "topics:read",
  "articles:read"
] as const

/** A key scope of the contract. */
export type Scope = (typeof scopes)[number]

/** The catalogs a search can select. */
export const searchTypes = ["models", "skills", "mcps", "organizations", "providers", "families"] as const

/** A catalog a search can select. */
export type SearchType = (typeof searchTypes)[number]

/** The read scope of the catalog selected by a search `type`. */
export const searchScope: { readonly [Type in SearchType]: Scope } = {
  models: "models:read",
  skills: "skills:read",
  mcps: "mcps:read",
  organizations: "organizations:read",
  providers: "providers:read",
  families: "families:read"
}

/** Whether a value is a catalog a search can select. */
export const isSearchType = (value: unknown): value is SearchType => searchTypes.some((type) => type === value)
