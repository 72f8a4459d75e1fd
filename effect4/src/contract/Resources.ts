/**
 * Schemas of every resource of the Catalog contract. Each schema decodes the
 * wire form (snake_case JSON) into exact values and encodes back to the same
 * wire form; fields the contract does not list are tolerated.
 *
 * Each resource is an opaque struct: one name for the schema and for the type
 * of its decoded values, which stay plain objects.
 *
 * @example
 * ```ts
 * import { Effect, Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const decodeModel = Schema.decodeUnknownEffect(Resources.Model)
 * const contextTokens = (json: unknown): Effect.Effect<bigint | null, Schema.SchemaError> =>
 *   decodeModel(json).pipe(Effect.map((model: Resources.Model) => model.context_tokens))
 * ```
 * @since 1.0.0
 */
import { Option, Schema } from "effect"
import {
  CalendarDateFromString,
  DecimalInteger,
  OpenLiteral,
  OpenObject,
  Price,
  Timestamp
} from "./Primitives.js"
import { mcpStatuses } from "../../../rules/src/contract/KnownValues.js"

const NullableString = Schema.NullOr(Schema.String)
const NullableTimestamp = Schema.NullOr(Timestamp)
const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

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
 * @since 1.0.0
 */
export const SourceType = OpenLiteral(["github", "well-known"])

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
 * @since 1.0.0
 */
export const OrganizationKind = Schema.Literals([
  "company",
  "university",
  "classroom",
  "nonprofit",
  "government",
  "community"
])

/**
 * A model of the catalog.
 *
 * @example
 * ```ts
 * import { Effect, Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const contextTokens = (json: unknown) =>
 *   Schema.decodeUnknownEffect(Resources.Model)(json).pipe(Effect.map((model) => model.context_tokens)) // bigint | null
 * ```
 * @category schemas
 * @since 1.0.0
 */
export class Model extends Schema.Opaque<Model>()(
  Schema.Struct({
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
  }).annotate({ identifier: "Model" })
) {}

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
 * @since 1.0.0
 */
export class Pricing extends Schema.Opaque<Pricing>()(
  Schema.Struct({
    input: Schema.optional(Schema.NullOr(Price)),
    output: Schema.optional(Schema.NullOr(Price)),
    cache_read: Schema.optional(Schema.NullOr(Price)),
    cache_write: Schema.optional(Schema.NullOr(Price)),
    request: Schema.optional(Schema.NullOr(Price)),
    image: Schema.optional(Schema.NullOr(Price))
  }).annotate({ identifier: "Pricing" })
) {}

/**
 * A provider's offer of a model.
 *
 * @example
 * ```ts
 * import { Effect, Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const inputPrice = (json: unknown) =>
 *   Schema.decodeUnknownEffect(Resources.Offer)(json).pipe(Effect.map((offer) => offer.pricing.input ?? null))
 * ```
 * @category schemas
 * @since 1.0.0
 */
export class Offer extends Schema.Opaque<Offer>()(
  Schema.Struct({
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
  }).annotate({ identifier: "Offer" })
) {}

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
 * @since 1.0.0
 */
export class Family extends Schema.Opaque<Family>()(
  Schema.Struct({
    id: Schema.String,
    name: Schema.String,
    model_count: Count,
    updated_at: NullableTimestamp
  }).annotate({ identifier: "Family" })
) {}

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
 * @since 1.0.0
 */
export class Provider extends Schema.Opaque<Provider>()(
  Schema.Struct({
    id: Schema.String,
    name: Schema.String,
    api_url: NullableString,
    documentation_url: NullableString,
    model_count: Count
  }).annotate({ identifier: "Provider" })
) {}

/**
 * An organization; `about` is present in the detail response only.
 *
 * @example
 * ```ts
 * import { Effect, Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const about = (json: unknown) =>
 *   Schema.decodeUnknownEffect(Resources.Organization)(json).pipe(
 *     Effect.map((organization) => organization.about ?? organization.summary) // `about` only in a detail
 *   )
 * ```
 * @category schemas
 * @since 1.0.0
 */
export class Organization extends Schema.Opaque<Organization>()(
  Schema.Struct({
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
  }).annotate({ identifier: "Organization" })
) {}

/**
 * A Skill.
 *
 * @example
 * ```ts
 * import { Effect, Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const installs = (json: unknown) =>
 *   Schema.decodeUnknownEffect(Resources.Skill)(json).pipe(Effect.map((skill) => skill.installs)) // a bigint
 * ```
 * @category schemas
 * @since 1.0.0
 */
export class Skill extends Schema.Opaque<Skill>()(
  Schema.Struct({
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
  }).annotate({ identifier: "Skill" })
) {}

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
 * @since 1.0.0
 */
export class Publisher extends Schema.Opaque<Publisher>()(
  Schema.Struct({
    id: Schema.String,
    source_type: SourceType,
    skill_count: Count
  }).annotate({ identifier: "Publisher" })
) {}

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
 * @since 1.0.0
 */
export const McpStatus = OpenLiteral(mcpStatuses)

/**
 * An MCP server.
 *
 * @example
 * ```ts
 * import { Effect, Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const transports = (json: unknown) =>
 *   Schema.decodeUnknownEffect(Resources.Mcp)(json).pipe(Effect.map((mcp) => mcp.remote_transport_types))
 * ```
 * @category schemas
 * @since 1.0.0
 */
