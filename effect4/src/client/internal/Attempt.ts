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
import * as AttemptRecord from "../../../../src/client/internal/AttemptRecord.js"
import * as Sending from "../../../../src/client/internal/Sending.js"
import { type Attempt, currentAttempt } from "../Retry.js"
import * as Call from "./Call.js"
import { ofOperation } from "./Metrics.js"

/** The attempt being sent, which the retry step provides for each attempt it makes (`Retry.currentAttempt`). */
export { currentAttempt }

/** The debug log line of an attempt that has ended, with its annotations. */
const logLine = (call: Call.Call, attempt: Attempt, figures: AttemptRecord.Figures): Effect.Effect<void> => {
  const url = new URL(call.url)
  return Effect.logDebug(AttemptRecord.logText(url, attempt.number, figures)).pipe(
    Effect.annotateLogs(AttemptRecord.logAnnotations(call.operation.id, url, attempt.number, figures))
  )
}

/** Span attributes, metric labels and log annotations of an attempt that has ended. */
const record = (call: Call.Call, attempt: Attempt, ended: AttemptRecord.Ended): Effect.Effect<void> => {
  const figures = AttemptRecord.figuresOf(call.operation.units, ended)
  const { cache, durationMs, status, units, waitMs } = figures
  const answered = ended.sending?.status ?? null
  const metrics = ofOperation(call.operation.id)
  const recorded: Array<Effect.Effect<void>> = [
    Effect.annotateCurrentSpan(AttemptRecord.spanAttributes(attempt.number, figures, answered)),
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
const outcomeOf = <A, E extends { readonly _tag: string }>(exit: Exit.Exit<A, E>): Pick<AttemptRecord.Ended, "sending" | "failure"> => {
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
