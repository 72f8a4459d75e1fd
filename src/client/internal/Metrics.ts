/**
 * The client's metrics, labelled by operation (and by status, reason), kept
 * by the attempt step of the request path and exposed as
 * `CatalogClient.metrics`.
 */
import { Effect, Metric, MetricBoundaries, MetricState } from "effect"
import { counters, type Definition, histograms, memo, milliseconds } from "../../../rules/src/client/MetricDefinitions.js"

/** A counter that keeps its name, so that its total over all labels can be read (`total`). */
const counter = ({ description, name }: Definition) =>
  Object.assign(Metric.counter(name, { description, incremental: true }), { metricName: name })

const histogram = ({ description, name }: Definition) => Metric.histogram(name, MetricBoundaries.exponential(milliseconds), description)

/** The client's metrics. */
export const metrics = {
  requests: counter(counters.requests),
  duration: histogram(histograms.duration),
  admissionWait: histogram(histograms.admissionWait),
  retries: counter(counters.retries),
  units: counter(counters.units),
  rateLimited: counter(counters.rateLimited),
  unavailable: counter(counters.unavailable),
  notModified: counter(counters.notModified)
}

/** The metrics of one operation, each labelled with it (and with a status or reason) once, then reused. */
export interface OfOperation {
  readonly requests: (status: string) => Metric.Metric.Counter<number>
  readonly duration: Metric.Metric.Histogram<number>
  readonly admissionWait: Metric.Metric.Histogram<number>
  readonly retries: (reason: string) => Metric.Metric.Counter<number>
  readonly units: Metric.Metric.Counter<number>
  readonly rateLimited: Metric.Metric.Counter<number>
  readonly unavailable: Metric.Metric.Counter<number>
  readonly notModified: Metric.Metric.Counter<number>
}

/** The metrics of an operation, labelled with its id. */
export const ofOperation: (operation: string) => OfOperation = memo((operation) => {
  const labelled = <Type, In, Out>(metric: Metric.Metric<Type, In, Out>) => Metric.tagged(metric, "operation", operation)
  const requests = labelled(metrics.requests)
  const retries = labelled(metrics.retries)
  return {
    requests: memo((status) => Metric.tagged(requests, "status", status)),
    duration: labelled(metrics.duration),
    admissionWait: labelled(metrics.admissionWait),
    retries: memo((reason) => Metric.tagged(retries, "reason", reason)),
    units: labelled(metrics.units),
    rateLimited: labelled(metrics.rateLimited),
    unavailable: labelled(metrics.unavailable),
    notModified: labelled(metrics.notModified)
  }
})

/** The sum of a counter of `metrics` over all its labels. */
export const total = (counter: { readonly metricName: string }): Effect.Effect<number> =>
  Effect.map(Metric.snapshot, (pairs) =>
    pairs.reduce(
      (sum, pair) => pair.metricKey.name === counter.metricName && MetricState.isCounterState(pair.metricState) ? sum + Number(pair.metricState.count) : sum,
      0
    ))
