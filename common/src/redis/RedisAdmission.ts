/**
 * Admission shared by every process of an account through Redis: the
 * account's recent requests are one sorted set, on Redis's clock, and a
 * request leaves only when one script, run at that moment, finds room in
 * every window and adds it (so processes on different clocks, or running
 * late, still keep the limits together); each is counted from when its
 * answer came, and one on its way (a lease, should its process die) in
 * every window. The concurrent slots are leases that expire (a process that
 * dies while holding one cannot hold it for ever), and a 429 seen by one
 * process pauses all of them.
 *
 * The keys, the scripts and what they keep are the Effect 3 edition's:
 * processes of either edition on one account, given the same Redis and
 * prefix, keep its limits together.
 *
 * Redis failures are failures: a request whose Redis refuses or drops the
 * connection waits for it (a restart is ridden out) for at most `timeout`,
 * then fails with `AdmissionUnavailable`, unsent; so does a request whose
 * Redis refuses the password, at once, or does not answer within `timeout`.
 *
 * @example
 * ```ts
 * import { Redacted } from "effect"
 * import { Admission, CatalogClient } from "effect-catalog"
 * import { RedisAdmission } from "effect-catalog/redis"
 *
 * const Shared = CatalogClient.layer({
 *   baseUrl: "https://catalog.example/api/v1",
 *   apiKey: Redacted.make("cat_live_..."),
 *   admission: RedisAdmission.layer(Admission.contractLimits, {
 *     redis: { host: "127.0.0.1", port: 6379 },
 *     prefix: "catalog:my-account:"
 *   })
 * })
 * ```
 * @since 0.2.0 (1.x: 1.0.0)
 */
import { decodeDuration, Duration, type DurationInput, Effect, fromNullable, Layer, type Scope, scopedLayer } from "#edition/internal/Edition.js"
import { randomUUID } from "node:crypto"
import * as Connections from "../../../rules/src/redis/Connections.js"
import * as Scripts from "../../../rules/src/redis/Scripts.js"
import * as Admission from "../client/Admission.js"
import { AdmissionStore, type Allowance, type Store, type Turn } from "../client/AdmissionStore.js"
import type { Limits } from "#edition/client/AdmissionWindows.js"
import type { AdmissionUnavailable } from "../client/Errors.js"
import * as IORedis from "#edition/redis/internal/ioredis.js"

/**
 * How long a request waits for Redis unless told otherwise: 5 seconds from
 * its first failed attempt, or for an answer.
 *
 * @example
 * ```ts
 * import { Duration } from "effect"
 * import { RedisAdmission } from "effect-catalog/redis"
 *
 * Duration.toMillis(RedisAdmission.defaultTimeout) // 5000
 * ```
 * @category constants
 * @since 0.5.0 (1.x: 1.0.0)
 */
export const defaultTimeout: Duration.Duration = IORedis.defaultTimeout

/**
 * The start of an outage of Redis: what failed first, and when the request
 * that met it fails at the latest unless Redis is back.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { RedisAdmission } from "effect-catalog/redis"
 *
 * const warn = (outage: RedisAdmission.Outage) =>
 *   Effect.logWarning(`Redis at ${outage.address}: ${outage.cause}; waiting until ${outage.until.toISOString()}`)
 * ```
 * @category models
 * @since 0.5.0 (1.x: 1.0.0)
 */
export type Outage = IORedis.Outage

/**
 * Options of the Redis store.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Admission } from "effect-catalog"
 * import { RedisAdmission } from "effect-catalog/redis"
 *
 * const options: RedisAdmission.Options = {
 *   redis: { host: "127.0.0.1", port: 6379 },
 *   prefix: "catalog:team-a:",
 *   slotLifetime: "30 seconds",
 *   // A request fails with AdmissionUnavailable once Redis has been down for 2 seconds.
 *   timeout: "2 seconds",
 *   onOutage: (outage) => Effect.logWarning(`Redis at ${outage.address} failed (${outage.cause}); waiting until ${outage.until.toISOString()}`)
 * }
 * const AdmissionLive = RedisAdmission.layer(Admission.contractLimits, options)
 * ```
 * @category models
 * @since 0.2.0 (1.x: 1.0.0)
 */
export interface Options {
  /**
   * Connection options, or a `redis://` or `rediss://` URL. How ioredis
   * queues commands and reconnects is the store's own (`timeout` bounds it).
   */
  readonly redis: IORedis.Connection
  /** Keys are prefixed with this, one prefix per account (default `catalog:`). */
  readonly prefix?: string
  /** How long a slot is held, and a request on its way counted in every window, at most if its process dies (default 60 s). */
  readonly slotLifetime?: DurationInput
  /**
   * How long a request waits for a Redis that refused or dropped the
   * connection, from its first failed attempt, or for an answer, before it
   * fails with `AdmissionUnavailable` (default `defaultTimeout`, 5 s).
   */
  readonly timeout?: DurationInput
  /** Told at once when Redis fails, once per outage: to say that requests wait, and until when. */
  readonly onOutage?: (outage: Outage) => Effect.Effect<void>
}

/** A turn that waits `millis` before asking again. */
const waitFor = (millis: number): Turn<AdmissionUnavailable> => ({ _tag: "Wait", wait: Duration.millis(millis) })

