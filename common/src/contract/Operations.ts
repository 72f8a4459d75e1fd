/**
 * The 35 operations of the Catalog contract, defined once. The client, the
 * simulator's routes and the OpenAPI document are all derived from this table.
 * Each operation is described by its row alone (path, units, scope, item,
 * query, largest page, key).
 *
 * @example
 * ```ts effect4
 * import { Result } from "effect"
 * import { Operations } from "effect-catalog"
 *
 * Operations.model.path // "/models/{organization}/{model}/"
 * Operations.model.pathParameters // ["organization", "model"]
 * Operations.search.units // 5
 * const parsed = Operations.model.key?.parse("o0000-falcon/m0000000-kestrel-8b")
 * parsed !== undefined && Result.isSuccess(parsed) ? parsed.success.model : null // "m0000000-kestrel-8b"
 * ```
 *
 * In Effect 3, `parse` gives an `Either`:
 *
 * ```ts effect3
 * import { Either } from "effect"
 * import { Operations } from "effect-catalog"
 *
 * const parsed = Operations.model.key?.parse("o0000-falcon/m0000000-kestrel-8b")
 * parsed !== undefined && Either.isRight(parsed) ? parsed.right.model : null // "m0000000-kestrel-8b"
 * ```
 * @since 0.1.0 (1.x: 1.0.0)
 */
import { type AnyCodec, type AnySchema, Result, Schema, unionOf } from "#edition/internal/Edition.js"
import * as Table from "../../../rules/src/contract/OperationTable.js"
import * as ResourceKeys from "../../../rules/src/contract/ResourceKeys.js"
import { DetailEnvelope, ListEnvelope } from "./Envelopes.js"
import { filters, pageFields, type Scope } from "./Parameters.js"
import * as R from "./Resources.js"

/**
 * Who may call an operation: keys with one scope, any valid key (`stats`,
 * `usage`), or keys with the read scope of the catalog a search selects.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * const rule: Operations.ScopeRule = Operations.models.scope // { _tag: "Scope", scope: "models:read" }
 * Operations.usage.scope // { _tag: "AnyKey" }
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type ScopeRule = Table.ScopeRule

/**
 * Usage units an operation costs when it succeeds.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * const cost: Operations.Units = Operations.search.units // 5
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type Units = Table.Units

/**
 * The names of the `{parameters}` of a path template.
 *
 * @example
 * ```ts
 * import type { Operations } from "effect-catalog"
 *
 * type Names = Operations.PathParameterName<"/offers/{id}/"> // "id"
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type PathParameterName<Path extends string> = Table.PathParameterName<Path>

/**
 * The path parameters of an operation, as one object.
 *
 * @example
 * ```ts
 * import type { Operations } from "effect-catalog"
 *
 * const parameters: Operations.PathParameters<"/models/{organization}/{model}/"> = {
 *   organization: "o0000-falcon",
 *   model: "m0000000-kestrel-8b"
 * }
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type PathParameters<Path extends string> = Table.PathParameters<Path>

/**
 * What the item of an operation is: a schema that decodes and encodes
 * without services (a resource of the contract, or a union of them).
 */
type ItemSchema = AnyCodec

/**
 * One operation of the contract.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * const describe = (operation: Operations.Operation) => `${operation.id}: ${operation.kind} ${operation.path}`
 * describe(Operations.offer) // "offer: detail /offers/{id}/"
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export interface Operation<
  Id extends string = string,
  Path extends string = string,
  Kind extends "list" | "detail" = "list" | "detail",
  Item extends ItemSchema = ItemSchema,
  Query extends Schema.Struct.Fields = Schema.Struct.Fields,
  Cost extends Units = Units,
  K extends AnyKey = AnyKey
> {
  readonly id: Id
  readonly path: Path
  readonly kind: Kind
  readonly scope: ScopeRule
  readonly units: Cost
  /** The resource in `data` (one item of the page for lists). */
  readonly item: Item
  /** Query parameters with their rules: filters, and `limit`/`cursor` for lists. */
  readonly query: Schema.Struct<Query>
  /** The largest page size (lists only; 0 for details). */
  readonly maxLimit: number
  /** How many items the list holds at most whatever the catalog's size (the article list's latest ones), or null. */
  readonly listWindow: number | null
  readonly pathParameters: ReadonlyArray<PathParameterName<Path>>
  /** How one string names the resource the path is about (`Key`), or null when none can. */
  readonly key: K | null
  readonly summary: string
}

