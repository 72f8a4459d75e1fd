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
import { Clock, decodeDuration, Duration, Effect, Option, Ref } from "#edition/internal/Edition.js"
import { failed } from "#edition/mirror/internal/Failure.js"
import * as MirrorDatabase from "#edition/mirror/MirrorDatabase.js"
import { type Allowance, budgetOf, type Feasibility, Keeping, requestsMargin, spareOf } from "../../../../rules/src/mirror/Keeping.js"
import * as Admission from "../../client/Admission.js"
import * as Budget from "../../client/Budget.js"
import * as CatalogClient from "../../client/CatalogClient.js"
import type * as Errors from "../../client/Errors.js"
import type * as OperationErrors from "../../client/OperationErrors.js"
import * as PageSizes from "../../client/PageSizes.js"
import * as Operations from "../../contract/Operations.js"
import type { Kept } from "../Change.js"
import { DatabaseFailed, type SyncLocked, TargetsInfeasible } from "../MirrorError.js"
import * as KeeperState from "./KeeperState.js"
import * as Sync from "./Sync.js"
import { collectionOf, cursorSeconds, day, dbOf, iso, type KeepOptions, type KeepPlan, type Keeper, nowOf, offers, publish, savePlanned } from "./KeeperContext.js"

export type { KeepOptions, KeepPlan, Visit } from "./KeeperContext.js"
import { trackOffers, visitOffers } from "./KeeperOffers.js"
import { readPages, walkOnce } from "./KeeperWalk.js"

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
/** Waits after a passing error, doubling from the first to the last: real seconds, as a database or a network comes back in its own time. */
const firstWait = 0.5
const longestWait = 30

/** What a keeper may keep. */
const keepable: ReadonlyArray<Kept> = [...Operations.collections.map((operation) => operation.id), offers]

const targetSeconds = (targets: KeepOptions["targets"]): Readonly<Record<string, number>> =>
  Object.fromEntries(keepable.flatMap((kept) => {
    const target = targets[kept]
    return target === undefined ? [] : [[kept, Duration.toSeconds(decodeDuration(target))]]
  }))

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
    yield* savePlanned(keeper)
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

export const freshness: Effect.Effect<ReadonlyArray<CollectionFreshness>, DatabaseFailed, MirrorDatabase.MirrorDatabase> =
  Effect.gen(function*() {
    const database = yield* MirrorDatabase.MirrorDatabase
    const stored = yield* Effect.mapError(KeeperState.elements(database), failed(database.name))
    // Its times are seconds of the service's clock at the scale the keeper ran at.
    const scale = stored[0]?.timeScale ?? 1
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
