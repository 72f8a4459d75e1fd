/**
 * The 35 operations of the Catalog contract as plain facts, one row each:
 * id, list or detail, path, scope, units, largest page, list window, key
 * and summary, with the names of its item and of its filters.
 *
 * Imports nothing of Effect. `Operations` (common/src/contract/Operations.ts,
 * compiled against either edition) joins each row with the edition's
 * schemas (the item's, by its name in `Resources`; the filters', by their
 * name in `Parameters.filters`) and gives it as the public operation of the
 * same name; the operations table stays the only description of an
 * operation.
 */
import { articleListWindow, maxPageSize, maxSearchPageSize } from "./Figures.js"
import type { KeyBy, KeyRule, keys } from "./ResourceKeys.js"
import { isSearchType, type Scope, searchScope } from "./Scopes.js"

/**
 * Who may call an operation: keys with one scope, any valid key (`stats`,
 * `usage`), or keys with the read scope of the catalog a search selects.
 */
export type ScopeRule =
  | { readonly _tag: "Scope"; readonly scope: Scope }
  | { readonly _tag: "AnyKey" }
  | { readonly _tag: "SearchType" }

/** Usage units an operation costs when it succeeds. */
export type Units = 0 | 1 | 5

/** The names of the `{parameters}` of a path template. */
export type PathParameterName<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParameterName<Rest>
  : never

/** The path parameters of an operation, as one object. */
export type PathParameters<Path extends string> = { readonly [Name in PathParameterName<Path>]: string }

/** The names of the items of the table: a resource of `Resources`, or what a search returns. */
export type ItemName =
  | "Model"
  | "Offer"
  | "Observation"
  | "Activity"
  | "Family"
  | "Provider"
  | "Organization"
  | "Resource"
  | "Skill"
  | "Audits"
  | "Document"
  | "Publisher"
  | "Mcp"
  | "Connection"
  | "Topic"
  | "Article"
  | "SearchResult"
  | "Stats"
  | "Usage"

/** The names of the filters of the lists, as `Parameters.filters` holds them. */
export type FilterName = "models" | "text" | "organizations" | "skills" | "mcps" | "search" | "none"

/** The names of the keys of the table (`ResourceKeys.keys`). */
export type KeyName = keyof typeof keys

/** The keys that hold every path parameter of `Path`. */
type KeyOfPath<Path extends string> = {
  readonly [N in KeyName]: (typeof keys)[N] extends KeyRule<PathParameterName<Path>, KeyBy> ? N : never
}[KeyName]

/** What every row says, list or detail. */
interface Common<Id extends string, Path extends string, Cost extends Units, Item extends ItemName, K> {
  readonly id: Id
  readonly path: Path
  readonly scope: ScopeRule
  readonly units: Cost
  /** The name of the resource in `data` (one item of the page for lists). */
  readonly item: Item
  /** The largest page size (lists only; 0 for details). */
  readonly maxLimit: number
  /** How many items the list holds at most whatever the catalog's size (the article list's latest ones), or null. */
  readonly listWindow: number | null
  readonly pathParameters: ReadonlyArray<PathParameterName<Path>>
  /** The name of the key by which one string names the resource the path is about, or null when none can. */
  readonly key: K | null
  readonly summary: string
}

/** The row of a list: its filters, besides `limit` and `cursor`. */
export interface ListRow<
  Id extends string = string,
  Path extends string = string,
  Cost extends Units = Units,
  Item extends ItemName = ItemName,
  Filters extends FilterName = FilterName,
  K extends KeyName = KeyName
> extends Common<Id, Path, Cost, Item, K> {
  readonly kind: "list"
  readonly filters: Filters
}

/** The row of a detail read. */
export interface DetailRow<
  Id extends string = string,
  Path extends string = string,
  Cost extends Units = Units,
  Item extends ItemName = ItemName,
  K extends KeyName = KeyName
> extends Common<Id, Path, Cost, Item, K> {
  readonly kind: "detail"
}

const pathParameterNames = <Path extends string>(path: Path): ReadonlyArray<PathParameterName<Path>> => {
  const isName = (name: string): name is PathParameterName<Path> => path.includes(`{${name}}`)
  return Array.from(path.matchAll(/\{([^}]+)\}/g), (match) => match[1] ?? "").filter(isName)
}

const scoped = (scope: Scope): ScopeRule => ({ _tag: "Scope", scope })

const list = <
  const Id extends string,
  const Path extends string,
  const Cost extends Units,
  const Item extends ItemName,
  const Filters extends FilterName,
  const K extends KeyOfPath<Path> = never
