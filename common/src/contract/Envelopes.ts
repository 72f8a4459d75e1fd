/**
 * The response envelopes of the contract: a page of items for list
 * operations, a single resource for detail operations.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Envelopes, Resources } from "effect-catalog"
 *
 * const page = Schema.decodeUnknownSync(Envelopes.ListEnvelope(Resources.Family))({
 *   data: [{ id: "f0000-kestrel", name: "Kestrel 0", model_count: 3, updated_at: null }],
 *   pagination: { limit: 25, has_more: false, next_cursor: null },
 *   links: { next: null },
 *   meta: { observed_at: null, stale: null }
 * })
 * page.data[0]?.model_count // 3
 * ```
 *
 * @since 0.1.0 (1.x: 1.0.0)
 */
import { type AnySchema, identified, Schema } from "#edition/internal/Edition.js"
import { Timestamp } from "#edition/contract/Primitives.js"

/**
 * The `pagination` member of a list response.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Envelopes } from "effect-catalog"
 *
 * const decode = Schema.decodeUnknownSync(Envelopes.Pagination)
 * decode({ limit: 25, has_more: true, next_cursor: "c2" }).next_cursor // "c2"
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const Pagination = Schema.Struct({
  limit: Schema.Int,
  has_more: Schema.Boolean,
  next_cursor: Schema.NullOr(Schema.String)
}).pipe(identified("Pagination"))

/**
 * The `links` member of a list response: `next` is the URL of the next page.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Envelopes } from "effect-catalog"
 *
 * Schema.decodeUnknownSync(Envelopes.Links)({ next: null }).next // null: the last page
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const Links = Schema.Struct({
  next: Schema.NullOr(Schema.String)
}).pipe(identified("Links"))

/**
 * The `meta` member of a list response; `stale` is null when freshness
 * cannot be established.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Envelopes } from "effect-catalog"
 *
 * const meta = Schema.decodeUnknownSync(Envelopes.Meta)({ observed_at: "2026-11-21T09:30:00Z", stale: null })
 * meta.stale // null: freshness unknown
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const Meta = Schema.Struct({
  observed_at: Schema.NullOr(Timestamp),
  stale: Schema.NullOr(Schema.Boolean)
}).pipe(identified("Meta"))

/**
 * The envelope of a list operation around items of `item`.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Envelopes, Resources } from "effect-catalog"
 *
 * const ModelPage = Envelopes.ListEnvelope(Resources.Model)
 * const decodePage = Schema.decodeUnknownSync(ModelPage)
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const ListEnvelope = <Item extends AnySchema>(item: Item) =>
  Schema.Struct({
    data: Schema.Array(item),
    pagination: Pagination,
    links: Links,
    meta: Meta
  })

/**
 * The envelope of a detail operation: `data` holds one resource.
 *
 * @example
 * ```ts
 * import { Envelopes, Resources } from "effect-catalog"
 *
 * const ModelDetail = Envelopes.DetailEnvelope(Resources.Model)
 * ```
 * @category schemas
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const DetailEnvelope = <Item extends AnySchema>(item: Item) =>
  Schema.Struct({ data: item })
