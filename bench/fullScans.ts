/**
 * 8. Full scans at the speed the account allows: scans of 5, 30 and 120 full
 * pages (100 models each) under the contract's real limits, unscaled (10
 * requests in any 10 s, 60 in any minute, 2 at once), each on a fresh
 * account, against the ideal schedule for the same pages: each request
 * starts as soon as the one before has answered and the limits allow, and
 * takes as long as it took in the scan. The clock starts when the client is
 * built, at the scan's first request. Then a scan of 120 pages on an
 * account whose live `minute_limit` is 20, time-scaled (bench/allowance.ts).
 */
import * as Allowance from "./allowance.js"
import { atMost, type Benchmark, exactly, figure, secondsSince } from "./support.js"
import { idealMillis, type ScanRun, timedScan } from "./timedScan.js"

const pageCounts = [5, 30, 120] as const
const pageSize = 100
/** Pages of the scan on an account of 20 a minute: six of its minutes. */
const allowancePages = 120

export const run = async (): Promise<Benchmark> => {
  const start = performance.now()
  const scans: Array<{ readonly pages: number; readonly run: ScanRun }> = []
  for (const pages of pageCounts) scans.push({ pages, run: await timedScan({ models: pages * pageSize, pageSize, timeScale: 1 }) })
  const allowed = await Allowance.scan(allowancePages)
  return {
    name: "8. full scans",
    setup:
      `scans of ${pageCounts.join(", ")} full pages of ${pageSize} models, each on a fresh in-process simulator with the contract's limits at time scale 1, by a client under the contract's limits, page size ${pageSize}; the ideal: the same requests, each taking as long as it took in the scan, sequential, each at the earliest start the sliding windows allow; timed from the first request (the client built before); then ${allowancePages} pages ${Allowance.setup}`,
    seconds: secondsSince(start),
    figures: [
      ...scans.flatMap(({ pages, run }) => {
        const ideal = idealMillis(run.durations)
        return [
          figure(`${pages} pages: wall time`, run.wallMillis / 1000, "s"),
          figure(`${pages} pages: ideal wall time`, ideal / 1000, "s"),
          figure(`${pages} pages: wall time / ideal`, run.wallMillis / ideal, "ratio", atMost(1.1)),
          figure(`${pages} pages: requests (and the client's read of /usage/)`, run.sends.length, "requests", exactly(pages + 1)),
          figure(`${pages} pages: 429s provoked`, run.statuses.get(429) ?? 0, "responses", exactly(0)),
          figure(`${pages} pages: items scanned`, run.items, "items", exactly(pages * pageSize))
        ]
      }),
      ...Allowance.figures(`${allowancePages} pages, minute_limit ${Allowance.minuteLimit}`, allowancePages, allowed)
    ]
  }
}
