/**
 * Each attempt of a request, recorded when it ends: on the call's span, in
 * the client's metrics and as one debug log line (with annotations). What
 * the attempt is (its number, the reason for it) comes down from the retry
 * step (`currentAttempt`); what the exchange observed of it comes back up
 * in the call's observation (`SentAttempt.Observation`).
 *
 * @internal
 */
import { Cause, Clock, Effect, Exit, LogLevel, type Metric, Option, References } from "effect"
import { HttpClient } from "effect/http"
import * as AttemptRecord from "../../../../rules/src/client/AttemptRecord.js"
import { type Attempt, currentAttempt } from "./Retrying.js"
import * as Call from "./Call.js"
import { ofOperation } from "./Metrics.js"


/** The debug log line of an attempt that has ended, with its annotations. */
const logLine = (call: Call.Call, attempt: Attempt, figures: AttemptRecord.Figures): Effect.Effect<void> => {
  const url = new URL(call.url)
  return Effect.logDebug(AttemptRecord.logText(url, attempt.number, figures)).pipe(
    Effect.annotateLogs(AttemptRecord.logAnnotations(call.operation.id, url, attempt.number, figures))
  )
}

/** The tag of the error an attempt ended with, if any. */
const failureOf = <A, E extends { readonly _tag: string }>(exit: Exit.Exit<A, E>): string | null => {
  if (Exit.isSuccess(exit)) return null
  const error = Option.getOrUndefined(Cause.findErrorOption(exit.cause))
  return error?._tag ?? null
}

/**
 * The span attributes and metrics of an attempt that has ended, recorded
 * at once on the fiber's context, and its debug log line, built only when
 * one would be logged.
 */
const record = (call: Call.Call, startedAt: number, exit: Exit.Exit<unknown, { readonly _tag: string }>): Effect.Effect<void> =>
  Effect.withFiber((fiber) => {
    const attempt = fiber.getRef(currentAttempt)
    const ended = { startedAt, endedAt: fiber.getRef(Clock.Clock).currentTimeMillisUnsafe(), sending: call.observed.latest, failure: failureOf(exit) }
    const figures = AttemptRecord.figuresOf(call.operation.units, ended)
    const { cache, durationMs, status, units, waitMs } = figures
    const answered = ended.sending?.status ?? null
    const metrics = ofOperation(call.operation.id)
    const update = <Input>(metric: Metric.Metric<Input, unknown>, input: Input) => metric.updateUnsafe(input, fiber.context)
    update(metrics.requests(status), 1)
    update(metrics.admissionWait, waitMs)
    if (ended.sending !== undefined) update(metrics.duration, durationMs)
    if (attempt.reason !== null) update(metrics.retries(attempt.reason), 1)
    if (units > 0) update(metrics.units, units)
    if (answered === 429) update(metrics.rateLimited, 1)
    if (answered === 503) update(metrics.unavailable, 1)
    if (cache === "hit") update(metrics.notModified, 1)
    const annotated = Effect.annotateCurrentSpan(AttemptRecord.spanAttributes(attempt.number, figures, answered))
    return LogLevel.isGreaterThan(fiber.getRef(References.MinimumLogLevel), "Debug")
      ? annotated
      : Effect.andThen(annotated, logLine(call, attempt, figures))
  })

/**
 * The attempt step: records each attempt of a call when it ends, on the
 * call's span, in the metrics and in the debug log. Placed inside the
 * retries, it sees every attempt.
 */
export const step = <E extends { readonly _tag: string }, R>(client: HttpClient.HttpClient.With<E, R>): HttpClient.HttpClient.With<E, R> =>
  HttpClient.transform(client, (response) =>
    Effect.withFiber((fiber) => {
      const call = fiber.getRef(Call.currentCall)
      if (Option.isNone(call)) return response
      const startedAt = fiber.getRef(Clock.Clock).currentTimeMillisUnsafe()
      call.value.observed.latest = undefined
      return Effect.onExit(response, (exit) => record(call.value, startedAt, exit))
    }))
