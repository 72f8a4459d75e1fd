/**
 * The client's metrics as a dashboard sees them, stated once: each metric's
 * name and description, the boundaries of the histograms, and the building
 * of a labelled metric once per label.
 *
 * Imports nothing of Effect. Both editions' `Metrics`
 * (src/client/internal/Metrics.ts, effect4/src/client/internal/Metrics.ts)
 * make their counters and histograms from these definitions, so that one
 * dashboard reads both.
 */

/** A metric's name and what it measures. */
export interface Definition {
  readonly name: string
  readonly description: string
}

/** The counters, by the name the client's code gives them. */
export const counters = {
  requests: {
    name: "catalog_requests",
    description: "Requests sent, by operation and status (the HTTP status, or the error's tag when no answer came)"
  },
  retries: {
    name: "catalog_retries",
    description: "Requests sent again after a retryable error, by operation and reason (the error's tag)"
  },
  units: { name: "catalog_units", description: "Units spent (answers of 200), by operation" },
  rateLimited: { name: "catalog_rate_limited", description: "Answers of 429, by operation" },
  unavailable: { name: "catalog_unavailable", description: "Answers of 503, by operation" },
  notModified: { name: "catalog_not_modified", description: "Answers served from the ETag cache (304), by operation" }
} as const satisfies Readonly<Record<string, Definition>>

/** The histograms, in milliseconds, by the name the client's code gives them. */
export const histograms = {
  duration: { name: "catalog_request_duration_ms", description: "Time from sending a request to its whole answer, by operation" },
  admissionWait: {
    name: "catalog_admission_wait_ms",
    description: "Time a request waited to be admitted before it was sent, by operation"
  }
} as const satisfies Readonly<Record<string, Definition>>

/** The boundaries of the histograms: milliseconds from 1 to about 33 s, doubling. */
export const milliseconds = { start: 1, factor: 2, count: 16 } as const

/** A labelled metric, built once per label (labelling makes a new metric at each call), then reused. */
export const memo = <A>(make: (label: string) => A): (label: string) => A => {
  const made = new Map<string, A>()
  return (label) => {
    const known = made.get(label)
    if (known !== undefined) return known
    const fresh = make(label)
    made.set(label, fresh)
    return fresh
  }
}
