/**
 * The keeper's metrics, from the shared definitions
 * (`rules/src/mirror/KeeperMetrics.ts`): gauges per collection, set each
 * time the keeper plans or walks, and each walk's duration and pages.
 */
import { Effect, exponentialHistogram, labelled, Metric } from "#edition/internal/Edition.js"
import { memo, milliseconds } from "../../../../rules/src/client/MetricDefinitions.js"
import { counters, type Figures, gauges, walkDuration } from "../../../../rules/src/mirror/KeeperMetrics.js"

const gauge = (definition: { readonly name: string; readonly description: string }) => Metric.gauge(definition.name, { description: definition.description })

const counter = (definition: { readonly name: string; readonly description: string }) =>
  Metric.counter(definition.name, { description: definition.description, incremental: true })

const unlabelled = {
  age: gauge(gauges.age),
  target: gauge(gauges.target),
  promise: gauge(gauges.promise),
  withinTarget: gauge(gauges.withinTarget),
  nextWalk: gauge(gauges.nextWalk),
  changesPerDay: gauge(gauges.changesPerDay),
  units: gauge(gauges.units),
  pages: counter(counters.pages),
  walks: counter(counters.walks),
  duration: exponentialHistogram(walkDuration.name, walkDuration.description, milliseconds)
}

/** The metrics of one collection, labelled once. */
const ofCollection = memo((collection: string) => ({
  age: labelled(unlabelled.age, { collection }),
  target: labelled(unlabelled.target, { collection }),
  promise: labelled(unlabelled.promise, { collection }),
  withinTarget: labelled(unlabelled.withinTarget, { collection }),
  nextWalk: labelled(unlabelled.nextWalk, { collection }),
  changesPerDay: labelled(unlabelled.changesPerDay, { collection }),
  units: labelled(unlabelled.units, { collection }),
  changedPages: labelled(unlabelled.pages, { collection, status: "200" }),
  unchangedPages: labelled(unlabelled.pages, { collection, status: "304" }),
  walks: labelled(unlabelled.walks, { collection }),
  duration: labelled(unlabelled.duration, { collection })
}))

/** Sets a collection's gauges. */
export const report = (collection: string, figures: Figures): Effect.Effect<void> => {
  const metrics = ofCollection(collection)
  return Effect.all([
    Metric.update(metrics.age, figures.age),
    Metric.update(metrics.target, figures.target),
    Metric.update(metrics.promise, figures.promise),
    Metric.update(metrics.withinTarget, figures.withinTarget ? 1 : 0),
    Metric.update(metrics.nextWalk, figures.nextWalk),
    Metric.update(metrics.changesPerDay, figures.changesPerDay),
    Metric.update(metrics.units, figures.units)
  ], { discard: true })
}

/** Counts a walk of a collection: its duration and its pages, 304s apart. */
export const walked = (collection: string, millis: number, changed: number, unchanged: number): Effect.Effect<void> => {
  const metrics = ofCollection(collection)
  return Effect.all([
    Metric.update(metrics.duration, millis),
    Metric.update(metrics.walks, 1),
    Metric.update(metrics.changedPages, changed),
    Metric.update(metrics.unchangedPages, unchanged)
  ], { discard: true })
}
