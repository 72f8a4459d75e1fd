/**
 * 2. Client overhead: the scan of benchmark 1 (3,000 models at page size
 * 100) with limits off, through the full client (decode to exact values,
 * dedupe, spans, admission, budget, cache), against a plain `fetch` +
 * `JSON.parse` loop and against the same loop validating with zod, on the
 * same simulator (in its own process) in the same run, in alternating rounds.
 * Also the floor any Effect client of this API starts from: a loop of
 * `@effect/platform`'s `HttpClient` decoding each page with the same Effect
 * Schema and nothing else; and the decode cost alone of one 100-item page.
 * The client runs three ways in each round: with its spans made by Effect's
 * own tracer and no exporter (the default), with `Layer.setTracerEnabled(false)`,
 * and with a tracer that keeps every span, as an exporter's would: the cost
 * of its spans is the first's CPU per page less the second's. The ladder
 * puts the CPU per page of each layer side by side: plain `fetch` +
 * `JSON.parse`, Effect's `Stream` over undici, the platform's `HttpClient`
 * + `JSON.parse`, the floor, the client, the client without tracing.
 *
 * The Effect 4 edition's rows come from a process of its own under the
 * edition's Node 22 (`effect4/bench/overhead-child.ts`, driven by
 * `bench/overheadEffect4.ts`), against the same simulator, a round of theirs
 * after each round of these, measured the same way (`bench/overheadScan.ts`):
 * the plain loop under Node 22, the Effect 4 floor (`effect/http`'s
 * `HttpClient` and the page's Schema 4 decode) and the Effect 4 client, with
 * its CPU per page above that floor against the same target (0.5 ms).
 */
import { HttpClient, type HttpClientError, HttpClientRequest } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { Chunk, Context, Effect, Exit, Layer, Option, type ParseResult, Schema, Scope, Stream, Tracer } from "effect"
import { Admission, CatalogClient, Envelopes, Resources } from "effect-catalog"
import { get, plainPage } from "./plain.js"
import { clientOf } from "./client.js"
import * as Effect4 from "./overheadEffect4.js"
import { measure, microsPerCall, models, pageSize, plainScan, type Sample } from "./overheadScan.js"
import { atLeast, atMost, type Benchmark, type Figure, figure, median, secondsSince, type SimulatorProcess } from "./support.js"
import * as Zod from "./zod.js"
// A tracer that keeps every span Effect's own tracer makes, as one feeding an exporter would: the tests' own.
import { recordingTracer } from "../test/support/Tracing.js"

const rounds = 20
/** Rounds run first and not counted, so that every path is compiled by the JIT. */
const warmup = 10

/** How a scan's spans are made. */
type Tracing = <A, E>(scan: Effect.Effect<A, E>) => Effect.Effect<A, E>

/** By Effect's own tracer, with no exporter: the client as it comes. */
const nativeTracer: Tracing = (scan) => scan
/** Not at all. */
const tracerDisabled: Tracing = (scan) => Effect.provide(scan, Layer.setTracerEnabled(false))
/** By a tracer that keeps them in `spans`. */
const tracerRecording = (spans: Array<Tracer.Span>): Tracing => (scan) => Effect.flatMap(recordingTracer(spans), (tracer) => Effect.withTracer(scan, tracer))

const ratePerSecond = (samples: ReadonlyArray<Sample>) => median(samples.map((s) => s.items / s.seconds))
/** Milliseconds of CPU per 100-item page. */
const cpuPerPage = (samples: ReadonlyArray<Sample>) =>
  samples.reduce((sum, s) => sum + s.cpuMicros, 0) / 1000 / (samples.reduce((sum, s) => sum + s.items, 0) / pageSize)
/**
 * Milliseconds of CPU per 100-item page that the scans of `more` spent over
 * those of `less`: the median of the rounds' differences (each round runs
 * one of each, one after the other), which a busy machine disturbs less.
 */
