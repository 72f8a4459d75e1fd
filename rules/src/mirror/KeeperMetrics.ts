/**
 * The keeper's metrics, by the name its code gives them: per collection
 * (the label `collection`), the age of its last verification against its
 * target, whether it is within its promise, when its next walk is due,
 * its estimated change rate and the units spent on it; and each walk's
 * duration and pages, 304s apart. Both editions make them from these, so
 * one dashboard reads both.
 *
 * Imports nothing of Effect.
 *
 * @example
 * import { gauges } from "./KeeperMetrics.js"
 *
 * gauges.age.name // "catalog_keeper_age_seconds"
 */
import type { Definition } from "../client/MetricDefinitions.js"

/** The gauges, each labelled by collection. */
export const gauges = {
  age: { name: "catalog_keeper_age_seconds", description: "Seconds since the collection was last verified (its last complete walk began), on the service's clock" },
  target: { name: "catalog_keeper_target_seconds", description: "The collection's freshness target, seconds" },
  promise: { name: "catalog_keeper_promise_seconds", description: "The age the keeper promises for the collection, seconds (its target when the targets fit)" },
  withinTarget: { name: "catalog_keeper_within_target", description: "1 while the collection's age is within its promise, else 0" },
  nextWalk: { name: "catalog_keeper_next_walk_seconds", description: "Seconds until the collection's next walk is due (0 when it is)" },
  changesPerDay: { name: "catalog_keeper_changes_per_day", description: "The collection's items' estimated changes a day, on average" },
  units: { name: "catalog_keeper_units", description: "Units the client has spent on the collection's list since it started" }
} as const satisfies Readonly<Record<string, Definition>>

/** The counters, labelled by collection. */
export const counters = {
  pages: { name: "catalog_keeper_pages", description: "Pages the keeper's walks read, by collection and status (200 or 304)" },
  walks: { name: "catalog_keeper_walks", description: "Walks the keeper completed, by collection" }
} as const satisfies Readonly<Record<string, Definition>>

/** The histogram of walk durations, milliseconds. */
export const walkDuration: Definition = { name: "catalog_keeper_walk_duration_ms", description: "Time a walk of a collection took, by collection" }

/** What the keeper reports of a collection each time it plans or visits. */
export interface Figures {
  readonly age: number
  readonly target: number
  readonly promise: number
  readonly withinTarget: boolean
  readonly nextWalk: number
  readonly changesPerDay: number
  readonly units: number
}
