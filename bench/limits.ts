/**
 * 1. Limit efficiency: a full scan of 3,000 models at page size 100 under the
 * account's real limits (10 per 10 s, 60 per minute, 2 concurrent), with the
 * simulator's time scale shrinking every window so that it runs in seconds.
 */
import { Duration, Effect, Redacted, Stream } from "effect"
import { Admission, Budget, CatalogClient, Retry } from "effect-catalog"
import { Simulator } from "effect-catalog/simulator"
import { clientOf } from "./client.js"
import { atLeast, atMost, type Benchmark, exactly, figure, secondsSince } from "./support.js"

/**
 * 30 requests at a pace of 1,020 ms × 0.3 = 306 ms: about 9 s. The client's
 * 2% margin shrinks with the scale (60 ms here, 200 ms unscaled) while the
 * delays of a loaded machine do not, so a smaller scale is harsher than the
 * real service.
 */
export const timeScale = 0.3
export const models = 3_000
export const pageSize = 100

/** What a scaled scan saw, from the client and from the simulator. */
export interface ScanRun {
  readonly items: number
  readonly wallMillis: number
  readonly startedAt: number
  readonly units: number
  /** Times of the requests the simulator admitted (every answer but 429s). */
  readonly admitted: ReadonlyArray<number>
  readonly statuses: ReadonlyMap<number, number>
}

/**
 * A full scan of `models` against an in-process simulator with the contract's
 * limits and `settings`, by a client under the contract's limits, both at
 * `timeScale` (the client's retry backoff is scaled too).
 */
export const scaledScan = (settings: Simulator.Settings = {}): Promise<ScanRun> =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function*() {
        const simulator = yield* Simulator.make({ sizes: { models }, timeScale, ...settings })
        return yield* Effect.gen(function*() {
          const catalog = yield* CatalogClient.CatalogClient
          const budget = yield* Budget.Budget
          const startedAt = Date.now()
          const start = performance.now()
          const items = yield* catalog.models({ limit: pageSize }).pipe(Stream.runCount)
          const wallMillis = secondsSince(start) * 1000
          const answered = yield* simulator.answered
          return {
            items,
            wallMillis,
            startedAt,
            units: (yield* budget.spent).units,
            admitted: answered.filter((answer) => answer.status !== 429).map((answer) => answer.at),
            statuses: yield* simulator.statusCounts
          }
        }).pipe(
          Effect.provide(clientOf(simulator.baseUrl, Redacted.value(simulator.keys.full), {
            limits: { ...Admission.contractLimits, timeScale },
            retry: { base: Duration.times(Retry.defaultPolicy.base, timeScale) }
          }))
        )
      })
    )
  )

/** The most requests at any instant in the window `(t - window, t]`. */
export const peakInWindow = (times: ReadonlyArray<number>, window: number): number => {
  const sorted = [...times].sort((a, b) => a - b)
  let peak = 0
  let first = 0
  sorted.forEach((t, last) => {
    while ((sorted[first] ?? t) <= t - window) first++
    peak = Math.max(peak, last - first + 1)
  })
  return peak
}

/** The benchmark, and its scan for benchmark 5 to compare with. */
export const run = async (): Promise<{ readonly benchmark: Benchmark; readonly scan: ScanRun }> => {
  const start = performance.now()
  const scan = await scaledScan()
  const tenSeconds = 10_000 * timeScale
  const minute = 60_000 * timeScale
  const sorted = [...scan.admitted].sort((a, b) => a - b)
  const first = sorted[0] ?? 0
  const last = sorted[sorted.length - 1] ?? 0
  // The steady rate: intervals between admitted requests, per 10 s window, over the 10 allowed.
  const perWindow = (sorted.length - 1) / ((last - first) / tenSeconds)
  const requests = scan.admitted.length
  // How close the scan came to an 11th request in a window: above 1, never.
  const spans = sorted.slice(10).map((t, i) => (t - (sorted[i] ?? t)) / tenSeconds)
  // N requests at exactly the allowed rate, after a first answer as fast as this one.
  const idealMillis = (requests - 1) * (tenSeconds / 10) + (first - scan.startedAt)
  const benchmark: Benchmark = {
    name: "1. limit efficiency",
    setup: `${models.toLocaleString("en-US")} models, page size ${pageSize}, contract limits (10/10 s, 60/min, 2 concurrent), time scale ${timeScale} on simulator and client, in-process simulator`,
    seconds: secondsSince(start),
    figures: [
      figure("time scale", timeScale, "x"),
      figure("items scanned", scan.items, "items", exactly(models)),
      figure("requests", requests, "requests", exactly(models / pageSize)),
      figure("achieved requests per 10 s / allowed (10)", perWindow / 10, "ratio", atLeast(0.95)),
      figure("peak requests in any 10 s window", peakInWindow(scan.admitted, tenSeconds), "requests", atMost(10)),
      figure("peak requests in any minute", peakInWindow(scan.admitted, minute), "requests", atMost(60)),
      figure("shortest span of 11 consecutive requests / 10 s", Math.min(...spans), "ratio", undefined, "above 1 keeps every 10 s window at 10 requests or fewer"),
      figure("429s provoked", scan.statuses.get(429) ?? 0, "responses", exactly(0)),
      figure("wall time (scaled)", scan.wallMillis, "ms"),
      figure("wall time at scale 1", scan.wallMillis / timeScale / 1000, "s"),
      figure("wall time / ideal wall time", scan.wallMillis / idealMillis, "ratio")
    ]
  }
  return { benchmark, scan }
}
