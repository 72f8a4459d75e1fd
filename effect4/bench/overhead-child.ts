/**
 * The Effect 4 edition's rows of benchmark 2 (client overhead), under Node
 * 22 in a process of their own, driven round by round by `bench/overhead.ts`
 * against the same simulator as the Effect 3 edition's rows:
 *
 *   CATALOG_BENCH_KEY=<key> node --import tsx bench/overhead-child.ts <base_url>
 *
 * (from effect4/, with its own Node 22 and tsx). It first prints one JSON line
 * with the Node version and the cost of decoding one 100-item page (
 * `JSON.parse`, and Schema 4 over `JSON.parse`, in microseconds). Then, for
 * each line `round` on its standard input, it scans the first 3,000 models at
 * page size 100 three ways and prints their samples (items, seconds, CPU
 * microseconds) as one JSON line:
 *
 * - `client`: the Effect 4 client as it comes (limits off), over
 *   @effect/platform-node's `NodeHttpClient.layerUndici`, a new client (an
 *   empty cache) each round, built before its scan is timed;
 * - `plain`: the plain `fetch` + `JSON.parse` loop of `bench/plain.ts`;
 * - `floor`: `effect/http`'s `HttpClient` over the same `layerUndici`, each
 *   page decoded with Schema 4 and the edition's `Envelopes`/`Resources`
 *   schemas, `links.next` followed, nothing else.
 *
 * It ends when its standard input does.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { Context, Effect, Exit, Layer, Redacted, Schema, Scope, Stream } from "effect"
import { HttpClient, type HttpClientError, HttpClientRequest } from "effect/http"
import { createInterface } from "node:readline"
import { measure, microsPerCall, models, pageSize, plainScan, type Sample, type Target } from "../../bench/overheadScan.js"
import { get } from "../../bench/plain.js"
import { Admission, CatalogClient, Envelopes, Resources } from "../src/index.js"

const Page = Schema.fromJsonString(Envelopes.ListEnvelope(Resources.Model))
const decodePage = Schema.decodeUnknownEffect(Page)

/** The floor: `effect/http`'s client, the page's Schema 4 decode, `links.next` followed. */
const floorScan = (http: HttpClient.HttpClient, target: Target) => (): Promise<number> => {
  const scan = (next: string, items: number): Effect.Effect<number, HttpClientError.HttpClientError | Schema.SchemaError> =>
    http.execute(HttpClientRequest.get(next).pipe(HttpClientRequest.bearerToken(target.key), HttpClientRequest.acceptJson)).pipe(
      Effect.flatMap((response) => response.text),
      Effect.flatMap(decodePage),
      Effect.flatMap((page) => {
        const total = items + page.data.length
        return page.links.next === null || total >= models ? Effect.succeed(total) : scan(page.links.next, total)
      })
    )
  return Effect.runPromise(scan(`${target.baseUrl}/models/?limit=${pageSize}`, 0))
}

/** A scan by a new client built from `layer`, timed once it is built. */
const clientScan = async (layer: Layer.Layer<CatalogClient.CatalogClient>): Promise<Sample> => {
  const scope = Effect.runSync(Scope.make())
  try {
    const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
    const catalog = Context.get(context, CatalogClient.CatalogClient)
    return await measure(() => Effect.runPromise(catalog.models({ limit: pageSize }).pipe(Stream.take(models), Stream.runCount)))
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

/** The cost of decoding the first page's text: `JSON.parse`, and Schema 4 over it. */
const decodeCosts = async (target: Target) => {
  const text = await (await get(`${target.baseUrl}/models/?limit=${pageSize}`, target.key)).text()
  const decodeSync = Schema.decodeUnknownSync(Page)
  const [jsonParse = Number.NaN, schemaDecode = Number.NaN] = microsPerCall([() => JSON.parse(text), () => decodeSync(text)])
  return { jsonParse, schemaDecode }
}

const main = async () => {
  const [baseUrl] = process.argv.slice(2)
  const key = process.env["CATALOG_BENCH_KEY"]
  if (baseUrl === undefined || key === undefined) throw new Error("usage: CATALOG_BENCH_KEY=<key> overhead-child.ts <base_url>")
  const target: Target = { baseUrl, key }
  // One HTTP client for every round; a new catalog client (an empty cache) for each.
  const scope = Effect.runSync(Scope.make())
  const http = await Effect.runPromise(
    Layer.buildWithScope(NodeHttpClient.layerUndici, scope).pipe(Effect.map((context) => Context.get(context, HttpClient.HttpClient)))
  )
  const layer = CatalogClient.layer({ baseUrl, apiKey: Redacted.make(key), limits: Admission.noLimits }).pipe(
    Layer.provide(Layer.succeed(HttpClient.HttpClient, http)),
    Layer.orDie
  )
  process.stdout.write(`${JSON.stringify({ node: process.version, ...(await decodeCosts(target)) })}\n`)
  for await (const line of createInterface({ input: process.stdin })) {
    if (line !== "round") throw new Error(`unknown command: ${line}`)
    const client = await clientScan(layer)
    const plain = await measure(plainScan(target))
    const floor = await measure(floorScan(http, target))
    process.stdout.write(`${JSON.stringify({ client, plain, floor })}\n`)
  }
  await Effect.runPromise(Scope.close(scope, Exit.void))
}

main().catch((error: unknown) => {
  process.stderr.write(`overhead-child: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
  process.exit(1)
})
