/**
 * The client's metrics, labelled by operation (and by status, reason), kept
 * by the attempt step of the request path and exposed as
 * `CatalogClient.metrics`.
 */
import { Effect, Metric, MetricBoundaries, MetricState } from "effect"

/** Milliseconds from 1 to about 33 s, doubling. */
const milliseconds = MetricBoundaries.exponential({ start: 1, factor: 2, count: 16 })

/** The client's metrics. */
export const metrics = {
  requests: Metric.counter("catalog_requests", {
    description: "Requests sent, by operation and status (the HTTP status, or the error's tag when no answer came)",
    incremental: true
  }),
  duration: Metric.histogram("catalog_request_duration_ms", milliseconds, "Time from sending a request to its whole answer, by operation"),
  admissionWait: Metric.histogram("catalog_admission_wait_ms", milliseconds, "Time a request waited to be admitted before it was sent, by operation"),
  retries: Metric.counter("catalog_retries", {
    description: "Requests sent again after a retryable error, by operation and reason (the error's tag)",
    incremental: true
  }),
  units: Metric.counter("catalog_units", { description: "Units spent (answers of 200), by operation", incremental: true }),
  rateLimited: Metric.counter("catalog_rate_limited", { description: "Answers of 429, by operation", incremental: true }),
  unavailable: Metric.counter("catalog_unavailable", { description: "Answers of 503, by operation", incremental: true }),
  notModified: Metric.counter("catalog_not_modified", { description: "Answers served from the ETag cache (304), by operation", incremental: true })
}

/** The sum of the counter named `name` over all its labels. */
export const total = (name: string): Effect.Effect<number> =>
  Effect.map(Metric.snapshot, (pairs) =>
    pairs.reduce(
      (sum, pair) => pair.metricKey.name === name && MetricState.isCounterState(pair.metricState) ? sum + Number(pair.metricState.count) : sum,
      0
    ))
