/**
 * RedisKeyValueStore against the private redis-server of the test setup: a
 * KeyValueStore whose keys live under its prefix, and the client's ETag cache
 * shared by two clients through it: what one has read is a free 304 for the
 * other.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import { randomUUID } from "node:crypto"
import * as Admission from "../../common/src/client/Admission.js"
import * as Budget from "../../common/src/client/Budget.js"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import * as ResponseCache from "../../common/src/client/ResponseCache.js"
import * as RedisKeyValueStore from "../../src/redis/RedisKeyValueStore.js"
import * as Simulator from "../../common/src/simulator/Simulator.js"
import * as Servers from "../support/Servers.js"

const server = Servers.redis("the tests of the Redis key-value store need it")

const redis = () => ({ host: "127.0.0.1", port: server.port })

/** A store of its own in the shared server. */
const store = (prefix = `test:${randomUUID()}:`) => RedisKeyValueStore.make({ redis: redis(), prefix })

describe("RedisKeyValueStore", () => {
  it.scoped("sets, gets, removes, counts and clears its own keys", () =>
    Effect.gen(function*() {
      const one = yield* store()
      const other = yield* store()
      yield* one.set("a", "1")
      yield* one.set("b", "2")
      yield* other.set("a", "elsewhere")
      expect(yield* one.get("a")).toEqual(Option.some("1"))
      expect(yield* one.get("missing")).toEqual(Option.none())
      expect(yield* one.size).toBe(2)
      yield* one.remove("a")
      expect(yield* one.get("a")).toEqual(Option.none())
      yield* one.clear
      expect(yield* one.size).toBe(0)
      expect(yield* other.get("a")).toEqual(Option.some("elsewhere"))
    }))

  it.scoped("takes a prefix with glob characters literally", () =>
    Effect.gen(function*() {
      const prefix = `test:${randomUUID()}:`
      const starred = yield* store(`${prefix}*`)
      const plain = yield* store(`${prefix}x`)
      yield* starred.set("k", "1")
      yield* plain.set("k", "2")
      yield* starred.clear
      expect(yield* plain.get("k")).toEqual(Option.some("2"))
    }))

  it.scopedLive("a server that cannot be reached is a SystemError within the time limit, not a defect", () =>
    Effect.gen(function*() {
      const unreachable = yield* RedisKeyValueStore.make({ redis: { host: "127.0.0.1", port: 1 }, timeout: "300 millis" })
      const error = yield* Effect.flip(unreachable.get("k")).pipe(Effect.timeout("5 seconds"))
      expect(error._tag).toBe("SystemError")
      expect(error.message).toContain("KeyValueStore.get")
      expect(error.message).toContain("Redis at redis://127.0.0.1:1 was not back within 300ms")
    }))
})

describe("two clients sharing one ETag cache through Redis", () => {
  const cache = (prefix: string) =>
    ResponseCache.layerStore().pipe(Layer.provide(RedisKeyValueStore.layer({ redis: redis(), prefix })))

  /** A client of the simulator in context, with its own admission and the shared cache. */
  const clientWith = (prefix: string) =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const context = yield* Layer.build(
        CatalogClient.layer({
          baseUrl: simulator.baseUrl,
          apiKey: simulator.keys.full,
          limits: Admission.noLimits,
          cache: cache(prefix)
        }).pipe(Layer.provide(NodeHttpClient.layerUndici))
      )
      return { catalog: Context.get(context, CatalogClient.CatalogClient), budget: Context.get(context, Budget.Budget) }
    })

  layer(Simulator.layer({ sizes: { models: 30 }, enforceLimits: false }))((it) => {
    it.scoped("what one client read costs the other nothing: 304s, the same values", () =>
      Effect.gen(function*() {
        const prefix = `test:${randomUUID()}:cache:`
        const one = yield* clientWith(prefix)
        const two = yield* clientWith(prefix)
        const first = yield* one.catalog.modelsPage({ limit: 10 })
        const details = yield* Effect.forEach(first.items, (model) => one.catalog.follow(model.api_url))
        expect((yield* one.budget.spent).unitsToday).toBe(11)
        const again = yield* two.catalog.modelsPage({ limit: 10 })
        const detailsAgain = yield* Effect.forEach(again.items, (model) => two.catalog.follow(model.api_url))
        expect(again.items.map((model) => model.id)).toEqual(first.items.map((model) => model.id))
        expect(detailsAgain.map((found) => found.value)).toEqual(details.map((found) => found.value))
        expect((yield* two.budget.spent).unitsToday).toBe(0)
        const entries = yield* Effect.scoped(Effect.flatMap(RedisKeyValueStore.make({ redis: redis(), prefix }), (kv) => kv.size))
        expect(entries).toBe(11)
      }))
  })
})