const cpuPerPageOver = (more: ReadonlyArray<Sample>, less: ReadonlyArray<Sample>) =>
  median(more.flatMap((sample, round) => {
    const other = less[round]
    return other === undefined ? [] : [((sample.cpuMicros / sample.items - other.cpuMicros / other.items) * pageSize) / 1000]
  }))

const Page = Schema.parseJson(Envelopes.ListEnvelope(Resources.Model))

/** Decode costs of one page, on the first page's text, in microseconds. */
interface DecodeCosts {
  readonly jsonParse: number
  readonly effectSchema: number
  readonly zodPage: number
}

const decodeCosts = async (simulator: SimulatorProcess): Promise<DecodeCosts> => {
  const text = await (await get(`${simulator.baseUrl}/models/?limit=${pageSize}`, simulator.key)).text()
  const decodePage = Schema.decodeUnknownSync(Page)
  const [jsonParse = Number.NaN, effectSchema = Number.NaN, zodPage = Number.NaN] = microsPerCall([
    () => JSON.parse(text),
    () => decodePage(text),
    () => Zod.parsePage(text)
  ])
  return { jsonParse, effectSchema, zodPage }
}

/** The Effect 3 edition's scans of one round, each giving the items it read. */
interface Scans {
  readonly plain: () => Promise<number>
  readonly zod: () => Promise<number>
  readonly floor: () => Promise<number>
  readonly stream: () => Promise<number>
  readonly platform: () => Promise<number>
  /** A scan by a new client (an empty cache), its spans made by `tracing`, timed once it is built. */
  readonly client: (tracing: Tracing) => Promise<Sample>
}

const scansOf = (simulator: SimulatorProcess, http: HttpClient.HttpClient): Scans => {
  // The client is built before the clock starts: an application builds it once, not per scan.
  const layer = clientOf(simulator.baseUrl, simulator.key, { limits: Admission.noLimits }).pipe(
    Layer.provide(Layer.succeed(HttpClient.HttpClient, http))
  )
  const decodePageEffect = Schema.decodeUnknown(Page)
  return {
    plain: plainScan(simulator),
    zod: plainScan(simulator, Zod.parsePage),
    /** The Effect floor: the platform's HTTP client, the same Schema decode, `links.next` followed. */
    floor: () =>
      Effect.runPromise(Effect.iterate<{ readonly next: string | null; readonly items: number }, never, HttpClientError.HttpClientError | ParseResult.ParseError>({ next: `${simulator.baseUrl}/models/?limit=${pageSize}`, items: 0 }, {
        while: (state) => state.next !== null && state.items < models,
        body: ({ next, items }) =>
          http.execute(HttpClientRequest.get(next ?? "").pipe(HttpClientRequest.bearerToken(simulator.key), HttpClientRequest.acceptJson)).pipe(
            Effect.flatMap((response) => response.text),
            Effect.flatMap(decodePageEffect),
            Effect.map((page) => ({ next: page.links.next, items: items + page.data.length }))
          )
      }).pipe(Effect.map(({ items }) => items))),
    /** Effect's `Stream` over undici (Node's `fetch`): a page a step, `JSON.parse`, `links.next` followed. */
    stream: () =>
      Effect.runPromise(
        Stream.paginateChunkEffect(`${simulator.baseUrl}/models/?limit=${pageSize}`, (url) =>
          Effect.map(
            Effect.promise(async () => plainPage(JSON.parse(await (await get(url, simulator.key)).text()))),
            (page) => [Chunk.unsafeFromArray(page.data), Option.fromNullable(page.next)] as const
          )).pipe(Stream.take(models), Stream.runCount)
      ),
    /** The platform's HTTP client and `JSON.parse`, `links.next` followed: the floor without the Schema decode. */
    platform: () =>
      Effect.runPromise(Effect.iterate<{ readonly next: string | null; readonly items: number }, never, HttpClientError.HttpClientError>({ next: `${simulator.baseUrl}/models/?limit=${pageSize}`, items: 0 }, {
        while: (state) => state.next !== null && state.items < models,
        body: ({ next, items }) =>
          http.execute(HttpClientRequest.get(next ?? "").pipe(HttpClientRequest.bearerToken(simulator.key), HttpClientRequest.acceptJson)).pipe(
            Effect.flatMap((response) => response.text),
            Effect.map((text) => plainPage(JSON.parse(text))),
            Effect.map((page) => ({ next: page.next, items: items + page.data.length }))
          )
      }).pipe(Effect.map(({ items }) => items))),
    client: async (tracing) => {
      const built = Effect.runSync(Scope.make())
      try {
        const context = await Effect.runPromise(Layer.buildWithScope(layer, built))
        const catalog = Context.get(context, CatalogClient.CatalogClient)
        return await measure(() => Effect.runPromise(tracing(catalog.models({ limit: pageSize }).pipe(Stream.take(models), Stream.runCount))))
      } finally {
        await Effect.runPromise(Scope.close(built, Exit.void))
      }
    }
  }
}

