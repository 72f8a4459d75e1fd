/**
 * Each attempt of a request, recorded when it ends: on the call's span, in
 * the client's metrics and as one debug log line (with annotations). What
 * the attempt is (its number, the reason for it) comes down from the retry
 * step (`currentAttempt`); what the exchange observed of it comes back up
 * with its answer or its error (`Sending`).
 */
import * as HttpClient from "@effect/platform/HttpClient"
import { Cause, Clock, Effect, Exit, FiberRef, GlobalValue, LogLevel, Metric, Option } from "effect"
import * as AttemptRecord from "./AttemptRecord.js"
import * as Call from "./Call.js"
import { ofOperation } from "./Metrics.js"
import * as Sending from "./Sending.js"

/** Which attempt of its request is being sent, and the tag of the previous attempt's error, the reason for this one. */
export interface Attempt {
  readonly number: number
  readonly reason: string | null
}

/** The attempt being sent: set by the retry step for each attempt it makes; the first, when none is retried. */
export const currentAttempt: FiberRef.FiberRef<Attempt> = GlobalValue.globalValue(
  Symbol.for("effect-catalog/Attempt/currentAttempt"),
  () => FiberRef.unsafeMake<Attempt>({ number: 1, reason: null })
)

/** Whether a debug line would be logged: the line and its annotations are built only then. */
const debugLogged = Effect.map(FiberRef.get(FiberRef.currentMinimumLogLevel), (minimum) => LogLevel.lessThanEqual(minimum, LogLevel.Debug))

/** The debug log line of an attempt that has ended, with its annotations. */
const logLine = (call: Call.Call, attempt: Attempt, figures: AttemptRecord.Figures) => {
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
    Metric.increment(metrics.requests(status)),
    Metric.update(metrics.admissionWait, waitMs)
  ]
  if (ended.sending !== undefined) recorded.push(Metric.update(metrics.duration, durationMs))
  if (attempt.reason !== null) recorded.push(Metric.increment(metrics.retries(attempt.reason)))
  if (units > 0) recorded.push(Metric.incrementBy(metrics.units, units))
  if (answered === 429) recorded.push(Metric.increment(metrics.rateLimited))
  if (answered === 503) recorded.push(Metric.increment(metrics.unavailable))
  if (cache === "hit") recorded.push(Metric.increment(metrics.notModified))
  recorded.push(Effect.flatMap(debugLogged, (logged) => logged ? logLine(call, attempt, figures) : Effect.void))
  return Effect.all(recorded, { discard: true })
}

/** What came back of an attempt: its answer or its error, with what the exchange observed of it. */
const outcomeOf = <A, E extends { readonly _tag: string }>(exit: Exit.Exit<A, E>) => {
  if (Exit.isSuccess(exit)) return { sending: Sending.of(exit.value), failure: null }
  const error = Option.getOrUndefined(Cause.failureOption(exit.cause))
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
        Effect.flatMap(Effect.zip(FiberRef.get(currentAttempt), Clock.currentTimeMillis), ([attempt, endedAt]) =>
          record(call.value, attempt, { startedAt, endedAt, ...outcomeOf(exit) })))))
