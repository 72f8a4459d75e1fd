/**
 * What a sync found changed in a collection, item by item: the change feed.
 * An item is `Inserted` when the mirror did not list it, `Updated` when its
 * wire JSON changed (with the item before and after), `Deleted` when a
 * complete scan no longer listed it (with the item as the mirror last held
 * it). Each is emitted once its page is committed. A change holds items in
 * their wire form (`Change<WireItem>`, from `Mirror.sync`; as JSON, one
 * change is one line of `catalog mirror --changes`) or decoded with their
 * collection's schema (`Change<Resources.Model>` from
 * `Mirror.syncDecoded("models")`).
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
 * const contextChanges = Mirror.syncDecoded("models").pipe(
 *   Stream.filter(Change.$is("Updated")),
 *   Stream.filter(({ after, before }) => after.context_tokens !== before.context_tokens)
 * )
 * ```
 * @since 0.3.0 (1.x: 1.1.0)
 */
import { Data } from "#edition/internal/Edition.js"
import type { WireItem } from "../client/CatalogClient.js"
import type { CollectionId } from "../contract/Operations.js"

/**
 * What the mirror keeps, and a change is of: the catalog's collections, and
 * every model's offers (`modelOffers`, which the keeper keeps, a model's
 * offers listed at a time; an offer's id is its own).
 *
 * @example
 * ```ts
 * import type { Change } from "effect-catalog/mirror"
 *
 * const offers: Change.Kept = "modelOffers"
 * ```
 * @category models
 * @since 0.8.0 (1.x: 1.2.0)
 */
export type Kept = CollectionId | "modelOffers"

/**
 * A change of one item, its items of type `A`: their wire form by default,
 * or a collection's decoded resource (`Change<Resources.Model>`).
 *
 * @category models
 * @since 0.3.0 (1.x: 1.1.0)
 */
export type Change<A = WireItem> = Data.TaggedEnum<{
  Inserted: { readonly collection: Kept; readonly id: string; readonly after: A }
  Updated: { readonly collection: Kept; readonly id: string; readonly before: A; readonly after: A }
  Deleted: { readonly collection: Kept; readonly id: string; readonly before: A }
}>

/** `Change` as a tagged enum of one type parameter, for its constructors and matchers. */
interface ChangeOf extends Data.TaggedEnum.WithGenerics<1> {
  readonly taggedEnum: Change<this["A"]>
}

const constructors = Data.taggedEnum<ChangeOf>()

/**
 * @category models
 * @since 0.3.0 (1.x: 1.1.0)
 */
export type Inserted<A = WireItem> = Data.TaggedEnum.Value<Change<A>, "Inserted">
/**
 * @category models
 * @since 0.3.0 (1.x: 1.1.0)
 */
export type Updated<A = WireItem> = Data.TaggedEnum.Value<Change<A>, "Updated">
/**
 * @category models
 * @since 0.3.0 (1.x: 1.1.0)
 */
export type Deleted<A = WireItem> = Data.TaggedEnum.Value<Change<A>, "Deleted">

/**
 * @category constructors
 * @since 0.3.0 (1.x: 1.1.0)
 */
export const Inserted = constructors.Inserted
/**
 * @category constructors
 * @since 0.3.0 (1.x: 1.1.0)
 */
export const Updated = constructors.Updated
/**
 * @category constructors
 * @since 0.3.0 (1.x: 1.1.0)
 */
export const Deleted = constructors.Deleted

/**
 * Whether a change is of one kind, narrowing it with its items' type:
 * `changes.filter(Change.$is("Deleted"))`.
 *
 * @category guards
 * @since 0.3.0 (1.x: 1.1.0)
 */
export const $is = <Tag extends Change["_tag"]>(tag: Tag) => <A>(change: Change<A>): change is Extract<Change<A>, { readonly _tag: Tag }> =>
  change._tag === tag

/**
 * Matches a change by kind, every kind handled.
 *
 * @category utils
 * @since 0.3.0 (1.x: 1.1.0)
 */
export const $match = constructors.$match
