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
 */
import { HttpClient, type HttpClientError, HttpClientRequest } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { Chunk, Context, Effect, Exit, Layer, Option, type ParseResult, Schema, Scope, Stream, Tracer } from "effect"
import { Admission, CatalogClient, Envelopes, Resources } from "effect-catalog"
import { get, plainPage, plainPages } from "./plain.js"
import { clientOf } from "./client.js"
import { atLeast, atMost, type Benchmark, figure, median, secondsSince, type SimulatorProcess } from "./support.js"
import * as Zod from "./zod.js"
// A tracer that keeps every span Effect's own tracer makes, as one feeding an exporter would: the tests' own.
import { recordingTracer } from "../test/support/Tracing.js"

const models = 3_000
const pageSize = 100
const rounds = 20
/** Rounds run first and not counted, so that every path is compiled by the JIT. */
const warmup = 10

/** Time and CPU of one scan. */
interface Sample {
  readonly items: number
  readonly seconds: number
  readonly cpuMicros: number
}

const measure = async (scan: () => Promise<number>): Promise<Sample> => {
  const cpu = process.cpuUsage()
  const start = performance.now()
  const items = await scan()
  const seconds = secondsSince(start)
  const used = process.cpuUsage(cpu)
  return { items, seconds, cpuMicros: used.user + used.system }
}

/** A plain loop over the first `models` models: fetch, `parse` (`JSON.parse` by default), follow `links.next`. */
const plainScan = (simulator: SimulatorProcess, parse?: (text: string) => unknown) => async () => {
  let items = 0
  for await (const page of plainPages(`${simulator.baseUrl}/models/?limit=${pageSize}`, simulator.key, parse)) {
    items += page.data.length
    if (items >= models) break
  }
  return items
}

/**
 * Microseconds per call of each function: batches of calls, the functions
 * taking turns batch by batch, and the fastest batch of each (the least
 * disturbed by anything else running on the machine).
 */
const microsPerCall = (fs: ReadonlyArray<() => unknown>, calls = 100, batches = 15): Array<number> => {
  for (const f of fs) for (let i = 0; i < calls; i++) f()
  const best = fs.map(() => Number.POSITIVE_INFINITY)
  for (let b = 0; b < batches; b++) {
    fs.forEach((f, index) => {
      const start = performance.now()
      for (let i = 0; i < calls; i++) f()
      best[index] = Math.min(best[index] ?? Number.POSITIVE_INFINITY, ((performance.now() - start) * 1000) / calls)
    })
  }
  return best
}

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

