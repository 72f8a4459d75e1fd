/**
 * Schemas of every resource of the Catalog contract. Each schema decodes the
 * wire form (snake_case JSON) into exact values and encodes back to the same
 * wire form; fields the contract does not list are tolerated.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const decodeModel = Schema.decodeUnknownSync(Resources.Model)
 * ```
 * @since 0.1.0 (1.x: 1.0.0)
 */
import { identified, literals, NonNegativeInt, Option, Schema, unionOf } from "#edition/internal/Edition.js"
import {
  CalendarDateFromString,
  DecimalInteger,
  OpenObject,
  Price,
  Timestamp,
  UnknownValue
} from "#edition/contract/Primitives.js"
import { mcpStatuses } from "../../../rules/src/contract/KnownValues.js"

/** One of the known values of an open list, or any other string (`Primitives.OpenLiteral`, which takes them as each edition's `Literal` does). */
const openList = <const Known extends readonly [string, ...Array<string>]>(known: Known) => unionOf([literals(known), UnknownValue])

const NullableString = Schema.NullOr(Schema.String)
const NullableTimestamp = Schema.NullOr(Timestamp)
const Count = NonNegativeInt

/**
 * Known source kinds of a Skill or Publisher; other values are accepted.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * Schema.decodeSync(Resources.SourceType)("github") // "github"
 * Schema.decodeSync(Resources.SourceType)("gitlab") // "gitlab", typed as UnknownValue
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const SourceType = openList(["github", "well-known"])

/**
 * The closed list of organization kinds.
 *
 * @example
 * ```ts
 * import { Resources } from "effect-catalog"
 *
 * Resources.OrganizationKind.literals // ["company", "university", "classroom", "nonprofit", "government", "community"]
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const OrganizationKind = literals(["company", "university", "classroom", "nonprofit", "government", "community"])

/**
 * A model of the catalog.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const contextTokens = (json: unknown) =>
 *   Schema.decodeUnknownSync(Resources.Model)(json).context_tokens // bigint | null
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const Model = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  family_id: NullableString,
  organization_catalog_id: Schema.String,
  organization_slug: NullableString,
  released_on: Schema.NullOr(CalendarDateFromString),
  context_tokens: Schema.NullOr(DecimalInteger),
  open_weights: Schema.NullOr(Schema.Boolean),
  reasoning: Schema.NullOr(Schema.Boolean),
  offer_count: Count,
  provider_count: Count,
  updated_at: NullableTimestamp,
  url: Schema.String,
  api_url: Schema.String,
  specifications: OpenObject
}).pipe(identified("Model"))
export interface Model extends Schema.Schema.Type<typeof Model> {}

/**
 * Offer prices in USD per million tokens. The contract leaves the members
 * open; the common ones are typed, others are kept.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Primitives, Resources } from "effect-catalog"
 *
 * const pricing = Schema.decodeUnknownSync(Resources.Pricing)({ input: "0.15", output: "0.60" })
 * pricing.output == null ? null : Primitives.plainDecimal(pricing.output) // "0.6"
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const Pricing = Schema.Struct({
  input: Schema.optional(Schema.NullOr(Price)),
  output: Schema.optional(Schema.NullOr(Price)),
  cache_read: Schema.optional(Schema.NullOr(Price)),
  cache_write: Schema.optional(Schema.NullOr(Price)),
  request: Schema.optional(Schema.NullOr(Price)),
  image: Schema.optional(Schema.NullOr(Price))
}).pipe(identified("Pricing"))
export interface Pricing extends Schema.Schema.Type<typeof Pricing> {}

/**
 * A provider's offer of a model.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const inputPrice = (json: unknown) =>
 *   Schema.decodeUnknownSync(Resources.Offer)(json).pricing.input ?? null
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const Offer = Schema.Struct({
  id: Schema.String,
  model_id: Schema.String,
  provider_id: Schema.String,
  route_id: Schema.String,
  channel: Schema.String,
  host_name: NullableString,
  context_tokens: Schema.NullOr(DecimalInteger),
  pricing: Pricing,
  observed_at: NullableTimestamp,
  capabilities: OpenObject,
  quantization: NullableString,
  api_url: NullableString,
  performance: OpenObject
}).pipe(identified("Offer"))
export interface Offer extends Schema.Schema.Type<typeof Offer> {}

/**
 * A model family.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const family = Schema.decodeUnknownSync(Resources.Family)({
 *   id: "f0000-kestrel", name: "Kestrel 0", model_count: 3, updated_at: null
 * })
 * family.model_count // 3
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const Family = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  model_count: Count,
  updated_at: NullableTimestamp
}).pipe(identified("Family"))
export interface Family extends Schema.Schema.Type<typeof Family> {}

/**
 * A serving provider.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const provider = Schema.decodeUnknownSync(Resources.Provider)({
 *   id: "p000-heron", name: "Heron 0", api_url: null, documentation_url: null, model_count: 12
 * })
 * provider.api_url // null
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const Provider = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  api_url: NullableString,
  documentation_url: NullableString,
  model_count: Count
}).pipe(identified("Provider"))
export interface Provider extends Schema.Schema.Type<typeof Provider> {}

/**
 * An organization; `about` is present in the detail response only.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const about = (json: unknown) =>
 *   Schema.decodeUnknownSync(Resources.Organization)(json).about ?? "" // `about` only in a detail
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const Organization = Schema.Struct({
  id: Schema.String,
  slug: Schema.String,
  name: Schema.String,
  summary: Schema.String,
  about: Schema.optional(Schema.String),
  website: Schema.String,
  kind: OrganizationKind,
  socials: OpenObject,
  followers: Count,
  catalog_id: NullableString,
  updated_at: NullableTimestamp,
  url: Schema.String,
  logo_url: NullableString
}).pipe(identified("Organization"))
export interface Organization extends Schema.Schema.Type<typeof Organization> {}

/**
 * A Skill.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const installs = (json: unknown) =>
 *   Schema.decodeUnknownSync(Resources.Skill)(json).installs // a bigint
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const Skill = Schema.Struct({
  id: Schema.String,
  slug: Schema.String,
  name: Schema.String,
  description: NullableString,
  source: Schema.String,
  source_type: SourceType,
  official: Schema.NullOr(Schema.Boolean),
  installs: DecimalInteger,
  license: NullableString,
  observed_at: NullableTimestamp,
  url: Schema.String,
  api_url: Schema.String
}).pipe(identified("Skill"))
export interface Skill extends Schema.Schema.Type<typeof Skill> {}

/**
 * A publisher of official Skills.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const publisher = Schema.decodeUnknownSync(Resources.Publisher)({
 *   id: "s00000-falcon/skills", source_type: "github", skill_count: 4
 * })
 * publisher.source_type // "github"
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const Publisher = Schema.Struct({
  id: Schema.String,
  source_type: SourceType,
  skill_count: Count
}).pipe(identified("Publisher"))
export interface Publisher extends Schema.Schema.Type<typeof Publisher> {}

/**
 * Known MCP server statuses; other values are accepted.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * Schema.decodeSync(Resources.McpStatus)("deprecated") // "deprecated"
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const McpStatus = openList(mcpStatuses)

/**
 * An MCP server.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const transports = (json: unknown) =>
 *   Schema.decodeUnknownSync(Resources.Mcp)(json).remote_transport_types
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const Mcp = Schema.Struct({
  id: Schema.String,
  namespace: Schema.String,
  name: Schema.String,
  title: NullableString,
  description: Schema.String,
  version: Schema.String,
  status: McpStatus,
  website_url: NullableString,
  package_registry_types: Schema.Array(Schema.String),
  remote_transport_types: Schema.Array(Schema.String),
  has_packages: Schema.Boolean,
  has_remotes: Schema.Boolean,
  observed_at: NullableTimestamp,
  url: Schema.String,
  api_url: Schema.String
}).pipe(identified("Mcp"))
export interface Mcp extends Schema.Schema.Type<typeof Mcp> {}

/**
 * Known kinds of an organization resource; other values are accepted.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * Schema.decodeSync(Resources.ResourceKind)("Stack") // "Stack"
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const ResourceKind = openList(["Collection", "Stack"])

/**
 * A public Collection or Stack of an organization.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const itemCount = (json: unknown) =>
 *   Schema.decodeUnknownSync(Resources.Resource)(json).items.length
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const Resource = Schema.Struct({
  id: Schema.String,
  organization_id: Schema.String,
  kind: ResourceKind,
  title: Schema.String,
  description: Schema.String,
  updated_at: NullableTimestamp,
  items: Schema.Array(OpenObject),
  items_truncated: Schema.Boolean
}).pipe(identified("Resource"))
export interface Resource extends Schema.Schema.Type<typeof Resource> {}

/**
 * A benchmark or application observation of a model.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const datasets = (json: unknown) =>
 *   Schema.decodeUnknownSync(Schema.Array(Resources.Observation))(json).map((observation) => observation.dataset)
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const Observation = Schema.Struct({
  id: Schema.String,
  dataset: Schema.String,
  model_id: Schema.String,
  route_id: NullableString,
  observed_at: NullableTimestamp,
  observation: OpenObject
}).pipe(identified("Observation"))
export interface Observation extends Schema.Schema.Type<typeof Observation> {}

/**
 * Daily observed token activity of a model.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const day = Schema.decodeUnknownSync(Resources.Activity)({
 *   id: "2026-11-21", day: "2026-11-21", tokens: "9007199254740993", routes: 4, observed_at: null
 * })
 * day.tokens // 9007199254740993n
 * String(day.day) // "2026-11-21"
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const Activity = Schema.Struct({
  id: Schema.String,
  day: CalendarDateFromString,
  tokens: DecimalInteger,
  routes: Count,
  observed_at: NullableTimestamp
}).pipe(identified("Activity"))
export interface Activity extends Schema.Schema.Type<typeof Activity> {}

/**
 * A curated Skill topic.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const topic = Schema.decodeUnknownSync(Resources.Topic)({
 *   id: "testing", name: "Testing", description: "Skills for testing.", url: "https://catalog.example/topics/testing"
 * })
 * topic.name // "Testing"
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const Topic = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  description: Schema.String,
  url: Schema.String
}).pipe(identified("Topic"))
export interface Topic extends Schema.Schema.Type<typeof Topic> {}

/**
 * Editorial metadata of an article.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const title = (json: unknown) =>
 *   Schema.decodeUnknownSync(Resources.Article)(json).title
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const Article = Schema.Struct({
  id: Schema.String,
  slug: Schema.String,
  title: Schema.String,
  url: Schema.String,
  excerpt: Schema.String,
  published_at: NullableTimestamp,
  updated_at: NullableTimestamp
}).pipe(identified("Article"))
export interface Article extends Schema.Schema.Type<typeof Article> {}

/**
 * Audit signals of a Skill (not a security verdict).
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const audits = Schema.decodeUnknownSync(Resources.Audits)({
 *   id: "s00000-falcon/skills/k0000000-heron", audits: [], notice: "Signals, not a verdict."
 * })
 * audits.audits.length // 0
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const Audits = Schema.Struct({
  id: Schema.String,
  audits: Schema.Array(OpenObject),
  notice: Schema.String
}).pipe(identified("Audits"))
export interface Audits extends Schema.Schema.Type<typeof Audits> {}

/**
 * Known document formats; other values are accepted.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * Schema.decodeSync(Resources.DocumentFormat)("markdown") // "markdown"
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const DocumentFormat = openList(["markdown"])

/**
 * The full document of a Skill: inert, untrusted Markdown.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const document = Schema.decodeUnknownSync(Resources.Document)({
 *   id: "s00000-falcon/skills/k0000000-heron", format: "markdown", content: "# Heron", license: null
 * })
 * document.content // "# Heron": text to show, never to run
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const Document = Schema.Struct({
  id: Schema.String,
  format: DocumentFormat,
  content: Schema.String,
  license: NullableString
}).pipe(identified("Document"))
export interface Document extends Schema.Schema.Type<typeof Document> {}

/**
 * An inert projection of an MCP server's connection data.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const connection = Schema.decodeUnknownSync(Resources.Connection)({
 *   id: "io.example/s000000-falcon", connection: { transport: "stdio" }
 * })
 * connection.connection // { transport: "stdio" }
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const Connection = Schema.Struct({
  id: Schema.String,
  connection: OpenObject
}).pipe(identified("Connection"))
export interface Connection extends Schema.Schema.Type<typeof Connection> {}

/**
 * Counts of the active public catalog.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const stats = Schema.decodeUnknownSync(Resources.Stats)({
 *   id: "catalog", models: 120, skills: 300, mcps: 40, organizations: 25, providers: 8, families: 10
 * })
 * stats.models // 120
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const Stats = Schema.Struct({
  id: Schema.Literal("catalog"),
  models: Count,
  skills: Count,
  mcps: Count,
  organizations: Count,
  providers: Count,
  families: Count
}).pipe(identified("Stats"))
export interface Stats extends Schema.Schema.Type<typeof Stats> {}

/**
 * The count `/stats/` gives of a collection, by the collection's name
 * (`models`, `skills`, …); none for a name it does not count (`publishers`,
 * `articles`, …).
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const stats = Schema.decodeUnknownSync(Resources.Stats)({
 *   id: "catalog", models: 120, skills: 300, mcps: 40, organizations: 25, providers: 8, families: 10
 * })
 * Resources.countOf(stats, "skills") // Option.some(300)
 * Resources.countOf(stats, "articles") // Option.none()
 * ```
 * @category utils
 * @since 0.4.0 (1.x: 1.0.0)
 */
