/**
 * 8. Full scans at the speed the account allows: scans of 5, 30 and 120 full
 * pages (100 models each) under the contract's real limits, unscaled (10
 * requests in any 10 s, 60 in any minute, 2 at once), each on a fresh
 * account, against the ideal schedule for the same pages: each request
 * starts as soon as the one before has answered and the limits allow, and
 * takes as long as it took in the scan. The clock starts when the client is
 * built, at the scan's first request.
 *
 * Each scan runs over a network of 40 ms (the simulator answers every
 * request 40 ms late, as a real service far from its user does), where its
 * time against the ideal is what a user feels, and on loopback, where
 * requests of a few milliseconds let the JIT's first pages dominate a short
 * scan: those figures are printed for information. Then a scan of 120 pages
 * on an account whose live `minute_limit` is 20, time-scaled
 * (bench/allowance.ts).
 */
import type { Simulator } from "effect-catalog/simulator"
import * as Allowance from "./allowance.js"
import { atMost, type Benchmark, exactly, type Figure, figure, secondsSince, type Target } from "./support.js"
import { idealMillis, type ScanRun, timedScan } from "./timedScan.js"

const pageCounts = [5, 30, 120] as const
const pageSize = 100
/** How late the simulator answers every request over the network. */
const latencyMillis = 40
/** Pages of the scan on an account of 20 a minute: six of its minutes. */
const allowancePages = 120

/** Where a scan runs, and the target of its time against the ideal there. */
interface Network {
  readonly label: string
  readonly faults: Partial<Simulator.Faults>
  readonly ratioTarget: Target | undefined
}

/** Over a network of `latencyMillis` (the target), then on loopback (for information). */
const networks: ReadonlyArray<Network> = [
  { label: `over a ${latencyMillis} ms network`, faults: { slow: 1, slowMillis: latencyMillis }, ratioTarget: atMost(1.1) },
  { label: "on loopback", faults: {}, ratioTarget: undefined }
]

/** The figures of one scan of `pages` pages, named after `label`. */
const scanFigures = (label: string, pages: number, run: ScanRun, ratioTarget: Target | undefined): ReadonlyArray<Figure> => {
  const ideal = idealMillis(run.durations)
  return [
    figure(`${label}: wall time`, run.wallMillis / 1000, "s"),
    figure(`${label}: ideal wall time`, ideal / 1000, "s"),
    figure(
      `${label}: wall time / ideal`,
      run.wallMillis / ideal,
      "ratio",
      ratioTarget,
      ratioTarget === undefined ? "loopback's requests of a few ms let the JIT's first pages weigh on a short scan" : undefined
    ),
    figure(`${label}: requests (and the client's read of /usage/)`, run.sends.length, "requests", exactly(pages + 1)),
    figure(`${label}: 429s provoked`, run.statuses.get(429) ?? 0, "responses", exactly(0)),
    figure(`${label}: items scanned`, run.items, "items", exactly(pages * pageSize))
  ]
}

export const run = async (): Promise<Benchmark> => {
  const start = performance.now()
  const figures: Array<Figure> = []
  for (const { faults, label, ratioTarget } of networks) {
    for (const pages of pageCounts) {
      const scan = await timedScan({ models: pages * pageSize, pageSize, timeScale: 1, settings: { faults } })
      figures.push(...scanFigures(`${pages} pages ${label}`, pages, scan, ratioTarget))
    }
  }
  const allowed = await Allowance.scan(allowancePages)
  return {
    name: "8. full scans",
    setup:
      `scans of ${pageCounts.join(", ")} full pages of ${pageSize} models, each on a fresh in-process simulator with the contract's limits at time scale 1, by a client under the contract's limits, page size ${pageSize}, first with the simulator answering every request ${latencyMillis} ms late (faults slow=1, slow-ms=${latencyMillis}), then on loopback; the ideal: the same requests, each taking as long as it took in the scan, sequential, each at the earliest start the sliding windows allow; timed from the first request (the client built before); then ${allowancePages} pages ${Allowance.setup}`,
    seconds: secondsSince(start),
    figures: [...figures, ...Allowance.figures(`${allowancePages} pages, minute_limit ${Allowance.minuteLimit}`, allowancePages, allowed)]
  }
}
