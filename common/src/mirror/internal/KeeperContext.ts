/**
 * What the keeper's parts share: the keeper itself (its services, its
 * bookkeeping, its walks' pages), its clock, and how an element is taken
 * for a visit, written back and shown as metrics.
 */
import { Clock, type DurationInput, Effect, Option, Ref } from "#edition/internal/Edition.js"
import { failed } from "#edition/mirror/internal/Failure.js"
import type { SqlError } from "#edition/mirror/internal/Sql.js"
import * as MirrorDatabase from "#edition/mirror/MirrorDatabase.js"
import { Keeping, type Tracked } from "../../../../rules/src/mirror/Keeping.js"
import { WalkPages } from "../../../../rules/src/mirror/Walk.js"
import * as Budget from "../../client/Budget.js"
import * as CatalogClient from "../../client/CatalogClient.js"
import * as PageSizes from "../../client/PageSizes.js"
import * as Operations from "../../contract/Operations.js"
import type { Kept } from "../Change.js"
import { DatabaseFailed, type SyncLocked } from "../MirrorError.js"
import * as KeeperMetrics from "./KeeperMetrics.js"
import * as KeeperState from "./KeeperState.js"
import * as Lock from "./Lock.js"

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

/** A day of the service, seconds. */
export const day = 86_400

export const collectionOf = (name: string): Operations.CollectionId | undefined => Operations.isCollectionId(name) ? name : undefined

export const iso = (millis: number) => new Date(millis).toISOString()

/** The targets in seconds, by collection. */
/** The family of every model's offers: an element per model, keyed by the model's id. */
export const offers = "modelOffers" satisfies Kept

/** A walk's pages as last answered, in memory and as stored. */
export interface WalkState {
  readonly pages: WalkPages
  readonly stored: Array<KeeperState.StoredPage>
  /** Its page size: the largest, or the one that fitted after a page was too large (`PageSizes`). */
  limit: number
}

/** What one keeper's parts share. */
export interface Keeper {
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

export const cursorSeconds = 3600

/** Now, in seconds of the service's clock. */
export const nowOf = (keeper: Keeper) => Effect.map(Clock.currentTimeMillis, (millis) => millis / 1000 / keeper.scale)

export const dbOf = (keeper: Keeper) => <A>(effect: Effect.Effect<A, SqlError>): Effect.Effect<A, DatabaseFailed> =>
  Effect.mapError(effect, failed(keeper.database.name))

/**
 * Takes an element for a visit: holds its lock (`lock`: PostgreSQL's
 * advisory lock, or SQLite's lock row, as a sync does) and reads back what
 * another keeper of the same mirror left of it (its row, and what
 * `readBack` reads). Gives whether it is still due; when another holds
 * it, holds it back for about one visit and gives false.
 */
export const take = (keeper: Keeper, walk: Tracked<string>, lock: string, readBack: Effect.Effect<void, DatabaseFailed>) =>
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

/** An element's row, with its family's target and promise. */
const storedOf = (keeper: Keeper, element: Tracked<string>): KeeperState.StoredElement => ({
  row: keeper.keeping.rowOf(element),
  items: keeper.keeping.itemRowsOf(element),
  target: keeper.targets[element.group] ?? 0,
  promise: keeper.keeping.promiseOf(element.group),
  timeScale: keeper.scale
})

/** Writes an element's row: all of it after a visit. */
export const save = (keeper: Keeper, element: Tracked<string>) => dbOf(keeper)(KeeperState.saveElement(keeper.database, storedOf(keeper, element)))

/** Writes what a plan sets of every element's row. */
export const savePlanned = (keeper: Keeper) =>
  dbOf(keeper)(KeeperState.saveElements(keeper.database, [...keeper.keeping.elements()].map((element) => storedOf(keeper, element)), "plan"))

/** Sets each collection's gauges from the keeper's bookkeeping (`KeeperMetrics`). */
export const publish = (keeper: Keeper) =>
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
