/**
 * 2. Client overhead: the scan of benchmark 1 (3,000 models at page size
 * 100) with limits off, through the full client (decode to exact values,
 * dedupe, spans, admission, budget, cache), against a plain `fetch` +
 * `JSON.parse` loop and against the same loop validating with zod, on the
 * same simulator (in its own process) in the same run, in alternating rounds.
 * Also the floor any Effect client of this API starts from: a loop of
 * `@effect/platform`'s `HttpClient` decoding each page with the same Effect
 * Schema and nothing else; and the decode cost alone of one 100-item page.
 */
import { HttpClient, type HttpClientError, HttpClientRequest } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { Context, Effect, Exit, Layer, type ParseResult, Schema, Scope, Stream } from "effect"
import { Admission, CatalogClient, Envelopes, Resources } from "effect-catalog"
import { get, plainPages } from "./plain.js"
import { clientOf } from "./client.js"
import { atLeast, type Benchmark, figure, median, secondsSince, type SimulatorProcess } from "./support.js"
import * as Zod from "./zod.js"

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

const ratePerSecond = (samples: ReadonlyArray<Sample>) => median(samples.map((s) => s.items / s.seconds))
/** Milliseconds of CPU per 100-item page. */
const cpuPerPage = (samples: ReadonlyArray<Sample>) =>
  samples.reduce((sum, s) => sum + s.cpuMicros, 0) / 1000 / (samples.reduce((sum, s) => sum + s.items, 0) / pageSize)

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
  const clientScan = async (): Promise<Sample> => {
    const built = Effect.runSync(Scope.make())
    try {
      const context = await Effect.runPromise(Layer.buildWithScope(layer, built))
      const catalog = Context.get(context, CatalogClient.CatalogClient)
      return await measure(() => Effect.runPromise(catalog.models({ limit: pageSize }).pipe(Stream.take(models), Stream.runCount)))
    } finally {
      await Effect.runPromise(Scope.close(built, Exit.void))
    }
  }

  const client: Array<Sample> = []
  const plain: Array<Sample> = []
  const validated: Array<Sample> = []
  const floor: Array<Sample> = []
  for (let round = 0; round < warmup + rounds; round++) {
    const c = await clientScan()
    const p = await measure(plainScan(simulator))
    const z = await measure(plainScan(simulator, Zod.parsePage))
    const f = await measure(effectScan)
    if (round < warmup) continue
    client.push(c)
    plain.push(p)
    validated.push(z)
    floor.push(f)
  }

  await Effect.runPromise(Scope.close(scope, Exit.void))

  const clientRate = ratePerSecond(client)
  const plainRate = ratePerSecond(plain)
  const zodRate = ratePerSecond(validated)
  const floorRate = ratePerSecond(floor)
  return {
    name: "2. client overhead",
    setup: `limits off; simulator in its own process (1,000,000 models); the first ${models.toLocaleString("en-US")} models at page size ${pageSize}, ${rounds} alternating rounds after ${warmup} of warm-up, median rate; the Effect floor is @effect/platform's HttpClient over undici and the same Effect Schema decode, nothing else; decode costs are the fastest of 15 batches of 100; a new client (empty cache) each round, built before its scan is timed; zod ${Zod.version}`,
    seconds: secondsSince(start),
    figures: [
      figure("client: items per second", clientRate, "items/s"),
      figure("plain fetch + JSON.parse: items per second", plainRate, "items/s"),
      figure("plain + zod: items per second", zodRate, "items/s"),
      figure("platform HttpClient + Schema: items per second", floorRate, "items/s"),
      figure("client / plain loop", clientRate / plainRate, "ratio", atLeast(0.8)),
      figure("client / zod loop", clientRate / zodRate, "ratio", atLeast(1.1)),
      figure("client: CPU per 100-item page", cpuPerPage(client), "ms"),
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
