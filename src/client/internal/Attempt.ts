/**
 * Each attempt of a request, recorded when it ends: on the call's span, in
 * the client's metrics and as one debug log line (with annotations). What
 * the attempt is (its number, the reason for it) comes down from the retry
 * step (`currentAttempt`); what the exchange observed of it comes back up
 * in the call's observation (`SentAttempt.Observation`).
 */
import * as HttpClient from "@effect/platform/HttpClient"
import { Cause, Clock, Context, Effect, Exit, FiberRef, LogLevel, type Metric, Option } from "effect"
import * as AttemptRecord from "../../../rules/src/client/AttemptRecord.js"
import * as Call from "./Call.js"
import { ofOperation } from "./Metrics.js"
import { type Attempt, currentAttempt } from "./Retrying.js"


/** The debug log line of an attempt that has ended, with its annotations. */
const logLine = (call: Call.Call, attempt: Attempt, figures: AttemptRecord.Figures) => {
  const url = new URL(call.url)
  return Effect.logDebug(AttemptRecord.logText(url, attempt.number, figures)).pipe(
    Effect.annotateLogs(AttemptRecord.logAnnotations(call.operation.id, url, attempt.number, figures))
  )
}

/** The tag of the error an attempt ended with, if any. */
const failureOf = <A, E extends { readonly _tag: string }>(exit: Exit.Exit<A, E>): string | null => {
  if (Exit.isSuccess(exit)) return null
  const error = Option.getOrUndefined(Cause.failureOption(exit.cause))
  return error?._tag ?? null
}

/**
 * The span attributes and metrics of an attempt that has ended, recorded
 * at once on the fiber (its metric labels, its clock read once), and its
 * debug log line, built only when one would be logged.
 */
const record = (call: Call.Call, startedAt: number, exit: Exit.Exit<unknown, { readonly _tag: string }>): Effect.Effect<void> =>
  Effect.withFiberRuntime((fiber) => {
    const attempt = fiber.getFiberRef(currentAttempt)
    const ended = { startedAt, endedAt: Context.get(fiber.currentDefaultServices, Clock.Clock).unsafeCurrentTimeMillis(), sending: call.observed.latest, failure: failureOf(exit) }
    const figures = AttemptRecord.figuresOf(call.operation.units, ended)
    const { cache, durationMs, status, units, waitMs } = figures
    const answered = ended.sending?.status ?? null
    const metrics = ofOperation(call.operation.id)
    const labels = fiber.getFiberRef(FiberRef.currentMetricLabels)
    const update = <Type, In, Out>(metric: Metric.Metric<Type, In, Out>, input: In) => metric.unsafeUpdate(input, labels)
    update(metrics.requests(status), 1)
    update(metrics.admissionWait, waitMs)
    if (ended.sending !== undefined) update(metrics.duration, durationMs)
    if (attempt.reason !== null) update(metrics.retries(attempt.reason), 1)
    if (units > 0) update(metrics.units, units)
    if (answered === 429) update(metrics.rateLimited, 1)
    if (answered === 503) update(metrics.unavailable, 1)
    if (cache === "hit") update(metrics.notModified, 1)
    const annotated = Effect.annotateCurrentSpan(AttemptRecord.spanAttributes(attempt.number, figures, answered))
    return LogLevel.lessThanEqual(fiber.getFiberRef(FiberRef.currentMinimumLogLevel), LogLevel.Debug)
      ? Effect.zipRight(annotated, logLine(call, attempt, figures))
      : annotated
  })

/**
 * The attempt step: records each attempt of a call when it ends, on the
 * call's span, in the metrics and in the debug log. Placed inside the
 * retries, it sees every attempt.
 */
export const step = <E extends { readonly _tag: string }, R>(client: HttpClient.HttpClient.With<E, R>): HttpClient.HttpClient.With<E, R> =>
  HttpClient.transform(client, (response) =>
    Effect.withFiberRuntime((fiber) => {
      const call = fiber.getFiberRef(Call.currentCall)
      if (Option.isNone(call)) return response
      const startedAt = Context.get(fiber.currentDefaultServices, Clock.Clock).unsafeCurrentTimeMillis()
      call.value.observed.latest = undefined
      return Effect.onExit(response, (exit) => record(call.value, startedAt, exit))
    }))
