/**
 * The mirror's change feed, read from its database: every change a sync
 * commits is logged in the transaction that commits it (`mirror_changes`),
 * numbered in commit order, so any number of readers, in this process or
 * another, take each change once, in order, from any position on. A reader
 * that follows the log waits for what is committed next; a named
 * subscriber records how far it has handled (`record`) and goes on from
 * there when it starts again (`recorded`, or `subscriber` in the options).
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { ChangeFeed, MirrorDatabase } from "effect-catalog/mirror"
 *
 * // Index every model change once, across restarts: handle it, then record its position.
 * const indexer = ChangeFeed.streamDecoded("models", { subscriber: "search-index", follow: "5 seconds" }).pipe(
 *   Stream.runForEach(({ change, position }) =>
 *     Effect.log(change._tag, change.id).pipe(Effect.andThen(ChangeFeed.record("search-index", position)))
 *   ),
 *   Effect.provide(MirrorDatabase.layerSqlite("catalog.sqlite"))
 * )
 * ```
 * @since 0.8.0 (1.x: 1.2.0)
 */
import { Clock, decodeDuration, type DurationInput, Effect, fromNullable, Option, paginateEffect, Stream, unwrapScoped } from "#edition/internal/Edition.js"
import type { WireItem } from "../client/CatalogClient.js"
import * as Change from "./Change.js"
import { failed } from "#edition/mirror/internal/Failure.js"
import * as Items from "#edition/mirror/internal/Items.js"
import * as ChangeLog from "./internal/ChangeLog.js"
import * as MirrorDatabase from "#edition/mirror/MirrorDatabase.js"
import type { DatabaseFailed, ItemMalformed } from "./MirrorError.js"

/**
 * A change as the log gives it: its position (increasing in commit order,
 * the one to record and resume after) and when it was committed.
 *
 * @example
 * ```ts
 * import type { ChangeFeed } from "effect-catalog/mirror"
 *
 * const line = ({ change, committedAt, position }: ChangeFeed.Logged) =>
 *   `${position} ${committedAt.toISOString()} ${change._tag} ${change.collection} ${change.id}`
 * ```
 * @category models
 * @since 0.8.0 (1.x: 1.2.0)
 */
export interface Logged<A = WireItem> {
  readonly position: number
  readonly committedAt: Date
  readonly change: Change.Change<A>
}

/**
 * Where a read of the feed starts, and whether it follows.
 *
 * @example
 * ```ts
 * import type { ChangeFeed } from "effect-catalog/mirror"
 *
 * const fromTheStart: ChangeFeed.Options = { after: 0 }
 * const live: ChangeFeed.Options = { subscriber: "search-index", follow: "2 seconds" }
 * ```
 * @category models
 * @since 0.8.0 (1.x: 1.2.0)
 */
export interface Options {
  /** The changes after this position (default: after the subscriber's recorded position, else from the log's start). */
  readonly after?: number
  /** The subscriber whose recorded position the read starts after. */
  readonly subscriber?: string
  /** Follow the log: once it is read to its end, look for new changes this often (default: end at the log's end). */
  readonly follow?: DurationInput
}

/** Changes read from the database at a time. */
const batch = 500

const loggedOf = <A, E>(row: ChangeLog.Row, items: Items.Items<A, E>): Effect.Effect<Logged<A>, E> => {
  const { collection, id } = row
  const stored = (data: string | null) => items.stored(id, data)
  const change: Effect.Effect<Change.Change<A>, E> = row.kind === "Inserted"
    ? Effect.map(stored(row.after), (after) => Change.Inserted({ collection, id, after }))
    : row.kind === "Updated"
    ? Effect.zipWith(stored(row.before), stored(row.after), (before, after) => Change.Updated({ collection, id, before, after }))
    : Effect.map(stored(row.before), (before) => Change.Deleted({ collection, id, before }))
  return Effect.map(change, (change) => ({ position: Number(row.position), committedAt: new Date(row.committed_at), change }))
}

const streamWith = <A, E>(
  collections: ReadonlyArray<Change.Kept> | undefined,
  options: Options,
  itemsOf: (collection: Change.Kept) => Items.Items<A, E>
): Stream.Stream<Logged<A>, DatabaseFailed | E, MirrorDatabase.MirrorDatabase> =>
  unwrapScoped(Effect.gen(function*() {
    const database = yield* MirrorDatabase.MirrorDatabase
    const dbFailed = failed(database.name)
    const recorded = options.subscriber === undefined
      ? undefined
      : yield* Effect.mapError(ChangeLog.positionOf(database, options.subscriber), dbFailed)
    const follow = options.follow === undefined ? undefined : decodeDuration(options.follow)
    return paginateEffect(options.after ?? recorded ?? 0, (after: number) =>
      Effect.gen(function*() {
        const rows = yield* Effect.mapError(ChangeLog.read(database, after, batch, collections), dbFailed)
        const logged = yield* Effect.forEach(rows, (row) => loggedOf(row, itemsOf(row.collection)))
        const next = Number(rows.at(-1)?.position ?? after)
        if (rows.length === batch) return [logged, Option.some(next)] as const
        if (follow === undefined) return [logged, Option.none<number>()] as const
        if (rows.length === 0) yield* Effect.sleep(follow)
        return [logged, Option.some(next)] as const
      }))
  }))

