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
 * const decodeModel = Schema.decodeUnknown(Resources.Model)
 * ```
 * @since 0.1.0
 */
import { Schema } from "effect"
import {
  CalendarDateFromString,
  DecimalInteger,
  OpenLiteral,
  OpenObject,
  Price,
  Timestamp
} from "./Primitives.js"

const NullableString = Schema.NullOr(Schema.String)
const NullableTimestamp = Schema.NullOr(Timestamp)
const Count = Schema.Int.pipe(Schema.nonNegative())

/**
 * Known source kinds of a Skill or Publisher; other values are accepted.
 *
 * @since 0.1.0
 */
export const SourceType = OpenLiteral("github", "well-known")

/**
 * The closed list of organization kinds.
 *
 * @since 0.1.0
 */
export const OrganizationKind = Schema.Literal(
  "company",
  "university",
  "classroom",
  "nonprofit",
  "government",
  "community"
)

/**
 * A model of the catalog.
 *
 * @since 0.1.0
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
}).annotations({ identifier: "Model" })
/** @since 0.1.0 */
export interface Model extends Schema.Schema.Type<typeof Model> {}

/**
 * Offer prices in USD per million tokens. The contract leaves the members
 * open; the common ones are typed, others are kept.
 *
 * @since 0.1.0
 */
export const Pricing = Schema.Struct({
  input: Schema.optional(Schema.NullOr(Price)),
  output: Schema.optional(Schema.NullOr(Price)),
  cache_read: Schema.optional(Schema.NullOr(Price)),
  cache_write: Schema.optional(Schema.NullOr(Price)),
  request: Schema.optional(Schema.NullOr(Price)),
  image: Schema.optional(Schema.NullOr(Price))
}).annotations({ identifier: "Pricing" })
/** @since 0.1.0 */
export interface Pricing extends Schema.Schema.Type<typeof Pricing> {}

/**
 * A provider's offer of a model.
 *
 * @since 0.1.0
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
}).annotations({ identifier: "Offer" })
/** @since 0.1.0 */
export interface Offer extends Schema.Schema.Type<typeof Offer> {}

/**
 * A model family.
 *
 * @since 0.1.0
 */
export const Family = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  model_count: Count,
  updated_at: NullableTimestamp
}).annotations({ identifier: "Family" })
/** @since 0.1.0 */
export interface Family extends Schema.Schema.Type<typeof Family> {}

/**
 * A serving provider.
 *
 * @since 0.1.0
 */
export const Provider = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  api_url: NullableString,
  documentation_url: NullableString,
  model_count: Count
}).annotations({ identifier: "Provider" })
/** @since 0.1.0 */
export interface Provider extends Schema.Schema.Type<typeof Provider> {}

/**
 * An organization; `about` is present in the detail response only.
 *
 * @since 0.1.0
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
}).annotations({ identifier: "Organization" })
/** @since 0.1.0 */
export interface Organization extends Schema.Schema.Type<typeof Organization> {}

/**
 * A Skill.
 *
 * @since 0.1.0
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
}).annotations({ identifier: "Skill" })
/** @since 0.1.0 */
export interface Skill extends Schema.Schema.Type<typeof Skill> {}

/**
 * A publisher of official Skills.
 *
 * @since 0.1.0
 */
export const Publisher = Schema.Struct({
  id: Schema.String,
  source_type: SourceType,
  skill_count: Count
}).annotations({ identifier: "Publisher" })
/** @since 0.1.0 */
export interface Publisher extends Schema.Schema.Type<typeof Publisher> {}

/**
 * Known MCP server statuses; other values are accepted.
 *
 * @since 0.1.0
 */
export const McpStatus = OpenLiteral("active", "deprecated")

/**
 * An MCP server.
 *
 * @since 0.1.0
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
}).annotations({ identifier: "Mcp" })
/** @since 0.1.0 */
export interface Mcp extends Schema.Schema.Type<typeof Mcp> {}

/**
 * Known kinds of an organization resource; other values are accepted.
 *
 * @since 0.1.0
 */
export const ResourceKind = OpenLiteral("Collection", "Stack")

/**
 * A public Collection or Stack of an organization.
 *
 * @since 0.1.0
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
}).annotations({ identifier: "Resource" })
/** @since 0.1.0 */
export interface Resource extends Schema.Schema.Type<typeof Resource> {}

/**
 * A benchmark or application observation of a model.
 *
 * @since 0.1.0
 */
export const Observation = Schema.Struct({
  id: Schema.String,
  dataset: Schema.String,
  model_id: Schema.String,
  route_id: NullableString,
  observed_at: NullableTimestamp,
  observation: OpenObject
}).annotations({ identifier: "Observation" })
/** @since 0.1.0 */
export interface Observation extends Schema.Schema.Type<typeof Observation> {}

/**
 * Daily observed token activity of a model.
 *
 * @since 0.1.0
 */
export const Activity = Schema.Struct({
  id: Schema.String,
  day: CalendarDateFromString,
  tokens: DecimalInteger,
  routes: Count,
  observed_at: NullableTimestamp
}).annotations({ identifier: "Activity" })
/** @since 0.1.0 */
export interface Activity extends Schema.Schema.Type<typeof Activity> {}

/**
 * A curated Skill topic.
 *
 * @since 0.1.0
 */
export const Topic = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  description: Schema.String,
  url: Schema.String
}).annotations({ identifier: "Topic" })
/** @since 0.1.0 */
export interface Topic extends Schema.Schema.Type<typeof Topic> {}

/**
 * Editorial metadata of an article.
 *
 * @since 0.1.0
 */
export const Article = Schema.Struct({
  id: Schema.String,
  slug: Schema.String,
  title: Schema.String,
  url: Schema.String,
  excerpt: Schema.String,
  published_at: NullableTimestamp,
  updated_at: NullableTimestamp
}).annotations({ identifier: "Article" })
/** @since 0.1.0 */
export interface Article extends Schema.Schema.Type<typeof Article> {}

/**
 * Audit signals of a Skill (not a security verdict).
 *
 * @since 0.1.0
 */
export const Audits = Schema.Struct({
  id: Schema.String,
  audits: Schema.Array(OpenObject),
  notice: Schema.String
}).annotations({ identifier: "Audits" })
/** @since 0.1.0 */
export interface Audits extends Schema.Schema.Type<typeof Audits> {}

/**
 * Known document formats; other values are accepted.
 *
 * @since 0.1.0
 */
export const DocumentFormat = OpenLiteral("markdown")

/**
 * The full document of a Skill: inert, untrusted Markdown.
 *
 * @since 0.1.0
 */
export const Document = Schema.Struct({
  id: Schema.String,
  format: DocumentFormat,
  content: Schema.String,
  license: NullableString
}).annotations({ identifier: "Document" })
/** @since 0.1.0 */
export interface Document extends Schema.Schema.Type<typeof Document> {}

/**
 * An inert projection of an MCP server's connection data.
 *
 * @since 0.1.0
 */
export const Connection = Schema.Struct({
  id: Schema.String,
  connection: OpenObject
}).annotations({ identifier: "Connection" })
/** @since 0.1.0 */
export interface Connection extends Schema.Schema.Type<typeof Connection> {}

/**
 * Counts of the active public catalog.
 *
 * @since 0.1.0
 */
export const Stats = Schema.Struct({
  id: Schema.Literal("catalog"),
  models: Count,
  skills: Count,
  mcps: Count,
  organizations: Count,
  providers: Count,
  families: Count
}).annotations({ identifier: "Stats" })
/** @since 0.1.0 */
export interface Stats extends Schema.Schema.Type<typeof Stats> {}

/**
 * The account's live usage and allowances.
 *
 * @since 0.1.0
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
}).annotations({ identifier: "Usage" })
/** @since 0.1.0 */
export interface Usage extends Schema.Schema.Type<typeof Usage> {}

/**
 * The problem+json error body.
 *
 * @since 0.1.0
 */
export const Problem = Schema.Struct({
  type: Schema.String,
  title: Schema.String,
  status: Schema.Int,
  code: Schema.String,
  detail: Schema.String,
  request_id: Schema.String
}).annotations({ identifier: "Problem" })
/** @since 0.1.0 */
export interface Problem extends Schema.Schema.Type<typeof Problem> {}
