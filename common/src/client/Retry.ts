/**
 * The retry policy: exponential backoff with jitter, bounded in attempts and
 * in elapsed time, for `RateLimited`, `ServiceUnavailable` and
 * `TransportError` only, and never sooner than the service's `Retry-After`.
 * Where waiting cannot help, a `TransportError` is not retried: a host name
 * the resolver says does not exist (`Resolution`) and a certificate that
 * does not verify (`Certificate`) fail the request at once.
 * A `Retry-After` beyond `maxWait` (a spent daily or monthly allowance) is not
 * waited for: the client fails the request at once with `QuotaExhausted`.
 *
 * @example
 * ```ts effect4
 * import { Effect } from "effect"
 * import { HttpClient } from "effect/http"
 * import { Retry } from "effect-catalog"
 *
 * // An HttpClient whose retryable errors are sent again, at most twice.
 * const retrying = Effect.map(HttpClient.HttpClient, Retry.step({ ...Retry.defaultPolicy, retries: 2 }))
 * ```
 *
 * In Effect 3, `HttpClient` is `@effect/platform`'s:
 *
 * ```ts effect3
 * import { HttpClient } from "@effect/platform"
 * import { Effect } from "effect"
 * import { Retry } from "effect-catalog"
 *
 * // An HttpClient whose retryable errors are sent again, at most twice.
 * const retrying = Effect.map(HttpClient.HttpClient, Retry.step({ ...Retry.defaultPolicy, retries: 2 }))
 * ```
 * @since 0.1.0 (1.x: 1.0.0)
 */
import { Duration, Function, type HttpClient } from "#edition/internal/Edition.js"
import * as RetryRules from "../../../rules/src/client/RetryRules.js"
import * as Retrying from "#edition/client/internal/Retrying.js"
import type * as Errors from "./Errors.js"

/**
 * How the client retries: attempts, backoff, and the longest waits.
 *
 * @example
 * ```ts
 * import { Duration } from "effect"
 * import type { Retry } from "effect-catalog"
 *
 * const patient: Partial<Retry.Policy> = { retries: 10, maxElapsed: Duration.minutes(10) }
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export interface Policy {
  /** Attempts after the first (default 5). */
  readonly retries: number
  /** No further retry is scheduled once this much time has passed since the first failure (default 2 minutes). */
  readonly maxElapsed: Duration.Duration
  /** The first backoff, doubled at each retry, with jitter (default 500 ms). */
  readonly base: Duration.Duration
  /** The longest `Retry-After` the client waits for (default 60 s). */
  readonly maxWait: Duration.Duration
  /** How often a scan restarts from its first page after `CursorExpired` (default 3). */
  readonly restarts: number
}

/**
 * The policy the client uses unless told otherwise.
 *
 * @example
 * ```ts
 * import { Duration } from "effect"
 * import { Retry } from "effect-catalog"
 *
 * Retry.defaultPolicy.retries // 5
 * Duration.toMillis(Retry.defaultPolicy.maxWait) // 60000
 * ```
 * @category constants
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const defaultPolicy: Policy = {
  retries: 5,
  maxElapsed: Duration.minutes(2),
  base: Duration.millis(500),
  maxWait: Duration.seconds(60),
  restarts: 3
}

/** The reasons of a `TransportError` that another attempt may overcome (checked to be reasons of this edition's). */
const transientReasons = RetryRules.transientReasons satisfies ReadonlyArray<Errors.TransportError["reason"]>

/**
 * The errors worth another attempt: a `TransportError` only where waiting
 * can help (not `Resolution` nor `Certificate`).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { Retry } from "effect-catalog"
 *
 * // Only a transport error comes without a `retryAfter`.
 * const pause = (error: Retry.Retryable) =>
 *   error._tag === "TransportError" ? Effect.sleep("1 second") : Effect.sleep(error.retryAfter)
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type Retryable =
  | Errors.RateLimited
  | Errors.ServiceUnavailable
  | Errors.TransportError & { readonly reason: typeof transientReasons[number] }

/**
 * Whether an error is worth another attempt.
 *
 * @example
 * ```ts
 * import { Errors, Retry } from "effect-catalog"
 *
 * Retry.isRetryable(new Errors.TransportError({ reason: "Connection", detail: "connection reset" })) // true
 * Retry.isRetryable(new Errors.TransportError({ reason: "Resolution", detail: "getaddrinfo ENOTFOUND catalog.invalid" })) // false
 * Retry.isRetryable(new Errors.NotFound({ requestId: null, code: null, detail: null })) // false
 * ```
 * @category guards
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const isRetryable = (error: { readonly _tag: string }): error is Retryable => RetryRules.retryable(error)

/**
 * The longest the backoffs of one request can add up to under a policy:
 * every backoff at its largest jitter, and no more than `maxElapsed` (a
 * `Retry-After` from the service may still ask for longer).
 *
 * @example
 * ```ts
 * import { Duration } from "effect"
 * import { Retry } from "effect-catalog"
 *
 * Duration.toMillis(Retry.longestWait(Retry.defaultPolicy)) // 18600: (0.5 + 1 + 2 + 4 + 8) s × 1.2
 * ```
 * @category utils
 * @since 0.4.0 (1.x: 1.0.0)
 */
