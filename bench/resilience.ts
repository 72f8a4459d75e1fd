/**
 * 5. Resilience cost: the scan of benchmark 1 while 15% of requests are
 * answered 503 (with a scaled `Retry-After`) and the catalog churns, against
 * the same scan on a clean simulator.
 */
import { type Benchmark, exactly, figure, secondsSince } from "./support.js"
import { models, pageSize, scaledScan, timeScale } from "./limits.js"
import type { ScanRun } from "./timedScan.js"

export const unavailable = 0.15
export const churn = 0.05

export const run = async (clean?: ScanRun): Promise<Benchmark> => {
  const start = performance.now()
  const baseline = clean ?? await scaledScan()
  const faulty = await scaledScan({ faults: { unavailable }, churn })
  return {
    name: "5. resilience cost",
    setup: `the scan of benchmark 1 (${models.toLocaleString("en-US")} models, page size ${pageSize}, time scale ${timeScale}) with ${unavailable * 100}% 503s and churn ${churn}, against a clean run; the client's retry backoff is scaled too`,
    seconds: secondsSince(start),
    figures: [
      figure("items scanned (churn moves the total)", faulty.items, "items"),
      figure("503s answered", faulty.statuses.get(503) ?? 0, "responses"),
      figure("share of requests answered 503", (faulty.statuses.get(503) ?? 0) / [...faulty.statuses.values()].reduce((a, b) => a + b, 0), "ratio", undefined, "the simulator draws each request's fault from its seed"),
      figure("429s provoked", faulty.statuses.get(429) ?? 0, "responses", exactly(0)),
      figure("wall time (scaled)", faulty.wallMillis, "ms"),
      figure("wall time / clean run", faulty.wallMillis / baseline.wallMillis, "ratio"),
      figure("units", faulty.units, "units"),
      figure("units / clean run", faulty.units / baseline.units, "ratio"),
      figure("units / minimum for the items scanned", faulty.units / Math.ceil(faulty.items / pageSize), "ratio", undefined, "503s are refunded; churn moves the page count")
    ]
  }
}
