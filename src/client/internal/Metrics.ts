/**
 * The client's metrics, labelled by operation (and by status, reason), kept
 * by the attempt step of the request path and exposed as
 * `CatalogClient.metrics`.
 */
import { Effect, Metric, MetricBoundaries, MetricState } from "effect"

/** Milliseconds from 1 to about 33 s, doubling. */
const milliseconds = MetricBoundaries.exponential({ start: 1, factor: 2, count: 16 })

/** A counter that keeps its name, so that its total over all labels can be read (`total`). */
const counter = (name: string, description: string) => Object.assign(Metric.counter(name, { description, incremental: true }), { metricName: name })

/** The client's metrics. */
export const metrics = {
  requests: counter("catalog_requests", "Requests sent, by operation and status (the HTTP status, or the error's tag when no answer came)"),
  duration: Metric.histogram("catalog_request_duration_ms", milliseconds, "Time from sending a request to its whole answer, by operation"),
  admissionWait: Metric.histogram("catalog_admission_wait_ms", milliseconds, "Time a request waited to be admitted before it was sent, by operation"),
  retries: counter("catalog_retries", "Requests sent again after a retryable error, by operation and reason (the error's tag)"),
  units: counter("catalog_units", "Units spent (answers of 200), by operation"),
  rateLimited: counter("catalog_rate_limited", "Answers of 429, by operation"),
  unavailable: counter("catalog_unavailable", "Answers of 503, by operation"),
  notModified: counter("catalog_not_modified", "Answers served from the ETag cache (304), by operation")
}

/** A labelled metric, built once per label: `Metric.tagged` makes a new metric, and a new key to look up, at each call. */
const memo = <A>(make: (label: string) => A): (label: string) => A => {
  const made = new Map<string, A>()
  return (label) => {
    const known = made.get(label)
    if (known !== undefined) return known
    const fresh = make(label)
    made.set(label, fresh)
    return fresh
  }
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
