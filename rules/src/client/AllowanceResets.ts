/**
 * When a spent allowance resets, as plain functions of plain data: the reset
 * `/usage/` gives for the allowance a 429's code names (the monthly or the
 * daily one), the date a 429 whose `Retry-After` is longer than the client
 * waits puts on the spent allowance when `/usage/` does not say (that wait
 * from now), whether a spent allowance on record still holds, and whether a
 * read of `/usage/` is still the one to share.
 *
 * Imports nothing of Effect. The quota step
 * (common/src/client/internal/Quota.ts) keeps the spent allowance in a `Ref`
 * and reads the clock and `/usage/` itself; `LiveAllowance`
 * (common/src/client/LiveAllowance.ts) keeps the read and gives the reset as
 * the edition's `Option`.
 */
import { usageSpacingMillis } from "./AllowanceReads.js"

/** When a spent allowance resets if `/usage/` does not say: `retryAfterMillis` after `now`. */
export const fallbackReset = (now: number, retryAfterMillis: number): Date => new Date(now + retryAfterMillis)

/** Whether a spent allowance that resets at `resetsAt` still holds at `now`. */
export const stillSpent = (resetsAt: Date, now: number): boolean => now < resetsAt.getTime()

/** The reset fields of `/usage/`: when the daily and the monthly allowance reset, `null` where it does not say. */
export interface ResetFields {
  readonly daily_reset_at: string | null
  readonly monthly_reset_at: string | null
}

/** The reset field of the allowance a 429's code names: the monthly one for a `monthly_…` code, else the daily one. */
export const resetFieldOf = (code: string | null): keyof ResetFields => code?.includes("monthly") === true ? "monthly_reset_at" : "daily_reset_at"

/** When the allowance a 429's code names resets, if `/usage/` says it as a date; else `undefined`. */
export const resetOf = (usage: ResetFields, code: string | null): Date | undefined => {
  const reset = usage[resetFieldOf(code)]
  const date = reset === null ? Number.NaN : Date.parse(reset)
  return Number.isNaN(date) ? undefined : new Date(date)
}

/** Whether a read of `/usage/` made at `readAt` is still the one to give at `now`: those who ask within the contract's spacing of `/usage/` calls share it. */
export const isShared = (readAt: number, now: number): boolean => now - readAt < usageSpacingMillis