/** The samples of the counted rounds. */
interface Samples {
  readonly client: Array<Sample>
  readonly untraced: Array<Sample>
  readonly recorded: Array<Sample>
  readonly plain: Array<Sample>
  readonly validated: Array<Sample>
  readonly floor: Array<Sample>
  readonly streamed: Array<Sample>
  readonly platform: Array<Sample>
  /** The Effect 4 edition's, from its own process under Node 22. */
  readonly effect4: { readonly client: Array<Sample>; readonly plain: Array<Sample>; readonly floor: Array<Sample> }
}

/**
 * `warmup` rounds, then `rounds` counted ones. Each round runs the Effect 3
 * edition's scans in this process, then a round of the Effect 4 edition's in
 * its own. Gives the samples and the spans the recording tracer kept in the
 * last round's scan.
 */
const runRounds = async (scans: Scans, effect4: Effect4.Effect4Process): Promise<{ readonly samples: Samples; readonly spans: number }> => {
  const samples: Samples = {
    client: [], untraced: [], recorded: [], plain: [], validated: [], floor: [], streamed: [], platform: [],
    effect4: { client: [], plain: [], floor: [] }
  }
  const spans: Array<Tracer.Span> = []
  // The client's three ways take turns first from round to round.
  const traced: ReadonlyArray<{ readonly tracing: Tracing; readonly samples: Array<Sample> }> = [
    { tracing: nativeTracer, samples: samples.client },
    { tracing: tracerDisabled, samples: samples.untraced },
    { tracing: tracerRecording(spans), samples: samples.recorded }
  ]
  for (let round = 0; round < warmup + rounds; round++) {
    spans.length = 0
    const clientSamples: Array<readonly [Array<Sample>, Sample]> = []
    for (let turn = 0; turn < traced.length; turn++) {
      const way = traced[(round + turn) % traced.length]
      if (way !== undefined) clientSamples.push([way.samples, await scans.client(way.tracing)])
    }
    const p = await measure(scans.plain)
    const z = await measure(scans.zod)
    const f = await measure(scans.floor)
    const s = await measure(scans.stream)
    const h = await measure(scans.platform)
    const e4 = await effect4.round()
    if (round < warmup) continue
    for (const [list, sample] of clientSamples) list.push(sample)
    samples.plain.push(p)
    samples.validated.push(z)
    samples.floor.push(f)
    samples.streamed.push(s)
    samples.platform.push(h)
    samples.effect4.client.push(e4.client)
    samples.effect4.plain.push(e4.plain)
    samples.effect4.floor.push(e4.floor)
  }
  return { samples, spans: spans.length }
}