/**
 * What the string of a `Key` is: the resource's own `id`, exactly as the
 * service returns it (so the resource itself may be given), or a `slug`
 * that is not its id (an organization's, an article's).
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * const by: Operations.KeyBy | undefined = Operations.model.key?.by // "id"
 * Operations.organization.key?.by // "slug": an organization's id is a UUID its path does not take
 * ```
 * @category models
 * @since 0.5.0 (1.x: 1.0.0)
 */
export type KeyBy = ResourceKeys.KeyBy

/**
 * How one string names the resource an operation's path is about, and the
 * path parameters it holds: a model's id `o0000-falcon/m0000000-kestrel-8b`
 * holds `organization` and `model`; a Skill's id holds its source and slug
 * (`owner/repository/skill` on GitHub, `domain/skill` for a well-known
 * source, whose path has the literal segment `_`); an MCP server's
 * `namespace/name`; an offer's, a family's or a provider's id, a topic's id
 * (its slug), an organization's or an article's slug is the one parameter
 * itself. `organizationResource` has none: a Collection's id does not name
 * its organization.
 *
 * `parse` gives a `Result` (an `Either` in Effect 3): the path parameters
 * on success, on failure why the string holds none.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.skill.key?.parse("s0001-nimbus.example/k0000007-wren")
 * // Result.succeed({ sourceType: "well-known", owner: "s0001-nimbus.example", repository: "_", skill: "k0000007-wren" })
 * Operations.model.key?.parse("o0000-falcon")
 * // Result.fail("must have the form <organization>/<model>; it has 1 part")
 * Operations.model.key?.form // "<organization>/<model>"
 * ```
 * @category models
 * @since 0.5.0 (1.x: 1.0.0)
 */
export interface Key<Name extends string = string, By extends KeyBy = KeyBy> {
  readonly by: By
  /** The forms the string takes, for messages: `<organization>/<model>`. */
  readonly form: string
  /** The path parameters the string holds, or why it holds none (the string itself is not repeated). */
  readonly parse: (text: string) => Result.Result<{ readonly [N in Name]: string }, string>
}

/**
 * Any key of the table.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * const keys: ReadonlyArray<Operations.AnyKey> = Operations.all.flatMap((operation) => operation.key === null ? [] : [operation.key])
 * ```
 * @category models
 * @since 0.5.0 (1.x: 1.0.0)
 */
export type AnyKey = Key<string, KeyBy>

/** The public `Key` of a rule of the table: its parse answers with a `Result`. */
const keyOf = <Name extends string, By extends KeyBy>(rule: ResourceKeys.KeyRule<Name, By>): Key<Name, By> => ({
  by: rule.by,
  form: rule.form,
  parse: (text) => {
    const parsed = rule.parse(text)
    return parsed._tag === "Parsed" ? Result.succeed(parsed.parameters) : Result.fail(parsed.reason)
  }
})

/** The keys of the table, by their names there. */
const keys = {
  model: keyOf(ResourceKeys.keys.model),
  mcp: keyOf(ResourceKeys.keys.mcp),
  id: keyOf(ResourceKeys.keys.id),
  slug: keyOf(ResourceKeys.keys.slug),
  topic: keyOf(ResourceKeys.keys.topic),
  skill: keyOf(ResourceKeys.keys.skill)
} satisfies { readonly [Name in Table.KeyName]: AnyKey }
type Keys = typeof keys

/**
 * What a search returns: items of the catalog its `type` selects.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Operations } from "effect-catalog"
 *
 * const decodeHit = Schema.decodeUnknownSync(Operations.SearchResult)
 * type Hit = typeof Operations.SearchResult.Type // a Model, Skill, Mcp, Organization, Provider or Family
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const SearchResult = unionOf([R.Model, R.Skill, R.Mcp, R.Organization, R.Provider, R.Family])

/** The items of the table, by their names there: the resources, and what a search returns. */
const items = { ...R, SearchResult }
type Items = typeof items

type PageFields = ReturnType<typeof pageFields>

/** An operation: a row of the table with this edition's item schema, query schema and key. */
const operation = <
  Id extends string,
  Path extends string,
  Kind extends "list" | "detail",
  Item extends ItemSchema,
  Query extends Schema.Struct.Fields,
  Cost extends Units,
  K extends AnyKey
