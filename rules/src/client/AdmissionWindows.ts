/**
 * The arithmetic of admission, pure: the limits a client keeps to, the
 * sliding windows they make, and the moments requests may leave under them.
 * Each edition's public `client/AdmissionWindows` module is this one.
 */
import * as ContractLimits from "../contract/Figures.js"

/**
 * The account limits a client keeps to.
 *
 * @example
 * ```ts
 * import { Admission, AdmissionWindows } from "effect-catalog"
 *
 * const scaled: AdmissionWindows.Limits = { ...AdmissionWindows.contractLimits, timeScale: 0.01 }
 * const AdmissionLive = Admission.layerMemory(scaled)
 * ```
 * @category models
 * @since 0.1.0
 */
export interface Limits {
  readonly perTenSeconds: number
  readonly perMinute: number
  readonly concurrent: number
  /** Multiplies the windows, to match a simulator's `--time-scale`. */
  readonly timeScale: number
  /** Milliseconds added to every window, in the service's time: scaled by `timeScale` as the windows are (default 100). */
  readonly marginMillis: number
  /** Whether the account's live `minute_limit` may lower `perMinute` (see `followsAllowance`). */
  readonly live?: boolean
}

/**
 * The limits of the contract.
 *
 * @example
 * ```ts
 * import { AdmissionWindows } from "effect-catalog"
 *
 * AdmissionWindows.contractLimits.perMinute // 60
 * AdmissionWindows.contractLimits.concurrent // 2
 * ```
 * @category constants
 * @since 0.1.0
 */
export const contractLimits: Limits = {
  perTenSeconds: ContractLimits.requestsPerTenSeconds,
  perMinute: ContractLimits.requestsPerMinute,
  concurrent: ContractLimits.concurrentRequests,
  timeScale: 1,
  marginMillis: 100
}

/**
 * No limits at all: requests are sent at once (for a service or simulator
 * without limits, or tests).
 *
 * @example
 * ```ts
 * import { Admission, AdmissionWindows } from "effect-catalog"
 *
 * const AdmissionLive = Admission.layerMemory(AdmissionWindows.noLimits)
 * ```
 * @category constants
 * @since 0.1.0
 */
export const noLimits: Limits = {
  perTenSeconds: Number.POSITIVE_INFINITY,
  perMinute: Number.POSITIVE_INFINITY,
  concurrent: Number.POSITIVE_INFINITY,
  timeScale: 1,
  marginMillis: 0
}

/**
 * The limits a client keeps to, decided once: the contract's figures, with
 * the time scale and the overrides given. Every client layer, the
 * `catalog` command and `Simulator.layerClient` build their admission from
 * this value, and `Mirror.plan` schedules by the same value, read back from
 * the admission (`Admission.Service.limits`); the account's live
 * `minute_limit` lowers it while the client runs (`followsAllowance`).
 *
 * @example
 * ```ts
 * import { AdmissionWindows } from "effect-catalog"
 *
 * AdmissionWindows.resolve({ timeScale: 0.01 }).perMinute // 60
 * AdmissionWindows.resolve({ perMinute: 20 }).timeScale // 1
 * ```
 * @category constructors
 * @since 0.7.0
 */
export const resolve = (overrides: Partial<Limits> = {}): Limits => ({ ...contractLimits, ...overrides })

/**
 * Whether `limits` follow the live allowance, lowered to the account's
 * `minute_limit`, read from `/usage/`, when it is lower: as `live` says, and
 * when it says nothing, if they are the contract's table (whatever their
 * time scale and margin). Any other figure, or `live: false`, makes the
 * limits explicit: an admission made from them keeps them, and a client
 * over it never reads `/usage/` for them. This holds for every admission
 * layer (`Admission.layerMemory`, `Admission.layerKeyValueStore`,
 * `RedisAdmission.layer`) and for `CatalogClient.layer`'s `limits`
 * (`{ timeScale: 0.01 }` follows, `{ perMinute: 30 }` and `{ live: false }`
 * are kept).
 *
 * @example
 * ```ts
 * import { AdmissionWindows } from "effect-catalog"
 *
 * AdmissionWindows.followsAllowance({ ...AdmissionWindows.contractLimits, timeScale: 0.01 }) // true
 * AdmissionWindows.followsAllowance({ ...AdmissionWindows.contractLimits, perMinute: 30 }) // false
 * AdmissionWindows.followsAllowance({ ...AdmissionWindows.contractLimits, live: false }) // false
 * ```
 * @category guards
 * @since 0.5.0
 */
export const followsAllowance = (limits: Limits): boolean =>
  limits.live ?? (
    limits.perTenSeconds === contractLimits.perTenSeconds &&
    limits.perMinute === contractLimits.perMinute &&
    limits.concurrent === contractLimits.concurrent
  )

/**
 * Limits under a live `minute_limit`: the lower of it and their own per-minute limit.
 *
 * @example
 * ```ts
 * import { AdmissionWindows } from "effect-catalog"
 *
 * AdmissionWindows.underAllowance(AdmissionWindows.contractLimits, 20).perMinute // 20
 * ```
 * @category utils
 * @since 0.5.0
 */
