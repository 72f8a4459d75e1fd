/**
 * What is recorded of an attempt that has ended, as plain data: its figures
 * (wait, duration, units, status, cache, request id), its debug log line
 * and the line's annotations, and the attributes of the call's span.
 *
 * Imports nothing of Effect. Both editions' `Attempt`
 * (src/client/internal/Attempt.ts, effect4/src/client/internal/Attempt.ts)
 * record these on their spans, metrics and logs.
 */
import { plural } from "../Words.js"
import type { SentAttempt } from "./SentAttempt.js"

/** How an attempt ended. */
export interface Ended {
  readonly startedAt: number
  readonly endedAt: number
  /** What the exchange observed, if the request was sent. */
  readonly sending: SentAttempt | undefined
  /** The tag of the error it ended with, if any. */
  readonly failure: string | null
}

/** The figures of an attempt of a request that costs `units` when answered, once it has ended. */
export const figuresOf = (units: number, ended: Ended) => {
  const { endedAt, sending, startedAt } = ended
  const status = sending?.status ?? null
  return {
    waitMs: (sending?.sentAt ?? endedAt) - startedAt,
    durationMs: sending === undefined ? 0 : endedAt - sending.sentAt,
    units: status === 200 ? units : 0,
    status: status === null ? ended.failure ?? "none" : String(status),
    cache: sending?.cache ?? "miss",
    requestId: sending?.requestId ?? null
  }
}

/** The figures of an attempt that has ended. */
export type Figures = ReturnType<typeof figuresOf>

/** The debug log line of attempt `attempt` of a request to `url`. */
export const logText = (url: URL, attempt: number, figures: Figures): string => {
  const { cache, durationMs, requestId, status, units, waitMs } = figures
  return `GET ${url.pathname}${url.search} ${status} ${durationMs} ms, ${plural(units, "unit")}, request ${requestId ?? "none"}, ` +
    `cache ${cache}, attempt ${attempt}, waited ${waitMs} ms`
}

/** The annotations of the debug log line of attempt `attempt` of `operation`'s request to `url`. */
export const logAnnotations = (operation: string, url: URL, attempt: number, figures: Figures) => ({
  "catalog.operation": operation,
  "http.request.method": "GET",
  "url.path": url.pathname,
  "url.query": url.search,
  "http.response.status_code": figures.status,
  "catalog.duration_ms": figures.durationMs,
  "catalog.units": figures.units,
  "catalog.request_id": figures.requestId ?? "none",
  "catalog.cache": figures.cache,
  "catalog.retry.attempt": attempt,
  "catalog.admission.wait_ms": figures.waitMs
})

/** The attributes the call's span takes of attempt `attempt`, with the status `answered`, if an answer came. */
export const spanAttributes = (attempt: number, figures: Figures, answered: number | null) => ({
  "catalog.retry.attempt": attempt,
  "catalog.admission.wait_ms": figures.waitMs,
  "catalog.cache": figures.cache,
  "catalog.units": figures.units,
  ...(answered === null ? {} : { "http.response.status_code": answered }),
  ...(figures.requestId === null ? {} : { "catalog.request_id": figures.requestId })
})
