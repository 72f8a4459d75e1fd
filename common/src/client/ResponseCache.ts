/**
 * Conditional requests: the `ETag` and body of each URL's last 200 are kept,
 * a repeat sends `If-None-Match`, and a 304 (zero units) returns the kept
 * body. Entries live in a `KeyValueStore` (memory by default, or the file
 * system, or any other store), bounded to `maxEntries` by least recent use.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { ResponseCache } from "effect-catalog"
 *
 * const program = Effect.gen(function*() {
 *   const cache = yield* ResponseCache.ResponseCache
 *   yield* cache.set("https://catalog.example/api/v1/stats/", { etag: '"v1"', body: "{}" })
 *   return yield* cache.get("https://catalog.example/api/v1/stats/") // Option.some of the entry
 * }).pipe(Effect.provide(ResponseCache.layerMemory()))
 * ```
 * @since 0.1.0 (1.x: 1.0.0)
 */
import { headerSafe } from "../../../rules/src/client/TransportRules.js"
import {
  Effect,
  fromJsonString,
  Function,
  HttpClient,
  HttpClientRequest,
  HttpClientResponse,
  KeyValueStore,
  Layer,
  Option,
  Ref,
  Schema,
  schemaStore,
  ServiceTag
} from "#edition/internal/Edition.js"
import * as Call from "#edition/client/internal/Call.js"

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
 * @since 0.1.0 (1.x: 1.0.0)
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
 *   yield* cache.set("https://catalog.example/api/v1/stats/", { etag: '"v1"', body: "{}" })
 *   return yield* cache.get("https://catalog.example/api/v1/stats/") // Option.some of the entry
 * }).pipe(Effect.provide(ResponseCache.layerMemory()))
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
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
 * import { Effect, Layer } from "effect"
 * import { ResponseCache } from "effect-catalog"
 *
 * // A cache that keeps nothing: every request is sent in full.
 * const NoCache = Layer.succeed(ResponseCache.ResponseCache, { get: () => Effect.succeedNone, set: () => Effect.void })
 * ```
 * @category services
 * @since 0.1.0 (1.x: 1.0.0)
 */
export class ResponseCache extends ServiceTag<ResponseCache, Service>()("effect-catalog/ResponseCache") {}

/**
 * An entry as a store keeps it: JSON text, itself stored as JSON by the
 * store's schema, as the Effect 3 edition stores it, so that either edition
 * reads the other's entries.
 */
const EntryJson = fromJsonString(Schema.Struct({ etag: Schema.String, body: Schema.String }))

/** The keys of the cache from the least to the most recently used, `key` moved to the end; and those past `maxEntries`, which fall out. */
const touched = (order: ReadonlyMap<string, true>, key: string, maxEntries: number): readonly [ReadonlyArray<string>, ReadonlyMap<string, true>] => {
  const next = new Map(order)
  next.delete(key)
  next.set(key, true)
  const evicted = [...next.keys()].slice(0, Math.max(0, next.size - maxEntries))
  for (const oldest of evicted) next.delete(oldest)
  return [evicted, next]
}

/**
 * A cache over the `KeyValueStore` in context, keeping at most `maxEntries`
 * (least recently used first out). A store that fails is treated as a miss.
 *
 * @example
 * ```ts effect4
 * import { NodeServices } from "@effect/platform-node"
 * import { Layer } from "effect"
 * import { KeyValueStore } from "effect/persistence"
 * import { ResponseCache } from "effect-catalog"
 *
 * const OnDisk = ResponseCache.layerStore({ maxEntries: 10_000 }).pipe(
 *   Layer.provide(KeyValueStore.layerFileSystem(".catalog-cache")),
 *   Layer.provide(NodeServices.layer)
 * )
 * ```
 *
 * In Effect 3:
 *
 * ```ts effect3
 * import { NodeContext } from "@effect/platform-node"
 * import { Layer } from "effect"
 * import { KeyValueStore } from "@effect/platform"
 * import { ResponseCache } from "effect-catalog"
 *
 * const OnDisk = ResponseCache.layerStore({ maxEntries: 10_000 }).pipe(
 *   Layer.provide(KeyValueStore.layerFileSystem(".catalog-cache")),
 *   Layer.provide(NodeContext.layer)
 * )
 * ```
 * @category layers
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const layerStore = (options: { readonly maxEntries?: number } = {}): Layer.Layer<ResponseCache, never, KeyValueStore.KeyValueStore> =>
  Layer.effect(
    ResponseCache,
    Effect.gen(function*() {
      const store = schemaStore(yield* KeyValueStore.KeyValueStore, EntryJson)
      const maxEntries = options.maxEntries ?? 1_000
      // The keys from the least to the most recently used: a read or a write moves its key to the end.
      const recency = yield* Ref.make<ReadonlyMap<string, true>>(new Map())
      /** Marks `key` as the most recently used; gives the keys that fall out of the cache. */
      const touch = (key: string): Effect.Effect<ReadonlyArray<string>> => Ref.modify(recency, (order) => touched(order, key, maxEntries))
      const service: Service = {
        get: (url) =>
          store.get(url).pipe(
            Effect.tap((found) => Option.isSome(found) ? touch(url) : Effect.void),
            Effect.orElseSucceed(() => Option.none())
          ),
        set: (url, entry) =>
          store.set(url, entry).pipe(
            Effect.andThen(Effect.flatMap(touch(url), (evicted) => Effect.forEach(evicted, (key) => store.remove(key), { discard: true }))),
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
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const layerMemory = (options: { readonly maxEntries?: number } = {}): Layer.Layer<ResponseCache> =>
  layerStore(options).pipe(Layer.provide(KeyValueStore.layerMemory))


/** The body of an answer; empty when it cannot be read. */
const bodyOf = (answer: HttpClientResponse.HttpClientResponse): Effect.Effect<string> => Effect.orElseSucceed(answer.text, () => "")

/** What the step needs to know of a request: the key of its kept answer, and whether a fresh answer is asked for (no `If-None-Match`). */
interface Lookup {
  readonly url: string
  readonly revalidate: boolean
}

/** The one answer a call's sender keeps, as a cache. */
const callerCache = (kept: Call.KeptAnswer): Service => ({
  get: () => Effect.succeed(kept.entry === undefined ? Option.none() : Option.some(kept.entry)),
  set: (_, entry) => Effect.sync(() => kept.keep(entry))
})

/** Sends `request` through `client`, conditionally on the answer kept for it, and keeps a new answer. */
const conditional = <E, R>(
  cache: Service,
  client: HttpClient.HttpClient.With<E, R>,
  request: HttpClientRequest.HttpClientRequest,
  lookup: Lookup
) =>
  Effect.gen(function*() {
    const kept = lookup.revalidate ? Option.none<Entry>() : yield* cache.get(lookup.url)
    const sent = Option.match(Option.filter(kept, (entry) => headerSafe.test(entry.etag)), {
      onNone: () => request,
      onSome: (entry) => HttpClientRequest.setHeader(request, "if-none-match", entry.etag)
    })
    const answer = yield* client.execute(sent)
    if (answer.status === 304 && Option.isSome(kept)) {
      return HttpClientResponse.fromWeb(sent, new Response(kept.value.body, { status: 200, headers: answer.headers }))
    }
    const etag = answer.headers["etag"]
    if (answer.status === 200 && etag !== undefined) yield* cache.set(lookup.url, { etag, body: yield* bodyOf(answer) })
    return answer
  })

/**
 * The step of the request path that makes conditional requests: a request
 * carries the entity tag of the answer kept for its URL in `If-None-Match`;
 * a 304 is answered with the kept body (as a 200), a 200 with an `ETag` is
 * kept. A request of a call of the client is looked up by the call's URL
 * (`Call`); one the call asks fresh (`revalidate`) carries no
 * `If-None-Match`, and one whose answer may not be kept (`cacheable: false`,
 * a page reached through a cursor) is neither looked up nor kept. A call
 * whose sender keeps its answer itself (the mirror's keeper) is sent on
 * that answer, and its new one given back to the sender, not kept here.
 * Over an `HttpClient` of one's own, outside any call of the client, every
 * answer is kept by its URL.
 *
 * @example
 * ```ts effect4
 * import { Effect } from "effect"
 * import { HttpClient } from "effect/http"
 * import { ResponseCache } from "effect-catalog"
 *
 * const conditional = Effect.gen(function*() {
 *   const cache = yield* ResponseCache.ResponseCache
 *   const client = yield* HttpClient.HttpClient
 *   return ResponseCache.step(cache)(client)
 * })
 * ```
 *
 * In Effect 3:
 *
 * ```ts effect3
 * import { Effect } from "effect"
 * import { HttpClient } from "@effect/platform"
 * import { ResponseCache } from "effect-catalog"
 *
 * const conditional = Effect.gen(function*() {
 *   const cache = yield* ResponseCache.ResponseCache
 *   const client = yield* HttpClient.HttpClient
 *   return ResponseCache.step(cache)(client)
 * })
 * ```
 * @category combinators
 * @since 0.2.0 (1.x: 1.0.0)
 */
export const step: {
  (cache: Service): <E, R>(client: HttpClient.HttpClient.With<E, R>) => HttpClient.HttpClient.With<E, R>
  <E, R>(client: HttpClient.HttpClient.With<E, R>, cache: Service): HttpClient.HttpClient.With<E, R>
} = Function.dual(2, <E, R>(client: HttpClient.HttpClient.With<E, R>, cache: Service): HttpClient.HttpClient.With<E, R> =>
  HttpClient.makeWith<never, never, E, R>(
    (prepared) =>
      Effect.flatMap(Effect.zip(prepared, Call.current), ([request, call]) => {
        // A request sent outside a call of the client is kept by its whole URL, its query included (`request.url` has none).
        const url = Option.match(HttpClientRequest.toUrl(request), { onNone: () => request.url, onSome: (url) => url.href })
        const lookup = Option.getOrElse(call, () => ({ url, cacheable: true, revalidate: false }))
        // A call whose sender keeps its own answer (the keeper's) is sent conditionally on that one, whatever its URL.
        const kept = Option.getOrUndefined(call)?.kept
        if (kept !== undefined) return conditional(callerCache(kept), client, request, { url, revalidate: false })
        // A page reached through a cursor is neither looked up nor kept.
        return lookup.cacheable ? conditional(cache, client, request, lookup) : client.execute(request)
      }),
    Effect.succeed
  ))
