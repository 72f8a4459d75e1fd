/**
 * The retry step's machinery in Effect 4: the schedule of retries (jittered
 * exponential backoff, `Schedule.toStepWithSleep` stepping it), and which
 * attempt of its request is being sent (`currentAttempt`, a
 * `Context.Reference`). The policy, what is worth another attempt and the
 * step itself are `Retry`'s (`common/src/client/Retry.ts`), one text for
 * both editions; Effect 3 steps its schedules otherwise
 * (`src/client/internal/Retrying.ts`).
 *
 * @internal
 */
import { Context, Duration, Effect, Pull, Schedule } from "effect"
import { HttpClient } from "effect/http"
import * as RetryRules from "../../../../rules/src/client/RetryRules.js"

/** Which attempt of its request is being sent, and the tag of the previous attempt's error, the reason for this one. */
export interface Attempt {
  readonly number: number
  readonly reason: string | null
}

/** The attempt being sent: set by the retry step for each attempt it makes; the first, when none is retried. */
export const currentAttempt: Context.Reference<Attempt> = Context.Reference<Attempt>("effect-catalog/Retry/currentAttempt", {
  defaultValue: () => ({ number: 1, reason: null })
})

/** What the schedule is made of: how many retries, within how long, from which first backoff. */
export interface Backoff {
  readonly retries: number
  readonly maxElapsed: Duration.Duration
  readonly base: Duration.Duration
}

/** The wait an error asks for, if it says (`RateLimited`, `ServiceUnavailable`). */
const retryAfterOf = (error: object): Duration.Duration | undefined =>
  "retryAfter" in error && Duration.isDuration(error.retryAfter) ? error.retryAfter : undefined

/** The schedule of retries for errors of type `E`: it stops at the first error that is not retryable, and waits at least the error's `retryAfter`. Its output is the delay before the next attempt. */
export const schedule = <E extends { readonly _tag: string }>(backoff: Backoff): Schedule.Schedule<Duration.Duration, E> =>
  Schedule.exponential(backoff.base).pipe(
    Schedule.jittered,
    Schedule.upTo({ times: backoff.retries, duration: backoff.maxElapsed }),
    Schedule.setInputType<E>(),
    Schedule.while(({ input }) => RetryRules.retryable(input)),
    Schedule.modifyDelay(({ duration, input }) => {
      const asked = retryAfterOf(input)
      return Effect.succeed(asked === undefined ? duration : Duration.max(duration, asked))
    })
  )

/** Sends each request of `client` again after a retryable error, on `schedule(backoff)`, telling each attempt which one it is. */
export const retrying = <E extends { readonly _tag: string }, R>(client: HttpClient.HttpClient.With<E, R>, backoff: Backoff): HttpClient.HttpClient.With<E, R> =>
  HttpClient.transform(client, (response) => {
    type Answer = typeof response
    const again = (number: number, error: E): Answer => Effect.provideService(response, currentAttempt, { number, reason: error._tag })
    const retryAfter = (next: (error: E) => Pull.Pull<Duration.Duration, never, Duration.Duration>, error: E, number: number): Answer =>
      Pull.matchEffect(next(error), {
        onSuccess: () => Effect.catch(again(number, error), (later) => retryAfter(next, later, number + 1)),
        onFailure: Effect.failCause,
        onDone: () => Effect.fail(error)
      })
    return Effect.catch(response, (error) =>
      RetryRules.retryable(error)
        ? Effect.flatMap(Schedule.toStepWithSleep(schedule<E>(backoff)), (next) => retryAfter(next, error, 2))
        : Effect.fail(error))
  })
