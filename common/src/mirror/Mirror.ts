/**
 * A local, queryable copy of the catalog, kept fresh by polling within the
 * account's allowance: `sync` scans a collection through the client (every
 * limit, retry and scan rule of the client applies) into the mirror's
 * database, each page in one transaction with its checkpoint, and emits what
 * changed as a `Stream` of `Change`s. A sync that was killed or stopped at
 * the allowance goes on from its last committed page when run again, or
 * from the first page if its cursor has expired, without losing or
 * repeating an item. `plan` says what a sync will cost before it starts.
 *
 * Tables: one per collection (`models`, `skills`, …) with `id`, `data` (the
 * item's wire JSON: text in SQLite, `jsonb` in PostgreSQL), `first_seen_at`,
 * `last_seen_at`, `deleted_at` (null while the collection lists the item),
 * and `sync_runs`, one row per sync.
 *
 * @example
 * ```ts
 * import { NodeHttpClient } from "@effect/platform-node"
 * import { Effect, Layer, Stream } from "effect"
 * import { CatalogClient } from "effect-catalog"
 * import { Mirror, MirrorDatabase } from "effect-catalog/mirror"
 *
 * const program = Effect.gen(function*() {
 *   const plan = yield* Mirror.plan(["models", "mcps"])
 *   if (!plan.fits) return yield* Effect.logWarning("not enough of today's allowance left")
 *   yield* Mirror.sync("models").pipe(Stream.runForEach((change) => Effect.log(change._tag, change.id)))
 *   const [run] = yield* Mirror.runs(["models"])
 *   return run
 * })
 *
 * program.pipe(
 *   Effect.provide(MirrorDatabase.layerSqlite("catalog.sqlite")),
 *   Effect.provide(CatalogClient.layerConfig().pipe(Layer.provide(NodeHttpClient.layerUndici)))
 * )
 * ```
 * @since 0.3.0 (1.x: 1.1.0)
 */
import { SqlError } from "#edition/mirror/internal/Sql.js"
import { Clock, Effect, Exit, firstFailure, mapAccumConcat, Option, Stream, unwrapScoped } from "#edition/internal/Edition.js"
import * as Admission from "../client/Admission.js"
import * as Budget from "../client/Budget.js"
import * as CatalogClient from "../client/CatalogClient.js"
import * as LiveAllowance from "../client/LiveAllowance.js"
import type * as Errors from "../client/Errors.js"
import type * as OperationErrors from "../client/OperationErrors.js"
import * as PageSizes from "../client/PageSizes.js"
import * as Operations from "../contract/Operations.js"
import * as Resources from "../contract/Resources.js"
import type { Change } from "./Change.js"
import { failed } from "#edition/mirror/internal/Failure.js"
import * as Items from "#edition/mirror/internal/Items.js"
import * as Lock from "./internal/Lock.js"
import * as Planning from "../../../rules/src/mirror/Planning.js"
import * as Rows from "../../../rules/src/mirror/Rows.js"
import * as Keeper from "./internal/Keeper.js"
import * as Sync from "./internal/Sync.js"
import * as Tables from "../../../rules/src/mirror/Tables.js"
import * as MirrorDatabase from "#edition/mirror/MirrorDatabase.js"
import type { DatabaseFailed, ItemMalformed, SyncLocked } from "./MirrorError.js"

/**
 * Where a sync stands after a committed page.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { Mirror } from "effect-catalog/mirror"
 *
 * const report = (progress: Mirror.Progress) => Effect.log(`${progress.collection}: ${progress.items} items, ${progress.units} units`)
 * ```
 * @category models
 * @since 0.3.0 (1.x: 1.1.0)
 */
export interface Progress extends Rows.Counts {
  readonly collection: Operations.CollectionId
  /** Whether the run went on from the checkpoint of an earlier one. */
  readonly resumed: boolean
}

export type {
  /**
   * What a run has done so far: pages and items committed, the changes they
   * brought, and the units and response bytes spent.
   *
   * @category models
   * @since 0.3.0 (1.x: 1.1.0)
   */
  Counts,
  /**
   * A sync run, as `sync_runs` records it.
   *
   * @category models
   * @since 0.3.0 (1.x: 1.1.0)
   */
  Run
} from "../../../rules/src/mirror/Rows.js"