>(
  row: Omit<Table.ListRow<Id, Path, Cost> | Table.DetailRow<Id, Path, Cost>, "kind" | "item" | "filters" | "key"> & { readonly kind: Kind },
  item: Item,
  query: Schema.Struct<Query>,
  key: K | null
): Operation<Id, Path, Kind, Item, Query, Cost, K> => Table.joined(row, item, query, key)

/** A list of the table, with its item, its key and its query: `filters`, `limit` and `cursor`. */
const listOf = <
  Id extends string,
  Path extends string,
  Cost extends Units,
  Item extends Table.ItemName,
  Fields extends Schema.Struct.Fields,
  K extends Table.KeyName
>(
  row: Table.ListRow<Id, Path, Cost, Item, Table.FilterName, K>,
  fields: Fields
): Operation<Id, Path, "list", Items[Item], Fields & PageFields, Cost, Keys[K]> =>
  operation(
    row,
    items[row.item],
    Schema.Struct({ ...fields, ...pageFields(row.maxLimit) }),
    row.key === null ? null : keys[row.key]
  )

/** A list of the table, with the filters its row names. */
const list = <
  Id extends string,
  Path extends string,
  Cost extends Units,
  Item extends Table.ItemName,
  F extends Table.FilterName,
  K extends Table.KeyName
>(row: Table.ListRow<Id, Path, Cost, Item, F, K>) => listOf(row, filters[row.filters])

/** A detail of the table, with its item and its key. */
const detail = <Id extends string, Path extends string, Cost extends Units, Item extends Table.ItemName, K extends Table.KeyName>(
  row: Table.DetailRow<Id, Path, Cost, Item, K>
) => operation(row, items[row.item], Schema.Struct({}), row.key === null ? null : keys[row.key])