>(row: {
  readonly id: Id
  readonly path: Path
  readonly scope: ScopeRule
  readonly units: Cost
  readonly item: Item
  readonly filters: Filters
  readonly maxLimit?: number
  readonly listWindow?: number
  readonly key?: K
  readonly summary: string
}): ListRow<Id, Path, Cost, Item, Filters, K> => ({
  id: row.id,
  path: row.path,
  kind: "list",
  scope: row.scope,
  units: row.units,
  item: row.item,
  filters: row.filters,
  maxLimit: row.maxLimit ?? maxPageSize,
  listWindow: row.listWindow ?? null,
  pathParameters: pathParameterNames(row.path),
  key: row.key ?? null,
  summary: row.summary
})

const detail = <
  const Id extends string,
  const Path extends string,
  const Cost extends Units,
  const Item extends ItemName,
  const K extends KeyOfPath<Path> = never
>(row: {
  readonly id: Id
  readonly path: Path
  readonly scope: ScopeRule
  readonly units: Cost
  readonly item: Item
  readonly key?: K
  readonly summary: string
}): DetailRow<Id, Path, Cost, Item, K> => ({
  id: row.id,
  path: row.path,
  kind: "detail",
  scope: row.scope,
  units: row.units,
  item: row.item,
  maxLimit: 0,
  listWindow: null,
  pathParameters: pathParameterNames(row.path),
  key: row.key ?? null,
  summary: row.summary
})

const modelPath = "/models/{organization}/{model}/"
const skillPath = "/skills/{sourceType}/{owner}/{repository}/{skill}/"
const mcpPath = "/mcps/{namespace}/{name}/"
const modelsRead = scoped("models:read")
const skillsRead = scoped("skills:read")
const mcpsRead = scoped("mcps:read")

