/**
 * The account every simulator key belongs to: frequency windows, concurrency,
 * daily and monthly units, daily transfer, and the `/usage/` rate, all
 * scaled by the simulator's time scale.
 *
 * @since 0.1.0
 */
import * as ContractLimits from "../../../common/src/contract/Limits.js"
import type * as R from "../../../common/src/contract/Resources.js"
import type { Limits } from "../../../rules/src/simulator/Settings.js"

/**
 * The limits the contract gives every account.
 *
 * @since 0.1.0
 */
export const defaultLimits: Limits = {
  perTenSeconds: ContractLimits.requestsPerTenSeconds,
  perMinute: ContractLimits.requestsPerMinute,
  concurrent: ContractLimits.concurrentRequests,
  dailyUnits: ContractLimits.dailyUnits,
  monthlyUnits: ContractLimits.monthlyUnits,
  dailyBytes: ContractLimits.dailyTransferBytes,
  usagePerMinute: ContractLimits.usageCallsPerMinute
}

/**
 * A request admitted under the limits, holding a concurrency slot, its units
 * and its byte reservation until it is settled.
 *
 * @since 0.1.0
 */
export interface Ticket {
  readonly units: number
  settled: boolean
}

/**
 * The answer of admission: a ticket, or a refusal with a code and the time to
 * wait.
 *
 * @since 0.1.0
 */
export type Admission =
  | { readonly _tag: "Admitted"; readonly ticket: Ticket }
  | { readonly _tag: "Refused"; readonly code: string; readonly detail: string; readonly retryAfterMillis: number }

const second = 1_000
const minute = 60 * second
const day = 24 * 60 * minute

/**
 * The account's state.
 *
 * @since 0.1.0
 */
export class Account {
  private recent: Array<number> = []
  private usageCalls: Array<number> = []
  private inFlight = 0
  private dailyUnits = 0
  private monthlyUnits = 0
  private dailyBytes = 0
  /** When the current day and month end (-1 before the first request). */
  private dayEnd = -1
  private monthEnd = -1
  /** Where scaled days and months count from. */
  private readonly origin: number
  /** The most requests ever in flight at once. */
  peakInFlight = 0

  /**
   * `startedAt` is where scaled days and months count from, so that a scaled
   * simulator starts at the beginning of a day and of a month; unscaled ones
   * follow UTC.
   */
  constructor(
    public limits: Limits,
    public enforced: boolean,
    readonly timeScale: number,
    startedAt: number
  ) {
    this.origin = timeScale === 1 ? 0 : startedAt
  }

  /** The start of the next window of `length`, counted from the origin. */
  private nextWindow(now: number, length: number): number {
    return this.origin + (Math.floor((now - this.origin) / length) + 1) * length
  }

  private scaled(millis: number): number {
    return millis * this.timeScale
  }

  private dayLength(): number {
    return this.scaled(day)
  }

  /** The start of the next daily window (UTC midnight when unscaled). */
  nextDailyReset(now: number): number {
    return this.nextWindow(now, this.dayLength())
  }