/** The Effect 4 edition's CPU per page side by side, and its client above its floor, against its target. */
const effect4Ladder = (e4: Samples["effect4"]): Array<Figure> => [
  figure("Effect 4 edition (Node 22), CPU per 100-item page: plain fetch + JSON.parse", cpuPerPage(e4.plain), "ms"),
  figure("Effect 4 edition (Node 22), CPU per 100-item page: effect/http HttpClient + Schema 4 (the Effect 4 floor)", cpuPerPage(e4.floor), "ms"),
  figure("Effect 4 edition (Node 22), CPU per 100-item page: Effect 4 client", cpuPerPage(e4.client), "ms"),
  figure("Effect 4 client above the Effect 4 floor: CPU per 100-item page", cpuPerPageOver(e4.client, e4.floor), "ms", atMost(0.5), "the Effect 4 client as it comes less its floor, both under Node 22 in the Effect 4 edition's process, median of the rounds' differences")
]

/** The Effect 4 edition's rates and its decode costs. */
const effect4Figures = (e4: Samples["effect4"], hello: Effect4.Hello): Array<Figure> => {
  const clientRate = ratePerSecond(e4.client)
  const plainRate = ratePerSecond(e4.plain)
  const floorRate = ratePerSecond(e4.floor)
  return [
    figure("Effect 4 client: items per second", clientRate, "items/s"),
    figure("Effect 4 edition, plain fetch + JSON.parse (Node 22): items per second", plainRate, "items/s"),
    figure("Effect 4 floor (effect/http HttpClient + Schema 4): items per second", floorRate, "items/s"),
    figure("Effect 4 client / plain loop (Node 22)", clientRate / plainRate, "ratio"),
    figure("Effect 4 floor / plain loop (Node 22)", floorRate / plainRate, "ratio"),
    figure("Effect 4 edition: JSON.parse of a 100-item page (Node 22)", hello.jsonParse, "µs"),
    figure("Schema 4 decode of a page (JSON.parse included)", hello.schemaDecode, "µs"),
    figure("decode alone per page (Schema 4 minus JSON.parse)", hello.schemaDecode - hello.jsonParse, "µs")
  ]
}

/** The Effect 3 edition's rates, its CPU per page side by side, and its client above its floor, against its target. */
const effect3Ladder = (samples: Samples): Array<Figure> => [
  figure("client: items per second", ratePerSecond(samples.client), "items/s"),
  figure("plain fetch + JSON.parse: items per second", ratePerSecond(samples.plain), "items/s"),
  figure("plain + zod: items per second", ratePerSecond(samples.validated), "items/s"),
  figure("platform HttpClient + Schema: items per second", ratePerSecond(samples.floor), "items/s"),
  figure("ladder, CPU per 100-item page: plain fetch + JSON.parse", cpuPerPage(samples.plain), "ms"),
  figure("ladder, CPU per 100-item page: Effect Stream over undici + JSON.parse", cpuPerPage(samples.streamed), "ms"),
  figure("ladder, CPU per 100-item page: platform HttpClient + JSON.parse", cpuPerPage(samples.platform), "ms"),
  figure("ladder, CPU per 100-item page: platform HttpClient + Schema (the Effect floor)", cpuPerPage(samples.floor), "ms"),
  figure("ladder, CPU per 100-item page: client", cpuPerPage(samples.client), "ms"),
  figure("ladder, CPU per 100-item page: client, Layer.setTracerEnabled(false)", cpuPerPage(samples.untraced), "ms"),
  figure("client above the Effect floor: CPU per 100-item page", cpuPerPageOver(samples.client, samples.floor), "ms", atMost(0.5), "the client as it comes less the floor, median of the rounds' differences")
]