/**
 * Options of a sync.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { Mirror } from "effect-catalog/mirror"
 *
 * const options: Mirror.SyncOptions = { onPage: (progress) => Effect.log(`${progress.items} items`) }
 * ```
 * @category models
 * @since 0.3.0 (1.x: 1.1.0)
 */
export interface SyncOptions {
  /** Runs after each committed page. */
  readonly onPage?: (progress: Progress) => Effect.Effect<void>
}

/**
 * The errors of a sync: those of a scan through the client, a failure of
 * the database, and another sync of the collection running.
 *
 * @example
 * ```ts
 * import type { Mirror } from "effect-catalog/mirror"
 *
 * const resumable = (error: Mirror.SyncError): boolean =>
 *   error._tag === "BudgetExceeded" || error._tag === "QuotaExhausted" || error._tag === "DatabaseFailed"
 * ```
 * @category errors
 * @since 0.3.0 (1.x: 1.1.0)
 */
export type SyncError = CatalogClient.WireError | DatabaseFailed | SyncLocked

/**
 * The errors of a decoded sync: those of a sync, and an item of the service
 * or a row of the mirror that does not match its collection's schema.
 *
 * @example
 * ```ts
 * import type { Mirror } from "effect-catalog/mirror"
 *
 * const rowToRepair = (error: Mirror.SyncDecodedError): string | null =>
 *   error._tag === "ItemMalformed" && error.source === "mirror" ? `${error.collection} ${error.id}` : null
 * ```
 * @category errors
 * @since 0.5.0 (1.x: 1.1.0)
 */
export type SyncDecodedError = SyncError | ItemMalformed

/**
 * The decoded item of a collection, as the operations table gives its
 * schema: `Item<"models">` is `Resources.Model`, `Item<"skills">` is
 * `Resources.Skill`.
 *
 * @example
 * ```ts
 * import type { Resources } from "effect-catalog"
 * import type { Mirror } from "effect-catalog/mirror"
 *
 * const reasoning = (model: Mirror.Item<"models">): boolean => model.reasoning === true
 * const asModel = (model: Mirror.Item<"models">): Resources.Model => model
 * ```
 * @category models
 * @since 0.5.0 (1.x: 1.1.0)
 */
export type Item<C extends Operations.CollectionId> = Items.Item<C>

/**
 * Whether a sync ended at the account's allowance or the client's daily
 * budget: its run is `partial`, and the next sync goes on from its
 * checkpoint.
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { Mirror } from "effect-catalog/mirror"
 *
 * // Sync what today's allowance lets through; the rest comes with tomorrow's run.
 * const asFarAsToday = Mirror.sync("skills").pipe(Stream.runDrain, Effect.catchIf(Mirror.isStoppedAtAllowance, () => Effect.void))
 * ```
 * @category guards
 * @since 0.3.0 (1.x: 1.1.0)
 */
export const isStoppedAtAllowance = (error: unknown): error is Errors.BudgetExceeded | Errors.QuotaExhausted => Rows.isStoppedAtAllowance(error)

const messageOf = (error: unknown): string => error instanceof Error ? error.message : String(error)

const isoNow = Effect.map(Clock.currentTimeMillis, (now) => new Date(now).toISOString())

/** What the client has spent on an operation so far. */
const spentOn = (budget: Budget.Service, operation: string) =>
  Effect.map(budget.spent, (spent) => {
    const spending = spent.byOperation.get(operation)
    return { units: spending?.units ?? 0, bytes: spending?.bytes ?? 0 }
  })

/**
 * Syncs a collection: one full scan into the mirror, as a stream of what
 * changed, each item in its wire form. The run is recorded in `sync_runs`
 * (see `runs`) as it goes: `complete` after the last page, `partial` when
 * the allowance or the budget stopped it, `failed` or `interrupted`
 * otherwise; any but a complete run is resumed by the next sync of the
 * collection.
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { Mirror } from "effect-catalog/mirror"
 *
 * const changesAsLines = Mirror.sync("skills").pipe(Stream.map((change) => JSON.stringify(change)))
 * const countChanges = Mirror.sync("mcps").pipe(Stream.runCount)
 * ```
 * @category accessors
 * @since 0.3.0 (1.x: 1.1.0)
 */
export const sync = (
  collection: Operations.CollectionId,
  options: SyncOptions = {}
): Stream.Stream<Change, SyncError, CatalogClient.CatalogClient | Budget.Budget | MirrorDatabase.MirrorDatabase> =>
  syncWith(collection, options, Items.wire)