  /** The start of the next monthly window (the 1st, UTC, when unscaled). */
  nextMonthlyReset(now: number): number {
    if (this.timeScale === 1) {
      const date = new Date(now)
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1)
    }
    return this.nextWindow(now, 30 * this.dayLength())
  }

  private roll(now: number): void {
    const dayEnd = this.nextDailyReset(now)
    if (dayEnd !== this.dayEnd) {
      this.dayEnd = dayEnd
      this.dailyUnits = 0
      this.dailyBytes = 0
    }
    const monthEnd = this.nextMonthlyReset(now)
    if (monthEnd !== this.monthEnd) {
      this.monthEnd = monthEnd
      this.monthlyUnits = 0
    }
    const horizon = now - this.scaled(minute)
    while (this.recent.length > 0 && (this.recent[0] ?? 0) <= horizon) this.recent.shift()
    while (this.usageCalls.length > 0 && (this.usageCalls[0] ?? 0) <= horizon) this.usageCalls.shift()
  }

  /** How long until fewer than `limit` of `times` fall in the last `window`. */
  private windowWait(times: ReadonlyArray<number>, limit: number, window: number, now: number): number {
    const inWindow = times.filter((t) => t > now - window)
    if (inWindow.length < limit) return 0
    return (inWindow[inWindow.length - limit] ?? now) + window - now
  }

  /**
   * Admits a request costing `units` or refuses it with 429 semantics.
   */
  admit(now: number, request: { readonly units: number; readonly usage: boolean }): Admission {
    this.roll(now)
    if (this.enforced) {
      const refusal = this.refusal(now, request)
      if (refusal !== undefined) return refusal
    }
    this.recent.push(now)
    if (request.usage) this.usageCalls.push(now)
    this.inFlight++
    this.peakInFlight = Math.max(this.peakInFlight, this.inFlight)
    this.dailyUnits += request.units
    this.monthlyUnits += request.units
    this.dailyBytes += ContractLimits.maxResponseBytes
    return { _tag: "Admitted", ticket: { units: request.units, settled: false } }
  }

  private refusal(now: number, request: { readonly units: number; readonly usage: boolean }): Admission | undefined {
    const limits = this.limits
    const refuse = (code: string, detail: string, retryAfterMillis: number): Admission => ({
      _tag: "Refused", code, detail, retryAfterMillis: Math.max(1, Math.ceil(retryAfterMillis))
    })
    const tenSeconds = this.windowWait(this.recent, limits.perTenSeconds, this.scaled(10 * second), now)
    const oneMinute = this.windowWait(this.recent, limits.perMinute, this.scaled(minute), now)
    if (tenSeconds > 0 || oneMinute > 0) {
      return refuse("rate_limited", `At most ${limits.perTenSeconds} requests per 10 seconds and ${limits.perMinute} per minute.`, Math.max(tenSeconds, oneMinute))
    }
    if (request.usage) {
      const wait = this.windowWait(this.usageCalls, limits.usagePerMinute, this.scaled(minute), now)
      if (wait > 0) return refuse("usage_rate_limited", `At most ${limits.usagePerMinute} usage calls per minute.`, wait)
    }
    if (this.inFlight >= limits.concurrent) {
      return refuse("concurrency_limited", `At most ${limits.concurrent} concurrent requests.`, this.scaled(second))
    }
    if (request.usage) return undefined
    if (this.dailyUnits + request.units > limits.dailyUnits) {
      return refuse("daily_quota_exhausted", `The daily allowance of ${limits.dailyUnits} units is used up.`, this.nextDailyReset(now) - now)
    }
    if (this.monthlyUnits + request.units > limits.monthlyUnits) {
      return refuse("monthly_quota_exhausted", `The monthly allowance of ${limits.monthlyUnits} units is used up.`, this.nextMonthlyReset(now) - now)
    }
    if (this.dailyBytes + ContractLimits.maxResponseBytes > limits.dailyBytes) {
      return refuse("daily_transfer_exhausted", `The daily transfer allowance of ${limits.dailyBytes} bytes is used up.`, this.nextDailyReset(now) - now)
    }
    return undefined
  }

  /**
   * Ends a request: frees its slot, keeps `units` of its reserved units
   * (0 refunds them) and settles its byte reservation to `bytes` (an
   * interrupted response keeps the whole reservation).
   */
  settle(ticket: Ticket, outcome: { readonly units: number; readonly bytes: number }): void {
    if (ticket.settled) return
    ticket.settled = true
    this.inFlight--
    const refund = ticket.units - outcome.units
    this.dailyUnits = Math.max(0, this.dailyUnits - refund)
    this.monthlyUnits = Math.max(0, this.monthlyUnits - refund)
    this.dailyBytes = Math.max(0, this.dailyBytes - ContractLimits.maxResponseBytes + outcome.bytes)
  }

  /** Uses up the daily allowance, as if the account had spent it. */
  spendDailyUnits(now: number, units = this.limits.dailyUnits): void {
    this.roll(now)
    this.dailyUnits = Math.min(this.limits.dailyUnits, this.dailyUnits + units)
    this.monthlyUnits += units
  }

  /** The live counters, as `/usage/` reports them. */
  usage(now: number): typeof R.Usage.Encoded {
    this.roll(now)
    return {
      daily_limit: this.limits.dailyUnits,
      monthly_limit: this.limits.monthlyUnits,
      daily_units: this.dailyUnits,
      monthly_units: this.monthlyUnits,
      daily_bytes: this.dailyBytes,
      daily_byte_limit: this.limits.dailyBytes,
      minute_limit: this.limits.perMinute,
      daily_reset_at: new Date(this.nextDailyReset(now)).toISOString(),
      monthly_reset_at: new Date(this.nextMonthlyReset(now)).toISOString()
    }
  }
}
