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
import { type Duration, Effect, Layer, Option, type Scope } from "effect"
import type { Redis } from "ioredis"
import * as IORedis from "./internal/ioredis.js"
import * as Scripts from "../../rules/src/redis/Scripts.js"

/**
 * Where the store lives.
 *
 * @example
 * ```ts
 * import { RedisKeyValueStore } from "effect-catalog/redis"
 *
 * const options: RedisKeyValueStore.Options = { redis: { host: "127.0.0.1", port: 6379 }, prefix: "catalog:cache:" }
 * ```
 * @category models
 * @since 0.2.0
 */
export interface Options {
  /**
   * Connection options, or a `redis://` or `rediss://` URL. How ioredis
   * queues commands and reconnects is the store's own (`timeout` bounds it).
   */
  readonly redis: IORedis.Connection
  /** Every key of the store is prefixed with this (default `catalog:store:`); `clear` and `size` see only these keys. */
  readonly prefix?: string
  /**
   * How long an operation waits for a Redis that refused or dropped the
   * connection, from its first failed attempt, or for an answer, before it
   * fails with a `SystemError` (default 5 s, as `RedisAdmission.defaultTimeout`).
   */
  readonly timeout?: Duration.DurationInput
}

/**
 * A store on its own Redis connection, closed with the scope. An operation
 * whose Redis is down waits for it for at most `Options.timeout`, then fails
 * with a `SystemError` that names Redis's address (never its password).
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
 * @category constructors
 * @since 0.2.0
 */
export const make = (options: Options): Effect.Effect<KeyValueStore.KeyValueStore, never, Scope.Scope> =>
  Effect.gen(function*() {
    const redis = yield* IORedis.connect(options.redis, { timeout: options.timeout ?? IORedis.defaultTimeout })
    const prefix = options.prefix ?? Scripts.defaultStorePrefix
    const call = <A>(method: string, command: (client: Redis) => Promise<A>) =>
      redis.run(command).pipe(
        Effect.mapError((error) =>
          new PlatformError.SystemError({
            module: "KeyValueStore",
            method,
            reason: error.reason === "Timeout" ? "TimedOut" : error.reason === "Authentication" ? "PermissionDenied" : "Unknown",
            description: error.detail
          })
        )
      )
    /** Every key of this store, read with SCAN (never KEYS, which blocks the server). */
    const keys = call("keys", async (client) => {
      const found: Array<string> = []
      let cursor = "0"
      do {
        const [next, batch] = await client.scan(cursor, "MATCH", Scripts.keysUnder(prefix), "COUNT", Scripts.scanCount)
        found.push(...batch)
        cursor = next
      } while (cursor !== "0")
      return found
    })
    return KeyValueStore.makeStringOnly({
      get: (key) => call("get", (client) => client.get(prefix + key)).pipe(Effect.map(Option.fromNullable)),
      set: (key, value) => Effect.asVoid(call("set", (client) => client.set(prefix + key, value))),
      remove: (key) => Effect.asVoid(call("remove", (client) => client.del(prefix + key))),
      clear: Effect.flatMap(keys, (found) => found.length === 0 ? Effect.void : Effect.asVoid(call("clear", (client) => client.del(...found)))),
      size: Effect.map(keys, (found) => found.length)
    })
  })

/**
 * The store as a layer.
 *
 * @example
 * ```ts
 * import { RedisKeyValueStore } from "effect-catalog/redis"
 *
 * const StoreLive = RedisKeyValueStore.layer({ redis: { host: "127.0.0.1", port: 6379 }, prefix: "app:" })
 * ```
 * @category layers
 * @since 0.2.0
 */
export const layer = (options: Options): Layer.Layer<KeyValueStore.KeyValueStore> =>
  Layer.scoped(KeyValueStore.KeyValueStore, make(options))