/**
 * Syncs a collection as `sync` does, its changes decoded with the
 * collection's schema: `syncDecoded("models")` gives `Change<Resources.Model>`,
 * `before` and `after` as models. Each changed item is decoded in its
 * page's transaction, so an item that does not match the schema (sent by
 * the service, or a row of the mirror edited by hand) fails the sync with
 * `ItemMalformed` before its page is committed: no change is ever committed
 * without being given. The rows still hold the wire JSON, and `sync` and
 * `syncDecoded` can take turns on one mirror.
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { Change, Mirror } from "effect-catalog/mirror"
 *
 * const newReasoningModels = Mirror.syncDecoded("models").pipe(
 *   Stream.filter(Change.$is("Inserted")),
 *   Stream.filter(({ after }) => after.reasoning === true),
 *   Stream.map(({ after }) => after.name)
 * )
 * const report = Mirror.syncDecoded("skills").pipe(
 *   Stream.runForEach((change) => Effect.log(change._tag, change.id)),
 *   Effect.catchTag("ItemMalformed", (error) => Effect.logError(error.message))
 * )
 * ```
 * @category accessors
 * @since 0.5.0 (1.x: 1.1.0)
 */
export const syncDecoded = <C extends Operations.CollectionId>(
  collection: C,
  options: SyncOptions = {}
): Stream.Stream<Change<Item<C>>, SyncDecodedError, CatalogClient.CatalogClient | Budget.Budget | MirrorDatabase.MirrorDatabase> =>
  syncWith(collection, options, Items.decoded(collection))

/** A sync whose changes give their items as `items` does. */
const syncWith = <A, E>(
  collection: Operations.CollectionId,
  options: SyncOptions,
  items: Items.Items<A, E>
): Stream.Stream<Change<A>, SyncError | E, CatalogClient.CatalogClient | Budget.Budget | MirrorDatabase.MirrorDatabase> =>
  unwrapScoped(Effect.gen(function*() {
    const database = yield* MirrorDatabase.MirrorDatabase
    const catalog = yield* CatalogClient.CatalogClient
    const budget = yield* Budget.Budget
    const dbFailed = failed(database.name)
    yield* Lock.hold(database, collection)
    const before = yield* spentOn(budget, collection)
    const begun = yield* Effect.flatMap(isoNow, (now) => Sync.start(database, collection, now)).pipe(Effect.mapError(dbFailed))
    // A complete run is marked so with its last page; any other end is recorded here, if the database still answers.
    yield* Effect.addFinalizer((exit) =>
      Effect.flatMap(isoNow, (now) =>
        Exit.match(exit, {
          onSuccess: () => Sync.end(database, begun.runId, "interrupted", "stopped before the last page", now),
          onFailure: (cause) =>
            Option.match(firstFailure(cause), {
              onNone: () => Sync.end(database, begun.runId, "interrupted", null, now),
              onSome: (error) => Sync.end(database, begun.runId, isStoppedAtAllowance(error) ? "partial" : "failed", messageOf(error), now)
            })
        })).pipe(Effect.ignore)
    )
    const initial: Progress & { readonly scan: number } = {
      collection,
      resumed: begun.from !== null,
      scan: begun.scan,
      pages: 0,
      items: 0,
      inserted: 0,
      updated: 0,
      deleted: 0,
      units: 0,
      bytes: 0
    }
    return catalog.wirePages(collection, {}, begun.from).pipe(
      mapAccumConcat(initial, (state, page) =>
        Effect.gen(function*() {
          // A resumed run whose cursor had expired starts again from the first page: a new scan.
          const scan = state.resumed && state.pages === 0 && page.cursor === null ? yield* Sync.nextScan(database, collection) : state.scan
          const now = yield* isoNow
          const spent = yield* Effect.map(spentOn(budget, collection), (after) => ({ units: after.units - before.units, bytes: after.bytes - before.bytes }))
          const { changes, counts } = yield* Sync.writePage(database, {
            collection,
            runId: begun.runId,
            scan,
            items: page.items,
            checkpoint: page.nextCursor,
            spent,
            now
          }, items)
          const next = {
            ...state,
            scan,
            pages: state.pages + 1,
            items: state.items + counts.items,
            inserted: state.inserted + counts.inserted,
            updated: state.updated + counts.updated,
            deleted: state.deleted + counts.deleted,
            ...spent
          }
          if (options.onPage !== undefined) yield* options.onPage(next)
          return [next, changes] as const
        }).pipe(Effect.catchIf((error) => error instanceof SqlError, (error) => Effect.fail(dbFailed(error)))))
    )
  }))

