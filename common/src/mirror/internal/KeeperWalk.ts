/**
 * The keeper's walk of a collection's list: page by page on the answers it
 * keeps in `keeper_pages`, each committed as a sync commits it, the page
 * size fitted after a page too large, an expired cursor restarting it.
 */
import { Clock, Effect, Exit, firstFailure, Option, Ref } from "#edition/internal/Edition.js"
import * as Items from "#edition/mirror/internal/Items.js"
import type { Tracked } from "../../../../rules/src/mirror/Keeping.js"
import { pageSizeOf } from "../../../../rules/src/client/ScanSteps.js"
import { WalkPages } from "../../../../rules/src/mirror/Walk.js"
import type * as Errors from "../../client/Errors.js"
import * as Operations from "../../contract/Operations.js"
import * as KeeperMetrics from "./KeeperMetrics.js"
import * as KeeperState from "./KeeperState.js"
import * as Sync from "./Sync.js"
import { cursorSeconds, dbOf, type Keeper, iso, nowOf, publish, save, take, type WalkState } from "./KeeperContext.js"
import { trackOffers } from "./KeeperOffers.js"

/** A collection's walk pages as the database holds them, at the page size that fitted. */
export const readPages = (keeper: Keeper, collection: Operations.CollectionId) =>
  Effect.gen(function*() {
    const pages = new WalkPages(cursorSeconds)
    const stored = [...yield* dbOf(keeper)(KeeperState.pages(keeper.database, collection))]
    for (const page of stored) pages.answered(page.page, page.issuedAt, { status: 200, etag: page.etag, next: page.nextCursor, items: [] })
    const fitted = Option.isSome(keeper.pageSizes) ? yield* keeper.pageSizes.value.get(collection) : Option.none<number>()
    keeper.walks.set(collection, { pages, stored, limit: Option.getOrElse(fitted, () => pageSizeOf(Operations[collection])) })
  })

/** Where a walk stands: the page it asks next, at which cursor, in which scan, and what it has found. */
export interface Position {
  cursor: string | null
  index: number
  scan: number
  readonly totals: { pages: number; unchanged: number; items: number; changes: number }
}

/**
 * Asks for the walk's page at `position`, on its kept answer when that one
 * was read at the same cursor and its link lives, and commits it; gives
 * whether the walk goes on (`false` after the last page). An expired
 * cursor starts the walk again, a new scan.
 */
export const walkPage = (keeper: Keeper, walk: Tracked<string>, collection: Operations.CollectionId, state: WalkState, position: Position, runId: number, sinceLast: number) =>
  Effect.gen(function*() {
    const db = dbOf(keeper)
    const stored = state.stored[position.index]
    const usable = stored !== undefined && stored.cursor === position.cursor && state.pages.ask(position.index, yield* nowOf(keeper)).etag !== undefined
    let fresh: { readonly etag: string; readonly body: string } | undefined
    const read = yield* keeper.catalog.keptPage(collection, { limit: state.limit }, position.cursor, {
      entry: usable ? { etag: stored.etag, body: stored.body } : undefined,
      keep: (entry) => {
        fresh = entry
      }
    }).pipe(
      Effect.map(Option.some),
      Effect.catchIf((error): error is Errors.CursorExpired => error._tag === "CursorExpired", () => Effect.succeedNone),
      Effect.catchIf(
        (error): error is Errors.ResponseTooLarge => error._tag === "ResponseTooLarge" && state.limit > 1,
        () => smaller(keeper, collection, state)
      )
    )
    if (Option.isNone(read)) {
      // The cursor died before its hour, or the pages grow smaller: the walk starts again, a new scan, its first page asked whole.
      state.pages.linkDied(Math.max(0, position.index - 1))
      Object.assign(position, { cursor: null, index: 0, scan: yield* db(Sync.nextScan(keeper.database, collection)) })
      return true
    }
    const page = read.value
    if (fresh !== undefined) {
      const kept: KeeperState.StoredPage = { page: position.index, cursor: position.cursor, ...fresh, nextCursor: page.nextCursor, issuedAt: yield* nowOf(keeper) }
      state.stored[position.index] = kept
      state.pages.answered(position.index, kept.issuedAt, { status: 200, etag: kept.etag, next: page.nextCursor, items: [] })
      yield* db(KeeperState.savePage(keeper.database, collection, kept))
    }
    const spent = yield* Effect.map(keeper.budget.spent, (spending) => spending.byOperation.get(collection) ?? { units: 0, bytes: 0 })
    const { changes } = yield* db(Sync.writePage(keeper.database, {
      collection,
      runId,
      scan: position.scan,
      items: page.items,
      checkpoint: page.nextCursor,
      spent: { units: spent.units, bytes: spent.bytes },
      now: iso(yield* Clock.currentTimeMillis)
    }, Items.wire))
    const changedIds = new Set(changes.map((change) => change.id))
    keeper.keeping.itemsSeen(walk, page.items.map((item) => [item.id, changedIds.has(item.id)] as const), sinceLast)
    for (const change of changes) if (change._tag === "Deleted") keeper.keeping.itemGone(walk, change.id)
    const { totals } = position
    totals.pages++
    totals.unchanged += page.unchanged ? 1 : 0
    totals.items += page.items.length
    totals.changes += changes.length
    if (page.nextCursor === null) return false
    position.cursor = page.nextCursor
    position.index++
    return true
  })