/**
 * The changes the mirror has committed, in commit order, their items in
 * their wire form; of some collections only, when given.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import { ChangeFeed } from "effect-catalog/mirror"
 *
 * const everything = ChangeFeed.stream()
 * const skillsFromNowOn = ChangeFeed.stream({ collections: ["skills"], after: 1200, follow: "1 second" }).pipe(
 *   Stream.map(({ change }) => change.id)
 * )
 * ```
 * @category accessors
 * @since 0.8.0 (1.x: 1.2.0)
 */
export const stream = (
  options: Options & { readonly collections?: ReadonlyArray<Change.Kept> } = {}
): Stream.Stream<Logged, DatabaseFailed, MirrorDatabase.MirrorDatabase> => streamWith(options.collections, options, () => Items.wire)

/**
 * The changes of one collection, their items decoded with its schema:
 * `streamDecoded("models")` gives `Logged<Resources.Model>`. A logged item
 * that does not decode fails the read with `ItemMalformed`.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import { Change, ChangeFeed } from "effect-catalog/mirror"
 *
 * const newReasoningModels = ChangeFeed.streamDecoded("models").pipe(
 *   Stream.map(({ change }) => change),
 *   Stream.filter(Change.$is("Inserted")),
 *   Stream.filter(({ after }) => after.reasoning === true)
 * )
 * ```
 * @category accessors
 * @since 0.8.0 (1.x: 1.2.0)
 */
export const streamDecoded = <C extends Change.Kept>(
  collection: C,
  options: Options = {}
): Stream.Stream<Logged<Items.Item<C>>, DatabaseFailed | ItemMalformed, MirrorDatabase.MirrorDatabase> =>
  streamWith([collection], options, () => Items.decoded(collection))

/**
 * Records how far a subscriber has handled the feed: a read with its name
 * starts after this position.
 *
 * @example
 * ```ts
 * import { ChangeFeed } from "effect-catalog/mirror"
 *
 * const handled = (position: number) => ChangeFeed.record("search-index", position)
 * ```
 * @category accessors
 * @since 0.8.0 (1.x: 1.2.0)
 */
export const record = (subscriber: string, position: number): Effect.Effect<void, DatabaseFailed, MirrorDatabase.MirrorDatabase> =>
  Effect.flatMap(MirrorDatabase.MirrorDatabase, (database) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => ChangeLog.record(database, subscriber, position, new Date(now).toISOString())).pipe(
      Effect.mapError(failed(database.name))
    ))

/**
 * The position a subscriber last recorded, if it has.
 *
 * @example
 * ```ts
 * import { Effect, Option } from "effect"
 * import { ChangeFeed } from "effect-catalog/mirror"
 *
 * const behind = Effect.map(ChangeFeed.recorded("search-index"), Option.getOrElse(() => 0))
 * ```
 * @category accessors
 * @since 0.8.0 (1.x: 1.2.0)
 */
export const recorded = (subscriber: string): Effect.Effect<Option.Option<number>, DatabaseFailed, MirrorDatabase.MirrorDatabase> =>
  Effect.flatMap(MirrorDatabase.MirrorDatabase, (database) =>
    ChangeLog.positionOf(database, subscriber).pipe(Effect.map(fromNullable), Effect.mapError(failed(database.name))))

/**
 * The position of the last change logged (0 when none): a read after it
 * takes only what is committed from now on.
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { ChangeFeed } from "effect-catalog/mirror"
 *
 * const fromNowOn = Stream.unwrap(Effect.map(ChangeFeed.end, (after) => ChangeFeed.stream({ after, follow: "1 second" })))
 * ```
 * @category accessors
 * @since 0.8.0 (1.x: 1.2.0)
 */
export const end: Effect.Effect<number, DatabaseFailed, MirrorDatabase.MirrorDatabase> = Effect.flatMap(MirrorDatabase.MirrorDatabase, (database) =>
  ChangeLog.last(database).pipe(Effect.mapError(failed(database.name))))