export const longestWait = (policy: Policy): Duration.Duration =>
  Duration.millis(RetryRules.longestWaitMillis(Duration.toMillis(policy.base), policy.retries, Duration.toMillis(policy.maxElapsed)))

/**
 * The schedule of retries for errors of type `E`: jittered exponential
 * backoff from `policy.base`, at most `policy.retries` times and within
 * `policy.maxElapsed`; it stops at the first error that is not retryable,
 * and waits at least the error's `retryAfter`.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Retry } from "effect-catalog"
 *
 * const retried = <A, E extends { readonly _tag: string }>(request: Effect.Effect<A, E>) =>
 *   Effect.retry(request, Retry.schedule<E>(Retry.defaultPolicy))
 * ```
 * @category constructors
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const schedule = <E extends { readonly _tag: string }>(policy: Policy) => Retrying.schedule<E>(policy)

/**
 * Which attempt of its request is being sent, and why.
 *
 * @example
 * ```ts
 * import type { Retry } from "effect-catalog"
 *
 * const describe = (attempt: Retry.Attempt) =>
 *   attempt.reason === null ? "first attempt" : `attempt ${attempt.number}, after ${attempt.reason}`
 * ```
 * @category models
 * @since 0.8.0 (1.x: 1.0.0)
 */
export interface Attempt extends Retrying.Attempt {}

/**
 * What the retry step says of each attempt it sends: its number and the
 * tag of the error it follows. Outside a retry, and for a request's first
 * attempt, it is `{ number: 1, reason: null }`; a step under the retry step
 * (what records attempts) reads it.
 *
 * @example
 * ```ts effect4
 * import { Effect } from "effect"
 * import { HttpClient } from "effect/http"
 * import { Retry } from "effect-catalog"
 *
 * // Logs each attempt of each request; placed under `Retry.step`, it sees the retries.
 * const logged = <E, R>(client: HttpClient.HttpClient.With<E, R>) =>
 *   HttpClient.transform(client, (response, request) =>
 *     Effect.flatMap(Retry.currentAttempt, (attempt) =>
 *       Effect.andThen(Effect.logDebug(`${request.url}: attempt ${attempt.number}`), response)))
 *
 * const client = Effect.map(HttpClient.HttpClient, (client) => Retry.step(Retry.defaultPolicy)(logged(client)))
 * ```
 *
 * In Effect 3, `HttpClient` is `@effect/platform`'s:
 *
 * ```ts effect3
 * import { HttpClient } from "@effect/platform"
 * import { Effect } from "effect"
 * import { Retry } from "effect-catalog"
 *
 * // Logs each attempt of each request; placed under `Retry.step`, it sees the retries.
 * const logged = <E, R>(client: HttpClient.HttpClient.With<E, R>) =>
 *   HttpClient.transform(client, (response, request) =>
 *     Effect.flatMap(Retry.currentAttempt, (attempt) =>
 *       Effect.andThen(Effect.logDebug(`${request.url}: attempt ${attempt.number}`), response)))
 *
 * const client = Effect.map(HttpClient.HttpClient, (client) => Retry.step(Retry.defaultPolicy)(logged(client)))
 * ```
 * @category accessors
 * @since 0.8.0 (1.x: 1.0.0)
 */
export const currentAttempt = Retrying.currentAttempt

/**
 * The step of the request path that sends a request again after a
 * retryable error, on `schedule(policy)`, and tells each attempt which one
 * it is (`currentAttempt`). The schedule is built only once an attempt
 * fails: most requests never need it.
 *
 * @example
 * ```ts effect4
 * import { Effect } from "effect"
 * import { HttpClient } from "effect/http"
 * import { Retry } from "effect-catalog"
 *
 * const retrying = Effect.map(HttpClient.HttpClient, Retry.step({ ...Retry.defaultPolicy, retries: 2 }))
 * ```
 *
 * In Effect 3, `HttpClient` is `@effect/platform`'s:
 *
 * ```ts effect3
 * import { HttpClient } from "@effect/platform"
 * import { Effect } from "effect"
 * import { Retry } from "effect-catalog"
 *
 * const retrying = Effect.map(HttpClient.HttpClient, Retry.step({ ...Retry.defaultPolicy, retries: 2 }))
 * ```
 * @category combinators
 * @since 0.2.0 (1.x: 1.0.0)
 */
export const step: {
  (policy: Policy): <E extends { readonly _tag: string }, R>(client: HttpClient.HttpClient.With<E, R>) => HttpClient.HttpClient.With<E, R>
  <E extends { readonly _tag: string }, R>(client: HttpClient.HttpClient.With<E, R>, policy: Policy): HttpClient.HttpClient.With<E, R>
} = Function.dual(
  2,
  <E extends { readonly _tag: string }, R>(client: HttpClient.HttpClient.With<E, R>, policy: Policy): HttpClient.HttpClient.With<E, R> =>
    Retrying.retrying(client, policy)
)