/**
 * `GET /models/` (1 unit, `models:read`): the models of the catalog,
 * filtered by text, family, provider, organization, reasoning or open
 * weights.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Object.keys(Operations.models.query.fields)
 * // ["q", "family", "provider", "organization", "reasoning", "open_weights", "limit", "cursor"]
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const models = list(Table.rows.models)
/**
 * `GET /models/{organization}/{model}/` (1 unit, `models:read`): one model,
 * named by its id `organization/model`.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.model.key?.parse("o0000-falcon/m0000000-kestrel-8b")
 * // Result.succeed({ organization: "o0000-falcon", model: "m0000000-kestrel-8b" })
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const model = detail(Table.rows.model)
/**
 * `GET /models/{organization}/{model}/offers/` (1 unit, `models:read`): the
 * providers' offers of one model.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.modelOffers.path // "/models/{organization}/{model}/offers/"
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const modelOffers = list(Table.rows.modelOffers)
/**
 * `GET /models/{organization}/{model}/benchmarks/` (5 units, `models:read`):
 * benchmark observations of one model.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.modelBenchmarks.units // 5
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const modelBenchmarks = list(Table.rows.modelBenchmarks)
/**
 * `GET /models/{organization}/{model}/performance/` (1 unit, `models:read`):
 * the observed performance of one model's offers.
 *
 * @example
 * ```ts
 * import { Operations, Resources } from "effect-catalog"
 *
 * Operations.modelPerformance.item === Resources.Offer // true
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const modelPerformance = list(Table.rows.modelPerformance)
/**
 * `GET /models/{organization}/{model}/activity/` (5 units, `models:read`):
 * the daily token activity of one model.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.modelActivity.summary // "List daily token activity of a model"
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const modelActivity = list(Table.rows.modelActivity)
/**
 * `GET /models/{organization}/{model}/applications/` (5 units,
 * `models:read`): application observations of one model.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.modelApplications.pathParameters // ["organization", "model"]
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const modelApplications = list(Table.rows.modelApplications)
/**
 * `GET /offers/{id}/` (1 unit, `models:read`): one offer, by its id.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.offer.key?.form // "<id>"
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const offer = detail(Table.rows.offer)
/**
 * `GET /families/` (1 unit, `families:read`): the model families, filtered
 * by text.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Object.keys(Operations.families.query.fields) // ["q", "limit", "cursor"]
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const families = list(Table.rows.families)
/**
 * `GET /families/{id}/` (1 unit, `families:read`): one model family.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.family.scope // { _tag: "Scope", scope: "families:read" }
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const family = detail(Table.rows.family)
/**
 * `GET /families/{id}/models/` (1 unit, `models:read`): the models of one
 * family.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.familyModels.scope // { _tag: "Scope", scope: "models:read" }: it lists models
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const familyModels = list(Table.rows.familyModels)
/**
 * `GET /providers/` (1 unit, `providers:read`): the serving providers,
 * filtered by text.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.providers.maxLimit // 100
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const providers = list(Table.rows.providers)
/**
 * `GET /providers/{id}/` (1 unit, `providers:read`): one serving provider.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.provider.kind // "detail"
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const provider = detail(Table.rows.provider)
/**
 * `GET /providers/{id}/models/` (1 unit, `models:read`): the models one
 * provider serves.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.providerModels.path // "/providers/{id}/models/"
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const providerModels = list(Table.rows.providerModels)
/**
 * `GET /providers/{id}/offers/` (1 unit, `models:read`): the offers of one
 * provider.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.providerOffers.pathParameters // ["id"]
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const providerOffers = list(Table.rows.providerOffers)
/**
 * `GET /organizations/` (1 unit, `organizations:read`): the organizations,
 * filtered by text or kind.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Operations } from "effect-catalog"
 *
 * Schema.decodeUnknownSync(Operations.organizations.query)({ kind: "university" }) // { kind: "university" }
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const organizations = list(Table.rows.organizations)
/**
 * `GET /organizations/{slug}/` (1 unit, `organizations:read`): one
 * organization, by its slug.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.organization.key?.by // "slug"
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const organization = detail(Table.rows.organization)
/**
 * `GET /organizations/{slug}/models/` (1 unit, `models:read`): the models of
 * one organization.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.organizationModels.key?.form // "<slug>"
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const organizationModels = list(Table.rows.organizationModels)
/**
 * `GET /organizations/{slug}/resources/` (1 unit, `organizations:read`): the
 * public Collections and Stacks of one organization.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.organizationResources.summary // "List the public Collections and Stacks of an organization"
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const organizationResources = list(Table.rows.organizationResources)
/**
 * `GET /organizations/{slug}/resources/{id}/` (1 unit,
 * `organizations:read`): one public Collection or Stack. It has no key: a
 * Collection's id does not name its organization.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.organizationResource.key // null
 * Operations.organizationResource.pathParameters // ["slug", "id"]
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const organizationResource = detail(Table.rows.organizationResource)
/**
 * `GET /skills/` (1 unit, `skills:read`): the Skills, filtered by text,
 * source, official or topic.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Object.keys(Operations.skills.query.fields) // ["q", "source", "official", "topic", "limit", "cursor"]
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const skills = list(Table.rows.skills)
/**
 * `GET /skills/{sourceType}/{owner}/{repository}/{skill}/` (1 unit,
 * `skills:read`): one Skill, named by its id.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.skill.key?.parse("s00000-raven/toolkit/k0000001-lark")
 * // Result.succeed({ sourceType: "github", owner: "s00000-raven", repository: "toolkit", skill: "k0000001-lark" })
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const skill = detail(Table.rows.skill)
/**
 * `GET /skills/{sourceType}/{owner}/{repository}/{skill}/audits/` (1 unit,
 * `skills:read`): the audit signals of one Skill.
 *
 * @example
 * ```ts
 * import { Operations, Resources } from "effect-catalog"
 *
 * Operations.skillAudits.item === Resources.Audits // true
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const skillAudits = detail(Table.rows.skillAudits)
/**
 * `GET /skills/{sourceType}/{owner}/{repository}/{skill}/document/` (5
 * units, `skill_content:read`): the full document of one Skill, as inert
 * content.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.skillDocument.scope // { _tag: "Scope", scope: "skill_content:read" }
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const skillDocument = detail(Table.rows.skillDocument)
/**
 * `GET /publishers/` (1 unit, `skills:read`): the Skill publishers.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Object.keys(Operations.publishers.query.fields) // ["limit", "cursor"]
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const publishers = list(Table.rows.publishers)
/**
 * `GET /mcps/` (1 unit, `mcps:read`): the MCP servers, filtered by text,
 * namespace or status.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Object.keys(Operations.mcps.query.fields) // ["q", "namespace", "status", "limit", "cursor"]
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const mcps = list(Table.rows.mcps)
/**
 * `GET /mcps/{namespace}/{name}/` (1 unit, `mcps:read`): one MCP server,
 * named by its id `namespace/name`.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.mcp.key?.form // "<namespace>/<name>"
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const mcp = detail(Table.rows.mcp)
/**
 * `GET /mcps/{namespace}/{name}/connection/` (5 units, `mcps:read`): the
 * inert connection data of one MCP server.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.mcpConnection.units // 5
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const mcpConnection = detail(Table.rows.mcpConnection)
/**
 * `GET /topics/` (1 unit, `topics:read`): the Skill topics.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.topics.scope // { _tag: "Scope", scope: "topics:read" }
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const topics = list(Table.rows.topics)
/**
 * `GET /topics/{slug}/skills/` (1 unit, `skills:read`): the Skills of one
 * topic, named by the topic's id (its slug).
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.topicSkills.key?.by // "id": a topic's id is its slug
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const topicSkills = list(Table.rows.topicSkills)
/**
 * `GET /articles/` (1 unit, `articles:read`): the latest published
 * articles, at most `Limits.articleListWindow` of them.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.articles.listWindow // 24
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const articles = list(Table.rows.articles)
/**
 * `GET /articles/{slug}/` (1 unit, `articles:read`): one article, by its
 * slug (older articles than the list's window too).
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.article.key?.by // "slug"
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const article = detail(Table.rows.article)
/**
 * `GET /search/` (5 units, the read scope of the catalog `type` selects):
 * one catalog searched by text, in pages of at most 25.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.search.maxLimit // 25
 * Operations.requiredScope(Operations.search, { q: "kestrel", type: "mcps" }) // "mcps:read"
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const search = list(Table.rows.search)
/**
 * `GET /stats/` (1 unit, any valid key): the counts of the catalog.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.stats.scope // { _tag: "AnyKey" }
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const stats = detail(Table.rows.stats)
/**
 * `GET /usage/` (no unit, any valid key): the account's live usage and
 * allowances.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.usage.units // 0
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const usage = detail(Table.rows.usage)

/**
 * Every operation, in the order of the contract's table.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.all.length // 35
 * Operations.all.filter((operation) => operation.units === 5).length // 6
 * ```
 * @category operations
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const all = [
  models, model, modelOffers, modelBenchmarks, modelPerformance, modelActivity, modelApplications, offer,
  families, family, familyModels, providers, provider, providerModels, providerOffers,
  organizations, organization, organizationModels, organizationResources, organizationResource,
  skills, skill, skillAudits, skillDocument, publishers, mcps, mcp, mcpConnection,
  topics, topicSkills, articles, article, search, stats, usage
] as const

/**
 * Any operation of the table.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * const units = (operations: ReadonlyArray<Operations.AnyOperation>) =>
 *   operations.reduce((total, operation) => total + operation.units, 0)
 * units([Operations.models, Operations.search]) // 6
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type AnyOperation = (typeof all)[number]

/**
 * The id of any operation.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * const paths = new Map<Operations.OperationId, string>(
 *   Operations.all.map((operation) => [operation.id, operation.path])
 * )
 * paths.get("offer") // "/offers/{id}/"
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type OperationId = AnyOperation["id"]

/**
 * The list operations of the table.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * const lists = Operations.all.filter((operation): operation is Operations.ListOperation => operation.kind === "list")
 * lists.length // 21
 * ```
 * @category models
 * @since 0.3.0 (1.x: 1.0.0)
 */
