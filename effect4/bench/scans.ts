/**
 * The Effect 4 edition's scans of benchmark 2, shared by its process of the
 * benchmark (`overhead-child.ts`) and its profile (`profile.ts`): the first
 * 3,000 models at page size 100 by the Effect 4 client as it comes (limits
 * off) and by its floor (`effect/http`'s `HttpClient` and the page's Schema 4
 * decode, nothing else), both over @effect/platform-node's
 * `NodeHttpClient.layerUndici`, the HTTP client the client's documentation
 * provides; and the cost of decoding one page.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { Context, Effect, Exit, Layer, Redacted, Schema, Scope, Stream } from "effect"
import { HttpClient, type HttpClientError, HttpClientRequest } from "effect/http"
import { measure, microsPerCall, models, pageSize, type Sample, type Target } from "../../bench/overheadScan.js"
import { get } from "../../bench/plain.js"
import { Admission, CatalogClient, Envelopes, Resources } from "../src/index.js"

const Page = Schema.fromJsonString(Envelopes.ListEnvelope(Resources.Model))
const decodePage = Schema.decodeUnknownEffect(Page)

/** The floor: `effect/http`'s client, the page's Schema 4 decode, `links.next` followed. */
export const floorScan = (http: HttpClient.HttpClient, target: Target) => (): Promise<number> => {
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

/** A scan by a new client (an empty cache) built from `layer`, timed once it is built. */
export const clientScan = async (layer: Layer.Layer<CatalogClient.CatalogClient>): Promise<Sample> => {
  const scope = Effect.runSync(Scope.make())
  try {
    const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
    const catalog = Context.get(context, CatalogClient.CatalogClient)
    return await measure(() => Effect.runPromise(catalog.models({ limit: pageSize }).pipe(Stream.take(models), Stream.runCount)))
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

/** The cost of decoding the first page's text, in microseconds: `JSON.parse`, and Schema 4 over it. */
export const decodeCosts = async (target: Target) => {
  const text = await (await get(`${target.baseUrl}/models/?limit=${pageSize}`, target.key)).text()
  const decodeSync = Schema.decodeUnknownSync(Page)
  const [jsonParse = Number.NaN, schemaDecode = Number.NaN] = microsPerCall([() => JSON.parse(text), () => decodeSync(text)])
  return { jsonParse, schemaDecode }
}

/** What the scans read through: one HTTP client for every round, and the layer of a client over it. */
export interface Clients {
  readonly http: HttpClient.HttpClient
  readonly layer: Layer.Layer<CatalogClient.CatalogClient>
  /** Releases the HTTP client. */
  readonly close: () => Promise<void>
}

export const clientsOf = async (target: Target): Promise<Clients> => {
  const scope = Effect.runSync(Scope.make())
  const http = await Effect.runPromise(
    Layer.buildWithScope(NodeHttpClient.layerUndici, scope).pipe(Effect.map((context) => Context.get(context, HttpClient.HttpClient)))
  )
  const layer = CatalogClient.layer({ baseUrl: target.baseUrl, apiKey: Redacted.make(target.key), limits: Admission.noLimits }).pipe(
    Layer.provide(Layer.succeed(HttpClient.HttpClient, http)),
    Layer.orDie
  )
  return { http, layer, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

/** The target of a process: its base URL as its argument, its key in its environment (`CATALOG_BENCH_KEY`) only. */
export const targetOf = (usage: string): Target => {
  const [baseUrl] = process.argv.slice(2)
  const key = process.env["CATALOG_BENCH_KEY"]
  if (baseUrl === undefined || key === undefined) throw new Error(`usage: CATALOG_BENCH_KEY=<key> ${usage} <base_url>`)
  return { baseUrl, key }
}
