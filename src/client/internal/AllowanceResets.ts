/**
 * When a spent allowance resets, as plain functions of plain data: the date
 * a 429 whose `Retry-After` is longer than the client waits puts on the
 * spent allowance when `/usage/` does not say (that wait from now), and
 * whether a spent allowance on record still holds.
 *
 * Imports nothing of Effect. Both editions' quota step
 * (src/client/internal/Quota.ts, effect4/src/client/internal/Quota.ts) keep
 * the spent allowance in a `Ref` and read the clock and `/usage/` themselves.
 */

/** When a spent allowance resets if `/usage/` does not say: `retryAfterMillis` after `now`. */
export const fallbackReset = (now: number, retryAfterMillis: number): Date => new Date(now + retryAfterMillis)

/** Whether a spent allowance that resets at `resetsAt` still holds at `now`. */
export const stillSpent = (resetsAt: Date, now: number): boolean => now < resetsAt.getTime()