export type ListOperation = Extract<AnyOperation, { readonly kind: "list" }>

/**
 * The detail operations of the table.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * const details = Operations.all.filter((operation): operation is Operations.DetailOperation => operation.kind === "detail")
 * details.every((operation) => operation.maxLimit === 0) // true
 * ```
 * @category models
 * @since 0.3.0 (1.x: 1.0.0)
 */
export type DetailOperation = Extract<AnyOperation, { readonly kind: "detail" }>

/**
 * The id of a list operation.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * const listed: Operations.ListId = "modelOffers"
 * // const wrong: Operations.ListId = "model" // does not compile: model is a detail
 * ```
 * @category models
 * @since 0.3.0 (1.x: 1.0.0)
 */
export type ListId = ListOperation["id"]

/**
 * The id of a detail operation.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * const read: Operations.DetailId = "skillDocument"
 * ```
 * @category models
 * @since 0.3.0 (1.x: 1.0.0)
 */
export type DetailId = DetailOperation["id"]

/** A list that needs no path parameter and no query parameter. */
type Whole<Op extends ListOperation> = [PathParameterName<Op["path"]>] extends [never]
  ? ({} extends Schema.Schema.Type<Op["query"]> ? Op : never)
  : never

/**
 * The collections of the catalog: the lists that hold every resource of one
 * kind, with no path parameter and no required query parameter (every list
 * below `/` but `search`): `models`, `families`, `providers`,
 * `organizations`, `skills`, `publishers`, `mcps`, `topics`, `articles`.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * const pathOf = (operation: Operations.CollectionOperation) => operation.path // "/models/", "/families/", …
 * ```
 * @category models
 * @since 0.3.0 (1.x: 1.0.0)
 */
