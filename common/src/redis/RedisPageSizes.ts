/**
 * The page sizes that fitted an account's lists (`PageSizes`), in Redis
 * beside its shared admission: a hash of page sizes by operation id, read at
 * the start of each scan and written when a size that fits is found, so that
 * what one process learned from a 422 spares every other the refused
 * request. A Redis that fails is a size not known (the scan starts at the
 * largest page) and a size not kept; processes of either edition share
 * the same hash.
 *
 * @example
 * ```ts
 * import { Admission, CatalogClient } from "effect-catalog"
 * import { RedisAdmission, RedisPageSizes } from "effect-catalog/redis"
 * import { Redacted } from "effect"
 *
 * const redis = { host: "127.0.0.1", port: 6379 }
 * const Shared = CatalogClient.layer({
 *   baseUrl: "https://catalog.example/api/v1",
 *   apiKey: Redacted.make("cat_live_..."),
 *   admission: RedisAdmission.layer(Admission.contractLimits, { redis, prefix: "catalog:my-account:" }),
 *   pageSizes: RedisPageSizes.layer({ redis, prefix: "catalog:my-account:" })
 * })
 * ```
 * @since 0.5.0 (1.x: 1.0.0)
 */
import { type DurationInput, Effect, fromNullable, type Layer, Option, scopedLayer } from "#edition/internal/Edition.js"
import * as Scripts from "../../../rules/src/redis/Scripts.js"
import * as PageSizes from "../client/PageSizes.js"
import * as IORedis from "#edition/redis/internal/ioredis.js"

/**
 * Where the page sizes live.
 *
 * @example
 * ```ts
 * import { RedisPageSizes } from "effect-catalog/redis"
 *
 * const options: RedisPageSizes.Options = { redis: "redis://127.0.0.1:6379", prefix: "catalog:my-account:" }
 * ```
 * @category models
 * @since 0.5.0 (1.x: 1.0.0)
 */
export interface Options {
  /** Connection options, or a `redis://` or `rediss://` URL. */
  readonly redis: IORedis.Connection
  /** The prefix of the account's keys (default `catalog:`): the sizes are the hash `<prefix>page-sizes`. */
  readonly prefix?: string
  /** How long a read or write waits for a Redis that is down or slow (default 5 s). */
  readonly timeout?: DurationInput
}

/**
 * The page sizes in Redis, on a connection of their own closed with the layer.
 *
 * @example
 * ```ts
 * import { RedisPageSizes } from "effect-catalog/redis"
 *
 * const PageSizesLive = RedisPageSizes.layer({ redis: { host: "127.0.0.1", port: 6379 }, prefix: "catalog:my-account:" })
 * ```
 * @category layers
 * @since 0.5.0 (1.x: 1.0.0)
 */
export const layer = (options: Options): Layer.Layer<PageSizes.PageSizes> =>
  scopedLayer(
    PageSizes.PageSizes,
    Effect.gen(function*() {
      const redis = yield* IORedis.connect(options.redis, { timeout: options.timeout ?? IORedis.defaultTimeout })
      const key = Scripts.pageSizesKey(options.prefix)
      const service: PageSizes.Service = {
        get: (operation) =>
          redis.ask("HGET", key, operation).pipe(
            Effect.map((reply) => fromNullable(Scripts.pageSizeOf(reply))),
            Effect.orElseSucceed(() => Option.none())
          ),
        set: (operation, size) => Effect.ignore(redis.ask("HSET", key, operation, Scripts.pageSizeText(size)))
      }
      return service
    })
  )
