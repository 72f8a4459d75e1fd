/**
 * The ETag cache in Effect 4: it keeps the most recently used answers (a
 * read moves an entry to the most recent end as a write does, and the least
 * recently used fall out of the store past `maxEntries`), in a
 * `KeyValueStore` as the Effect 3 edition keeps them, and treats a store
 * that fails as a miss; `ResponseCache.step`, over an `HttpClient` that
 * answers at once, sends `If-None-Match` for an answer it keeps and turns a
 * 304 into the kept answer.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { HttpClient, HttpClientRequest, HttpClientResponse } from "effect/http"
import { KeyValueStore } from "effect/persistence"
import * as ResponseCache from "../../common/src/client/ResponseCache.js"

const entry = (etag: string) => ({ etag, body: `{"etag":"${etag}"}` })

const cacheOfTwo = ResponseCache.layerStore({ maxEntries: 2 }).pipe(Layer.provideMerge(KeyValueStore.layerMemory))

/** The cache of two entries, full: `/a` written first, then `/b`. */
const filled = Effect.flatMap(ResponseCache.ResponseCache, (cache) =>
  Effect.as(Effect.andThen(cache.set("/a", entry("a")), cache.set("/b", entry("b"))), cache))

describe("ResponseCache", () => {
  it.effect("a read makes an entry the most recent: the least recently used one is evicted, from the store too", () =>
    Effect.gen(function*() {
      const cache = yield* filled
      const store = yield* KeyValueStore.KeyValueStore
      expect(yield* cache.get("/a")).toEqual(Option.some(entry("a")))
      yield* cache.set("/c", entry("c"))
      expect(yield* cache.get("/b")).toEqual(Option.none())
      expect(yield* store.has("/b")).toBe(false)
      expect(yield* cache.get("/a")).toEqual(Option.some(entry("a")))
      expect(yield* cache.get("/c")).toEqual(Option.some(entry("c")))
      expect(yield* store.size).toBe(2)
    }).pipe(Effect.provide(cacheOfTwo)))

  it.effect("writing an entry again replaces it and makes it the most recent", () =>
    Effect.gen(function*() {
      const cache = yield* filled
      yield* cache.set("/a", entry("a2"))
      yield* cache.set("/c", entry("c"))
      expect(yield* cache.get("/a")).toEqual(Option.some(entry("a2")))
      expect(yield* cache.get("/b")).toEqual(Option.none())
    }).pipe(Effect.provide(cacheOfTwo)))

  it.effect("a miss changes nothing", () =>
    Effect.gen(function*() {
      const cache = yield* filled
      expect(yield* cache.get("/missing")).toEqual(Option.none())
      yield* cache.set("/c", entry("c"))
      expect(yield* cache.get("/a")).toEqual(Option.none())
      expect(yield* cache.get("/b")).toEqual(Option.some(entry("b")))
    }).pipe(Effect.provide(cacheOfTwo)))

  it.effect("an entry is stored as the Effect 3 edition stores it, JSON text as a JSON string, and one it stored is read", () =>
    Effect.gen(function*() {
      const cache = yield* ResponseCache.ResponseCache
      const store = yield* KeyValueStore.KeyValueStore
      yield* cache.set("/a", entry("a"))
      expect(yield* store.get("/a")).toBe(JSON.stringify(JSON.stringify(entry("a"))))
      yield* store.set("/e3", "\"{\\\"etag\\\":\\\"\\\\\\\"v1\\\\\\\"\\\",\\\"body\\\":\\\"{}\\\"}\"")
      expect(yield* cache.get("/e3")).toEqual(Option.some({ etag: "\"v1\"", body: "{}" }))
      // What is not an entry is a miss.
      yield* store.set("/other", "{\"etag\":1}")
      expect(yield* cache.get("/other")).toEqual(Option.none())
    }).pipe(Effect.provide(ResponseCache.layerStore().pipe(Layer.provideMerge(KeyValueStore.layerMemory)))))

  it.effect("a store that fails is a miss, and a write to it is dropped", () =>
    Effect.gen(function*() {
      const cache = yield* ResponseCache.ResponseCache
      yield* cache.set("/a", entry("a"))
      expect(yield* cache.get("/a")).toEqual(Option.none())
    }).pipe(Effect.provide(ResponseCache.layerStore().pipe(Layer.provide(Layer.succeed(KeyValueStore.KeyValueStore, failingStore))))))
})

/** A store whose every operation fails. */
const failingStore: KeyValueStore.KeyValueStore = (() => {
  const failed = (method: string) => Effect.fail(new KeyValueStore.KeyValueStoreError({ method, message: "the disk is full" }))
  return KeyValueStore.make({
    get: () => failed("get"),
    getUint8Array: () => failed("getUint8Array"),
    set: () => failed("set"),
    remove: () => failed("remove"),
    clear: failed("clear"),
    size: failed("size"),
    keys: failed("keys")
  })
})()