/**
 * The latest sync runs of the collections, newest first.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Mirror } from "effect-catalog/mirror"
 *
 * const lastModelsRun = Effect.map(Mirror.runs(["models"], 1), (runs) => runs[0])
 * ```
 * @category accessors
 * @since 0.3.0 (1.x: 1.1.0)
 */
export const runs = (
  collections: ReadonlyArray<Operations.CollectionId> = Operations.collections.map((operation) => operation.id),
  limit = 100
): Effect.Effect<ReadonlyArray<Rows.Run>, DatabaseFailed, MirrorDatabase.MirrorDatabase> =>
  Effect.flatMap(MirrorDatabase.MirrorDatabase, (database) =>
    Sync.runs(database, collections, limit).pipe(Effect.map((rows) => rows.map(Rows.runOf)), Effect.mapError(failed(database.name))))

/**
 * Where the count of a collection comes from: `/stats/`, the contract (the
 * article list's window of 24), the mirror's last complete scan, or, with
 * none of these, an assumed single page.
 *
 * @category models
 * @since 0.3.0 (1.x: 1.1.0)
 */
export type CountSource = Planning.CountSource

/**
 * What a full sync of a collection will cost.
 *
 * @example
 * ```ts
 * import type { Mirror } from "effect-catalog/mirror"
 *
 * const minutes = (plan: Mirror.CollectionPlan) => Math.ceil(plan.seconds / 60)
 * ```
 * @category models
 * @since 0.3.0 (1.x: 1.1.0)
 */
export interface CollectionPlan extends Planning.CollectionPlan<Operations.CollectionId> {}

/**
 * What a sync of some collections will cost, and whether it fits in what
 * is left of today's allowance.
 *
 * @example
 * ```ts
 * import type { Mirror } from "effect-catalog/mirror"
 *
 * const summary = (plan: Mirror.Plan) =>
 *   `${plan.units} units of ${plan.left.units} left; ${plan.fits ? "fits" : "does not fit"}`
 * ```
 * @category models
 * @since 0.3.0 (1.x: 1.1.0)
 */
export interface Plan extends Planning.Plan<Operations.CollectionId> {}

/**
 * Options of a plan.
 *
 * @example
 * ```ts
 * import { Admission } from "effect-catalog"
 * import type { Mirror } from "effect-catalog/mirror"
 *
 * const options: Mirror.PlanOptions = { limits: Admission.contractLimits, defaultItemBytes: 4096 }
 * ```
 * @category models
 * @since 0.3.0 (1.x: 1.1.0)
 */
export interface PlanOptions {
  /** The account's windows the sync will run under (default: the contract's). */
  readonly limits?: Admission.Limits
  /** The size assumed of an item of a collection the mirror holds none of (default 2,048 bytes). */
  readonly defaultItemBytes?: number
}

/** What the mirror knows of a collection, read from its table and its last complete run. */
const mirrored = (database: MirrorDatabase.Service, collection: Operations.CollectionId) =>
  Effect.suspend(() => {
    const sql = database.sql
    const size = sql.literal(Tables.dataBytes(database.dialect))
    return Effect.all([
      sql<NonNullable<Planning.MirroredRows["live"]>>`
        SELECT count(*) AS items, avg(${size}) AS bytes,
          (SELECT count(*) FROM sync_runs WHERE collection = ${collection} AND status = 'complete') AS complete
        FROM ${sql(collection)} WHERE deleted_at IS NULL`,
      sql<NonNullable<Planning.MirroredRows["lastRun"]>>`
        SELECT pages, items, bytes FROM sync_runs
        WHERE collection = ${collection} AND status = 'complete' AND items > 0
        ORDER BY id DESC LIMIT 1`
    ]).pipe(
      Effect.map(([[live], [lastRun]]) => Planning.mirroredOf({ live, lastRun })),
      Effect.mapError(failed(database.name))
    )
  })

/**
 * The account's usage for a plan, with the requests the plan itself sent
 * (booked at its start) and how long a request takes now: the read of
 * `/usage/` when one was sent for it, else `/stats/`'s (the client's own
 * read, made less than 12 s ago, is given again without a request).
 */