/** A request that leaves under no window: nothing is recorded of it. */
const leaveUnrecorded: Turn<AdmissionUnavailable> = { _tag: "Leave", answered: Effect.void }

/** The store's effects over a connection, for the account of `admitting`. */
const storeOver = (redis: IORedis.Client, admitting: Scripts.Admitting): Store<AdmissionUnavailable> => {
  const run = (call: Scripts.Call) => Effect.map(redis.script(call), Scripts.integerOf)
  const acquire = (id: string): Effect.Effect<void, AdmissionUnavailable> =>
    run(Scripts.acquireSlotCall(admitting, id)).pipe(
      Effect.flatMap((acquired) =>
        acquired === 1 ? Effect.void : Effect.andThen(Effect.sleep(Duration.millis(Connections.slotRetryMillis)), acquire(id))
      )
    )
  const turn = Effect.suspend(() => {
    const id = randomUUID()
    return run(Scripts.turnCall(admitting, id)).pipe(Effect.map((left): Turn<AdmissionUnavailable> =>
      left > 0 ? waitFor(left) : { _tag: "Leave", answered: Effect.asVoid(run(Scripts.answeredCall(admitting, id))) }
    ))
  })
  return {
    // The release is in place before the slot is asked for, and is sent on the same connection: Redis runs it after
    // the request for the slot, so a slot whose answer was lost or came too late is given back too.
    slot: Effect.acquireRelease(
      Effect.sync(() => randomUUID()),
      (id) => redis.post(...Scripts.releaseSlotCommand(admitting, id))
    ).pipe(Effect.flatMap(acquire)),
    turn: admitting.windowed
      ? turn
      : Effect.map(run(Scripts.pausedCall(admitting)), (left) => left > 0 ? waitFor(left) : leaveUnrecorded),
    paused: run(Scripts.pausedCall(admitting)).pipe(Effect.map(Duration.millis)),
    pause: (duration) => Effect.asVoid(run(Scripts.pauseCall(admitting, Duration.toMillis(duration)))),
    ...(admitting.follows
      ? {
        allowance: {
          last: Effect.map(redis.ask("MGET", ...Scripts.allowanceKeys(admitting)), (reply) => fromNullable(Scripts.allowanceOf(reply))),
          set: (read: Allowance) => Effect.asVoid(run(Scripts.allowCall(admitting, read)))
        }
      }
      : {}),
    limits: admitting.limits
  }
}

/**
 * A store in Redis, shared by every process of the account: concurrency
 * slots are leases that expire, and the pause is a key that expires. Each
 * of its effects fails with `AdmissionUnavailable` when Redis fails (see
 * `Options.timeout`).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Admission } from "effect-catalog"
 * import { RedisAdmission } from "effect-catalog/redis"
 *
 * const pausedFor = Effect.scoped(
 *   Effect.gen(function*() {
 *     const store = yield* RedisAdmission.store(Admission.contractLimits, { redis: { host: "127.0.0.1", port: 6379 } })
 *     return yield* store.paused
 *   })
 * )
 * ```
 * @category constructors
 * @since 0.2.0 (1.x: 1.0.0)
 */
export const store = (limits: Limits, options: Options): Effect.Effect<Store<AdmissionUnavailable>, never, Scope.Scope> =>
  Effect.map(
    IORedis.connect(options.redis, {
      timeout: options.timeout ?? defaultTimeout,
      ...(options.onOutage === undefined ? {} : { onOutage: options.onOutage })
    }),
    (redis) =>
      storeOver(
        redis,
        Scripts.admitting(limits, options.prefix ?? Scripts.defaultPrefix, Duration.toMillis(decodeDuration(options.slotLifetime ?? "60 seconds")))
      )
  )

/**
 * The store in Redis (`store`) as the `AdmissionStore` service, for
 * `Admission.layer`.
 *
 * @example
 * ```ts
 * import { Layer } from "effect"
 * import { Admission, AdmissionWindows } from "effect-catalog"
 * import { RedisAdmission } from "effect-catalog/redis"
 *
 * const AdmissionLive = Admission.layer.pipe(
 *   Layer.provide(RedisAdmission.layerStore(AdmissionWindows.contractLimits, { redis: { host: "127.0.0.1", port: 6379 } }))
 * )
 * ```
 * @category layers
 * @since 0.7.0 (1.x: 1.0.0)
 */
export const layerStore = (limits: Limits, options: Options): Layer.Layer<AdmissionStore> => scopedLayer(AdmissionStore, store(limits, options))

/**
 * Admission shared by every process of an account through Redis: one log of
 * starts for the windows, the account's concurrent slots, and one pause
 * after a 429 (`Admission.layer` over `layerStore`).
 *
 * @example
 * ```ts
 * import { Admission } from "effect-catalog"
 * import { RedisAdmission } from "effect-catalog/redis"
 *
 * const AdmissionLive = RedisAdmission.layer(Admission.contractLimits, { redis: { host: "127.0.0.1", port: 6379 } })
 * ```
 * @category layers
 * @since 0.2.0 (1.x: 1.0.0)
 */
export const layer = (limits: Limits, options: Options): Layer.Layer<Admission.Admission> =>
  Layer.provide(Layer.fresh(Admission.layer), layerStore(limits, options))