export class Mcp extends Schema.Opaque<Mcp>()(
  Schema.Struct({
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
  }).annotate({ identifier: "Mcp" })
) {}

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
 * @since 1.0.0
 */
export const ResourceKind = OpenLiteral(["Collection", "Stack"])

/**
 * A public Collection or Stack of an organization.
 *
 * @example
 * ```ts
 * import { Effect, Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const itemCount = (json: unknown) =>
 *   Schema.decodeUnknownEffect(Resources.Resource)(json).pipe(Effect.map((resource) => resource.items.length))
 * ```
 * @category schemas
 * @since 1.0.0
 */
export class Resource extends Schema.Opaque<Resource>()(
  Schema.Struct({
    id: Schema.String,
    organization_id: Schema.String,
    kind: ResourceKind,
    title: Schema.String,
    description: Schema.String,
    updated_at: NullableTimestamp,
    items: Schema.Array(OpenObject),
    items_truncated: Schema.Boolean
  }).annotate({ identifier: "Resource" })
) {}

/**
 * A benchmark or application observation of a model.
 *
 * @example
 * ```ts
 * import { Effect, Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const datasets = (json: unknown) =>
 *   Schema.decodeUnknownEffect(Schema.Array(Resources.Observation))(json).pipe(
 *     Effect.map((observations) => observations.map((observation) => observation.dataset))
 *   )
 * ```
 * @category schemas
 * @since 1.0.0
 */
export class Observation extends Schema.Opaque<Observation>()(
  Schema.Struct({
    id: Schema.String,
    dataset: Schema.String,
    model_id: Schema.String,
    route_id: NullableString,
    observed_at: NullableTimestamp,
    observation: OpenObject
  }).annotate({ identifier: "Observation" })
) {}

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
 * @since 1.0.0
 */
export class Activity extends Schema.Opaque<Activity>()(
  Schema.Struct({
    id: Schema.String,
    day: CalendarDateFromString,
    tokens: DecimalInteger,
    routes: Count,
    observed_at: NullableTimestamp
  }).annotate({ identifier: "Activity" })
) {}

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
 * @since 1.0.0
 */
export class Topic extends Schema.Opaque<Topic>()(
  Schema.Struct({
    id: Schema.String,
    name: Schema.String,
    description: Schema.String,
    url: Schema.String
  }).annotate({ identifier: "Topic" })
) {}

/**
 * Editorial metadata of an article.
 *
 * @example
 * ```ts
 * import { Effect, Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const title = (json: unknown) =>
 *   Schema.decodeUnknownEffect(Resources.Article)(json).pipe(Effect.map((article) => article.title))
 * ```
 * @category schemas
 * @since 1.0.0
 */
export class Article extends Schema.Opaque<Article>()(
  Schema.Struct({
    id: Schema.String,
    slug: Schema.String,
    title: Schema.String,
    url: Schema.String,
    excerpt: Schema.String,
    published_at: NullableTimestamp,
    updated_at: NullableTimestamp
  }).annotate({ identifier: "Article" })
) {}

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
 * @since 1.0.0
 */
export class Audits extends Schema.Opaque<Audits>()(
  Schema.Struct({
    id: Schema.String,
    audits: Schema.Array(OpenObject),
    notice: Schema.String
  }).annotate({ identifier: "Audits" })
) {}

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
 * @since 1.0.0
 */
export const DocumentFormat = OpenLiteral(["markdown"])

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
 * @since 1.0.0
 */
export class Document extends Schema.Opaque<Document>()(
  Schema.Struct({
    id: Schema.String,
    format: DocumentFormat,
    content: Schema.String,
    license: NullableString
  }).annotate({ identifier: "Document" })
) {}

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
 * @since 1.0.0
 */
export class Connection extends Schema.Opaque<Connection>()(
  Schema.Struct({
    id: Schema.String,
    connection: OpenObject
  }).annotate({ identifier: "Connection" })
) {}

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
 * @since 1.0.0
 */
export class Stats extends Schema.Opaque<Stats>()(
  Schema.Struct({
    id: Schema.Literal("catalog"),
    models: Count,
    skills: Count,
    mcps: Count,
    organizations: Count,
    providers: Count,
    families: Count
  }).annotate({ identifier: "Stats" })
) {}

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
 * @since 1.0.0
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
 * import { Effect, Schema } from "effect"
 * import { Resources } from "effect-catalog"
 *
 * const unitsLeftToday = (json: unknown) =>
 *   Schema.decodeUnknownEffect(Resources.Usage)(json).pipe(Effect.map((usage) => usage.daily_limit - usage.daily_units))
 * ```
 * @category schemas
 * @since 1.0.0
 */
export class Usage extends Schema.Opaque<Usage>()(
  Schema.Struct({
    daily_limit: Count,
    monthly_limit: Count,
    daily_units: Count,
    monthly_units: Count,
    daily_bytes: Count,
    daily_byte_limit: Count,
    minute_limit: Count,
    daily_reset_at: NullableTimestamp,
    monthly_reset_at: NullableTimestamp
  }).annotate({ identifier: "Usage" })
) {}

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
 * @since 1.0.0
 */
export class Problem extends Schema.Opaque<Problem>()(
  Schema.Struct({
    type: Schema.String,
    title: Schema.String,
    status: Schema.Int,
    code: Schema.String,
    detail: Schema.String,
    request_id: Schema.String
  }).annotate({ identifier: "Problem" })
) {}
