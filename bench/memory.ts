/**
 * 3. Memory: a scan of one million models with limits off, by the client and
 * by a plain loop that keeps a `Set` of the ids it has seen, each alone in its
 * own process (`bench/memory-child.ts`) against the same simulator (in its
 * own process): peak RSS and live heap at 10,000, 100,000 and 1,000,000 items.
 *
 * The scanners run as an application ships: compiled to JavaScript first
 * (`bench/tsconfig.memory.json`), then under plain `node`, without the
 * TypeScript loader, which costs tens of MB of its own. The client is also
 * measured from source under `tsx` for the first 10,000 items, for
 * comparison.
 */
import { Schema } from "effect"
import path from "node:path"
import { atMost, type Benchmark, type Figure, figure, megabytes, runNode, secondsSince, type SimulatorProcess } from "./support.js"

/** One sample of a scanner's memory, as `bench/memory-child.ts` reports it. */
const Sample = Schema.Struct({
  items: Schema.Number,
  /** Resident set size now, in bytes. */
  rss: Schema.Number,
  /** The largest resident set size so far, in bytes. */
  peakRss: Schema.Number,
  /** Live heap after a full collection, in bytes. */
  heapUsed: Schema.Number,
  heapTotal: Schema.Number,
  external: Schema.Number,
  seconds: Schema.Number,
  cpuSeconds: Schema.Number
})
export type Sample = typeof Sample.Type

/** What a scanner measures: `client` (default options, over undici) or `plain` (fetch, JSON.parse, a Set of ids). */
const Mode = Schema.Literal("client", "plain")
type Mode = typeof Mode.Type

const Report = Schema.parseJson(Schema.Struct({
  mode: Mode,
  items: Schema.Number,
  seconds: Schema.Number,
  cpuSeconds: Schema.Number,
  gc: Schema.Boolean,
  samples: Schema.Array(Sample)
}))

export const items = 1_000_000

/** Where the child and the library it imports are compiled to (git-ignored). */
const compiledChild = path.join(".tmp", "bench-memory", "bench", "memory-child.js")

/** Compiles the child and what it imports with `bench/tsconfig.memory.json`. */
const compile = () => runNode([path.join("node_modules", "typescript", "bin", "tsc"), "-p", path.join("bench", "tsconfig.memory.json")])

/** How a scanner is run: compiled, or from source under tsx. */
type Loader = "compiled" | "tsx"

const scan = async (mode: Mode, loader: Loader, flags: ReadonlyArray<string>, count: number, simulator: SimulatorProcess) => {
  const child = loader === "compiled" ? [compiledChild] : ["--import", "tsx", path.join("bench", "memory-child.ts")]
  const output = await runNode(["--expose-gc", ...flags, ...child, mode, simulator.baseUrl, simulator.key, String(count)])
  const line = output.trim().split("\n").pop() ?? ""
  return Schema.decodeUnknownSync(Report)(line)
}

/** V8 flags that keep the heap near its live size, to tell garbage V8 has not collected yet from memory in use. */
export const cappedHeap = ["--max-old-space-size=128", "--max-semi-space-size=4"]

interface Scanner {
  readonly mode: Mode
  readonly label: string
  readonly loader: Loader
  readonly flags: ReadonlyArray<string>
  readonly items: number
}

/** The scanners in the order they run; from source, the first 10,000 items are enough to show what the loader costs. */
const scanners: ReadonlyArray<Scanner> = [
  { mode: "client", label: "client", loader: "compiled", flags: [], items },
  { mode: "client", label: "client, heap capped", loader: "compiled", flags: cappedHeap, items },
  { mode: "plain", label: "plain loop + Set", loader: "compiled", flags: [], items },
  { mode: "client", label: "client from source under tsx", loader: "tsx", flags: [], items: 10_000 }
]

export const run = async (simulator: SimulatorProcess): Promise<Benchmark> => {
  const start = performance.now()
  await compile()
  const figures: Array<Figure> = []
  const rates: Array<Figure> = []
  for (const { mode, label, loader, flags, items: scanned } of scanners) {
    const report = await scan(mode, loader, flags, scanned, simulator)
    const at = (count: number) => report.samples.find((s) => s.items === count)
    const targeted = label === "client"
    const loaded = at(0)
    if (loaded !== undefined) {
      figures.push(
        figure(`${label}: RSS once loaded, before scanning`, megabytes(loaded.peakRss), "MB"),
        figure(`${label}: heap once loaded, before scanning`, megabytes(loaded.heapUsed), "MB")
      )
    }
    for (const count of [10_000, 100_000, 1_000_000]) {
      const sample = at(count)
      if (sample === undefined) continue
      const k = count === 1_000_000 ? "1M" : `${count / 1000}k`
      figures.push(
        figure(`${label}: peak RSS at ${k} items`, megabytes(sample.peakRss), "MB", targeted ? atMost(120, " MB") : undefined),
        figure(`${label}: heap at ${k} items`, megabytes(sample.heapUsed), "MB")
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
    if (scanned < items) continue
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
    setup: `${items.toLocaleString("en-US")} models, limits off, page size 100; simulator and each scanner in its own process; the scanners compiled to JavaScript with tsc (bench/tsconfig.memory.json) and run as an application ships, without a TypeScript loader (node --expose-gc ${compiledChild}), the client imported through the package's main entry point and over undici (@effect/platform-node/NodeHttpClient); heap sampled after a full collection, peak RSS is the process's maxRSS so far; the client with default options and default V8 flags, then the same with V8's heap capped (${cappedHeap.join(" ")}), then the plain loop; last, for comparison, the client from source under tsx (node --import tsx) for the first 10,000 items`,
    seconds: secondsSince(start),
    figures: [...figures, ...rates]
  }
}
