/**
 * 1. Limit efficiency: a full scan of 3,000 models at page size 100 under the
 * account's real limits (10 per 10 s, 60 per minute, 2 concurrent), with the
 * simulator's time scale shrinking every window so that it runs in seconds.
 */
import { Duration, Effect, Layer, Redacted, Stream } from "effect"
import { Admission, Budget, CatalogClient, Retry } from "effect-catalog"
import { Simulator } from "effect-catalog/simulator"
import { idealMillis, timedHttpClient } from "./fullScans.js"
import { atMost, type Benchmark, exactly, figure, secondsSince } from "./support.js"

/**
 * 30 requests under windows of 3 s and 18 s: ten at once, ten more 3 s
 * later, ten more 3 s after that, about 6 s. The client's margin (100 ms) is
 * the same at every scale while the windows shrink, so a smaller scale is
 * harsher than the real service.
 */
export const timeScale = 0.3
export const models = 3_000
export const pageSize = 100

/** What a scaled scan saw, from the client and from the simulator. */
export interface ScanRun {
  readonly items: number
  readonly wallMillis: number
  readonly units: number
  /** When each request left the client (ms, performance clock). */
  readonly sends: ReadonlyArray<number>
  /** How long each request took, from its send to its answer. */
  readonly durations: ReadonlyArray<number>
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
        const sends: Array<number> = []
        const durations: Array<number> = []
        return yield* Effect.gen(function*() {
          const catalog = yield* CatalogClient.CatalogClient
          const budget = yield* Budget.Budget
          const start = performance.now()
          const items = yield* catalog.models({ limit: pageSize }).pipe(Stream.runCount)
          const wallMillis = secondsSince(start) * 1000
          return {
            items,
            wallMillis,
            units: (yield* budget.spent).units,
            sends,
            durations,
            statuses: yield* simulator.statusCounts
          }
        }).pipe(
          Effect.provide(CatalogClient.layerWith({
            baseUrl: simulator.baseUrl,
            apiKey: Redacted.make(Redacted.value(simulator.keys.full)),
            limits: { ...Admission.contractLimits, timeScale },
            retry: { base: Duration.times(Retry.defaultPolicy.base, timeScale) }
          }).pipe(Layer.provide(timedHttpClient(sends, durations))))
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
  const sends = [...scan.sends].sort((a, b) => a - b)
  const requests = sends.length
  // How close the scan came to an 11th request in a window: at or above 1, never an 11th.
  const spans = sends.slice(10).map((t, i) => (t - (sends[i] ?? t)) / tenSeconds)
  const ideal = idealMillis(scan.durations, { ...Admission.contractLimits, timeScale })
  const benchmark: Benchmark = {
    name: "1. limit efficiency",
    setup: `${models.toLocaleString("en-US")} models, page size ${pageSize}, contract limits (10/10 s, 60/min, 2 concurrent), time scale ${timeScale} on simulator and client, in-process simulator`,
    seconds: secondsSince(start),
    figures: [
      figure("time scale", timeScale, "x"),
      figure("items scanned", scan.items, "items", exactly(models)),
      figure("requests", requests, "requests", exactly(models / pageSize)),
      figure("peak requests sent in any 10 s window", peakInWindow(sends, tenSeconds), "requests", atMost(10)),
      figure("peak requests sent in any minute", peakInWindow(sends, minute), "requests", atMost(60)),
      figure("shortest span of 11 consecutive requests / 10 s", Math.min(...spans), "ratio", undefined, "above 1 keeps every 10 s window at 10 requests or fewer"),
      figure("429s provoked", scan.statuses.get(429) ?? 0, "responses", exactly(0)),
      figure("wall time (scaled)", scan.wallMillis, "ms"),
      figure("wall time at scale 1", scan.wallMillis / timeScale / 1000, "s"),
      figure("wall time / ideal wall time", scan.wallMillis / ideal, "ratio", atMost(1.1), "the ideal: the same requests, each taking as long as it took, sequential, each at the earliest start the windows allow")
    ]
  }
  return { benchmark, scan }
}
