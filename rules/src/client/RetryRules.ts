/**
 * Which errors are worth another attempt, and how long the backoffs of one
 * request can add up to, as plain functions of plain data.
 *
 * Imports nothing of Effect. `Retry` (common/src/client/Retry.ts, one text
 * for both editions) types its `Retryable` guard and gives the longest wait
 * as a `Duration` from these rules; each edition's schedule of retries
 * (`client/internal/Retrying.ts`) stops at what they do not retry.
 */

/**
 * The reasons of a `TransportError` that another attempt may overcome: a
 * connection refused, reset or dropped (a temporary resolver failure,
 * `EAI_AGAIN`, among them), a body cut off, no answer in time.
 */
export const transientReasons = ["Connection", "Body", "Timeout"] as const

/**
 * Whether an error (by its tag, and a transport error's reason) is worth
 * another attempt: `RateLimited`, `ServiceUnavailable`, and a
 * `TransportError` only where waiting can help (not `Resolution` nor
 * `Certificate`).
 */
export const retryable = (error: { readonly _tag: string; readonly reason?: string }): boolean =>
  error._tag === "RateLimited" || error._tag === "ServiceUnavailable" ||
  (error._tag === "TransportError" && transientReasons.some((reason) => reason === error.reason))

/** Each backoff is multiplied by a random factor in this range (Effect 4's `Schedule.jittered` keeps to it too). */
export const jitter = { min: 0.8, max: 1.2 } as const

/**
 * The longest the backoffs of one request can add up to, in milliseconds:
 * `retries` backoffs from `baseMillis`, doubling, each at its largest
 * jitter, and no more than `maxElapsedMillis`.
 */
export const longestWaitMillis = (baseMillis: number, retries: number, maxElapsedMillis: number): number => {
  const base = baseMillis * jitter.max
  const backoffs = Array.from({ length: retries }, (_, retry) => base * 2 ** retry).reduce((sum, wait) => sum + wait, 0)
  return Math.min(backoffs, maxElapsedMillis)
}
