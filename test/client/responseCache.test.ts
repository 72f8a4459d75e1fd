/**
 * The ETag cache keeps the most recently used answers: a read moves an entry
 * to the most recent end as a write does, and the least recently used fall
 * out of the store past `maxEntries`.
 */
import * as KeyValueStore from "@effect/platform/KeyValueStore"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import * as ResponseCache from "../../common/src/client/ResponseCache.js"

const entry = (etag: string) => ({ etag, body: `{"etag":"${etag}"}` })

const cacheOfTwo = ResponseCache.layerStore({ maxEntries: 2 }).pipe(Layer.provideMerge(KeyValueStore.layerMemory))

/** The cache of two entries, full: `/a` written first, then `/b`. */
const filled = Effect.flatMap(ResponseCache.ResponseCache, (cache) =>
  Effect.as(Effect.zipRight(cache.set("/a", entry("a")), cache.set("/b", entry("b"))), cache))

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
})
