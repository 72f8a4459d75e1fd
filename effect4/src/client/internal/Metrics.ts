/**
 * The client's metrics, labelled by operation (and by status, reason), kept
 * by the attempt step of the request path and exposed as
 * `CatalogClient.metrics`. Their names and labels are the Effect 3
 * edition's: one dashboard reads both.
 *
 * @internal
 */
import { Effect, Metric } from "effect"
import {
  counters,
  type Definition,
  histograms,
  memo,
  milliseconds
} from "../../../../rules/src/client/MetricDefinitions.js"

const boundaries = Metric.exponentialBoundaries(milliseconds)

const counter = ({ description, name }: Definition): Metric.Counter<number> => Metric.counter(name, { description, incremental: true })

const histogram = ({ description, name }: Definition): Metric.Histogram<number> => Metric.histogram(name, { description, boundaries })

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
  readonly requests: (status: string) => Metric.Counter<number>
  readonly duration: Metric.Histogram<number>
  readonly admissionWait: Metric.Histogram<number>
  readonly retries: (reason: string) => Metric.Counter<number>
  readonly units: Metric.Counter<number>
  readonly rateLimited: Metric.Counter<number>
  readonly unavailable: Metric.Counter<number>
  readonly notModified: Metric.Counter<number>
}

/** The metrics of an operation, labelled with its id. */
export const ofOperation: (operation: string) => OfOperation = memo((operation) => {
  const labelled = <Input, State>(metric: Metric.Metric<Input, State>) => Metric.withAttributes(metric, { operation })
  const requests = labelled(metrics.requests)
  const retries = labelled(metrics.retries)
  return {
    requests: memo((status) => Metric.withAttributes(requests, { status })),
    duration: labelled(metrics.duration),
    admissionWait: labelled(metrics.admissionWait),
    retries: memo((reason) => Metric.withAttributes(retries, { reason })),
    units: labelled(metrics.units),
    rateLimited: labelled(metrics.rateLimited),
    unavailable: labelled(metrics.unavailable),
    notModified: labelled(metrics.notModified)
  }
})

/** The sum of a counter of `metrics` over all its labels. */
export const total = (counter: Metric.Counter<number>): Effect.Effect<number> =>
  Effect.map(Metric.snapshot, (snapshots) =>
    snapshots.reduce((sum, snapshot) => snapshot.id === counter.id && snapshot.type === "Counter" ? sum + Number(snapshot.state.count) : sum, 0))
