/**
 * Conditional requests: the `ETag` and body of each URL's last 200 are kept
 * (details and first pages of lists; pages reached through a cursor are read
 * once per scan and not kept), a repeat sends `If-None-Match`, and a 304
 * (zero units) returns the kept body. Entries live in a `KeyValueStore` (memory by default, or the file
 * system, or any other store), bounded to `maxEntries` by least recent use.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as KeyValueStore from "@effect/platform/KeyValueStore"
import { Context, Effect, Layer, Option, Ref, Schema } from "effect"
import * as Call from "./internal/Call.js"
import * as Sending from "../../rules/src/client/Sending.js"
import { bodyOf } from "./internal/Exchange.js"
import { headerSafe } from "../../rules/src/client/Transit.js"

/**
 * A kept answer.
 *
 * @example
 * ```ts
 * import type { ResponseCache } from "effect-catalog"
 *
 * const entry: ResponseCache.Entry = { etag: '"v1"', body: '{"data":{}}' }
 * ```
 * @category models
 * @since 0.1.0
 */
export interface Entry {
  readonly etag: string
  readonly body: string
}

/**
 * Reads and writes kept answers by URL.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { ResponseCache } from "effect-catalog"
 *
 * const program = Effect.gen(function*() {
 *   const cache: ResponseCache.Service = yield* ResponseCache.ResponseCache
 *   yield* cache.set("https://catalog.example/v1/stats/", { etag: '"v1"', body: "{}" })
 *   return yield* cache.get("https://catalog.example/v1/stats/") // Option.some of the entry
 * }).pipe(Effect.provide(ResponseCache.layerMemory()))
 * ```
 * @category models
 * @since 0.1.0
 */
export interface Service {
  readonly get: (url: string) => Effect.Effect<Option.Option<Entry>>
  readonly set: (url: string, entry: Entry) => Effect.Effect<void>
}

/**
 * The cache service the client keeps answers in.
 *
 * @example
 * ```ts
 * import { Effect, Layer, Redacted } from "effect"
 * import { CatalogClient, ResponseCache } from "effect-catalog"
 *
 * // A cache that keeps nothing: every request is sent in full.
 * const NoCache = Layer.succeed(ResponseCache.ResponseCache, { get: () => Effect.succeedNone, set: () => Effect.void })
 * const CatalogLive = CatalogClient.layer({ baseUrl: "https://catalog.example/api/v1", apiKey: Redacted.make("cat_live_..."), cache: NoCache })
 * ```
 * @category services
 * @since 0.1.0
 */
export class ResponseCache extends Context.Tag("effect-catalog/ResponseCache")<ResponseCache, Service>() {}

const EntryJson = Schema.parseJson(Schema.Struct({ etag: Schema.String, body: Schema.String }))

/**
 * A cache over the `KeyValueStore` in context, keeping at most `maxEntries`
 * (least recently used first out). A store that fails is treated as a miss.
 *
 * @example
 * ```ts
 * import { KeyValueStore } from "@effect/platform"
 * import { NodeContext } from "@effect/platform-node"
 * import { Layer } from "effect"
 * import { ResponseCache } from "effect-catalog"
 *
 * const OnDisk = ResponseCache.layerStore({ maxEntries: 10_000 }).pipe(
 *   Layer.provide(KeyValueStore.layerFileSystem(".catalog-cache")),
 *   Layer.provide(NodeContext.layer)
 * )
 * ```
 * @category layers
 * @since 0.1.0
 */
