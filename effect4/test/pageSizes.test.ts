/**
 * What fits is remembered, in Effect 4: the page size that fitted, by list
 * operation, in memory for the life of the layer or under a key of a
 * `KeyValueStore` (as JSON, `{"skills":25}`, as the Effect 3 edition keeps
 * it): read back by the next layer over the same store; a record that is
 * not page sizes, or a store that cannot be read, starts empty; a store
 * that cannot be written keeps the sizes in memory.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { KeyValueStore } from "effect/persistence"
import * as PageSizes from "../../common/src/client/PageSizes.js"

const getSize = (operation: string) => Effect.flatMap(PageSizes.PageSizes, (pageSizes) => pageSizes.get(operation))
const setSize = (operation: string, size: number) => Effect.flatMap(PageSizes.PageSizes, (pageSizes) => pageSizes.set(operation, size))

/** A store whose every operation fails. */
const failingStore: KeyValueStore.KeyValueStore = (() => {
  const failed = (method: string) => Effect.fail(new KeyValueStore.KeyValueStoreError({ method, message: "the disk is gone" }))
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

describe("PageSizes.layerMemory", () => {
  it.effect("a size is none until recorded; a later refusal records a smaller one", () =>
    Effect.gen(function*() {
      expect(yield* getSize("skills")).toEqual(Option.none())
      yield* setSize("skills", 50)
      expect(yield* getSize("skills")).toEqual(Option.some(50))
      yield* setSize("skills", 25)
      expect(yield* getSize("skills")).toEqual(Option.some(25))
      expect(yield* getSize("models")).toEqual(Option.none())
    }).pipe(Effect.provide(PageSizes.layerMemory)))
})

describe("PageSizes.layerKeyValueStore", () => {
  it.effect("sizes kept in a store are read back by the next layer over it, and an unreadable record starts empty", () =>
    Effect.gen(function*() {
      const store = yield* KeyValueStore.KeyValueStore
      const layer = PageSizes.layerKeyValueStore("account.page-sizes").pipe(Layer.provide(Layer.succeed(KeyValueStore.KeyValueStore, store)))
      yield* setSize("skills", 25).pipe(Effect.provide(layer))
      expect(yield* store.get("account.page-sizes")).toBe(JSON.stringify({ skills: 25 }))
      expect(yield* getSize("skills").pipe(Effect.provide(layer))).toEqual(Option.some(25))
      for (const unreadable of ["{\"skills\":-3}", "{\"skills\":2.5}", "fifty", "[50]"]) {
        yield* store.set("account.page-sizes", unreadable)
        expect(yield* getSize("skills").pipe(Effect.provide(layer)), unreadable).toEqual(Option.none())
      }
      // Each change is written: another operation's size beside the first.
      yield* Effect.andThen(setSize("skills", 50), setSize("mcps", 40)).pipe(Effect.provide(layer))
      expect(yield* store.get("account.page-sizes")).toBe(JSON.stringify({ skills: 50, mcps: 40 }))
    }).pipe(Effect.provide(KeyValueStore.layerMemory)))

  it.effect("a store that can be neither read nor written starts empty and keeps the sizes in memory", () =>
    Effect.gen(function*() {
      expect(yield* getSize("skills")).toEqual(Option.none())
      yield* setSize("skills", 50)
      expect(yield* getSize("skills")).toEqual(Option.some(50))
    }).pipe(Effect.provide(PageSizes.layerKeyValueStore("account.page-sizes").pipe(Layer.provide(Layer.succeed(KeyValueStore.KeyValueStore, failingStore))))))
})
