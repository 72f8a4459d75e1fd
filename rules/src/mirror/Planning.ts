/**
 * What a sync of some collections will cost, from what was read for it: the
 * counts `/stats/` states, what the mirror knows of each collection, the
 * page sizes that fitted before, the account's windows and what is left of
 * today's allowance. Each collection's requests are placed by the
 * admission's own schedule (`AdmissionWindows.schedule`) after those already
 * booked, so the plan's time is the time the sync will take under the
 * windows.
 *
 * Imports nothing of Effect. `Mirror.plan` (common/src/mirror/Mirror.ts)
 * reads what the plan needs and gives it to `planOf`.
 */
import { type Limits, schedule } from "../client/AdmissionWindows.js"
import { cost, envelopeBytes } from "./Estimate.js"

/** Where the count of a collection comes from (`Mirror.CountSource`). */
export type CountSource = "stats" | "contract" | "mirror" | "assumed"

/** What a full sync of a collection will cost (`Mirror.CollectionPlan`). */
export interface CollectionPlan<Collection extends string = string> {
  readonly collection: Collection
  readonly items: number
  readonly counted: CountSource
  /**
   * The average size of an item: as the last complete sync received them, else
   * as the mirror stores them, else `defaultItemBytes`.
   */
  readonly itemBytes: number
  readonly requests: number
  readonly units: number
  readonly bytes: number
  /** Wall time under the account's windows, by the admission's schedule, each request taking as long as one of the plan's own. */
  readonly seconds: number
}

/** What a sync of some collections will cost, and whether it fits in what is left of today's allowance (`Mirror.Plan`). */
export interface Plan<Collection extends string = string> {
  readonly collections: ReadonlyArray<CollectionPlan<Collection>>
  readonly requests: number
  readonly units: number
  readonly bytes: number
  readonly seconds: number
  /** What is left of today's units and bytes, from `/usage/`. */
  readonly left: { readonly units: number; readonly bytes: number }
  readonly fits: boolean
}

/** What the mirror knows of a collection: its live items, their average size, and whether a scan of it ever completed. */
export interface Mirrored {
  readonly items: number
  readonly itemBytes: number | null
  readonly complete: boolean
}

/** What a plan knows of a collection the mirror does not hold, or without a mirror. */
export const nothingMirrored: Mirrored = { items: 0, itemBytes: null, complete: false }

/** The rows a mirror's counts are read from: its live items, and the last complete run of the collection that listed any. */
export interface MirroredRows {
  readonly live: { readonly items: number | string; readonly bytes: number | string | null; readonly complete: number | string } | undefined
  readonly lastRun: { readonly pages: number | string; readonly items: number | string; readonly bytes: number | string } | undefined
}

/**
 * What the mirror knows of a collection, from its rows: the size of an item
 * is the bytes its last complete sync received beyond the pages' envelopes,
 * per item, or else the size of the items it stores.
 */
export const mirroredOf = ({ lastRun, live }: MirroredRows): Mirrored => ({
  items: Number(live?.items ?? 0),
  itemBytes: lastRun !== undefined
    ? (Number(lastRun.bytes) - Number(lastRun.pages) * envelopeBytes) / Number(lastRun.items)
    : live?.bytes === null || live?.bytes === undefined ? null : Number(live.bytes),
  complete: Number(live?.complete ?? 0) > 0
})

/** What a plan knows of one collection. */
export interface CollectionFacts<Collection extends string> {
  readonly operation: {
    readonly id: Collection
    /** How many items the list holds at most whatever the catalog's size, or null. */
    readonly listWindow: number | null
    readonly maxLimit: number
    readonly units: number
  }
  /** Its count in `/stats/`, if stated there. */
  readonly stated: number | undefined
  readonly mirrored: Mirrored
  /** The page size that fitted its list before, if known. */
  readonly fitted: number | undefined
}

/** What the plan is made under. */
export interface Circumstances {
  /** The windows the sync's client admits under. */
  readonly limits: Limits
  /** The start times the plan's own requests took in the windows, from its start. */
  readonly booked: ReadonlyArray<number>
  /** How long a request takes now. */
  readonly requestMillis: number
  /** The size assumed of an item of a collection the mirror holds none of. */
  readonly defaultItemBytes: number
  /** What is left of today's units and bytes. */
  readonly left: { readonly units: number; readonly bytes: number }
}

/** The plan of a sync of the collections, in their order. */
export const planOf = <Collection extends string>(
  collections: ReadonlyArray<CollectionFacts<Collection>>,
  circumstances: Circumstances
): Plan<Collection> => {
  let booked = circumstances.booked
  let end = 0
  const planned: Array<CollectionPlan<Collection>> = []
  for (const { fitted, mirrored, operation, stated } of collections) {
    const counted: CountSource = stated !== undefined
      ? "stats"
      : operation.listWindow !== null ? "contract" : mirrored.complete ? "mirror" : "assumed"
    const items = stated ?? operation.listWindow ?? (mirrored.complete ? mirrored.items : operation.maxLimit)
    const itemBytes = Math.round(mirrored.itemBytes ?? circumstances.defaultItemBytes)
    const costs = cost(items, itemBytes, operation, fitted)
    booked = schedule(costs.requests, circumstances.limits, booked, circumstances.requestMillis)
    const ended = (booked.at(-1) ?? 0) + circumstances.requestMillis
    planned.push({ collection: operation.id, items, counted, itemBytes, ...costs, seconds: (ended - end) / 1000 })
    end = ended
  }
  const total = (field: "requests" | "units" | "bytes" | "seconds") => planned.reduce((sum, step) => sum + step[field], 0)
  const { left } = circumstances
  return {
    collections: planned,
    requests: total("requests"),
    units: total("units"),
    bytes: total("bytes"),
    seconds: total("seconds"),
    left,
    fits: total("units") <= left.units && total("bytes") <= left.bytes
  }
}

/** What is left of today's allowance, from `/usage/`. */
export const leftOf = (usage: {
  readonly daily_limit: number
  readonly daily_units: number
  readonly daily_byte_limit: number
  readonly daily_bytes: number
}) => ({ units: Math.max(0, usage.daily_limit - usage.daily_units), bytes: Math.max(0, usage.daily_byte_limit - usage.daily_bytes) })
