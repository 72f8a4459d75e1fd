/**
 * 1. Limit efficiency: a full scan of 3,000 models at page size 100 under the
 * account's real limits (10 per 10 s, 60 per minute, 2 concurrent), with the
 * simulator's time scale shrinking every window so that it runs in seconds;
 * and the same scan on an account whose live `minute_limit` is 20, by a
 * client that follows it (bench/allowance.ts).
 */
import { Admission } from "effect-catalog"
import type { Simulator } from "effect-catalog/simulator"
import * as Allowance from "./allowance.js"
import { atMost, type Benchmark, exactly, figure, secondsSince } from "./support.js"
import { idealMillis, peakInWindow, type ScanRun, timedScan } from "./timedScan.js"

/**
 * 30 requests under windows of 3 s and 18 s: ten at once, ten more 3 s
 * later, ten more 3 s after that, about 6 s. The client's margin (100 ms) is
 * the same at every scale while the windows shrink, so a smaller scale is
 * harsher than the real service.
 */
export const timeScale = 0.3
export const models = 3_000
export const pageSize = 100

/** A full scan of `models` at `timeScale` on a simulator with the contract's limits and `settings`. */
export const scaledScan = (settings: Simulator.Settings = {}): Promise<ScanRun> => timedScan({ models, pageSize, timeScale, settings })

/** The benchmark, and its scan for benchmark 5 to compare with. */
export const run = async (): Promise<{ readonly benchmark: Benchmark; readonly scan: ScanRun }> => {
  const start = performance.now()
  const scan = await scaledScan()
  const allowed = await Allowance.scan(models / pageSize)
  const tenSeconds = 10_000 * timeScale
  const minute = 60_000 * timeScale
  const sends = [...scan.sends].sort((a, b) => a - b)
  const requests = sends.length
  // How close the scan came to an 11th request in a window: at or above 1, never an 11th.
  const spans = sends.slice(10).map((t, i) => (t - (sends[i] ?? t)) / tenSeconds)
  const ideal = idealMillis(scan.durations, { ...Admission.contractLimits, timeScale })
  const benchmark: Benchmark = {
    name: "1. limit efficiency",
    setup: `${models.toLocaleString("en-US")} models, page size ${pageSize}, contract limits (10/10 s, 60/min, 2 concurrent), time scale ${timeScale} on simulator and client, in-process simulator; then the same scan ${Allowance.setup}`,
    seconds: secondsSince(start),
    figures: [
      figure("time scale", timeScale, "x"),
      figure("items scanned", scan.items, "items", exactly(models)),
      figure("requests (pages and the client's read of /usage/)", requests, "requests", exactly(models / pageSize + 1)),
      figure("peak requests sent in any 10 s window", peakInWindow(sends, tenSeconds), "requests", atMost(10)),
      figure("peak requests sent in any minute", peakInWindow(sends, minute), "requests", atMost(60)),
      figure("shortest span of 11 consecutive requests / 10 s", Math.min(...spans), "ratio", undefined, "above 1 keeps every 10 s window at 10 requests or fewer"),
      figure("429s provoked", scan.statuses.get(429) ?? 0, "responses", exactly(0)),
      figure("wall time (scaled)", scan.wallMillis, "ms"),
      figure("wall time at scale 1", scan.wallMillis / timeScale / 1000, "s"),
      figure("wall time / ideal wall time", scan.wallMillis / ideal, "ratio", atMost(1.1), "the ideal: the same requests, each taking as long as it took, sequential, each at the earliest start the windows allow"),
      ...Allowance.figures(`minute_limit ${Allowance.minuteLimit}`, models / pageSize, allowed)
    ]
  }
  return { benchmark, scan }
}