const usageRead = (catalog: CatalogClient.Service, statsAsked: number) =>
  Effect.gen(function*() {
    const asked = yield* Clock.currentTimeMillis
    const allowance = yield* Effect.serviceOption(LiveAllowance.LiveAllowance)
    // The client's own read: the one its admission follows, so that the sync spends no other.
    const usage = yield* Option.match(allowance, { onNone: () => catalog.usage(), onSome: (allowance) => allowance.read })
    const answered = yield* Clock.currentTimeMillis
    const readAt = Option.isSome(allowance) ? yield* allowance.value.readAt : Option.some(asked)
    const sent = Option.exists(readAt, (at) => at >= asked)
    return { usage, booked: sent ? [0, 0] : [0], requestMillis: sent ? answered - asked : asked - statsAsked }
  })

/**
 * What a sync of the collections will cost, before anything is scanned:
 * reads `/stats/` (1 unit) and `/usage/` (0 units), the mirror's own
 * counts and item sizes when a `MirrorDatabase` is provided, and the page
 * sizes that fitted each list (`PageSizes`, which a client layer provides).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Mirror } from "effect-catalog/mirror"
 *
 * const program = Effect.gen(function*() {
 *   const plan = yield* Mirror.plan(["models", "skills"])
 *   for (const step of plan.collections) yield* Effect.log(`${step.collection}: ${step.requests} requests, ${step.units} units`)
 *   return plan.fits
 * })
 * ```
 * @category accessors
 * @since 0.3.0 (1.x: 1.1.0)
 */
export const plan = (
  collections: ReadonlyArray<Operations.CollectionId>,
  options: PlanOptions = {}
): Effect.Effect<
  Plan,
  OperationErrors.ErrorOf<"stats"> | OperationErrors.ErrorOf<"usage"> | DatabaseFailed,
  CatalogClient.CatalogClient
> =>
  Effect.gen(function*() {
    const catalog = yield* CatalogClient.CatalogClient
    const database = yield* Effect.serviceOption(MirrorDatabase.MirrorDatabase)
    const pageSizes = yield* Effect.serviceOption(PageSizes.PageSizes)
    const statsAsked = yield* Clock.currentTimeMillis
    const stats = yield* catalog.stats()
    const { booked: own, requestMillis, usage } = yield* usageRead(catalog, statsAsked)
    // The limits the client admits under, as its admission was made (its time scale among them), unless the options say.
    const admission = yield* Effect.serviceOption(Admission.Admission)
    const given = options.limits ?? Option.getOrUndefined(admission)?.limits ?? Admission.contractLimits
    // A client that follows the live allowance admits under the account's minute_limit too.
    const limits = Admission.followsAllowance(given) ? Admission.underAllowance(given, usage.minute_limit) : given
    const facts = yield* Effect.forEach(Operations.collections.filter((operation) => collections.includes(operation.id)), (operation) =>
      Effect.gen(function*() {
        return {
          operation,
          stated: Option.getOrUndefined(Resources.countOf(stats, operation.id)),
          mirrored: Option.isSome(database) ? yield* mirrored(database.value, operation.id) : Planning.nothingMirrored,
          fitted: Option.isSome(pageSizes) ? Option.getOrUndefined(yield* pageSizes.value.get(operation.id)) : undefined
        }
      }))
    // The plan's own requests (stats, and usage when a read was sent for it) have just taken their places in the windows.
    return Planning.planOf(facts, {
      limits,
      booked: own,
      requestMillis,
      defaultItemBytes: options.defaultItemBytes ?? 2_048,
      left: Planning.leftOf(usage)
    })
  })

/**
 * Options of the keeper: freshness targets by collection, the share of
 * the account it may spend, what to do when the targets do not fit, and
 * what to run after each visit and each plan.
 *
 * @example
 * ```ts
 * import type { Mirror } from "effect-catalog/mirror"
 *
 * const options: Mirror.KeepOptions = { targets: { models: "1 hour", skills: "6 hours" }, share: 0.8 }
 * ```
 * @category models
 * @since 0.8.0 (1.x: 1.2.0)
 */
export interface KeepOptions extends Keeper.KeepOptions {}