export const countOf = (stats: Stats, collection: string): Option.Option<number> => {
  const count = Object.entries(stats).find(([name]) => name === collection)?.[1]
  return typeof count === "number" ? Option.some(count) : Option.none()
}

/**
 * The account's live usage and allowances.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const unitsLeftToday = (json: unknown) => {
 *   const usage = Schema.decodeUnknownSync(Resources.Usage)(json)
 *   return usage.daily_limit - usage.daily_units
 * }
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const Usage = Schema.Struct({
  daily_limit: Count,
  monthly_limit: Count,
  daily_units: Count,
  monthly_units: Count,
  daily_bytes: Count,
  daily_byte_limit: Count,
  minute_limit: Count,
  daily_reset_at: NullableTimestamp,
  monthly_reset_at: NullableTimestamp
}).pipe(identified("Usage"))
export interface Usage extends Schema.Schema.Type<typeof Usage> {}

/**
 * The problem+json error body.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const problem = Schema.decodeUnknownSync(Resources.Problem)({
 *   type: "https://catalog.example/problems/not_found", title: "Not Found", status: 404,
 *   code: "not_found", detail: "No such path.", request_id: "req-1"
 * })
 * problem.code // "not_found"
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const Problem = Schema.Struct({
  type: Schema.String,
  title: Schema.String,
  status: Schema.Int,
  code: Schema.String,
  detail: Schema.String,
  request_id: Schema.String
}).pipe(identified("Problem"))
export interface Problem extends Schema.Schema.Type<typeof Problem> {}
