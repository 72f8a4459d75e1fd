/**
 * The retry step's machinery in Effect 3: the schedule of retries (jittered
 * exponential backoff, `Schedule.driver` stepping it), and which attempt of
 * its request is being sent (`currentAttempt`, a `FiberRef`). The policy,
 * what is worth another attempt and the step itself are `Retry`'s
 * (`common/src/client/Retry.ts`), one text for both editions; Effect 4
 * steps its schedules otherwise (`effect4/src/client/internal/Retrying.ts`).
 *
 * @internal
 */
import * as HttpClient from "@effect/platform/HttpClient"
import { Duration, Effect, FiberRef, GlobalValue, Schedule } from "effect"
import * as RetryRules from "../../../rules/src/client/RetryRules.js"

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

/** What the schedule is made of: how many retries, within how long, from which first backoff. */
export interface Backoff {
  readonly retries: number
  readonly maxElapsed: Duration.Duration
  readonly base: Duration.Duration
}

/** The schedule of retries for errors of type `E`: it stops at the first error that is not retryable, and waits at least the error's `retryAfter`. */
export const schedule = <E extends { readonly _tag: string }>(backoff: Backoff) =>
  Schedule.exponential(backoff.base).pipe(
    Schedule.jitteredWith(RetryRules.jitter),
    Schedule.intersect(Schedule.recurs(backoff.retries)),
    Schedule.upTo(backoff.maxElapsed),
    Schedule.intersect(Schedule.identity<E>()),
    Schedule.whileInput((error: E) => RetryRules.retryable(error)),
    Schedule.modifyDelay(([, error], delay) =>
      "retryAfter" in error && Duration.isDuration(error.retryAfter) ? Duration.max(delay, error.retryAfter) : delay
    )
  )

/** Sends each request of `client` again after a retryable error, on `schedule(backoff)`, telling each attempt which one it is. */
export const retrying = <E extends { readonly _tag: string }, R>(client: HttpClient.HttpClient.With<E, R>, backoff: Backoff): HttpClient.HttpClient.With<E, R> =>
  HttpClient.transform(client, (response) => {
    type Answer = typeof response
    const again = (number: number, error: E): Answer => Effect.locally(response, currentAttempt, { number, reason: error._tag })
    const retryAfter = (driver: Schedule.ScheduleDriver<unknown, E>, error: E, number: number): Answer =>
      Effect.matchEffect(driver.next(error), {
        onFailure: () => Effect.fail(error),
        onSuccess: () => Effect.catchAll(again(number, error), (next) => retryAfter(driver, next, number + 1))
      })
    return Effect.catchAll(response, (error) =>
      RetryRules.retryable(error) ? Effect.flatMap(Schedule.driver(schedule<E>(backoff)), (driver) => retryAfter(driver, error, 2)) : Effect.fail(error))
  })