export type CollectionOperation = { readonly [Id in ListId]: Whole<Extract<ListOperation, { readonly id: Id }>> }[ListId]

/**
 * The id of a collection.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * const id: Operations.CollectionId = "skills"
 * // const wrong: Operations.CollectionId = "search" // does not compile: search needs q and type
 * ```
 * @category models
 * @since 0.3.0 (1.x: 1.0.0)
 */
export type CollectionId = CollectionOperation["id"]

const isCollection = (operation: AnyOperation): operation is CollectionOperation => {
  const query: AnySchema = operation.query
  return operation.kind === "list" && operation.pathParameters.length === 0 && Schema.is(query)({})
}

/**
 * The collection operations, in the order of the table.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.collections.map((operation) => operation.id) // ["models", "families", …, "articles"]
 * ```
 * @category operations
 * @since 0.3.0 (1.x: 1.0.0)
 */
export const collections: ReadonlyArray<CollectionOperation> = all.filter(isCollection)

/**
 * Whether a name is the id of a collection.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.isCollectionId("skills") // true
 * Operations.isCollectionId("modelOffers") // false: it lists the offers of one model
 * ```
 * @category guards
 * @since 0.4.0 (1.x: 1.0.0)
 */
export const isCollectionId = (name: string): name is CollectionId => collections.some((operation) => operation.id === name)

/**
 * The response schema of a list operation: its item in the list envelope.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Operations } from "effect-catalog"
 *
 * const decodeModelsPage = Schema.decodeUnknownSync(Operations.responseSchema(Operations.models))
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export function responseSchema<Item extends ItemSchema>(
  operation: { readonly kind: "list"; readonly item: Item }
): ReturnType<typeof ListEnvelope<Item>>
/**
 * The response schema of a detail operation: its item in the detail envelope.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Operations } from "effect-catalog"
 *
 * const decodeStats = Schema.decodeUnknownSync(Operations.responseSchema(Operations.stats))
 * const stats = decodeStats({
 *   data: { id: "catalog", models: 3, skills: 2, mcps: 1, organizations: 1, providers: 1, families: 1 }
 * })
 * stats.data.models // 3
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export function responseSchema<Item extends ItemSchema>(
  operation: { readonly kind: "detail"; readonly item: Item }
): ReturnType<typeof DetailEnvelope<Item>>
/**
 * The response schema of an operation whose kind is known only when it runs: either envelope.
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * const modelOperation = (one: boolean) => (one ? Operations.model : Operations.models)
 * const envelope = Operations.responseSchema(modelOperation(false))
 * "pagination" in envelope.fields // true: models is a list
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export function responseSchema<Item extends ItemSchema>(
  operation: { readonly kind: "list" | "detail"; readonly item: Item }
): ReturnType<typeof ListEnvelope<Item>> | ReturnType<typeof DetailEnvelope<Item>>
export function responseSchema<Item extends ItemSchema>(
  operation: { readonly kind: "list" | "detail"; readonly item: Item }
): ReturnType<typeof ListEnvelope<Item>> | ReturnType<typeof DetailEnvelope<Item>> {
  return operation.kind === "list" ? ListEnvelope(operation.item) : DetailEnvelope(operation.item)
}

/**
 * The scope a request needs: the operation's own, the read scope of the
 * catalog a search selects, or none (`stats`, `usage`: any valid key).
 *
 * @example
 * ```ts
 * import { Operations } from "effect-catalog"
 *
 * Operations.requiredScope(Operations.search, { type: "skills" }) // "skills:read"
 * Operations.requiredScope(Operations.usage, {}) // undefined
 * ```
 * @category utils
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const requiredScope: (
  operation: { readonly scope: ScopeRule },
  query: Readonly<Record<string, unknown>>
) => Scope | undefined = Table.requiredScope
