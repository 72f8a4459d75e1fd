/**
 * 3. Memory: a scan of one million models with limits off, by the client and
 * by a plain loop that keeps a `Set` of the ids it has seen, each alone in its
 * own process (`bench/memory-child.ts`) against the same simulator (in its
 * own process): peak RSS and live heap at 10,000, 100,000 and 1,000,000 items,
 * side by side. The targets: the client's heap flat (at 1M items no more than
 * 1.1 times at 10k) and its peak RSS at 1M items no more than the plain
 * loop's.
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

const client: Scanner = { mode: "client", label: "client", loader: "compiled", flags: [], items }
const plainLoop: Scanner = { mode: "plain", label: "plain loop + Set", loader: "compiled", flags: [], items }
/** For information: the client with V8's heap capped, and from source for the first 10,000 items, enough to show what the loader costs. */
const others: ReadonlyArray<Scanner> = [
  { mode: "client", label: "client, heap capped", loader: "compiled", flags: cappedHeap, items },
  { mode: "client", label: "client from source under tsx", loader: "tsx", flags: [], items: 10_000 }
]

/** The counts of items the client and the plain loop are compared at. */
const counts = [10_000, 100_000, 1_000_000] as const
const countLabel = (count: number) => (count === 1_000_000 ? "1M" : `${count / 1000}k`)

type Report = typeof Report.Type

/** The sample of a report at `count` items (0: once loaded). */
const at = (report: Report, count: number): Sample | undefined => report.samples.find((s) => s.items === count)

/** A ratio of two samples' values, NaN when either is missing. */
const ratio = (value: (sample: Sample) => number, numerator: Sample | undefined, denominator: Sample | undefined): number =>
  numerator === undefined || denominator === undefined ? Number.NaN : value(numerator) / value(denominator)

const peakRss = (sample: Sample) => sample.peakRss
const heap = (sample: Sample) => sample.heapUsed

/** What a scanner's modules cost before its first request. */
const loadedFigures = (label: string, report: Report): ReadonlyArray<Figure> => {
  const loaded = at(report, 0)
  return loaded === undefined ? [] : [
    figure(`${label}: RSS once loaded, before scanning`, megabytes(loaded.peakRss), "MB"),
    figure(`${label}: heap once loaded, before scanning`, megabytes(loaded.heapUsed), "MB")
  ]
}

/** The peak RSS and heap of a scanner at each count it reached, for information. */
const sampleFigures = (label: string, report: Report): ReadonlyArray<Figure> =>
  counts.flatMap((count) => {
    const sample = at(report, count)
    return sample === undefined ? [] : [
      figure(`${label}: peak RSS at ${countLabel(count)} items`, megabytes(sample.peakRss), "MB"),
      figure(`${label}: heap at ${countLabel(count)} items`, megabytes(sample.heapUsed), "MB")
    ]
  })

/** The time and CPU of a full scan, from its first request: loading the modules is not part of the scan. */
const rateFigures = (label: string, report: Report): ReadonlyArray<Figure> => {
  const loaded = at(report, 0)
  const seconds = report.seconds - (loaded?.seconds ?? 0)
  const cpuSeconds = report.cpuSeconds - (loaded?.cpuSeconds ?? 0)
  return [
    figure(`${label}: scan time`, seconds, "s"),
    figure(`${label}: items per second`, report.items / seconds, "items/s"),
    figure(`${label}: CPU per 1,000 items`, (cpuSeconds * 1000) / (report.items / 1000), "ms")
  ]
}

export const run = async (simulator: SimulatorProcess): Promise<Benchmark> => {
  const start = performance.now()
  await compile()
  const measure = ({ flags, items: scanned, loader, mode }: Scanner) => scan(mode, loader, flags, scanned, simulator)
  const ours = await measure(client)
  const plain = await measure(plainLoop)
  const informative: Array<{ readonly label: string; readonly report: Report }> = []
  for (const scanner of others) informative.push({ label: scanner.label, report: await measure(scanner) })
  const sideBySide = counts.flatMap((count) => {
    const k = countLabel(count)
    const mine = at(ours, count)
    const theirs = at(plain, count)
    return [
      figure(`peak RSS at ${k} items: client`, megabytes(mine?.peakRss ?? Number.NaN), "MB"),
      figure(`peak RSS at ${k} items: plain loop + Set`, megabytes(theirs?.peakRss ?? Number.NaN), "MB"),
      figure(`heap at ${k} items: client`, megabytes(mine?.heapUsed ?? Number.NaN), "MB"),
      figure(`heap at ${k} items: plain loop + Set`, megabytes(theirs?.heapUsed ?? Number.NaN), "MB")
    ]
  })
  const [first] = counts
  const last = items
  return {
    name: "3. memory",
    setup: `${items.toLocaleString("en-US")} models, limits off, page size 100; simulator and each scanner in its own process; the scanners compiled to JavaScript with tsc (bench/tsconfig.memory.json) and run as an application ships, without a TypeScript loader (node --expose-gc ${compiledChild}), the client imported through the package's main entry point and over undici (@effect/platform-node/NodeHttpClient); heap sampled after a full collection, peak RSS is the process's maxRSS so far; the client with default options and default V8 flags, then the plain loop (fetch, JSON.parse, a Set of the ids seen), side by side; then, for information, the client with V8's heap capped (${cappedHeap.join(" ")}) and the client from source under tsx (node --import tsx) for the first 10,000 items`,
    seconds: secondsSince(start),
    figures: [
      ...sideBySide,
      figure("client's heap at 1M / at 10k items", ratio(heap, at(ours, last), at(ours, first)), "ratio", atMost(1.1), "a flat heap: the client keeps nothing of the items it has given"),
      figure("plain loop's heap at 1M / at 10k items", ratio(heap, at(plain, last), at(plain, first)), "ratio", undefined, "its Set of ids grows with the items"),
      figure("peak RSS at 1M items: client / plain loop + Set", ratio(peakRss, at(ours, last), at(plain, last)), "ratio", atMost(1)),
      figure("client's peak RSS at 1M / at 10k items", ratio(peakRss, at(ours, last), at(ours, first)), "ratio"),
      figure("plain loop's peak RSS at 1M / at 10k items", ratio(peakRss, at(plain, last), at(plain, first)), "ratio"),
      ...loadedFigures(client.label, ours),
      ...loadedFigures(plainLoop.label, plain),
      ...rateFigures(client.label, ours),
      ...rateFigures(plainLoop.label, plain),
      ...informative.flatMap(({ label, report }) => [
        ...loadedFigures(label, report),
        ...sampleFigures(label, report),
        ...(report.items < items ? [] : [figure(`${label}: heap at 1M / at 10k items`, ratio(heap, at(report, last), at(report, first)), "ratio"), ...rateFigures(label, report)])
      ])
    ]
  }
}
