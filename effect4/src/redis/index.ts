/**
 * effect-catalog/redis: what several processes of one account share through
 * Redis: admission (the windows, concurrent slots, the pause after a 429), the
 * page sizes that fit its lists, and a `KeyValueStore` for the ETag cache. It
 * needs the optional peer dependency `ioredis` (`npm install ioredis`); the
 * client entry `effect-catalog` never loads it. Its keys, scripts and
 * encodings are the Effect 3 edition's: processes of both editions on one
 * account share its limits through one Redis.
 *
 * @example
 * ```ts
 * import { Layer, Redacted } from "effect"
 * import { Admission, CatalogClient, ResponseCache } from "effect-catalog"
 * import { RedisAdmission, RedisKeyValueStore } from "effect-catalog/redis"
 *
 * const redis = { host: "127.0.0.1", port: 6379 }
 * const Shared = CatalogClient.layer({
 *   baseUrl: "https://catalog.example/api/v1",
 *   apiKey: Redacted.make("cat_live_..."),
 *   admission: RedisAdmission.layer(Admission.contractLimits, { redis, prefix: "catalog:my-account:" }),
 *   cache: ResponseCache.layerStore({ maxEntries: 10_000 }).pipe(
 *     Layer.provide(RedisKeyValueStore.layer({ redis, prefix: "catalog:my-account:cache:" }))
 *   )
 * })
 * ```
 * @since 1.0.0
 */
/** @since 1.0.0 */
export * as RedisAdmission from "../../../common/src/redis/RedisAdmission.js"
/** @since 1.0.0 */
export * as RedisKeyValueStore from "./RedisKeyValueStore.js"
/** @since 1.0.0 */
export * as RedisPageSizes from "../../../common/src/redis/RedisPageSizes.js"
