/**
 * What a sync found changed in a collection, item by item: the change feed.
 * An item is `Inserted` when the mirror did not list it, `Updated` when its
 * wire JSON changed (with the JSON before and after), `Deleted` when a
 * complete scan no longer listed it. Each is emitted once its page is
 * committed. As JSON (`JSON.stringify`), one change is one line of
 * `catalog mirror --changes`.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import { Change, Mirror } from "effect-catalog/mirror"
 *
 * const describe = Change.$match({
 *   Inserted: ({ collection, id }) => `+ ${collection} ${id}`,
 *   Updated: ({ collection, id }) => `~ ${collection} ${id}`,
 *   Deleted: ({ collection, id }) => `- ${collection} ${id}`
 * })
 *
 * const lines = Mirror.sync("models").pipe(Stream.map(describe))
 * ```
 * @since 0.3.0
 */
import { Data } from "effect"
import type { WireItem } from "../client/CatalogClient.js"
import type { CollectionId } from "../contract/Operations.js"

/**
 * A change of one item.
 *
 * @since 0.3.0
 */
export type Change = Data.TaggedEnum<{
  Inserted: { readonly collection: CollectionId; readonly id: string; readonly after: WireItem }
  Updated: { readonly collection: CollectionId; readonly id: string; readonly before: WireItem; readonly after: WireItem }
  Deleted: { readonly collection: CollectionId; readonly id: string; readonly before: WireItem }
}>

const constructors = Data.taggedEnum<Change>()

/** @since 0.3.0 */
export type Inserted = Data.TaggedEnum.Value<Change, "Inserted">
/** @since 0.3.0 */
export type Updated = Data.TaggedEnum.Value<Change, "Updated">
/** @since 0.3.0 */
export type Deleted = Data.TaggedEnum.Value<Change, "Deleted">

/** @since 0.3.0 */
export const Inserted = constructors.Inserted
/** @since 0.3.0 */
export const Updated = constructors.Updated
/** @since 0.3.0 */
export const Deleted = constructors.Deleted

/**
 * Whether a change is of one kind: `changes.filter(Change.$is("Deleted"))`.
 *
 * @since 0.3.0
 */
export const $is = constructors.$is

/**
 * Matches a change by kind, every kind handled.
 *
 * @since 0.3.0
 */
export const $match = constructors.$match