const statsUrl = "https://catalog.example/api/v1/stats/"

/** What the service received of a request: its URL and the entity tag it offered. */
interface Received {
  readonly url: string
  readonly ifNoneMatch: string | undefined
}

/**
 * A service that answers at once, a 304 when the entity tag offered is
 * `etag`, else a 200 with `body` and `etag`; and what it received.
 */
const service = (etag: string | undefined, body: string) => {
  const received: Array<Received> = []
  const client = HttpClient.make((request) =>
    Effect.sync(() => {
      const offered = request.headers["if-none-match"]
      received.push({ url: request.url, ifNoneMatch: offered })
      const headers = { "x-request-id": `req_${received.length}`, ...(etag === undefined ? {} : { etag }) }
      return HttpClientResponse.fromWeb(
        request,
        offered !== undefined && offered === etag ? new Response(null, { status: 304, headers }) : new Response(body, { status: 200, headers })
      )
    })
  )
  return { client, received }
}

describe("ResponseCache.step", () => {
  it.effect("a 200 with an ETag is kept by its URL; a repeat offers its tag, and the 304 is answered with the kept body as a 200", () =>
    Effect.gen(function*() {
      const cache = yield* ResponseCache.ResponseCache
      const { client, received } = service("\"v1\"", "{\"data\":{\"models\":3}}")
      const conditional = ResponseCache.step(cache)(client)
      const first = yield* conditional.get(statsUrl)
      expect([first.status, yield* first.text]).toEqual([200, "{\"data\":{\"models\":3}}"])
      expect(yield* cache.get(statsUrl)).toEqual(Option.some({ etag: "\"v1\"", body: "{\"data\":{\"models\":3}}" }))
      const second = yield* conditional.get(statsUrl)
      expect([second.status, yield* second.text, second.headers["x-request-id"]]).toEqual([200, "{\"data\":{\"models\":3}}", "req_2"])
      expect(received).toEqual([{ url: statsUrl, ifNoneMatch: undefined }, { url: statsUrl, ifNoneMatch: "\"v1\"" }])
    }).pipe(Effect.provide(ResponseCache.layerMemory())))

  it.effect("outside a call, URLs that differ in their query are kept apart: the key is the whole URL", () =>
    Effect.gen(function*() {
      const cache = yield* ResponseCache.ResponseCache
      const { client } = service("\"v1\"", "{\"data\":[]}")
      const conditional = ResponseCache.step(cache)(client)
      const base = "https://catalog.example/api/v1/models/"
      yield* conditional.execute(HttpClientRequest.get(base, { urlParams: { limit: "10" } }))
      expect(yield* cache.get(`${base}?limit=10`)).toEqual(Option.some({ etag: "\"v1\"", body: "{\"data\":[]}" }))
      expect(yield* cache.get(base)).toEqual(Option.none())
    }).pipe(Effect.provide(ResponseCache.layerMemory())))

  it.effect("a new answer replaces the kept one; an answer without an ETag, or refused, is not kept", () =>
    Effect.gen(function*() {
      const cache = yield* ResponseCache.ResponseCache
      yield* cache.set(statsUrl, { etag: "\"v0\"", body: "old" })
      // Client first or last (`dual`): the same step.
      const changed = yield* ResponseCache.step(service("\"v1\"", "new").client, cache).get(statsUrl)
      expect(yield* changed.text).toBe("new")
      expect(yield* cache.get(statsUrl)).toEqual(Option.some({ etag: "\"v1\"", body: "new" }))
      const untagged = "https://catalog.example/api/v1/usage/"
      yield* ResponseCache.step(cache)(service(undefined, "{}").client).get(untagged)
      expect(yield* cache.get(untagged)).toEqual(Option.none())
      const refused = "https://catalog.example/api/v1/models/x/y/"
      const notFound = HttpClient.make((request) => Effect.succeed(HttpClientResponse.fromWeb(request, new Response("", { status: 404, headers: { etag: "\"n\"" } }))))
      expect((yield* ResponseCache.step(cache)(notFound).get(refused)).status).toBe(404)
      expect(yield* cache.get(refused)).toEqual(Option.none())
    }).pipe(Effect.provide(ResponseCache.layerMemory())))

  it.effect("a kept entity tag that cannot go into a header is not offered", () =>
    Effect.gen(function*() {
      const cache = yield* ResponseCache.ResponseCache
      yield* cache.set(statsUrl, { etag: "\"v 1\"\n", body: "old" })
      const { client, received } = service("\"v2\"", "new")
      expect(yield* (yield* ResponseCache.step(cache)(client).get(statsUrl)).text).toBe("new")
      expect(received).toEqual([{ url: statsUrl, ifNoneMatch: undefined }])
    }).pipe(Effect.provide(ResponseCache.layerMemory())))
})