/** The rows, in the order of the contract's table. */
export const rows = {
  models: list({ id: "models", path: "/models/", scope: modelsRead, units: 1, item: "Model", filters: "models", summary: "List models" }),
  model: detail({ id: "model", key: "model", path: modelPath, scope: modelsRead, units: 1, item: "Model", summary: "Get a model" }),
  modelOffers: list({
    id: "modelOffers", key: "model", path: `${modelPath}offers/`, scope: modelsRead, units: 1, item: "Offer", filters: "none",
    summary: "List the offers of a model"
  }),
  modelBenchmarks: list({
    id: "modelBenchmarks", key: "model", path: `${modelPath}benchmarks/`, scope: modelsRead, units: 5, item: "Observation",
    filters: "none", summary: "List benchmark observations of a model"
  }),
  modelPerformance: list({
    id: "modelPerformance", key: "model", path: `${modelPath}performance/`, scope: modelsRead, units: 1, item: "Offer",
    filters: "none", summary: "List observed performance of a model's offers"
  }),
  modelActivity: list({
    id: "modelActivity", key: "model", path: `${modelPath}activity/`, scope: modelsRead, units: 5, item: "Activity",
    filters: "none", summary: "List daily token activity of a model"
  }),
  modelApplications: list({
    id: "modelApplications", key: "model", path: `${modelPath}applications/`, scope: modelsRead, units: 5, item: "Observation",
    filters: "none", summary: "List application observations of a model"
  }),
  offer: detail({ id: "offer", key: "id", path: "/offers/{id}/", scope: modelsRead, units: 1, item: "Offer", summary: "Get an offer" }),
  families: list({
    id: "families", path: "/families/", scope: scoped("families:read"), units: 1, item: "Family", filters: "text",
    summary: "List model families"
  }),
  family: detail({
    id: "family", key: "id", path: "/families/{id}/", scope: scoped("families:read"), units: 1, item: "Family",
    summary: "Get a model family"
  }),
  familyModels: list({
    id: "familyModels", key: "id", path: "/families/{id}/models/", scope: modelsRead, units: 1, item: "Model", filters: "none",
    summary: "List the models of a family"
  }),
  providers: list({
    id: "providers", path: "/providers/", scope: scoped("providers:read"), units: 1, item: "Provider", filters: "text",
    summary: "List serving providers"
  }),
  provider: detail({
    id: "provider", key: "id", path: "/providers/{id}/", scope: scoped("providers:read"), units: 1, item: "Provider",
    summary: "Get a serving provider"
  }),
  providerModels: list({
    id: "providerModels", key: "id", path: "/providers/{id}/models/", scope: modelsRead, units: 1, item: "Model", filters: "none",
    summary: "List the models a provider serves"
  }),
  providerOffers: list({
    id: "providerOffers", key: "id", path: "/providers/{id}/offers/", scope: modelsRead, units: 1, item: "Offer", filters: "none",
    summary: "List the offers of a provider"
  }),
  organizations: list({
    id: "organizations", path: "/organizations/", scope: scoped("organizations:read"), units: 1, item: "Organization",
    filters: "organizations", summary: "List organizations"
  }),
  organization: detail({
    id: "organization", key: "slug", path: "/organizations/{slug}/", scope: scoped("organizations:read"), units: 1,
    item: "Organization", summary: "Get an organization"
  }),
  organizationModels: list({
    id: "organizationModels", key: "slug", path: "/organizations/{slug}/models/", scope: modelsRead, units: 1, item: "Model",
    filters: "none", summary: "List the models of an organization"
  }),
  organizationResources: list({
    id: "organizationResources", key: "slug", path: "/organizations/{slug}/resources/", scope: scoped("organizations:read"),
    units: 1, item: "Resource", filters: "none", summary: "List the public Collections and Stacks of an organization"
  }),
  /** No key: a Collection's id does not name its organization. */
  organizationResource: detail({
    id: "organizationResource", path: "/organizations/{slug}/resources/{id}/", scope: scoped("organizations:read"), units: 1,
    item: "Resource", summary: "Get a public Collection or Stack"
  }),
  skills: list({ id: "skills", path: "/skills/", scope: skillsRead, units: 1, item: "Skill", filters: "skills", summary: "List Skills" }),
  skill: detail({ id: "skill", key: "skill", path: skillPath, scope: skillsRead, units: 1, item: "Skill", summary: "Get a Skill" }),
  skillAudits: detail({
    id: "skillAudits", key: "skill", path: `${skillPath}audits/`, scope: skillsRead, units: 1, item: "Audits",
    summary: "Get the audit signals of a Skill"
  }),
  skillDocument: detail({
    id: "skillDocument", key: "skill", path: `${skillPath}document/`, scope: scoped("skill_content:read"), units: 5,
    item: "Document", summary: "Get the full document of a Skill (inert content)"
  }),
  publishers: list({
    id: "publishers", path: "/publishers/", scope: skillsRead, units: 1, item: "Publisher", filters: "none",
    summary: "List Skill publishers"
  }),
  mcps: list({ id: "mcps", path: "/mcps/", scope: mcpsRead, units: 1, item: "Mcp", filters: "mcps", summary: "List MCP servers" }),
  mcp: detail({ id: "mcp", key: "mcp", path: mcpPath, scope: mcpsRead, units: 1, item: "Mcp", summary: "Get an MCP server" }),
  mcpConnection: detail({
    id: "mcpConnection", key: "mcp", path: `${mcpPath}connection/`, scope: mcpsRead, units: 5, item: "Connection",
    summary: "Get the inert connection data of an MCP server"
  }),
  topics: list({
    id: "topics", path: "/topics/", scope: scoped("topics:read"), units: 1, item: "Topic", filters: "none",
    summary: "List Skill topics"
  }),
  topicSkills: list({
    id: "topicSkills", key: "topic", path: "/topics/{slug}/skills/", scope: skillsRead, units: 1, item: "Skill",
    filters: "none", summary: "List the Skills of a topic"
  }),
  articles: list({
    id: "articles", path: "/articles/", scope: scoped("articles:read"), units: 1, item: "Article", filters: "none",
    listWindow: articleListWindow, summary: `List the latest ${articleListWindow} published articles`
  }),
  article: detail({
    id: "article", key: "slug", path: "/articles/{slug}/", scope: scoped("articles:read"), units: 1, item: "Article",
    summary: "Get an article by slug"
  }),
  search: list({
    id: "search", path: "/search/", scope: { _tag: "SearchType" }, units: 5, item: "SearchResult", filters: "search",
    maxLimit: maxSearchPageSize, summary: "Search one catalog"
  }),
  stats: detail({ id: "stats", path: "/stats/", scope: { _tag: "AnyKey" }, units: 1, item: "Stats", summary: "Counts of the catalog" }),
  usage: detail({
    id: "usage", path: "/usage/", scope: { _tag: "AnyKey" }, units: 0, item: "Usage",
    summary: "The account's live usage and allowances"
  })
}

/**
 * The scope a request needs: the operation's own, the read scope of the
 * catalog a search selects, or none (`stats`, `usage`: any valid key).
 */
export const requiredScope = (
  operation: { readonly scope: ScopeRule },
  query: Readonly<Record<string, unknown>>
): Scope | undefined => {
  switch (operation.scope._tag) {
    case "Scope":
      return operation.scope.scope
    case "AnyKey":
      return undefined
    case "SearchType":
      return isSearchType(query.type) ? searchScope[query.type] : undefined
  }
}

/**
 * A row with what an edition joins to it: its item's schema, its query's
 * schema and its key, in place of their names. `Operations`
 * (common/src/contract/Operations.ts) gives its operations so.
 */
export const joined = <
  Id extends string,
  Path extends string,
  Kind extends "list" | "detail",
  Cost extends Units,
  Item,
  Query,
  K
>(
  row: Omit<ListRow<Id, Path, Cost> | DetailRow<Id, Path, Cost>, "kind" | "item" | "filters" | "key"> & { readonly kind: Kind },
  item: Item,
  query: Query,
  key: K | null
) => ({
  id: row.id,
  path: row.path,
  kind: row.kind,
  scope: row.scope,
  units: row.units,
  item,
  query,
  maxLimit: row.maxLimit,
  listWindow: row.listWindow,
  pathParameters: row.pathParameters,
  key,
  summary: row.summary
})
