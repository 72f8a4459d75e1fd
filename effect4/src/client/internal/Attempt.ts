/**
 * Each attempt of a request, recorded when it ends: on the call's span, in
 * the client's metrics and as one debug log line (with annotations). What
 * the attempt is (its number, the reason for it) comes down from the retry
 * step (`currentAttempt`); what the exchange observed of it comes back up
 * with its answer or its error (`Sending`).
 *
 * @internal
 */
import { Cause, Clock, Effect, Exit, LogLevel, Metric, Option } from "effect"
import { HttpClient } from "effect/http"
import * as Sending from "../../../../src/client/internal/Sending.js"
import { plural } from "../../../../src/internal/Words.js"
import { type Attempt, currentAttempt } from "../Retry.js"
import * as Call from "./Call.js"
import { ofOperation } from "./Metrics.js"

/** The attempt being sent, which the retry step provides for each attempt it makes (`Retry.currentAttempt`). */
export { currentAttempt }

/** How an attempt ended. */
interface Ended {
  readonly startedAt: number
  readonly endedAt: number
  /** What the exchange observed, if the request was sent. */
  readonly sending: Sending.Sending | undefined
  /** The tag of the error it ended with, if any. */
  readonly failure: string | null
}

/** The figures of an attempt that has ended. */
const figuresOf = (call: Call.Call, ended: Ended) => {
  const { endedAt, sending, startedAt } = ended
  const status = sending?.status ?? null
  return {
    waitMs: (sending?.sentAt ?? endedAt) - startedAt,
    durationMs: sending === undefined ? 0 : endedAt - sending.sentAt,
    units: status === 200 ? call.operation.units : 0,
    status: status === null ? ended.failure ?? "none" : String(status),
    cache: sending?.cache ?? "miss",
    requestId: sending?.requestId ?? null
  }
}

type Figures = ReturnType<typeof figuresOf>

/** The debug log line of an attempt that has ended, with its annotations. */
const logLine = (call: Call.Call, attempt: Attempt, figures: Figures): Effect.Effect<void> => {
  const url = new URL(call.url)
  const { cache, durationMs, requestId, status, units, waitMs } = figures
  return Effect.logDebug(
    `GET ${url.pathname}${url.search} ${status} ${durationMs} ms, ${plural(units, "unit")}, request ${requestId ?? "none"}, cache ${cache}, ` +
      `attempt ${attempt.number}, waited ${waitMs} ms`
  ).pipe(
    Effect.annotateLogs({
      "catalog.operation": call.operation.id,
      "http.request.method": "GET",
      "url.path": url.pathname,
      "url.query": url.search,
      "http.response.status_code": status,
      "catalog.duration_ms": durationMs,
      "catalog.units": units,
      "catalog.request_id": requestId ?? "none",
      "catalog.cache": cache,
      "catalog.retry.attempt": attempt.number,
      "catalog.admission.wait_ms": waitMs
    })
  )
}

/** Span attributes, metric labels and log annotations of an attempt that has ended. */
const record = (call: Call.Call, attempt: Attempt, ended: Ended): Effect.Effect<void> => {
  const figures = figuresOf(call, ended)
  const { cache, durationMs, requestId, status, units, waitMs } = figures
  const answered = ended.sending?.status ?? null
  const metrics = ofOperation(call.operation.id)
  const recorded: Array<Effect.Effect<void>> = [
    Effect.annotateCurrentSpan({
      "catalog.retry.attempt": attempt.number,
      "catalog.admission.wait_ms": waitMs,
      "catalog.cache": cache,
      "catalog.units": units,
      ...(answered === null ? {} : { "http.response.status_code": answered }),
      ...(requestId === null ? {} : { "catalog.request_id": requestId })
    }),
    Metric.update(metrics.requests(status), 1),
    Metric.update(metrics.admissionWait, waitMs)
  ]
  if (ended.sending !== undefined) recorded.push(Metric.update(metrics.duration, durationMs))
  if (attempt.reason !== null) recorded.push(Metric.update(metrics.retries(attempt.reason), 1))
  if (units > 0) recorded.push(Metric.update(metrics.units, units))
  if (answered === 429) recorded.push(Metric.update(metrics.rateLimited, 1))
  if (answered === 503) recorded.push(Metric.update(metrics.unavailable, 1))
  if (cache === "hit") recorded.push(Metric.update(metrics.notModified, 1))
  // The line and its annotations are built only when a debug line would be logged.
  recorded.push(Effect.flatMap(LogLevel.isEnabled("Debug"), (logged) => logged ? logLine(call, attempt, figures) : Effect.void))
  return Effect.all(recorded, { discard: true })
}

/** What came back of an attempt: its answer or its error, with what the exchange observed of it. */
const outcomeOf = <A, E extends { readonly _tag: string }>(exit: Exit.Exit<A, E>): Pick<Ended, "sending" | "failure"> => {
  if (Exit.isSuccess(exit)) return { sending: Sending.of(exit.value), failure: null }
  const error = Option.getOrUndefined(Cause.findErrorOption(exit.cause))
  return { sending: Sending.of(error), failure: error?._tag ?? null }
}

/**
 * The attempt step: records each attempt of a call when it ends, on the
 * call's span, in the metrics and in the debug log. Placed inside the
 * retries, it sees every attempt.
 */
export const step = <E extends { readonly _tag: string }, R>(client: HttpClient.HttpClient.With<E, R>): HttpClient.HttpClient.With<E, R> =>
  HttpClient.transform(client, (response) =>
    Effect.flatMap(Effect.zip(Call.current, Clock.currentTimeMillis), ([call, startedAt]) =>
      Option.isNone(call) ? response : Effect.onExit(response, (exit) =>
        Effect.flatMap(Effect.zip(currentAttempt, Clock.currentTimeMillis), ([attempt, endedAt]) =>
          record(call.value, attempt, { startedAt, endedAt, ...outcomeOf(exit) })))))
