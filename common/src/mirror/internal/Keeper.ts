/**
 * The keeper: `Keeping`'s schedule run against the service, each visit a
 * walk of a collection's list revalidated page by page on the ETags the
 * keeper keeps in the mirror's database (`KeeperState`), each page
 * committed as a sync commits it (`Sync.writePage`: the rows, the change
 * log and the run's checkpoint in one transaction). What is due is visited
 * nearest deadline first; between visits it sleeps until the next is due.
 * Every 15 minutes of the service's clock it reads `/usage/` (no unit) and
 * plans again within what is left of its share.
 *
 * Errors that pass are waited out: the day's units spent (until the
 * allowance resets, said in the log), a service or database that does not
 * answer, another sync of the collection; an expired cursor starts the walk
 * again from its first page. What cannot pass (a key refused, a scope
 * missing) fails the keeper.
 *
 * Times are seconds of the service's clock: the client's time scale
 * (`Admission.Limits.timeScale`) makes an hour of it 3.6 s at 0.001.
 */
import { Clock, decodeDuration, type DurationInput, Duration, Effect, Exit, firstFailure, Option, Ref } from "#edition/internal/Edition.js"
import { failed } from "#edition/mirror/internal/Failure.js"
import * as Items from "#edition/mirror/internal/Items.js"
import type { SqlError } from "#edition/mirror/internal/Sql.js"
import * as MirrorDatabase from "#edition/mirror/MirrorDatabase.js"
import { type Allowance, budgetOf, type Feasibility, Keeping, requestsMargin, spareOf, type Tracked } from "../../../../rules/src/mirror/Keeping.js"
import { pageSizeOf } from "../../../../rules/src/client/ScanSteps.js"
import { WalkPages } from "../../../../rules/src/mirror/Walk.js"
import * as Admission from "../../client/Admission.js"
import * as Budget from "../../client/Budget.js"
import * as CatalogClient from "../../client/CatalogClient.js"
import type * as Errors from "../../client/Errors.js"
import type * as OperationErrors from "../../client/OperationErrors.js"
import * as PageSizes from "../../client/PageSizes.js"
import * as Operations from "../../contract/Operations.js"
import type { Kept } from "../Change.js"
import { DatabaseFailed, type SyncLocked, TargetsInfeasible } from "../MirrorError.js"
import * as KeeperMetrics from "./KeeperMetrics.js"
import * as KeeperState from "./KeeperState.js"
import * as Lock from "./Lock.js"
import * as Sync from "./Sync.js"

/** What the keeper keeps, and how much of the account it may spend. */
export interface KeepOptions {
  /**
   * The longest each collection may go unverified: `{ models: "1 hour",
   * skills: "6 hours" }`; `modelOffers` is each model's offers, listed
   * model by model (`{ modelOffers: "1 day" }`).
   */
  readonly targets: Partial<Readonly<Record<Kept, DurationInput>>>
  /** The share of the account's day and windows the keeper may spend (default 0.9: a tenth is left to its other users). */
  readonly share?: number
  /** When the targets do not fit: fail with `TargetsInfeasible` (the default), or keep at the ages it promises. */
  readonly whenInfeasible?: "fail" | "promise"
  /** Runs after each visit. */
  readonly onVisit?: (visit: Visit) => Effect.Effect<void>
  /** Runs after each plan: at the start, and every 15 minutes of the service's clock. */
  readonly onPlan?: (plan: KeepPlan) => Effect.Effect<void>
}

/** One visit of the keeper: a walk of a collection's list. */
export interface Visit {
  /** The collection walked, or `modelOffers` for a model's offers. */
  readonly collection: Kept
  readonly pages: number
  /** Pages the service answered 304: no unit. */
  readonly unchanged: number
  readonly items: number
  /** Changes committed (each in the change log). */
  readonly changes: number
  /** When the walk began and ended. */
  readonly began: Date
  readonly ended: Date
}

/** What a plan says: whether the targets fit, and the ages promised (seconds), by collection. */
export interface KeepPlan {
  readonly feasible: boolean
  readonly stretch: number
  readonly promises: Readonly<Record<string, number>>
  /** What the plan spends a day, in units and requests, at the service's clock. */
  readonly unitsPerDay: number
  readonly requestsPerDay: number
  /** The mean freshness it expects. */
  readonly freshness: number
}