/** The Effect 3 edition's ratios, the cost of its spans, and its decode costs. */
const effect3Figures = (samples: Samples, spans: number, decode: DecodeCosts): Array<Figure> => {
  const { client, floor, plain, recorded, untraced, validated } = samples
  const clientRate = ratePerSecond(client)
  const plainRate = ratePerSecond(plain)
  return [
    figure("client / plain loop", clientRate / plainRate, "ratio", atLeast(0.6)),
    figure("client / zod loop", clientRate / ratePerSecond(validated), "ratio", atLeast(1.1)),
    figure("client: CPU per 100-item page", cpuPerPage(client), "ms"),
    figure("client, Layer.setTracerEnabled(false): CPU per 100-item page", cpuPerPage(untraced), "ms"),
    figure("client: its spans by Effect's own tracer (no exporter), CPU per page", cpuPerPageOver(client, untraced), "ms", atMost(0.3), "the client as it comes less the same with Layer.setTracerEnabled(false), median of the rounds' differences; the metrics are updated in both"),
    figure("client, a tracer keeping every span: CPU per 100-item page", cpuPerPage(recorded), "ms"),
    figure("client: spans kept by a recording tracer, CPU per page", cpuPerPageOver(recorded, untraced), "ms", undefined, "a tracer that keeps each span of Effect's own, as one feeding an exporter would, less the same with Layer.setTracerEnabled(false), median of the rounds' differences"),
    figure("client: spans per 100-item page", spans / (models / pageSize), "spans", undefined, "counted by the recording tracer: the scan's, each page's and the HTTP client's of each attempt"),
    figure("plain loop: CPU per 100-item page", cpuPerPage(plain), "ms"),
    figure("zod loop: CPU per 100-item page", cpuPerPage(validated), "ms"),
    figure("platform HttpClient + Schema: CPU per 100-item page", cpuPerPage(floor), "ms"),
    figure("platform HttpClient + Schema / plain loop", ratePerSecond(floor) / plainRate, "ratio"),
    figure("JSON.parse of a 100-item page", decode.jsonParse, "µs"),
    figure("Effect Schema decode of a page (JSON.parse included)", decode.effectSchema, "µs"),
    figure("decode alone per page (Effect Schema minus JSON.parse)", decode.effectSchema - decode.jsonParse, "µs"),
    figure("zod parse of a page (JSON.parse included)", decode.zodPage, "µs"),
    figure("zod alone per page (minus JSON.parse)", decode.zodPage - decode.jsonParse, "µs")
  ]
}

const setupOf = (hello: Effect4.Hello): string =>
  `limits off; simulator in its own process (1,000,000 models); the first ${models.toLocaleString("en-US")} models at page size ${pageSize}, ${rounds} alternating rounds after ${warmup} of warm-up, median rate; the Effect floor is @effect/platform's HttpClient over undici and the same Effect Schema decode, nothing else; decode costs are the fastest of 15 batches of 100; a new client (empty cache) each round, built before its scan is timed; zod ${Zod.version}; the client's spans three ways in each round: Effect's own tracer with no exporter (as it comes), Layer.setTracerEnabled(false), and a tracer keeping every span; its metrics are updated in all three; ` +
  `the Effect 4 edition's rows (effect ${Effect4.effectVersion()}, Node ${hello.node}) in a process of their own under the edition's Node 22 and tsx (effect4/bench/overhead-child.ts), against the same simulator, a round of theirs after each round of the Effect 3 edition's: the plain loop, the Effect 4 floor (effect/http's HttpClient over @effect/platform-node's NodeHttpClient.layerUndici, as the client takes, and the page's Schema 4 decode, nothing else) and the Effect 4 client as it comes`

export const run = async (simulator: SimulatorProcess): Promise<Benchmark> => {
  const start = performance.now()
  const decode = await decodeCosts(simulator)
  const effect4 = await Effect4.start(simulator)
  try {
    // One HTTP client for every round; a new catalog client (an empty cache) for each.
    const scope = Effect.runSync(Scope.make())
    const http = await Effect.runPromise(Layer.buildWithScope(NodeHttpClient.layerUndici, scope).pipe(Effect.map((context) => Context.get(context, HttpClient.HttpClient))))
    const { samples, spans } = await runRounds(scansOf(simulator, http), effect4)
    await Effect.runPromise(Scope.close(scope, Exit.void))
    return {
      name: "2. client overhead",
      setup: setupOf(effect4.hello),
      seconds: secondsSince(start),
      figures: [
        ...effect3Ladder(samples),
        ...effect4Ladder(samples.effect4),
        ...effect3Figures(samples, spans, decode),
        ...effect4Figures(samples.effect4, effect4.hello)
      ]
    }
  } finally {
    await effect4.stop()
  }
}