/**
 * One visit of the keeper: a walk of a collection's list, its pages, how
 * many of them were 304s, and the changes it committed.
 *
 * @example
 * ```ts
 * import type { Mirror } from "effect-catalog/mirror"
 *
 * const line = (visit: Mirror.Visit) => `${visit.collection}: ${visit.unchanged} of ${visit.pages} pages unchanged, ${visit.changes} changes`
 * ```
 * @category models
 * @since 0.8.0 (1.x: 1.2.0)
 */
export interface Visit extends Keeper.Visit {}

/**
 * What the keeper's plan says: whether the targets fit, the ages promised
 * by collection (seconds), and what it spends a day.
 *
 * @example
 * ```ts
 * import type { Mirror } from "effect-catalog/mirror"
 *
 * const summary = (plan: Mirror.KeepPlan) => `${Math.round(plan.unitsPerDay)} units a day, ${plan.feasible ? "targets met" : "targets stretched"}`
 * ```
 * @category models
 * @since 0.8.0 (1.x: 1.2.0)
 */
export interface KeepPlan extends Keeper.KeepPlan {}

/**
 * What fails the keeper: targets that do not fit (`TargetsInfeasible`,
 * unless `whenInfeasible: "promise"`), and what no wait mends (a key
 * refused, a scope missing). The day's allowance running out, 429s and
 * 503s the client's retries did not outlast, an expired cursor, a database
 * that does not answer and another sync of the collection are waited out.
 *
 * @example
 * ```ts
 * import type { Mirror } from "effect-catalog/mirror"
 *
 * const explain = (error: Mirror.KeepError): string =>
 *   error._tag === "TargetsInfeasible" ? `at best: ${JSON.stringify(error.promises)}` : error.message
 * ```
 * @category errors
 * @since 0.8.0 (1.x: 1.2.0)
 */
export type KeepError = Keeper.KeepError

/**
 * Keeps the mirror's collections fresh to their targets within a share of
 * the account's allowance, until interrupted. Each collection's list is
 * walked page by page, each page revalidated by the ETag the keeper keeps
 * for it in the database (a 304 costs a request and no unit), and
 * committed as a sync commits it: changes go to the change log
 * (`ChangeFeed`), deletions after a complete walk. How often each is
 * walked is planned from how often its items were found changed (Cho and
 * Garcia-Molina's estimator), within the units and windows left, each
 * target a hard cap; before it starts, and every 15 minutes of the
 * service's clock, the keeper reads `/usage/` and plans again. Its
 * schedule, rates and ETags live in the database: a keeper started again
 * goes on without a cold rescan.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Mirror } from "effect-catalog/mirror"
 *
 * const keeper = Mirror.keep({
 *   targets: { models: "1 hour", skills: "6 hours" },
 *   onVisit: (visit) => Effect.log(`${visit.collection}: ${visit.changes} changes`)
 * })
 * ```
 * @category accessors
 * @since 0.8.0 (1.x: 1.2.0)
 */
export const keep: (options: KeepOptions) => Effect.Effect<never, KeepError, Keeper.KeepServices> = Keeper.keep

/**
 * The keeper's figures per collection: its target and promise, the age
 * of its last verification and whether that is within the promise, its
 * next walk, and its items' estimated changes a day.
 *
 * @example
 * ```ts
 * import type { Mirror } from "effect-catalog/mirror"
 *
 * const late = (report: ReadonlyArray<Mirror.CollectionFreshness>) => report.filter((row) => !row.withinTarget)
 * ```
 * @category models
 * @since 0.8.0 (1.x: 1.2.0)
 */
export interface CollectionFreshness extends Keeper.CollectionFreshness {}

/**
 * The keeper's figures, read from the mirror's database as the last keeper
 * left them: what `catalog mirror status` prints. Ages and targets are
 * seconds of the service's clock (at the time scale the keeper ran at);
 * the next walk is a date.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Mirror } from "effect-catalog/mirror"
 *
 * const report = Effect.flatMap(Mirror.freshness, (rows) =>
 *   Effect.forEach(rows, (row) => Effect.log(`${row.collection}: ${row.withinTarget ? "fresh" : "late"}`)))
 * ```
 * @category accessors
 * @since 0.8.0 (1.x: 1.2.0)
 */
export const freshness: Effect.Effect<ReadonlyArray<CollectionFreshness>, DatabaseFailed, MirrorDatabase.MirrorDatabase> = Keeper.freshness
