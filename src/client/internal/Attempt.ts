/**
 * What the request path observes of each attempt of a request: its number,
 * how long it waited to be admitted, how long the exchange took, what the
 * ETag cache did, the answer's status, request id and units. The attempt
 * step records each attempt on the call's span, in the client's metrics and
 * as one debug log line (with annotations); the exchange fills in what only
 * it sees.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import { Cause, Clock, Effect, Exit, FiberRef, LogLevel, Metric, Option, Ref } from "effect"
import { type AttemptState as State, Call, type Cache, type Info } from "./Call.js"
import { ofOperation } from "./Metrics.js"
import { plural } from "../../internal/Words.js"

/** Before a request is sent there is no answer, and no key to scrub of one. */
const unsent = (text: string): string => text

/** The state of a call none of whose attempts has started. */
export const initial: State = { number: 0, reason: null, startedAt: 0, sentAt: null, cache: "miss", status: null, requestId: null, redact: unsent }

/**
 * Records the sending of the call's current attempt, if the request belongs
 * to a call, with the scrubbing of the key it was sent with; an answer
 * recorded before it (of a `/usage/` read the admission made on the way) is
 * forgotten.
 */
export const sent = (cache: Cache, redact: (text: string) => string): Effect.Effect<void> =>
  Effect.flatMap(Effect.serviceOption(Call), (call) =>
    Option.match(call, {
      onNone: () => Effect.void,
      onSome: (call) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => Ref.update(call.attempt, (state) => ({ ...state, sentAt: now, cache, status: null, requestId: null, redact })))
    }))

/** The scrubbing of the key the call's current attempt was sent with. */
export const redactor: Effect.Effect<(text: string) => string, never, Call> = Effect.flatMap(Call, (call) => Effect.map(Ref.get(call.attempt), (state) => state.redact))

/** Records the answer to the call's current attempt, if the request belongs to a call. */
export const answered = (answer: { readonly status: number; readonly requestId: string | null; readonly notModified: boolean }): Effect.Effect<void> =>
  Effect.flatMap(Effect.serviceOption(Call), (call) =>
    Option.match(call, {
      onNone: () => Effect.void,
      onSome: (call) =>
        Ref.update(call.attempt, (state) => ({
          ...state,
          status: answer.status,
          requestId: answer.requestId,
          cache: answer.notModified ? "hit" : state.cache
        }))
    }))

/** Whether a debug line would be logged: the line and its annotations are built only then. */
const debugLogged = Effect.map(FiberRef.get(FiberRef.currentMinimumLogLevel), (minimum) => LogLevel.lessThanEqual(minimum, LogLevel.Debug))

/** The debug log line of an attempt that has ended, with its annotations. */
const logLine = (call: Info, state: State, figures: { readonly status: string; readonly durationMs: number; readonly units: number; readonly waitMs: number }) => {
  const url = new URL(call.url)
  const { durationMs, status, units, waitMs } = figures
  return Effect.logDebug(
    `GET ${url.pathname}${url.search} ${status} ${durationMs} ms, ${plural(units, "unit")}, request ${state.requestId ?? "none"}, cache ${state.cache}, ` +
      `attempt ${state.number}, waited ${waitMs} ms`
  ).pipe(
    Effect.annotateLogs({
      "catalog.operation": call.operation,
      "http.request.method": "GET",
      "url.path": url.pathname,
      "url.query": url.search,
      "http.response.status_code": status,
      "catalog.duration_ms": durationMs,
      "catalog.units": units,
      "catalog.request_id": state.requestId ?? "none",
      "catalog.cache": state.cache,
      "catalog.retry.attempt": state.number,
      "catalog.admission.wait_ms": waitMs
    })
  )
}

/** Span attributes, metric labels and log annotations of an attempt that has ended. */
const record = (call: Info, state: State, endedAt: number, failure: string | null): Effect.Effect<void> => {
  const waitMs = state.sentAt === null ? endedAt - state.startedAt : state.sentAt - state.startedAt
  const durationMs = state.sentAt === null ? 0 : endedAt - state.sentAt
  const units = state.status === 200 ? call.units : 0
  const status = state.status === null ? failure ?? "none" : String(state.status)
  const metrics = ofOperation(call.operation)
  const recorded: Array<Effect.Effect<void>> = [
    Effect.annotateCurrentSpan({
      "catalog.retry.attempt": state.number,
      "catalog.admission.wait_ms": waitMs,
      "catalog.cache": state.cache,
      "catalog.units": units,
      ...(state.status === null ? {} : { "http.response.status_code": state.status }),
      ...(state.requestId === null ? {} : { "catalog.request_id": state.requestId })
    }),
    Metric.increment(metrics.requests(status)),
    Metric.update(metrics.admissionWait, waitMs)
  ]
  if (state.sentAt !== null) recorded.push(Metric.update(metrics.duration, durationMs))
  if (state.reason !== null) recorded.push(Metric.increment(metrics.retries(state.reason)))
  if (units > 0) recorded.push(Metric.incrementBy(metrics.units, units))
  if (state.status === 429) recorded.push(Metric.increment(metrics.rateLimited))
  if (state.status === 503) recorded.push(Metric.increment(metrics.unavailable))
  if (state.cache === "hit") recorded.push(Metric.increment(metrics.notModified))
  recorded.push(Effect.flatMap(debugLogged, (logged) => logged ? logLine(call, state, { status, durationMs, units, waitMs }) : Effect.void))
  return Effect.all(recorded, { discard: true })
}

/**
 * The attempt step: numbers each attempt of the call, and records it when
 * it ends, on the call's span, in the metrics and in the debug log. Placed
 * inside the retries, it sees every attempt.
 */
export const step = <E extends { readonly _tag: string }, R>(client: HttpClient.HttpClient.With<E, R>): HttpClient.HttpClient.With<E, R | Call> =>
  HttpClient.transform(client, (response) =>
    Effect.flatMap(Effect.zip(Call, Clock.currentTimeMillis), ([call, startedAt]) =>
      Ref.update(call.attempt, (previous) => ({
        ...initial,
        number: previous.number + 1,
        reason: previous.reason,
        startedAt
      })).pipe(
        Effect.zipRight(response),
        Effect.onExit((exit) =>
          Effect.flatMap(Effect.zip(Ref.get(call.attempt), Clock.currentTimeMillis), ([state, endedAt]) => {
            // The error's tag is the reason for the next attempt, if there is one.
            const failure = Exit.isFailure(exit) ? Option.getOrNull(Option.map(Cause.failureOption(exit.cause), (error) => error._tag)) : null
            return Effect.zipRight(record(call, state, endedAt, failure), Ref.set(call.attempt, { ...state, reason: failure }))
          })
        )
      )))