/** The errors the keeper waits out rather than fails with. */
type Passing =
  | Errors.RateLimited
  | Errors.ServiceUnavailable
  | Errors.TransportError
  | Errors.AdmissionUnavailable
  | Errors.QuotaExhausted
  | Errors.BudgetExceeded
  | Errors.CursorExpired
  | DatabaseFailed
  | SyncLocked

const passingTags: ReadonlySet<string> = new Set<Passing["_tag"]>([
  "RateLimited",
  "ServiceUnavailable",
  "TransportError",
  "AdmissionUnavailable",
  "QuotaExhausted",
  "BudgetExceeded",
  "CursorExpired",
  "DatabaseFailed",
  "SyncLocked"
])

/** Whatever a visit or a plan may fail with. */
type Failure = CatalogClient.WireError | OperationErrors.ErrorOf<"usage"> | DatabaseFailed | SyncLocked

const isPassing = <E extends { readonly _tag: string }>(error: E): error is Extract<E, Passing> => passingTags.has(error._tag)

/** What fails the keeper: targets that do not fit (unless it is told to run at its promises), and what no wait mends. */
export type KeepError = TargetsInfeasible | Exclude<Failure, Passing>

/** What the keeper needs. */
export type KeepServices = CatalogClient.CatalogClient | Budget.Budget | MirrorDatabase.MirrorDatabase

const replanEvery = 900
const day = 86_400
/** Waits after a passing error, doubling from the first to the last: real seconds, as a database or a network comes back in its own time. */
const firstWait = 0.5
const longestWait = 30

const collectionOf = (name: string): Operations.CollectionId | undefined =>
  Operations.collections.find((operation) => operation.id === name)?.id

const iso = (millis: number) => new Date(millis).toISOString()

/** The targets in seconds, by collection. */
/** The family of every model's offers: an element per model, keyed by the model's id. */
const offers = "modelOffers" satisfies Kept

/** What a keeper may keep. */
const keepable: ReadonlyArray<Kept> = [...Operations.collections.map((operation) => operation.id), offers]

const targetSeconds = (targets: KeepOptions["targets"]): Readonly<Record<string, number>> =>
  Object.fromEntries(keepable.flatMap((kept) => {
    const target = targets[kept]
    return target === undefined ? [] : [[kept, Duration.toSeconds(decodeDuration(target))]]
  }))

/** A walk's pages as last answered, in memory and as stored. */
interface WalkState {
  readonly pages: WalkPages
  readonly stored: Array<KeeperState.StoredPage>
  /** Its page size: the largest, or the one that fitted after a page was too large (`PageSizes`). */
  limit: number
}

/** What one keeper's parts share. */
interface Keeper {
  readonly options: KeepOptions
  readonly database: MirrorDatabase.Service
  readonly catalog: CatalogClient.Service
  readonly budget: Budget.Service
  readonly pageSizes: Option.Option<PageSizes.Service>
  readonly keeping: Keeping<string>
  readonly targets: Readonly<Record<string, number>>
  readonly collections: ReadonlyArray<Operations.CollectionId>
  /** Whether it keeps every model's offers. */
  readonly keepsOffers: boolean
  readonly walks: Map<Operations.CollectionId, WalkState>
  /** The client's time scale: a second of the service's clock is this many real seconds. */
  readonly scale: number
  readonly share: number
  readonly requestsPerSecond: number
  /** Failures in a row, for the wait after the next. */
  readonly failures: Ref.Ref<number>
}

const cursorSeconds = 3600

/** Now, in seconds of the service's clock. */
const nowOf = (keeper: Keeper) => Effect.map(Clock.currentTimeMillis, (millis) => millis / 1000 / keeper.scale)

const dbOf = (keeper: Keeper) => <A>(effect: Effect.Effect<A, SqlError>): Effect.Effect<A, DatabaseFailed> =>
  Effect.mapError(effect, failed(keeper.database.name))

/** The keeper over the services in context. */
const make = (options: KeepOptions) =>
  Effect.gen(function*() {
    const limits = Option.getOrUndefined(yield* Effect.serviceOption(Admission.Admission))?.limits ?? Admission.contractLimits
    const share = options.share ?? 0.9
    const requestsPerSecond = Math.min(limits.perTenSeconds / 10, limits.perMinute / 60)
    const targets = targetSeconds(options.targets)
    const keeper: Keeper = {
      options,
      database: yield* MirrorDatabase.MirrorDatabase,
      catalog: yield* CatalogClient.CatalogClient,
      budget: yield* Budget.Budget,
      pageSizes: yield* Effect.serviceOption(PageSizes.PageSizes),
      keeping: new Keeping<string>({ targets, secondsPerRequest: 1 / (requestsMargin * share * requestsPerSecond), cursorSeconds }),
      targets,
      collections: Object.keys(targets).flatMap((name) => collectionOf(name) ?? []),
      keepsOffers: targets[offers] !== undefined,
      walks: new Map(),
      scale: limits.timeScale,
      share,
      requestsPerSecond,
      failures: yield* Ref.make(0)
    }
    return keeper
  })

