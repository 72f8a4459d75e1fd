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
 *
 * The Effect 4 edition's rows come from its own scanner
 * (`effect4/bench/memory-child.ts`: the same sampling and plain loop, with
 * the Effect 4 client), compiled with the edition's TypeScript and run under
 * its Node 22, against the same simulator, with the same targets. Each
 * edition's client is set beside the plain loop under its own Node: Node 22
 * alone moves a process's memory, so only a client and a loop under the same
 * Node are compared.
 */
import { Schema } from "effect"
import path from "node:path"
import { bindEdition } from "../scripts/editionImports.js"
import type * as Child from "./scanSampling.js"
import {
  atMost,
  type Benchmark,
  compileEffect4,
  compiledByEffect4,
  effect4Node,
  type Figure,
  figure,
  megabytes,
  nodeName,
  runNode,
  secondsSince,
  type SimulatorProcess
} from "./support.js"

/** One sample of a scanner's memory, as `bench/memory-child.ts` reports it. */
const Sample: Schema.Schema<Child.Sample> = Schema.Struct({
  items: Schema.Number,
  rss: Schema.Number,
  peakRss: Schema.Number,
  heapUsed: Schema.Number,
  heapTotal: Schema.Number,
  external: Schema.Number,
  seconds: Schema.Number,
  cpuSeconds: Schema.Number
})
type Sample = Child.Sample

/** What a scanner measures: `client` (default options, over undici) or `plain` (fetch, JSON.parse, a Set of ids). */
const Mode = Schema.Literal("client", "plain")
type Mode = typeof Mode.Type

const Report = Schema.parseJson(Schema.Struct({
  mode: Mode,
  /** The Node the scanner ran under (`process.version`). */
  node: Schema.String,
  items: Schema.Number,
  seconds: Schema.Number,
  cpuSeconds: Schema.Number,
  gc: Schema.Boolean,
  samples: Schema.Array(Sample)
}))
type Report = typeof Report.Type

export const items = 1_000_000

/** The files of an edition's scanner, relative to the root. */
const sources = { effect3: path.join("bench", "memory-child.ts"), effect4: path.join("effect4", "bench", "memory-child.ts") }

/** Where the Effect 3 edition's scanner and the library it imports are compiled to (git-ignored). */
const compiledChild = path.join(".tmp", "bench-memory", "bench", "memory-child.js")

/** Compiles the Effect 3 edition's scanner and what it imports with `bench/tsconfig.memory.json`. */
export const compile = async () => {
  await runNode([path.join("node_modules", "typescript", "bin", "tsc"), "-p", path.join("bench", "tsconfig.memory.json")])
  await bindEdition(path.join(".tmp", "bench-memory", "common"), path.join(".tmp", "bench-memory", "src"))
}

/** An edition's scanner, compiled, and the Node it runs under. */
interface Edition {
  /** How its rows name its client. */
  readonly client: string
  readonly node: string
  /** Its scanner compiled, or from source under tsx. */
  readonly child: (loader: Loader) => ReadonlyArray<string>
}

/** How a scanner is run: compiled, or from source under tsx. */
type Loader = "compiled" | "tsx"

/** The Effect 3 edition, under this process's Node. */
const effect3: Edition = {
  client: "client",
  node: process.execPath,
  child: (loader) => loader === "compiled" ? [compiledChild] : ["--import", "tsx", sources.effect3]
}

/** The Effect 4 edition, compiled, under its Node 22. */
const effect4Of = (node: string): Edition => ({ client: "Effect 4 client", node, child: () => [compiledByEffect4(sources.effect4)] })

/** V8 flags that keep the heap near its live size, to tell garbage V8 has not collected yet from memory in use. */
export const cappedHeap = ["--max-old-space-size=128", "--max-semi-space-size=4"]

interface Scanner {
  readonly mode: Mode
  readonly loader: Loader
  readonly flags: ReadonlyArray<string>
  readonly items: number
}

const scan = async (edition: Edition, { flags, items: count, loader, mode }: Scanner, simulator: SimulatorProcess): Promise<Report> => {
  const output = await runNode(["--expose-gc", ...flags, ...edition.child(loader), mode, simulator.baseUrl, simulator.key, String(count)], edition.node)
  const line = output.trim().split("\n").pop() ?? ""
  return Schema.decodeUnknownSync(Report)(line)
}

const client: Scanner = { mode: "client", loader: "compiled", flags: [], items }
const plainLoop: Scanner = { mode: "plain", loader: "compiled", flags: [], items }
const cappedClient: Scanner = { ...client, flags: cappedHeap }
/** For information: the client from source for the first 10,000 items, enough to show what the loader costs. */
const clientFromSource: Scanner = { ...client, loader: "tsx", items: 10_000 }

/** The counts of items the client and the plain loop are compared at. */
const counts = [10_000, 100_000, 1_000_000] as const
const countLabel = (count: number) => (count === 1_000_000 ? "1M" : `${count / 1000}k`)

/** The sample of a report at `count` items (0: once loaded). */
const at = (report: Report, count: number): Sample | undefined => report.samples.find((s) => s.items === count)

/** A ratio of two samples' values, NaN when either is missing. */
const ratio = (value: (sample: Sample) => number, numerator: Sample | undefined, denominator: Sample | undefined): number =>
  numerator === undefined || denominator === undefined ? Number.NaN : value(numerator) / value(denominator)

