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

/** The sum of a counter of `metrics` over all its labels. */
export const total = (counter: { readonly metricName: string }): Effect.Effect<number> =>
  Effect.map(Metric.snapshot, (pairs) =>
    pairs.reduce(
      (sum, pair) => pair.metricKey.name === counter.metricName && MetricState.isCounterState(pair.metricState) ? sum + Number(pair.metricState.count) : sum,
      0
    ))