export const layerStore = (options: { readonly maxEntries?: number } = {}): Layer.Layer<ResponseCache, never, KeyValueStore.KeyValueStore> =>
  Layer.effect(
    ResponseCache,
    Effect.gen(function*() {
      const store = (yield* KeyValueStore.KeyValueStore).forSchema(EntryJson)
      const maxEntries = options.maxEntries ?? 1_000
      // The keys from the least to the most recently used: a read or a write moves its key to the end.
      const recency = yield* Ref.make<ReadonlyMap<string, true>>(new Map())
      /** Marks `key` as the most recently used; gives the keys that fall out of the cache. */
      const touch = (key: string): Effect.Effect<ReadonlyArray<string>> =>
        Ref.modify(recency, (order) => {
          const next = new Map(order)
          next.delete(key)
          next.set(key, true)
          const evicted = [...next.keys()].slice(0, Math.max(0, next.size - maxEntries))
          for (const oldest of evicted) next.delete(oldest)
          return [evicted, next]
        })
      const service: Service = {
        get: (url) =>
          store.get(url).pipe(
            Effect.tap((found) => Option.isSome(found) ? touch(url) : Effect.void),
            Effect.orElseSucceed(() => Option.none())
          ),
        set: (url, entry) =>
          store.set(url, entry).pipe(
            Effect.zipRight(Effect.flatMap(touch(url), (evicted) => Effect.forEach(evicted, (key) => store.remove(key), { discard: true }))),
            Effect.ignore
          )
      }
      return service
    })
  )

/**
 * A cache in memory (the default), of at most `maxEntries` answers.
 *
 * @example
 * ```ts
 * import { ResponseCache } from "effect-catalog"
 *
 * const CacheLive = ResponseCache.layerMemory({ maxEntries: 5_000 })
 * ```
 * @category layers
 * @since 0.1.0
 */
export const layerMemory = (options: { readonly maxEntries?: number } = {}): Layer.Layer<ResponseCache> =>
  layerStore(options).pipe(Layer.provide(KeyValueStore.layerMemory))

/**
 * The step of the request path that makes conditional requests: a request
 * whose answer may be kept carries the entity tag of the kept answer in
 * `If-None-Match`; a 304 is answered with the kept body (as a 200), a 200
 * with an `ETag` is kept. A page reached through a cursor is neither looked
 * up nor kept, and a call that asks for a fresh answer is not looked up.
 * Over an `HttpClient` of one's own, outside any call of the client, every
 * answer is kept by its URL.
 *
 * @example
 * ```ts
 * import { HttpClient } from "@effect/platform"
 * import { Effect } from "effect"
 * import { ResponseCache } from "effect-catalog"
 *
 * const conditional = Effect.gen(function*() {
 *   const cache = yield* ResponseCache.ResponseCache
 *   const client = yield* HttpClient.HttpClient
 *   return ResponseCache.step(cache)(client)
 * })
 * ```
 * @category combinators
 * @since 0.2.0
 */
export const step = (cache: Service) =>
<E, R>(client: HttpClient.HttpClient.With<E, R>): HttpClient.HttpClient.With<E, R> =>
  HttpClient.makeWith<never, never, E, R>(
    (prepared) =>
      Effect.flatMap(Effect.zip(prepared, Call.current), ([request, call]) => {
        // A request sent outside a call of the client is kept by its URL.
        const kept = Option.getOrElse(call, () => ({ url: request.url, cacheable: true, revalidate: false }))
        // A page reached through a cursor is neither looked up nor kept.
        return kept.cacheable ? conditional(cache, client, request, kept) : client.execute(request)
      }),
    Effect.succeed
  )

const conditional = <E, R>(
  cache: Service,
  client: HttpClient.HttpClient.With<E, R>,
  request: HttpClientRequest.HttpClientRequest,
  call: Pick<Call.Call, "url" | "revalidate">
) =>
  Effect.gen(function*() {
    const kept = call.revalidate ? Option.none() : yield* cache.get(call.url)
    const sent = Option.match(Option.filter(kept, (entry) => headerSafe.test(entry.etag)), {
      onNone: () => request,
      onSome: (entry) => HttpClientRequest.setHeader(request, "if-none-match", entry.etag)
    })
    const answer = yield* client.execute(sent)
    if (answer.status === 304 && Option.isSome(kept)) {
      const hit = HttpClientResponse.fromWeb(sent, new Response(kept.value.body, { status: 200, headers: answer.headers }))
      const sending = Sending.of(answer)
      return sending === undefined ? hit : Sending.attach(hit, sending)
    }
    const etag = answer.headers["etag"]
    if (answer.status === 200 && etag !== undefined) yield* cache.set(call.url, { etag, body: yield* bodyOf(answer) })
    return answer
  })