/** Waits out an error that passes: until the allowance resets, or a while that doubles with each failure in a row. */
const waitOut = (keeper: Keeper, error: Passing) =>
  Effect.gen(function*() {
    if (error._tag === "QuotaExhausted" || error._tag === "BudgetExceeded") {
      const resetsAt = "resetsAt" in error ? error.resetsAt.getTime() : (yield* Clock.currentTimeMillis) + 3600_000 * keeper.scale
      yield* Effect.logWarning(`keeper: today's allowance is spent; waiting for its reset at ${iso(resetsAt)}`)
      const at = yield* Clock.currentTimeMillis
      return yield* Effect.sleep(Duration.millis(Math.max(0, resetsAt - at)))
    }
    const failures = yield* Ref.updateAndGet(keeper.failures, (n) => n + 1)
    const wait = Math.min(longestWait, firstWait * 2 ** (failures - 1))
    yield* Effect.logWarning(`keeper: ${error.message}; trying again in ${wait} s`)
    yield* Effect.sleep(Duration.seconds(wait))
  })

/** `effect`, again after each error that passes, once it has been waited out. */
const patiently = <A, R>(keeper: Keeper, effect: Effect.Effect<A, Failure, R>): Effect.Effect<A, Exclude<Failure, Passing>, R> =>
  Effect.catchIf(effect, isPassing, (error) => Effect.andThen(waitOut(keeper, error), Effect.suspend(() => patiently(keeper, effect))))

/** A collection's walk pages as the database holds them, at the page size that fitted. */
const readPages = (keeper: Keeper, collection: Operations.CollectionId) =>
  Effect.gen(function*() {
    const pages = new WalkPages(cursorSeconds)
    const stored = [...yield* dbOf(keeper)(KeeperState.pages(keeper.database, collection))]
    for (const page of stored) pages.answered(page.page, page.issuedAt, { status: 200, etag: page.etag, next: page.nextCursor, items: [] })
    const fitted = Option.isSome(keeper.pageSizes) ? yield* keeper.pageSizes.value.get(collection) : Option.none<number>()
    keeper.walks.set(collection, { pages, stored, limit: Option.getOrElse(fitted, () => pageSizeOf(Operations[collection])) })
  })

/**
 * Takes an element for a visit: holds its lock (`lock`: PostgreSQL's
 * advisory lock, or SQLite's lock row, as a sync does) and reads back what
 * another keeper of the same mirror left of it (its row, and what
 * `readBack` reads). Gives whether it is still due; when another holds
 * it, holds it back for about one visit and gives false.
 */
const take = (keeper: Keeper, walk: Tracked<string>, lock: string, readBack: Effect.Effect<void, DatabaseFailed>) =>
  Effect.gen(function*() {
    const now = yield* nowOf(keeper)
    const held = yield* Lock.hold(keeper.database, lock).pipe(
      Effect.as(false),
      Effect.catchIf((error): error is SyncLocked => error._tag === "SyncLocked", () => Effect.succeed(true))
    )
    if (held) {
      keeper.keeping.postpone(walk, now + Math.max(1, (walk.shape?.pages ?? 1) * keeper.keeping.settings.secondsPerRequest))
      return false
    }
    const stored = yield* dbOf(keeper)(KeeperState.element(keeper.database, walk.group, walk.key))
    if (stored !== undefined) keeper.keeping.restore(stored.row, stored.items)
    yield* readBack
    return keeper.keeping.dueOf(walk) <= now
  })

/**
 * Keeps the offers of every model the mirror lists: a model new to it is
 * due at once; the offers of one gone are marked deleted, and no longer
 * kept.
 */