export const run = async (simulator: SimulatorProcess): Promise<Benchmark> => {
  const start = performance.now()

  // Decode cost of one page, on the first page's text.
  const text = await (await get(`${simulator.baseUrl}/models/?limit=${pageSize}`, simulator.key)).text()
  const Page = Schema.parseJson(Envelopes.ListEnvelope(Resources.Model))
  const decodePage = Schema.decodeUnknownSync(Page)
  const [jsonParse = Number.NaN, effectSchema = Number.NaN, zodPage = Number.NaN] = microsPerCall([
    () => JSON.parse(text),
    () => decodePage(text),
    () => Zod.parsePage(text)
  ])

  // One HTTP client for every round; a new catalog client (an empty cache) for each.
  const scope = Effect.runSync(Scope.make())
  const http = await Effect.runPromise(Layer.buildWithScope(NodeHttpClient.layerUndici, scope).pipe(Effect.map((context) => Context.get(context, HttpClient.HttpClient))))
  // The client is built before the clock starts: an application builds it once, not per scan.
  const layer = clientOf(simulator.baseUrl, simulator.key, { limits: Admission.noLimits }).pipe(
    Layer.provide(Layer.succeed(HttpClient.HttpClient, http))
  )
  const decodePageEffect = Schema.decodeUnknown(Page)
  /** The Effect floor: the platform's HTTP client, the same Schema decode, `links.next` followed. */
  const effectScan = () =>
    Effect.runPromise(Effect.iterate<{ readonly next: string | null; readonly items: number }, never, HttpClientError.HttpClientError | ParseResult.ParseError>({ next: `${simulator.baseUrl}/models/?limit=${pageSize}`, items: 0 }, {
      while: (state) => state.next !== null && state.items < models,
      body: ({ next, items }) =>
        http.execute(HttpClientRequest.get(next ?? "").pipe(HttpClientRequest.bearerToken(simulator.key), HttpClientRequest.acceptJson)).pipe(
          Effect.flatMap((response) => response.text),
          Effect.flatMap(decodePageEffect),
          Effect.map((page) => ({ next: page.links.next, items: items + page.data.length }))
        )
    }).pipe(Effect.map(({ items }) => items)))
  /** Effect's `Stream` over undici (Node's `fetch`): a page a step, `JSON.parse`, `links.next` followed. */
  const streamScan = () =>
    Effect.runPromise(
      Stream.paginateChunkEffect(`${simulator.baseUrl}/models/?limit=${pageSize}`, (url) =>
        Effect.map(
          Effect.promise(async () => plainPage(JSON.parse(await (await get(url, simulator.key)).text()))),
          (page) => [Chunk.unsafeFromArray(page.data), Option.fromNullable(page.next)] as const
        )).pipe(Stream.take(models), Stream.runCount)
    )
  /** The platform's HTTP client and `JSON.parse`, `links.next` followed: the floor without the Schema decode. */
  const platformScan = () =>
    Effect.runPromise(Effect.iterate<{ readonly next: string | null; readonly items: number }, never, HttpClientError.HttpClientError>({ next: `${simulator.baseUrl}/models/?limit=${pageSize}`, items: 0 }, {
      while: (state) => state.next !== null && state.items < models,
      body: ({ next, items }) =>
        http.execute(HttpClientRequest.get(next ?? "").pipe(HttpClientRequest.bearerToken(simulator.key), HttpClientRequest.acceptJson)).pipe(
          Effect.flatMap((response) => response.text),
          Effect.map((text) => plainPage(JSON.parse(text))),
          Effect.map((page) => ({ next: page.next, items: items + page.data.length }))
        )
    }).pipe(Effect.map(({ items }) => items)))
  const clientScan = async (tracing: Tracing): Promise<Sample> => {
    const built = Effect.runSync(Scope.make())
    try {
      const context = await Effect.runPromise(Layer.buildWithScope(layer, built))
      const catalog = Context.get(context, CatalogClient.CatalogClient)
      return await measure(() => Effect.runPromise(tracing(catalog.models({ limit: pageSize }).pipe(Stream.take(models), Stream.runCount))))
    } finally {
      await Effect.runPromise(Scope.close(built, Exit.void))
    }
  }

  const client: Array<Sample> = []
  const untraced: Array<Sample> = []
  const recorded: Array<Sample> = []
  const spans: Array<Tracer.Span> = []
  // The client's three ways take turns first from round to round.
  const traced: ReadonlyArray<{ readonly tracing: Tracing; readonly samples: Array<Sample> }> = [
    { tracing: nativeTracer, samples: client },
    { tracing: tracerDisabled, samples: untraced },
    { tracing: tracerRecording(spans), samples: recorded }
  ]
  const plain: Array<Sample> = []
  const validated: Array<Sample> = []
  const floor: Array<Sample> = []
  const streamed: Array<Sample> = []
  const platform: Array<Sample> = []
  for (let round = 0; round < warmup + rounds; round++) {
    spans.length = 0
    const clientSamples: Array<readonly [Array<Sample>, Sample]> = []
    for (let turn = 0; turn < traced.length; turn++) {
      const way = traced[(round + turn) % traced.length]
      if (way !== undefined) clientSamples.push([way.samples, await clientScan(way.tracing)])
    }
    const p = await measure(plainScan(simulator))
    const z = await measure(plainScan(simulator, Zod.parsePage))
    const f = await measure(effectScan)
    const s = await measure(streamScan)
    const h = await measure(platformScan)
    if (round < warmup) continue
    for (const [samples, sample] of clientSamples) samples.push(sample)
    plain.push(p)
    validated.push(z)
    floor.push(f)
    streamed.push(s)
    platform.push(h)
  }

  await Effect.runPromise(Scope.close(scope, Exit.void))

  const clientRate = ratePerSecond(client)
  const plainRate = ratePerSecond(plain)
  const zodRate = ratePerSecond(validated)
  const floorRate = ratePerSecond(floor)
  return {
    name: "2. client overhead",
    setup: `limits off; simulator in its own process (1,000,000 models); the first ${models.toLocaleString("en-US")} models at page size ${pageSize}, ${rounds} alternating rounds after ${warmup} of warm-up, median rate; the Effect floor is @effect/platform's HttpClient over undici and the same Effect Schema decode, nothing else; decode costs are the fastest of 15 batches of 100; a new client (empty cache) each round, built before its scan is timed; zod ${Zod.version}; the client's spans three ways in each round: Effect's own tracer with no exporter (as it comes), Layer.setTracerEnabled(false), and a tracer keeping every span; its metrics are updated in all three`,
    seconds: secondsSince(start),
    figures: [
      figure("client: items per second", clientRate, "items/s"),
      figure("plain fetch + JSON.parse: items per second", plainRate, "items/s"),
      figure("plain + zod: items per second", zodRate, "items/s"),
      figure("platform HttpClient + Schema: items per second", floorRate, "items/s"),
      figure("ladder, CPU per 100-item page: plain fetch + JSON.parse", cpuPerPage(plain), "ms"),
      figure("ladder, CPU per 100-item page: Effect Stream over undici + JSON.parse", cpuPerPage(streamed), "ms"),
      figure("ladder, CPU per 100-item page: platform HttpClient + JSON.parse", cpuPerPage(platform), "ms"),
      figure("ladder, CPU per 100-item page: platform HttpClient + Schema (the Effect floor)", cpuPerPage(floor), "ms"),
      figure("ladder, CPU per 100-item page: client", cpuPerPage(client), "ms"),
      figure("ladder, CPU per 100-item page: client, Layer.setTracerEnabled(false)", cpuPerPage(untraced), "ms"),
      figure("client above the Effect floor: CPU per 100-item page", cpuPerPageOver(client, floor), "ms", atMost(0.5), "the client as it comes less the floor, median of the rounds' differences"),
      figure("client / plain loop", clientRate / plainRate, "ratio", atLeast(0.6)),
      figure("client / zod loop", clientRate / zodRate, "ratio", atLeast(1.1)),
      figure("client: CPU per 100-item page", cpuPerPage(client), "ms"),
      figure("client, Layer.setTracerEnabled(false): CPU per 100-item page", cpuPerPage(untraced), "ms"),
      figure("client: its spans by Effect's own tracer (no exporter), CPU per page", cpuPerPageOver(client, untraced), "ms", atMost(0.3), "the client as it comes less the same with Layer.setTracerEnabled(false), median of the rounds' differences; the metrics are updated in both"),
      figure("client, a tracer keeping every span: CPU per 100-item page", cpuPerPage(recorded), "ms"),
      figure("client: spans kept by a recording tracer, CPU per page", cpuPerPageOver(recorded, untraced), "ms", undefined, "a tracer that keeps each span of Effect's own, as one feeding an exporter would, less the same with Layer.setTracerEnabled(false), median of the rounds' differences"),
      figure("client: spans per 100-item page", spans.length / (models / pageSize), "spans", undefined, "counted by the recording tracer: the scan's, each page's and the HTTP client's of each attempt"),
      figure("plain loop: CPU per 100-item page", cpuPerPage(plain), "ms"),
      figure("zod loop: CPU per 100-item page", cpuPerPage(validated), "ms"),
      figure("platform HttpClient + Schema: CPU per 100-item page", cpuPerPage(floor), "ms"),
      figure("platform HttpClient + Schema / plain loop", floorRate / plainRate, "ratio"),
      figure("JSON.parse of a 100-item page", jsonParse, "µs"),
      figure("Effect Schema decode of a page (JSON.parse included)", effectSchema, "µs"),
      figure("decode alone per page (Effect Schema minus JSON.parse)", effectSchema - jsonParse, "µs"),
      figure("zod parse of a page (JSON.parse included)", zodPage, "µs"),
      figure("zod alone per page (minus JSON.parse)", zodPage - jsonParse, "µs")
    ]
  }
}
