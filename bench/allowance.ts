/**
 * The live allowance: a full scan on an account whose `/usage/` reports
 * `minute_limit: 20`, by a client under the contract's limits (which follow
 * the live allowance: it reads `/usage/` before its second request and then
 * admits under 20 a minute), at a time scale that makes a minute last
 * 1.8 s. Measured against the ideal schedule of the same requests, the
 * client's own read of `/usage/` among them, under the contract's windows
 * lowered to 20 a minute (`Admission.underAllowance`).
 */
import { Admission } from "effect-catalog"
import { atMost, exactly, type Figure, figure } from "./support.js"
import { idealMillis, peakInWindow, type ScanRun, scheduledMillis, timedScan } from "./timedScan.js"

/** The account's live `minute_limit`, a third of the contract's 60. */
export const minuteLimit = 20
/**
 * A minute of 1.8 s and 10 s of 300 ms. The client's margin (100 ms a
 * window) does not shrink with the windows: the ideal leaves it out, so at
 * this scale it alone costs about 5% of a long scan's time.
 */
export const timeScale = 0.03
const minuteMillis = 60_000 * timeScale
export const pageSize = 100

/** The limits the client admits under once it has read the allowance. */
export const allowedLimits: Admission.Limits = Admission.underAllowance({ ...Admission.contractLimits, timeScale }, minuteLimit)

/** How the scans are run, for a benchmark's setup. */
export const setup = `on an account whose /usage/ reports minute_limit ${minuteLimit}, time scale ${timeScale} on simulator and client (a minute of ${minuteMillis} ms), by a client under the contract's limits that follows the live allowance; the ideal: the same requests, the client's read of /usage/ among them, each taking as long as it took, sequential, each at the earliest start the windows of 10 per 10 s and ${minuteLimit} per minute allow, without the client's margin`

/** A scan of `pages` full pages on a fresh account of `minuteLimit` a minute. */
export const scan = (pages: number): Promise<ScanRun> =>
  timedScan({ models: pages * pageSize, pageSize, timeScale, settings: { limits: { perMinute: minuteLimit } } })

/** The figures of a scan of `pages` pages, each named after `label`. */
export const figures = (label: string, pages: number, run: ScanRun): ReadonlyArray<Figure> => {
  const ideal = idealMillis(run.durations, allowedLimits)
  return [
    figure(`${label}: items scanned`, run.items, "items", exactly(pages * pageSize)),
    figure(`${label}: requests (pages and the client's read of /usage/)`, run.sends.length, "requests", exactly(pages + 1)),
    figure(`${label}: peak requests sent in any minute`, peakInWindow(run.sends, minuteMillis), "requests", atMost(minuteLimit)),
    figure(`${label}: 429s provoked`, run.statuses.get(429) ?? 0, "responses", exactly(0)),
    figure(`${label}: wall time in scaled minutes`, run.wallMillis / minuteMillis, "minutes", undefined, `a minute is ${minuteMillis} ms`),
    figure(`${label}: wall time`, run.wallMillis, "ms"),
    figure(`${label}: ideal wall time`, ideal, "ms"),
    figure(`${label}: wall time / ideal`, run.wallMillis / ideal, "ratio", atMost(1.1)),
    figure(
      `${label}: ideal with the client's margin / ideal`,
      scheduledMillis(run.durations, allowedLimits) / ideal,
      "ratio",
      undefined,
      "what the 100 ms margin a window alone costs at this time scale"
    )
  ]
}