const trackOffers = (keeper: Keeper) =>
  Effect.gen(function*() {
    if (!keeper.keepsOffers) return
    const db = dbOf(keeper)
    const live = new Set(
      (yield* db(keeper.database.sql<{ readonly id: string }>`SELECT id FROM models WHERE deleted_at IS NULL`)).map((row) => row.id)
    )
    const gone = [...keeper.keeping.elements()].filter((element) => element.group === offers && !live.has(element.key))
    for (const element of gone) {
      const at = iso(yield* Clock.currentTimeMillis)
      yield* db(Sync.writeOffers(keeper.database, element.key, [], at, Items.wire))
      yield* db(KeeperState.dropElement(keeper.database, offers, element.key))
      keeper.keeping.untrack(offers, element.key)
    }
    for (const model of live) if (keeper.keeping.find(offers, model) === undefined) keeper.keeping.track(offers, model, undefined, -Infinity)
  })

/** Where a model's offers keep their last answer in `keeper_pages`. */
const offersPage = (model: string) => `${offers} ${model}`

/**
 * Lists a model's offers, the first page on the answer the keeper keeps
 * (a 304 when they did not change), any others whole, and commits them
 * (`Sync.writeOffers`); a model the service no longer has has none.
 */
const visitOffers = (keeper: Keeper, element: Tracked<string>) =>
  Effect.scoped(Effect.gen(function*() {
    const db = dbOf(keeper)
    const kept = yield* Ref.make<ReadonlyArray<KeeperState.StoredPage>>([])
    const readBack = Effect.flatMap(db(KeeperState.pages(keeper.database, offersPage(element.key))), (pages) => Ref.set(kept, pages))
    if (!(yield* take(keeper, element, offersPage(element.key), readBack))) return
    const began = yield* Clock.currentTimeMillis
    const [first] = yield* Ref.get(kept)
    const [organization = "", model = ""] = [element.key.slice(0, element.key.indexOf("/")), element.key.slice(element.key.indexOf("/") + 1)]
    const listed: Array<CatalogClient.WireItem> = []
    let fresh: KeeperState.StoredPage | undefined
    let cursor: string | null = null
    let unchanged = false
    let pages = 0
    do {
      const at: string | null = cursor
      const page: CatalogClient.KeptPage = yield* keeper.catalog.keptPage(offers, { organization, model }, at, {
        entry: at === null && first !== undefined ? { etag: first.etag, body: first.body } : undefined,
        keep: (entry) => {
          if (at === null) fresh = { page: 0, cursor: null, ...entry, nextCursor: null, issuedAt: began / 1000 / keeper.scale }
        }
      }).pipe(Effect.catchIf((error): error is Errors.NotFound => error._tag === "NotFound", () => Effect.succeed({ items: [], nextCursor: null, unchanged: false })))
      pages++
      unchanged = at === null && page.unchanged
      listed.push(...page.items)
      cursor = page.nextCursor
    } while (cursor !== null && !unchanged)
    const changes = unchanged ? [] : (yield* db(Sync.writeOffers(keeper.database, element.key, listed, iso(yield* Clock.currentTimeMillis), Items.wire))).changes
    if (fresh !== undefined) yield* db(KeeperState.savePage(keeper.database, offersPage(element.key), fresh))
    keeper.keeping.visited(element, began / 1000 / keeper.scale, changes.length > 0)
    yield* save(keeper, element, "visit")
    const ended = yield* Clock.currentTimeMillis
    yield* KeeperMetrics.walked(offers, ended - began, unchanged ? 0 : pages, unchanged ? 1 : 0)
    if (keeper.options.onVisit !== undefined) {
      yield* keeper.options.onVisit({
        collection: offers,
        pages,
        unchanged: unchanged ? 1 : 0,
        items: listed.length,
        changes: changes.length,
        began: new Date(began),
        ended: new Date(ended)
      })
    }
  })).pipe(Effect.withSpan("catalog.keeper.offers", { kind: "internal", attributes: { "catalog.model": element.key } }))

/** What the last keeper left of its elements and pages, then what a sync left of the collections it never kept. */
const restore = (keeper: Keeper) =>
  Effect.gen(function*() {
    const { database, keeping } = keeper
    const db = dbOf(keeper)
    for (const stored of yield* db(KeeperState.elements(database))) {
      const collection = collectionOf(stored.row.key)
      const kept = stored.row.group === offers ? keeper.keepsOffers : collection !== undefined && keeper.collections.includes(collection)
      if (kept) keeping.restore(stored.row, stored.items)
    }
    yield* trackOffers(keeper)
    for (const collection of keeper.collections) {
      yield* readPages(keeper, collection)
      if (keeping.find(collection, collection) !== undefined) continue
      const [run] = yield* db(Sync.runs(database, [collection], 1))
      const copied = run !== undefined && run.status === "complete"
      keeping.track(
        collection,
        collection,
        { pages: copied ? Math.max(1, Number(run.pages)) : 1, items: copied ? Number(run.items) : 0 },
        copied ? Date.parse(String(run.started_at)) / 1000 / keeper.scale : -Infinity
      )
    }
  })