/** After a page too large: half the page size from now on, kept as the size that fits, and none of the pages kept at the old one. */
export const smaller = (keeper: Keeper, collection: Operations.CollectionId, state: WalkState) =>
  Effect.gen(function*() {
    state.limit = Math.floor(state.limit / 2)
    state.stored.length = 0
    state.pages.ended(-1)
    yield* Effect.logInfo(`keeper: ${collection}: the page was too large; asking for pages of ${state.limit}`)
    if (Option.isSome(keeper.pageSizes)) yield* keeper.pageSizes.value.set(collection, state.limit)
    yield* dbOf(keeper)(KeeperState.dropPagesAfter(keeper.database, collection, -1))
    return Option.none()
  })

/** How a walk that stopped before its last page is recorded: interrupted, or failed. */
export const endUnfinished = (keeper: Keeper, runId: number) => (exit: Exit.Exit<unknown, unknown>) =>
  Effect.flatMap(Clock.currentTimeMillis, (at) =>
    Sync.end(
      keeper.database,
      runId,
      Exit.isSuccess(exit) ? "interrupted" : Option.match(firstFailure(exit.cause), { onNone: () => "interrupted", onSome: () => "failed" }),
      "the keeper's walk stopped before the last page",
      iso(at)
    )).pipe(Effect.ignore)

/**
 * Walks a collection's list once, page after page, as a sync run holding
 * the collection's lock: it goes on at the page after a checkpoint a page
 * of the last walk led to, else from the first page.
 */
export const walkOnce = (keeper: Keeper, walk: Tracked<string>, collection: Operations.CollectionId) =>
  Effect.scoped(Effect.gen(function*() {
    const db = dbOf(keeper)
    if (!(yield* take(keeper, walk, collection, readPages(keeper, collection)))) return
    const state = keeper.walks.get(collection) ?? { pages: new WalkPages(cursorSeconds), stored: [], limit: pageSizeOf(Operations[collection]) }
    const began = yield* Clock.currentTimeMillis
    const beganAt = began / 1000 / keeper.scale
    const start = yield* db(Sync.start(keeper.database, collection, iso(began)))
    const done = yield* Ref.make(false)
    yield* Effect.addFinalizer((exit) => Effect.flatMap(Ref.get(done), (complete) => complete ? Effect.void : endUnfinished(keeper, start.runId)(exit)))
    const resumedAt = start.from === null ? undefined : state.stored.find((page) => page.nextCursor === start.from)
    const position: Position = {
      cursor: resumedAt === undefined ? null : start.from,
      index: resumedAt === undefined ? 0 : resumedAt.page + 1,
      scan: resumedAt === undefined && start.from !== null ? yield* db(Sync.nextScan(keeper.database, collection)) : start.scan,
      totals: { pages: 0, unchanged: 0, items: 0, changes: 0 }
    }
    const sinceLast = beganAt - walk.verifiedAt
    let more = true
    while (more) more = yield* walkPage(keeper, walk, collection, state, position, start.runId, sinceLast)
    yield* Ref.set(done, true)
    state.pages.ended(position.index)
    state.stored.length = Math.min(state.stored.length, position.index + 1)
    yield* db(KeeperState.dropPagesAfter(keeper.database, collection, position.index))
    const { totals } = position
    keeper.keeping.track(collection, collection, { pages: totals.pages, items: totals.items }, walk.verifiedAt)
    keeper.keeping.visited(walk, beganAt, totals.changes > 0)
    yield* save(keeper, walk)
    const ended = yield* Clock.currentTimeMillis
    yield* KeeperMetrics.walked(collection, ended - began, totals.pages - totals.unchanged, totals.unchanged)
    if (collection === "models") yield* trackOffers(keeper)
    yield* publish(keeper)
    if (keeper.options.onVisit !== undefined) yield* keeper.options.onVisit({ collection, ...totals, began: new Date(began), ended: new Date(ended) })
  })).pipe(Effect.withSpan("catalog.keeper.walk", { kind: "internal", attributes: { "catalog.collection": collection } }))