/** A value of a report's sample at `count` items, NaN when it did not reach them. */
const valueAt = (value: (sample: Sample) => number, report: Report, count: number): number => {
  const sample = at(report, count)
  return sample === undefined ? Number.NaN : value(sample)
}

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

/** An edition's client and the plain loop under the same Node. */
interface Pair {
  readonly edition: Edition
  readonly client: Report
  readonly plain: Report
}

/** A pair's rows, labelled with their Node. */
const labels = ({ client, edition, plain }: Pair) => ({ client: `${edition.client}, ${nodeName(client.node)}`, plain: `plain loop + Set, ${nodeName(plain.node)}` })

/** Each pair's peak RSS, then each pair's heap, at a count. */
const sideBySide = (pairs: ReadonlyArray<Pair>): ReadonlyArray<Figure> =>
  counts.flatMap((count) => {
    const k = countLabel(count)
    const row = (name: string, value: (sample: Sample) => number) =>
      pairs.flatMap((pair) => {
        const label = labels(pair)
        return [
          figure(`${name} at ${k} items: ${label.client}`, megabytes(valueAt(value, pair.client, count)), "MB"),
          figure(`${name} at ${k} items: ${label.plain}`, megabytes(valueAt(value, pair.plain, count)), "MB")
        ]
      })
    return [...row("peak RSS", peakRss), ...row("heap", heap)]
  })

/** A pair's targets: its client's heap flat, its client's peak RSS at 1M no more than the plain loop's under the same Node. */
const targetFigures = (pair: Pair): ReadonlyArray<Figure> => {
  const [first] = counts
  const last = items
  const label = labels(pair)
  const { client, plain } = pair
  return [
    figure(`${label.client}: heap at 1M / at 10k items`, ratio(heap, at(client, last), at(client, first)), "ratio", atMost(1.1), "a flat heap: the client keeps nothing of the items it has given"),
    figure(`${label.plain}: heap at 1M / at 10k items`, ratio(heap, at(plain, last), at(plain, first)), "ratio", undefined, "its Set of ids grows with the items"),
    figure(`peak RSS at 1M items: ${label.client} / ${label.plain}`, ratio(peakRss, at(client, last), at(plain, last)), "ratio", atMost(1)),
    figure(`${label.client}: peak RSS at 1M / at 10k items`, ratio(peakRss, at(client, last), at(client, first)), "ratio"),
    figure(`${label.plain}: peak RSS at 1M / at 10k items`, ratio(peakRss, at(plain, last), at(plain, first)), "ratio")
  ]
}

/** The costs of loading and scanning of a pair. */
const pairFigures = (pair: Pair): ReadonlyArray<Figure> => {
  const label = labels(pair)
  return [
    ...loadedFigures(label.client, pair.client),
    ...loadedFigures(label.plain, pair.plain),
    ...rateFigures(label.client, pair.client),
    ...rateFigures(label.plain, pair.plain)
  ]
}

/** A scanner run for information. */
const informativeFigures = (label: string, report: Report): ReadonlyArray<Figure> => [
  ...loadedFigures(label, report),
  ...sampleFigures(label, report),
  ...(report.items < items ? [] : [figure(`${label}: heap at 1M / at 10k items`, ratio(heap, at(report, items), at(report, counts[0])), "ratio"), ...rateFigures(label, report)])
]

export const run = async (simulator: SimulatorProcess): Promise<Benchmark> => {
  const start = performance.now()
  const effect4 = effect4Of(await effect4Node())
  await compile()
  await compileEffect4([sources.effect4])
  const pairOf = async (edition: Edition): Promise<Pair> => ({
    edition,
    client: await scan(edition, client, simulator),
    plain: await scan(edition, plainLoop, simulator)
  })
  const pairs = [await pairOf(effect3), await pairOf(effect4)]
  const informative = [
    { label: `${effect3.client}, heap capped`, report: await scan(effect3, cappedClient, simulator) },
    { label: `${effect4.client}, heap capped`, report: await scan(effect4, cappedClient, simulator) },
    { label: `${effect3.client} from source under tsx`, report: await scan(effect3, clientFromSource, simulator) }
  ]
  const nodes = pairs.map((pair) => `${pair.edition.client} and plain loop under Node ${pair.client.node.replace(/^v/, "")}`).join(", ")
  return {
    name: "3. memory",
    setup: `${items.toLocaleString("en-US")} models, limits off, page size 100; simulator and each scanner in its own process; the scanners compiled to JavaScript with tsc (bench/tsconfig.memory.json; the Effect 4 edition's, effect4/bench/memory-child.ts, with the edition's TypeScript and compiler options into ${compiledByEffect4("")}) and run as an application ships, without a TypeScript loader (node --expose-gc ${compiledChild}), the client imported through the edition's main entry point and over undici (its NodeHttpClient.layerUndici); heap sampled after a full collection, peak RSS is the process's maxRSS so far; each edition's client with default options and default V8 flags, then the plain loop (fetch, JSON.parse, a Set of the ids seen) under the same Node, side by side: ${nodes}, each client compared with the plain loop under its own Node only; then, for information, each client with V8's heap capped (${cappedHeap.join(" ")}) and the Effect 3 client from source under tsx (node --import tsx) for the first 10,000 items`,
    seconds: secondsSince(start),
    figures: [
      ...sideBySide(pairs),
      ...pairs.flatMap(targetFigures),
      ...pairs.flatMap(pairFigures),
      ...informative.flatMap(({ label, report }) => informativeFigures(label, report))
    ]
  }
}
