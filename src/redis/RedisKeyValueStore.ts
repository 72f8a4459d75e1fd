/**
 * A `KeyValueStore` in Redis, for state that several processes share: above
 * all the client's ETag cache (`ResponseCache.layerStore`), so that an answer
 * one process has read is a free 304 for every other.
 *
 * @example
 * ```ts
 * import { Layer } from "effect"
 * import { ResponseCache } from "effect-catalog"
 * import { RedisKeyValueStore } from "effect-catalog/redis"
 *
 * const SharedCache = ResponseCache.layerStore({ maxEntries: 10_000 }).pipe(
 *   Layer.provide(RedisKeyValueStore.layer({ redis: { host: "127.0.0.1", port: 6379 }, prefix: "catalog:cache:" }))
 * )
 * ```
 * @since 0.2.0
 */
import * as PlatformError from "@effect/platform/Error"
import * as KeyValueStore from "@effect/platform/KeyValueStore"
import { Effect, Layer, Option, type Scope } from "effect"
import * as IORedis from "./internal/ioredis.js"

/**
 * Where the store lives.
 *
 * @example
 * ```ts
 * import { RedisKeyValueStore } from "effect-catalog/redis"
 *
 * const options: RedisKeyValueStore.Options = { redis: { host: "127.0.0.1", port: 6379 }, prefix: "catalog:cache:" }
 * ```
 * @since 0.2.0
 */
export interface Options {
  /** Connection options, or a `redis://` or `rediss://` URL. */
  readonly redis: IORedis.Connection
  /** Every key of the store is prefixed with this (default `catalog:store:`); `clear` and `size` see only these keys. */
  readonly prefix?: string
}

/**
 * A store on its own Redis connection, closed with the scope.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { RedisKeyValueStore } from "effect-catalog/redis"
 *
 * const program = Effect.scoped(
 *   Effect.gen(function*() {
 *     const store = yield* RedisKeyValueStore.make({ redis: { host: "127.0.0.1", port: 6379 } })
 *     yield* store.set("greeting", "hello")
 *     return yield* store.get("greeting") // Option.some("hello")
 *   })
 * )
 * ```
 * @since 0.2.0
 */
export const make = (options: Options): Effect.Effect<KeyValueStore.KeyValueStore, never, Scope.Scope> =>
  Effect.gen(function*() {
    const redis = yield* IORedis.connect(options.redis)
    const prefix = options.prefix ?? "catalog:store:"
    const call = <A>(method: string, run: () => Promise<A>) =>
      Effect.tryPromise({
        try: run,
        catch: (cause) =>
          new PlatformError.SystemError({
            module: "KeyValueStore",
            method,
            reason: "Unknown",
            description: cause instanceof Error ? cause.message : String(cause)
          })
      })
    /** Every key of this store, read with SCAN (never KEYS, which blocks the server). */
    const keys = call("keys", async () => {
      const found: Array<string> = []
      let cursor = "0"
      do {
        const [next, batch] = await redis.scan(cursor, "MATCH", `${escapeGlob(prefix)}*`, "COUNT", 500)
        found.push(...batch)
        cursor = next
      } while (cursor !== "0")
      return found
    })
    return KeyValueStore.makeStringOnly({
      get: (key) => call("get", () => redis.get(prefix + key)).pipe(Effect.map(Option.fromNullable)),
      set: (key, value) => Effect.asVoid(call("set", () => redis.set(prefix + key, value))),
      remove: (key) => Effect.asVoid(call("remove", () => redis.del(prefix + key))),
      clear: Effect.flatMap(keys, (found) => found.length === 0 ? Effect.void : Effect.asVoid(call("clear", () => redis.del(...found)))),
      size: Effect.map(keys, (found) => found.length)
    })
  })

/** A prefix as a literal in a Redis glob pattern. */
const escapeGlob = (text: string) => text.replace(/[*?[\]\\]/g, (special) => `\\${special}`)

/**
 * The store as a layer.
 *
 * @example
 * ```ts
 * import { RedisKeyValueStore } from "effect-catalog/redis"
 *
 * const StoreLive = RedisKeyValueStore.layer({ redis: { host: "127.0.0.1", port: 6379 }, prefix: "app:" })
 * ```
 * @since 0.2.0
 */
export const layer = (options: Options): Layer.Layer<KeyValueStore.KeyValueStore> =>
  Layer.scoped(KeyValueStore.KeyValueStore, make(options))
