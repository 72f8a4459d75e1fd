/**
 * The innermost step of the request path: one HTTP exchange. The key goes
 * only into the `Authorization` header, never into a span (the HTTP client's
 * spans redact it), an error or a log line; the whole exchange, body
 * included, has a total time limit; what fails in transit is a
 * `TransportError`.
 */
import * as Headers from "@effect/platform/Headers"
import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { Clock, Duration, Effect, Exit, Redacted, Runtime, Scope } from "effect"
import * as Errors from "../../../common/src/client/Errors.js"
import * as TransportRules from "../../../rules/src/client/TransportRules.js"
import * as SentAttempt from "../../../rules/src/client/SentAttempt.js"
import * as Call from "./Call.js"

/** What an error of the HTTP client means in transit (`TransportRules.failureOf`), scrubbed of the key. */
const transportErrorOf = (error: HttpClientError.HttpClientError, redact: (text: string) => string): Errors.TransportError => {
  const { detail, reason } = TransportRules.failureOf(error, error._tag === "ResponseError")
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
const checkedKey = (apiKey: Effect.Effect<Redacted.Redacted<string>>) =>
  Effect.filterOrFail(
    apiKey,
    (key) => TransportRules.headerSafe.test(Redacted.value(key)),
    () => new Errors.InvalidApiKey({ requestId: null, code: "local_validation", detail: "The key has characters a header cannot carry" })
  )

/**
 * Runs an exchange in a scope of its own that closes when `timeout` has
 * passed on the fiber's clock, however far the answer has come: the client
 * aborts a request when its scope closes (`HttpClient.withScope`), so a
 * server that trickles its body is cut off too. The sleeper that closes it
 * runs at once in a fiber of its own on the fiber's runtime, and is
 * interrupted, without waiting, once the exchange has ended.
 */
const withDeadline = <A, E>(timeout: Duration.Duration, transportError: (error: E) => Errors.TransportError) =>
(exchange: Effect.Effect<A, E, Scope.Scope>): Effect.Effect<A, Errors.TransportError> =>
  Effect.uninterruptibleMask((restore) =>
    Effect.flatMap(Effect.all([Scope.make(), Clock.currentTimeMillis, Effect.runtime<never>()]), ([scope, started, runtime]) => {
      // The runtime is read within the mask: the sleeper is made interruptible again.
      const sleeper = Runtime.runFork(runtime)(Effect.interruptible(Effect.zipRight(Effect.sleep(timeout), Scope.close(scope, Exit.void))))
      return restore(Scope.extend(exchange, scope)).pipe(
        Effect.catchAll((error) =>
          Effect.flatMap(Clock.currentTimeMillis, (now) =>
            Effect.fail(
              now - started >= Duration.toMillis(timeout)
                ? new Errors.TransportError({ reason: "Timeout", detail: `No answer within ${Duration.format(timeout)}` })
                : transportError(error)
            ))
        ),
        Effect.ensuring(
          Effect.zipRight(Effect.fiberIdWith((id) => Effect.sync(() => sleeper.unsafeInterruptAsFork(id))), Scope.close(scope, Exit.void))
        )
      )
    }))

/**
 * The exchange step over an HTTP client whose requests are tied to a scope
 * (`HttpClient.withScope`): reads the key once, sets it and `Accept`, reads
 * the whole body within `timeout`, and leaves what it observed of the
 * attempt (`SentAttempt`: when it was sent, what the ETag cache offered, the
 * answer's status and request id, the scrubbing of that key) in the call's
 * observation, whether an answer came or a `TransportError`. A client of its own rather than
 * a transformation, since it replaces the HTTP client's errors.
 */
export const step = (options: { readonly apiKey: Effect.Effect<Redacted.Redacted<string>>; readonly timeout: Duration.Duration }) =>
(
  client: HttpClient.HttpClient.With<HttpClientError.HttpClientError, Scope.Scope>
): Client =>
  HttpClient.makeWith<never, never, Errors.TransportError | Errors.InvalidApiKey, never>(
    (prepared) =>
      Effect.flatMap(Effect.all([prepared, checkedKey(options.apiKey), Clock.currentTimeMillis, Call.current]), ([request, key, sentAt, call]) => {
        const redact = redactor(key)
        const unanswered = SentAttempt.sent(sentAt, request.headers["if-none-match"] !== undefined, redact)
        return client.execute(HttpClientRequest.bearerToken(HttpClientRequest.acceptJson(request), Redacted.value(key))).pipe(
          // The HTTP client's own span records response headers; a hostile server could echo the key in one.
          Effect.locally(Headers.currentRedactedNames, TransportRules.redactedHeaders),
          // The body is read here, within the deadline; later steps read it again from the response's cache.
          Effect.tap((answer) => answer.text),
          withDeadline(options.timeout, (error) => transportErrorOf(error, redact)),
          Effect.tapError(() => Effect.sync(() => Call.record(call, unanswered))),
          Effect.tap((answer) => Effect.sync(() => Call.record(call, SentAttempt.answered(unanswered, answer.status, requestIdOf(answer, redact)))))
        )
      }),
    Effect.succeed
  )
