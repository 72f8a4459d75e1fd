/**
 * 3. Memory: a scan of one million models with limits off, by the client and
 * by a plain loop that keeps a `Set` of the ids it has seen, each alone in its
 * own process (`bench/memory-child.ts`) against the same simulator (in its
 * own process): peak RSS and live heap at 10,000, 100,000 and 1,000,000 items.
 */
import { Schema } from "effect"
import { atMost, type Benchmark, type Figure, figure, megabytes, runNode, secondsSince, type SimulatorProcess } from "./support.js"

/** One sample of a scanner's memory. */
export interface Sample {
  readonly items: number
  /** Resident set size now, in bytes. */
  readonly rss: number
  /** The largest resident set size so far, in bytes. */
  readonly peakRss: number
  /** Live heap after a full collection, in bytes. */
  readonly heapUsed: number
  readonly heapTotal: number
  readonly external: number
  readonly seconds: number
  readonly cpuSeconds: number
}

const SampleSchema = Schema.Struct({
  items: Schema.Number,
  rss: Schema.Number,
  peakRss: Schema.Number,
  heapUsed: Schema.Number,
  heapTotal: Schema.Number,
  external: Schema.Number,
  seconds: Schema.Number,
  cpuSeconds: Schema.Number
})

const Report = Schema.parseJson(Schema.Struct({
  mode: Schema.Literal("client", "plain"),
  items: Schema.Number,
  seconds: Schema.Number,
  cpuSeconds: Schema.Number,
  gc: Schema.Boolean,
  samples: Schema.Array(SampleSchema)
}))

export const items = 1_000_000

type Mode = "client" | "plain"

const scan = async (mode: Mode, flags: ReadonlyArray<string>, simulator: SimulatorProcess) => {
  const output = await runNode(["--expose-gc", ...flags, "--import", "tsx", "bench/memory-child.ts", mode, simulator.baseUrl, simulator.key, String(items)])
  const line = output.trim().split("\n").pop() ?? ""
  return Schema.decodeUnknownSync(Report)(line)
}

const mb = (bytes: number) => megabytes(bytes)

/** V8 flags that keep the heap near its live size, to tell garbage V8 has not collected yet from memory in use. */
export const cappedHeap = ["--max-old-space-size=128", "--max-semi-space-size=4"]

const scanners: ReadonlyArray<readonly [Mode, string, ReadonlyArray<string>]> = [
  ["client", "client", []],
  ["client", "client, heap capped", cappedHeap],
  ["plain", "plain loop + Set", []]
]

export const run = async (simulator: SimulatorProcess): Promise<Benchmark> => {
  const start = performance.now()
  const figures: Array<Figure> = []
  const rates: Array<Figure> = []
  for (const [mode, label, flags] of scanners) {
    const report = await scan(mode, flags, simulator)
    const at = (count: number) => report.samples.find((s) => s.items === count)
    const targeted = label === "client"
    const loaded = at(0)
    if (loaded !== undefined) {
      figures.push(
        figure(`${label}: RSS once loaded, before scanning`, mb(loaded.peakRss), "MB"),
        figure(`${label}: heap once loaded, before scanning`, mb(loaded.heapUsed), "MB")
      )
    }
    for (const count of [10_000, 100_000, 1_000_000]) {
      const sample = at(count)
      if (sample === undefined) continue
      const k = count === 1_000_000 ? "1M" : `${count / 1000}k`
      figures.push(
        figure(`${label}: peak RSS at ${k} items`, mb(sample.peakRss), "MB", targeted ? atMost(150, " MB") : undefined),
        figure(`${label}: heap at ${k} items`, mb(sample.heapUsed), "MB")
      )
    }
    const first = at(10_000)
    const last = at(1_000_000)
    if (first !== undefined && last !== undefined) {
      figures.push(
        figure(`${label}: peak RSS at 1M / at 10k`, last.peakRss / first.peakRss, "ratio", targeted ? atMost(1.1) : undefined),
        figure(`${label}: heap at 1M / at 10k`, last.heapUsed / first.heapUsed, "ratio", targeted ? atMost(1.1) : undefined)
      )
    }
    // From the first request on: loading the modules is not part of the scan.
    const seconds = report.seconds - (loaded?.seconds ?? 0)
    const cpuSeconds = report.cpuSeconds - (loaded?.cpuSeconds ?? 0)
    rates.push(
      figure(`${label}: scan time`, seconds, "s"),
      figure(`${label}: items per second`, report.items / seconds, "items/s"),
      figure(`${label}: CPU per 1,000 items`, (cpuSeconds * 1000) / (report.items / 1000), "ms")
    )
  }
  return {
    name: "3. memory",
    setup: `${items.toLocaleString("en-US")} models, limits off, page size 100; simulator and each scanner in its own process (node --expose-gc --import tsx bench/memory-child.ts); heap sampled after a full collection, peak RSS is the process's maxRSS so far; the client with default options, then the same with V8's heap capped (${cappedHeap.join(" ")})`,
    seconds: secondsSince(start),
    figures: [...figures, ...rates]
  }
}
