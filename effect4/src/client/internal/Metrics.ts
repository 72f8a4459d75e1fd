/**
 * The client's metrics, labelled by operation (and by status, reason), kept
 * by the attempt step of the request path and exposed as
 * `CatalogClient.metrics`. Their names and labels are the Effect 3
 * edition's: one dashboard reads both.
 *
 * @internal
 */
import { Effect, Metric } from "effect"

/** Milliseconds from 1 to about 33 s, doubling. */
const boundaries = Metric.exponentialBoundaries({ start: 1, factor: 2, count: 16 })

const counter = (name: string, description: string): Metric.Counter<number> => Metric.counter(name, { description, incremental: true })

const histogram = (name: string, description: string): Metric.Histogram<number> => Metric.histogram(name, { description, boundaries })

/** The client's metrics. */
export const metrics = {
  requests: counter("catalog_requests", "Requests sent, by operation and status (the HTTP status, or the error's tag when no answer came)"),
  duration: histogram("catalog_request_duration_ms", "Time from sending a request to its whole answer, by operation"),
  admissionWait: histogram("catalog_admission_wait_ms", "Time a request waited to be admitted before it was sent, by operation"),
  retries: counter("catalog_retries", "Requests sent again after a retryable error, by operation and reason (the error's tag)"),
  units: counter("catalog_units", "Units spent (answers of 200), by operation"),
  rateLimited: counter("catalog_rate_limited", "Answers of 429, by operation"),
  unavailable: counter("catalog_unavailable", "Answers of 503, by operation"),
  notModified: counter("catalog_not_modified", "Answers served from the ETag cache (304), by operation")
}

/** A labelled metric, built once per label: `Metric.withAttributes` makes a new metric at each call. */
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
