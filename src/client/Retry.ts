/**
 * The retry policy: exponential backoff with jitter, bounded in attempts and
 * in elapsed time, for `RateLimited`, `ServiceUnavailable` and
 * `TransportError` only, and never sooner than the service's `Retry-After`.
 * Where waiting cannot help, a `TransportError` is not retried: a host name
 * the resolver says does not exist (`Resolution`) and a certificate that
 * does not verify (`Certificate`) fail the request at once.
 * A `Retry-After` beyond `maxWait` (a spent daily or monthly allowance) is not
 * waited for: the request fails at once with `QuotaExhausted`.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import { Duration, Effect, Function, Schedule } from "effect"
import type * as Errors from "../../common/src/client/Errors.js"
import { currentAttempt } from "./internal/Attempt.js"
import * as RetryRules from "../../rules/src/client/RetryRules.js"

/**
 * How the client retries: attempts, backoff, and the longest waits.
 *
 * @example
 * ```ts
 * import { Duration, Redacted } from "effect"
 * import { CatalogClient, Retry } from "effect-catalog"
 *
 * const patient: Partial<Retry.Policy> = { retries: 10, maxElapsed: Duration.minutes(10) }
 * const CatalogLive = CatalogClient.layer({ baseUrl: "https://catalog.example/api/v1", apiKey: Redacted.make("cat_live_..."), retry: patient })
 * ```
 * @category models
 * @since 0.1.0
 */
export interface Policy {
  /** Attempts after the first (default 5). */
  readonly retries: number
  /** No retry starts after this much time since the first attempt (default 2 minutes). */
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
 * @since 0.1.0
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
 * @since 0.1.0
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
 * @since 0.1.0
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
 * @since 0.4.0
 */
export const longestWait = (policy: Policy): Duration.Duration =>
  Duration.millis(RetryRules.longestWaitMillis(Duration.toMillis(policy.base), policy.retries, Duration.toMillis(policy.maxElapsed)))

/**
 * The schedule of retries for errors of type `E`: it stops at the first error
 * that is not retryable, and waits at least the error's `retryAfter`.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Retry } from "effect-catalog"
 *
 * const retried = <A, E extends { readonly _tag: string }>(request: Effect.Effect<A, E>) =>
 *   Effect.retry(request, Retry.schedule(Retry.defaultPolicy))
 * ```
 * @category constructors
 * @since 0.1.0
 */
export const schedule = <E extends { readonly _tag: string }>(policy: Policy) =>
  Schedule.exponential(policy.base).pipe(
    Schedule.jitteredWith(RetryRules.jitter),
    Schedule.intersect(Schedule.recurs(policy.retries)),
    Schedule.upTo(policy.maxElapsed),
    Schedule.intersect(Schedule.identity<E>()),
    Schedule.whileInput((error: E) => isRetryable(error)),
    Schedule.modifyDelay(([, error], delay) =>
      "retryAfter" in error && Duration.isDuration(error.retryAfter) ? Duration.max(delay, error.retryAfter) : delay
    )
  )

/**
 * The step of the request path that sends a request again after a
 * retryable error, on `schedule(policy)`. The schedule is driven only once
 * an attempt fails: most requests never need it.
 *
 * @example
 * ```ts
 * import { HttpClient } from "@effect/platform"
 * import { Effect } from "effect"
 * import { Retry } from "effect-catalog"
 *
 * const retrying = Effect.map(HttpClient.HttpClient, Retry.step({ ...Retry.defaultPolicy, retries: 2 }))
 * ```
 * @category combinators
 * @since 0.2.0
 */
export const step: {
  (policy: Policy): <E extends { readonly _tag: string }, R>(client: HttpClient.HttpClient.With<E, R>) => HttpClient.HttpClient.With<E, R>
  <E extends { readonly _tag: string }, R>(client: HttpClient.HttpClient.With<E, R>, policy: Policy): HttpClient.HttpClient.With<E, R>
} = Function.dual(2, <E extends { readonly _tag: string }, R>(client: HttpClient.HttpClient.With<E, R>, policy: Policy): HttpClient.HttpClient.With<E, R> =>
  HttpClient.transform(client, (response) => {
    type Attempt = typeof response
    /** The attempt after `error`, told which one it is (`Attempt.currentAttempt`) for the attempt step's records. */
    const again = (number: number, error: E): Attempt => Effect.locally(response, currentAttempt, { number, reason: error._tag })
    const retryAfter = (driver: Schedule.ScheduleDriver<unknown, E>, error: E, number: number): Attempt =>
      Effect.matchEffect(driver.next(error), {
        onFailure: () => Effect.fail(error),
        onSuccess: () => Effect.catchAll(again(number, error), (next) => retryAfter(driver, next, number + 1))
      })
    return Effect.catchAll(response, (error) =>
      isRetryable(error) ? Effect.flatMap(Schedule.driver(schedule<E>(policy)), (driver) => retryAfter(driver, error, 2)) : Effect.fail(error))
  }))
