/**
 * A `KeyValueStore` (`effect/persistence`) in Redis, for state that several
 * processes share: above all the client's ETag cache
 * (`ResponseCache.layerStore`), so that an answer one process has read is a
 * free 304 for every other. Its keys are the Effect 3 edition's (the
 * prefix, then the key), so processes of either edition can share it.
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
 * @since 1.0.0
 */
import { type Duration, Effect, Layer, type Scope } from "effect"
import { KeyValueStore, type Redis } from "effect/persistence"
import * as Scripts from "../../../rules/src/redis/Scripts.js"
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
 * @category models
 * @since 1.0.0
 */
export interface Options {
  /**
   * Connection options, or a `redis://` or `rediss://` URL. How ioredis
   * queues commands and reconnects is the store's own (`timeout` bounds it).
   */
  readonly redis: IORedis.Connection
  /** Every key of the store is prefixed with this (default `catalog:store:`); `clear`, `size` and `keys` see only these keys. */
  readonly prefix?: string
  /**
   * How long an operation waits for a Redis that refused or dropped the
   * connection, from its first failed attempt, or for an answer, before it
   * fails with a `KeyValueStoreError` (default 5 s, as `RedisAdmission.defaultTimeout`).
   */
  readonly timeout?: Duration.Input
}

/** Every key under `prefix`, read with SCAN (never KEYS, which blocks the server). */
const keysUnder = (redis: Redis.Redis["Service"], prefix: string) => {
  const from = (cursor: string, found: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<string>, Redis.RedisError> =>
    Effect.flatMap(redis.send("SCAN", cursor, "MATCH", Scripts.keysUnder(prefix), "COUNT", String(Scripts.scanCount)), (reply) => {
      const batch = Scripts.scanReplyOf(reply)
      if (batch === undefined) return Effect.succeed(found)
      const all = [...found, ...batch.keys]
      return batch.cursor === "0" ? Effect.succeed(all) : from(batch.cursor, all)
    })
  return from("0", [])
}

/**
 * A store on its own Redis connection, closed with the scope. An operation
 * whose Redis is down waits for it for at most `Options.timeout`, then fails
 * with a `KeyValueStoreError` whose message names Redis's address (never its
 * password), and whose cause is the `AdmissionUnavailable` that says why.
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
 *     return yield* store.get("greeting") // "hello"
 *   })
 * )
 * ```
 * @category constructors
 * @since 1.0.0
 */
export const make = (options: Options): Effect.Effect<KeyValueStore.KeyValueStore, never, Scope.Scope> =>
  Effect.gen(function*() {
    const redis = yield* IORedis.connect(options.redis, { timeout: options.timeout ?? IORedis.defaultTimeout })
    const prefix = options.prefix ?? Scripts.defaultStorePrefix
    const call = <A>(method: string, commands: Effect.Effect<A, Redis.RedisError>, key?: string) =>
      redis.run(commands).pipe(
        Effect.mapError((error) =>
          new KeyValueStore.KeyValueStoreError({
            message: `KeyValueStore.${method}: ${error.detail}`,
            method,
            ...(key === undefined ? {} : { key }),
            cause: error
          })
        )
      )
    const keys = call("keys", keysUnder(redis.redis, prefix))
    return KeyValueStore.makeStringOnly({
      get: (key) => call("get", redis.redis.send("GET", prefix + key), key).pipe(Effect.map(Scripts.textOf)),
      set: (key, value) => Effect.asVoid(call("set", redis.redis.send("SET", prefix + key, value), key)),
      remove: (key) => Effect.asVoid(call("remove", redis.redis.send("DEL", prefix + key), key)),
      clear: Effect.flatMap(keys, (found) => found.length === 0 ? Effect.void : Effect.asVoid(call("clear", redis.redis.send("DEL", ...found)))),
      size: Effect.map(keys, (found) => found.length),
      keys: Effect.map(keys, (found) => found.map((key) => key.slice(prefix.length)))
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
 * @since 1.0.0
 */
export const layer = (options: Options): Layer.Layer<KeyValueStore.KeyValueStore> => Layer.effect(KeyValueStore.KeyValueStore, make(options))