/** Writes an element's row, with its family's target and promise: all of it after a visit, what a plan sets after one. */
const save = (keeper: Keeper, element: Tracked<string>, what: KeeperState.Written) => {
  const target = keeper.targets[element.group] ?? 0
  return dbOf(keeper)(KeeperState.saveElement(keeper.database, {
    row: keeper.keeping.rowOf(element),
    items: keeper.keeping.itemRowsOf(element),
    target,
    promise: keeper.keeping.report(0).find((report) => report.group === element.group)?.promise ?? target
  }, what))
}

/** Sets each collection's gauges from the keeper's bookkeeping (`KeeperMetrics`). */
const publish = (keeper: Keeper) =>
  Effect.gen(function*() {
    const now = yield* nowOf(keeper)
    const spent = yield* keeper.budget.spent
    yield* Effect.forEach(keeper.keeping.report(now), (report) =>
      KeeperMetrics.report(report.group, {
        age: Number.isFinite(report.oldestVerified) ? report.oldestVerified : 0,
        target: report.target,
        promise: report.promise,
        withinTarget: report.oldestVerified <= report.promise,
        nextWalk: Math.max(0, Number.isFinite(report.nextDue) ? report.nextDue - now : 0),
        changesPerDay: report.perSecond * day,
        units: spent.byOperation.get(report.group)?.units ?? 0
      }), { discard: true })
  })

/** Reads `/usage/` and plans within what is left of the keeper's share; when none is left, waits for the reset first. */
const plan = (keeper: Keeper): Effect.Effect<KeepPlan, Failure> =>
  Effect.gen(function*() {
    // What other keepers of the mirror found since, planned with.
    for (const stored of yield* dbOf(keeper)(KeeperState.elements(keeper.database))) {
      if (keeper.keeping.find(stored.row.group, stored.row.key) !== undefined) keeper.keeping.restore(stored.row, stored.items)
    }
    const usage = yield* keeper.catalog.usage()
    const at = yield* Clock.currentTimeMillis
    const resetAt = usage.daily_reset_at === null ? at + day * 1000 * keeper.scale : new Date(usage.daily_reset_at).getTime()
    const allowance: Allowance = {
      share: keeper.share,
      dailyUnits: usage.daily_limit,
      unitsUsed: usage.daily_units,
      dailyBytes: usage.daily_byte_limit,
      bytesUsed: usage.daily_bytes,
      secondsToReset: (resetAt - at) / 1000 / keeper.scale,
      requestsPerSecond: keeper.requestsPerSecond
    }
    const spare = spareOf(allowance)
    if (spare.units < 1 || spare.bytes <= 0) {
      // Nothing left of the share today: nothing to plan until the reset.
      yield* Effect.logWarning(`keeper: today's allowance is spent; waiting for its reset at ${iso(resetAt)}`)
      yield* Effect.sleep(Duration.millis(Math.max(0, resetAt - at)))
      return yield* plan(keeper)
    }
    const feasibility: Feasibility = keeper.keeping.replan(budgetOf(allowance))
    for (const element of keeper.keeping.elements()) yield* save(keeper, element, "plan")
    yield* publish(keeper)
    const planned: KeepPlan = {
      feasible: feasibility.feasible,
      stretch: feasibility.stretch,
      promises: feasibility.promises,
      unitsPerDay: feasibility.spending.unitsPerSecond * day,
      requestsPerDay: feasibility.spending.requestsPerSecond * day,
      freshness: feasibility.freshness
    }
    if (keeper.options.onPlan !== undefined) yield* keeper.options.onPlan(planned)
    return planned
  })

/** Where a walk stands: the page it asks next, at which cursor, in which scan, and what it has found. */
interface Position {
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
const walkPage = (keeper: Keeper, walk: Tracked<string>, collection: Operations.CollectionId, state: WalkState, position: Position, runId: number, sinceLast: number) =>
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
const smaller = (keeper: Keeper, collection: Operations.CollectionId, state: WalkState) =>
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
const endUnfinished = (keeper: Keeper, runId: number) => (exit: Exit.Exit<unknown, unknown>) =>
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
const walkOnce = (keeper: Keeper, walk: Tracked<string>, collection: Operations.CollectionId) =>
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
    yield* save(keeper, walk, "visit")
    const ended = yield* Clock.currentTimeMillis
    yield* KeeperMetrics.walked(collection, ended - began, totals.pages - totals.unchanged, totals.unchanged)
    if (collection === "models") yield* trackOffers(keeper)
    yield* publish(keeper)
    if (keeper.options.onVisit !== undefined) yield* keeper.options.onVisit({ collection, ...totals, began: new Date(began), ended: new Date(ended) })
  })).pipe(Effect.withSpan("catalog.keeper.walk", { kind: "internal", attributes: { "catalog.collection": collection } }))