export const underAllowance = (limits: Limits, minuteLimit: number): Limits => ({
  ...limits,
  perMinute: Math.min(limits.perMinute, minuteLimit)
})

/**
 * A sliding window: at most `limit` requests start in any span of `millis`.
 *
 * @example
 * ```ts
 * import { AdmissionWindows } from "effect-catalog"
 *
 * const window: AdmissionWindows.Window = { millis: 10_100, limit: 10 }
 * ```
 * @category models
 * @since 0.2.0
 */
export interface Window {
  readonly millis: number
  readonly limit: number
}

/**
 * The windows of some limits, widened by the margin and scaled (whole
 * milliseconds: stores keep integers); none for a limit that is infinite.
 *
 * @example
 * ```ts
 * import { AdmissionWindows } from "effect-catalog"
 *
 * AdmissionWindows.windows(AdmissionWindows.contractLimits) // [{ millis: 10100, limit: 10 }, { millis: 60100, limit: 60 }]
 * ```
 * @category utils
 * @since 0.2.0
 */
export const windows = (limits: Limits): ReadonlyArray<Window> =>
  [
    { millis: Math.ceil((10_000 + limits.marginMillis) * limits.timeScale), limit: limits.perTenSeconds },
    { millis: Math.ceil((60_000 + limits.marginMillis) * limits.timeScale), limit: limits.perMinute }
  ].filter((window) => Number.isFinite(window.limit))

/**
 * The earliest start, at `now` or later and not before the last one booked,
 * that keeps every window under its limit, given the starts booked so far
 * (ascending).
 *
 * @example
 * ```ts
 * import { AdmissionWindows } from "effect-catalog"
 *
 * const tenAtOnce = Array.from({ length: 10 }, () => 0)
 * AdmissionWindows.earliestStart(tenAtOnce, [{ millis: 10_000, limit: 10 }], 500) // 10000
 * ```
 * @category utils
 * @since 0.2.0
 * @deprecated Admission no longer books starts ahead: it decides when a request leaves (`earliestDeparture`).
 */
export const earliestStart = (starts: ReadonlyArray<number>, windowsOf: ReadonlyArray<Window>, now: number): number =>
  earliestDeparture(starts, 0, windowsOf, Math.max(now, starts.at(-1) ?? now))

/**
 * When a request may leave under `windowsOf`, at `now` or later: `now` when
 * every window has room for it now, else the earliest moment at which it
 * can have. `answered` are the moments the answers of earlier requests came
 * (ascending): each is counted from then, the latest it can have reached
 * the service. `onTheirWay` requests sent and not answered yet count in
 * every window (until their answer comes: when too many are on their way,
 * the moment given is the earliest one possible, and the question is asked
 * again then).
 *
 * @example
 * ```ts
 * import { AdmissionWindows } from "effect-catalog"
 *
 * const windows = [{ millis: 10_000, limit: 10 }]
 * AdmissionWindows.earliestDeparture([0, 0, 0, 0, 0, 0, 0, 0, 0], 0, windows, 500) // 500
 * AdmissionWindows.earliestDeparture([0, 0, 0, 0, 0, 0, 0, 0, 0], 1, windows, 500) // 10000
 * ```
 * @category utils
 * @since 0.6.0
 */
export const earliestDeparture = (
  answered: ReadonlyArray<number>,
  onTheirWay: number,
  windowsOf: ReadonlyArray<Window>,
  now: number
): number => {
  let departure = now
  for (const window of windowsOf) {
    if (onTheirWay >= window.limit) {
      departure = Math.max(departure, now + window.millis)
      continue
    }
    // The oldest of the last `limit` requests must have left the window.
    const oldest = answered[answered.length - (window.limit - onTheirWay)]
    if (oldest !== undefined) departure = Math.max(departure, oldest + window.millis)
  }
  return departure
}

/**
 * The moments (milliseconds from now) at which `requests` requests in a row
 * may start under `limits`, after the starts already booked (also from now:
 * negative for the past): each request takes `requestMillis` (a scan reads
 * its pages one after the other) and is counted in the windows from its
 * answer, as admission counts it. What a plan or a progress line says of
 * the time left.
 *
 * @example
 * ```ts
 * import { AdmissionWindows } from "effect-catalog"
 *
 * // 12 pages of 100 ms under 10 requests per 10 s (and a 100 ms margin): the 11th waits for the first answer to leave the window.
 * AdmissionWindows.schedule(12, AdmissionWindows.contractLimits, [], 100).at(-1) // 10300
 * ```
 * @category utils
 * @since 0.4.0
 */
export const schedule = (
  requests: number,
  limits: Limits,
  booked: ReadonlyArray<number>,
  requestMillis: number
): ReadonlyArray<number> => {
  const windowsOf = windows(limits)
  const starts = [...booked]
  const answered = booked.map((start) => start + requestMillis)
  for (let n = 0; n < requests; n++) {
    const previous = starts.at(-1)
    const start = Math.max(earliestDeparture(answered, 0, windowsOf, 0), previous === undefined ? 0 : previous + requestMillis)
    starts.push(start)
    answered.push(start + requestMillis)
  }
  return starts
}
