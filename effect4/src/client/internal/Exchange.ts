/**
 * The innermost step of the request path: one HTTP exchange. The key goes
 * only into the `Authorization` header, never into a span (the HTTP client's
 * spans redact it), an error or a log line; the whole exchange, body
 * included, has a total time limit; what fails in transit is a
 * `TransportError`.
 *
 * Effect 4's `HttpClient.make` aborts a request whose fiber is interrupted,
 * while it is sent and while its body is read (its responses abort on
 * interruption), so the time limit interrupts the exchange, as
 * `Effect.timeoutOrElse` would: no scope per request (`HttpClient.withScope`)
 * is needed to cut off a server that trickles its body.
 *
 * @internal
 */
import { Clock, Duration, Effect, Exit, Fiber, Redacted } from "effect"
import { Headers, HttpClient, type HttpClientError, HttpClientRequest, type HttpClientResponse } from "effect/http"
import * as SentAttempt from "../../../../rules/src/client/SentAttempt.js"
import * as Call from "./Call.js"
import * as Errors from "../../../../common/src/client/Errors.js"
import * as TransportRules from "../../../../rules/src/client/TransportRules.js"

/** What an error of the HTTP client means in transit (`TransportRules.failureOf`), scrubbed of the key. */
export const transportErrorOf = (error: HttpClientError.HttpClientError, redact: (text: string) => string): Errors.TransportError => {
  const { detail, reason } = TransportRules.failureOf(error, error.response !== undefined)
  return new Errors.TransportError({ reason, detail: redact(detail) })
}

/** Removes every occurrence of the key from text kept from an answer. */
export const redactor = (key: Redacted.Redacted<string>) => (text: string) => text.split(Redacted.value(key)).join("[redacted]")

/** The body of an answer: read once by the exchange step, within its deadline, so that reading it again cannot fail. */
export const bodyOf = (answer: HttpClientResponse.HttpClientResponse): Effect.Effect<string> => Effect.orElseSucceed(answer.text, () => "")

/** The request id of an answer, scrubbed of the key and cut to length, as errors and spans keep it. */
export const requestIdOf = (answer: HttpClientResponse.HttpClientResponse, redact: (text: string) => string): string | null => {
  const header = answer.headers["x-request-id"]
  return header === undefined ? null : redact(header).slice(0, 200)
}

/** A client whose requests go through the exchange step. */
export type Client = HttpClient.HttpClient.With<Errors.TransportError | Errors.InvalidApiKey>

/** The key, checked to be one a header can carry. */
const checkedKey = (apiKey: Effect.Effect<Redacted.Redacted<string>>): Effect.Effect<Redacted.Redacted<string>, Errors.InvalidApiKey> =>
  Effect.filterOrFail(
    apiKey,
    (key) => TransportRules.headerSafe.test(Redacted.value(key)),
    () => new Errors.InvalidApiKey({ requestId: null, code: "local_validation", detail: "The key has characters a header cannot carry" })
  )

/** The failure of an exchange that has not ended within `timeout`. */
const timedOut = (timeout: Duration.Duration) =>
  new Errors.TransportError({ reason: "Timeout", detail: `No answer within ${Duration.format(timeout)}` })

/**
 * The exchange within `timeout` on the fiber's clock, however far the
 * answer has come: past it, the exchange is interrupted (which aborts the
 * request) and fails with a `TransportError` of reason `Timeout`.
 *
 * The race `Effect.timeoutOrElse` would run, without its bookkeeping: the
 * exchange and a sleeper on the fiber's clock each run in a fiber of their
 * own with the fiber's context, and whichever ends first interrupts the
 * other. Interrupted itself, the fiber interrupts both.
 */
const withDeadline = (timeout: Duration.Duration) => <A, E>(exchange: Effect.Effect<A, E>): Effect.Effect<A, E | Errors.TransportError> =>
  Effect.withFiber((fiber) =>
    Effect.callback<A, E | Errors.TransportError>((resume) => {
      const run = Effect.runForkWith(fiber.context)
      const exchanging = run(exchange)
      const sleeping = run(Effect.sleep(timeout))
      const answered = exchanging.addObserver((exit) => {
        sleeping.interruptUnsafe()
        resume(exit)
      })
      // An interrupted sleeper has not slept its time: only its success is the deadline.
      const expired = sleeping.addObserver((exit) => {
        if (Exit.isFailure(exit)) return
        answered()
        exchanging.interruptUnsafe()
        resume(Effect.andThen(Fiber.await(exchanging), Effect.fail(timedOut(timeout))))
      })
      return Effect.suspend(() => {
        answered()
        expired()
        sleeping.interruptUnsafe()
        return Fiber.interrupt(exchanging)
      })
    })
  )

/** What the exchange step is given: the key, read once per attempt, and the time limit of an exchange. */
export interface Options {
  readonly apiKey: Effect.Effect<Redacted.Redacted<string>>
  readonly timeout: Duration.Duration
}

/**
 * The exchange step over an HTTP client: reads the key once, sets it and
 * `Accept`, reads the whole body within `timeout`, and leaves what it
 * observed of the attempt (`SentAttempt`: when it was sent, what the ETag cache
 * offered, the answer's status and request id, the scrubbing of that key)
 * in the call's observation, whether an answer came or a `TransportError`. A client of its
 * own rather than a transformation, since it replaces the HTTP client's
 * errors.
 */
export const step = (options: Options) => (client: HttpClient.HttpClient): Client =>
  HttpClient.makeWith<never, never, Errors.TransportError | Errors.InvalidApiKey, never>(
    (prepared) =>
      Effect.flatMap(Effect.all([prepared, checkedKey(options.apiKey), Clock.currentTimeMillis, Call.current]), ([request, key, sentAt, call]) => {
        const redact = redactor(key)
        const unanswered = SentAttempt.sent(sentAt, request.headers["if-none-match"] !== undefined, redact)
        return client.execute(HttpClientRequest.bearerToken(HttpClientRequest.acceptJson(request), key)).pipe(
          // The body is read here, within the deadline; later steps read it again from the response's cache.
          Effect.tap((answer) => answer.text),
          Effect.mapError((error) => transportErrorOf(error, redact)),
          // The HTTP client's own span may record headers; a hostile server could echo the key in one.
          Effect.provideService(Headers.CurrentRedactedNames, TransportRules.redactedHeaders),
          withDeadline(options.timeout),
          Effect.tapError(() => Effect.sync(() => Call.record(call, unanswered))),
          Effect.tap((answer) => Effect.sync(() => Call.record(call, SentAttempt.answered(unanswered, answer.status, requestIdOf(answer, redact)))))
        )
      }),
    Effect.succeed
  )