/** Runs the keeper over the mirror in context until interrupted. */
export const keep = (options: KeepOptions): Effect.Effect<never, KeepError, KeepServices> =>
  Effect.gen(function*() {
    const keeper = yield* make(options)
    yield* patiently(keeper, restore(keeper))
    const first = yield* patiently(keeper, plan(keeper))
    if (!first.feasible && options.whenInfeasible !== "promise") {
      return yield* Effect.fail(new TargetsInfeasible({ targets: keeper.targets, promises: first.promises, stretch: first.stretch }))
    }
    let nextPlan = (yield* nowOf(keeper)) + replanEvery
    for (;;) {
      const at = yield* nowOf(keeper)
      if (at >= nextPlan) {
        yield* patiently(keeper, plan(keeper))
        nextPlan = at + replanEvery
      }
      const next = keeper.keeping.next(at)
      if (next === undefined || next.due > at) {
        yield* Effect.sleep(Duration.millis(Math.max(0, (Math.min(nextPlan, next?.due ?? nextPlan) - at) * keeper.scale * 1000)))
        continue
      }
      const collection = collectionOf(next.element.key)
      const visit: Effect.Effect<void, Failure> = next.element.group === offers
        ? visitOffers(keeper, next.element)
        : collection === undefined
        ? Effect.void
        : walkOnce(keeper, next.element, collection)
      yield* visit.pipe(
        Effect.tap(() => Ref.set(keeper.failures, 0)),
        Effect.catchIf(isPassing, (error) => waitOut(keeper, error))
      )
    }
  })

/** What the keeper's state says of one collection it keeps. */
export interface CollectionFreshness {
  readonly collection: string
  /** Its target and the age promised by the last plan, seconds of the service's clock. */
  readonly target: number
  readonly promise: number
  /** How long ago it was last verified (its last complete walk began); `null` if never. */
  readonly age: number | null
  /** Whether that age is within the promise. */
  readonly withinTarget: boolean
  /** When its next walk is due; `null` if it was never verified (due at once). */
  readonly nextDue: Date | null
  /** Its items' estimated changes a day, on average. */
  readonly changesPerDay: number
}

/** How `freshness` reads the keeper's times. */
export interface FreshnessOptions {
  /** The time scale the keeper ran at (default: the admission's in context, else 1). */
  readonly timeScale?: number
}

/** The keeper's figures per collection, read from the mirror's database as the last keeper left them. */
export const freshness = (options: FreshnessOptions = {}): Effect.Effect<ReadonlyArray<CollectionFreshness>, DatabaseFailed, MirrorDatabase.MirrorDatabase> =>
  Effect.gen(function*() {
    const database = yield* MirrorDatabase.MirrorDatabase
    const scale = options.timeScale ?? Option.getOrUndefined(yield* Effect.serviceOption(Admission.Admission))?.limits?.timeScale ?? 1
    const stored = yield* Effect.mapError(KeeperState.elements(database), failed(database.name))
    const keeping = new Keeping<string>({
      targets: Object.fromEntries(stored.map((element) => [element.row.group, element.target])),
      secondsPerRequest: 1
    })
    for (const element of stored) keeping.restore(element.row, element.items)
    const millis = yield* Clock.currentTimeMillis
    const now = millis / 1000 / scale
    const byFamily = new Map(stored.map((element) => [element.row.group, element]))
    return keeping.report(now).map((report): CollectionFreshness => {
      const element = byFamily.get(report.group)
      const verified = element?.row.verifiedAt ?? null
      const promise = element?.promise ?? report.target
      const age = verified === null ? null : now - verified
      return {
        collection: report.group,
        target: report.target,
        promise,
        age,
        withinTarget: age !== null && age <= promise,
        nextDue: Number.isFinite(report.nextDue) ? new Date(report.nextDue * 1000 * scale) : null,
        changesPerDay: report.perSecond * day
      }
    })
  })
