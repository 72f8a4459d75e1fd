/**
 * The step of the request path that keeps the account's allowance: once the
 * service has said that a quota is spent (a 429 whose `Retry-After` is
 * longer than the client waits), every request fails with `QuotaExhausted`
 * until it resets, without being sent; a shorter 429 holds back every
 * waiting request of the account for its `Retry-After`.
 *
 * @internal
 */
import { Clock, Duration, Effect, HttpClient, Option, Ref } from "#edition/internal/Edition.js"
import * as AllowanceResets from "../../../../rules/src/client/AllowanceResets.js"
import * as Errors from "../Errors.js"

/** What the quota step works with. */
export interface Options {
  /** The spent allowance in force. */
  readonly exhausted: Ref.Ref<Option.Option<Errors.QuotaExhausted>>
  /** The longest `Retry-After` the client waits for. */
  readonly maxWait: Duration.Duration
  /** Holds back every waiting request (the admission's pause). */
  readonly pause: (retryAfter: Duration.Duration) => Effect.Effect<void>
  /** When the allowance resets, read from `/usage/`. */
  readonly resetsAt: (code: string | null) => Effect.Effect<Option.Option<Date>>
}

const afterRateLimit = (options: Options, error: Errors.RateLimited): Effect.Effect<never, Errors.RateLimited | Errors.QuotaExhausted> =>
  Effect.gen(function*() {
    if (Duration.toMillis(error.retryAfter) <= Duration.toMillis(options.maxWait)) {
      yield* options.pause(error.retryAfter)
      return yield* Effect.fail(error)
    }
    const now = yield* Clock.currentTimeMillis
    const resetsAt = Option.getOrElse(yield* options.resetsAt(error.code), () => AllowanceResets.fallbackReset(now, Duration.toMillis(error.retryAfter)))
    const { code, detail, requestId, retryAfter } = error
    const quota = new Errors.QuotaExhausted({ requestId, code, detail, retryAfter, resetsAt })
    yield* Ref.set(options.exhausted, Option.some(quota))
    return yield* Effect.fail(quota)
  })

/** The quota step. */
export const step = (options: Options) =>
<E, R>(client: HttpClient.HttpClient.With<E, R>): HttpClient.HttpClient.With<E | Errors.RateLimited | Errors.QuotaExhausted, R> =>
  HttpClient.transform(client, (response) =>
    Effect.flatMap(Ref.get(options.exhausted), (exhausted) => {
      const sent = Effect.catchIf(
        response,
        (error): error is E & Errors.RateLimited => error instanceof Errors.RateLimited,
        (error) => afterRateLimit(options, error)
      )
      // The clock is read only while a spent quota is on record.
      return Option.isNone(exhausted)
        ? sent
        : Effect.flatMap(Clock.currentTimeMillis, (now) => AllowanceResets.stillSpent(exhausted.value.resetsAt, now) ? Effect.fail(exhausted.value) : sent)
    }))
