/**
 * Admission: every request waits for a permit under all the account's limits
 * at once, before it is sent, so that a client alone on an account never
 * provokes a 429.
 *
 * - Concurrency: a slot of the account's concurrent requests, held until the
 *   request ends, interrupted or not.
 * - Frequency: requests are paced, one every `max(10 s / perTenSeconds,
 *   1 min / perMinute)` plus a small margin, with `@effect/experimental`'s
 *   `RateLimiter` (fixed windows in delay mode: a queue whose clock is the
 *   store's, so processes sharing a Redis store share one pace). Even pacing
 *   keeps every span of 10 s and of a minute under its limit, whether the
 *   service counts fixed or sliding windows, and keeps cursors young.
 * - One account, one pause: a 429 pauses every request waiting for a permit,
 *   in this process and, with Redis, in every process sharing the account,
 *   until its `Retry-After`.
 *
 * @since 0.1.0
 */
import * as RateLimiter from "@effect/experimental/RateLimiter"
import * as RateLimiterRedis from "@effect/experimental/RateLimiter/Redis"
import { Clock, Context, Duration, Effect, Layer, Ref, Scope } from "effect"
import { Redis, type RedisOptions } from "ioredis"
import { randomUUID } from "node:crypto"

/**
 * The account limits a client keeps to.
 *
 * @example
 * ```ts
 * import { Admission } from "effect-catalog"
 *
 * const scaled: Admission.Limits = { ...Admission.contractLimits, timeScale: 0.01 }
 * const AdmissionLive = Admission.layerMemory(scaled)
 * ```
 * @since 0.1.0
 */
export interface Limits {
  readonly perTenSeconds: number
  readonly perMinute: number
  readonly concurrent: number
  /** Multiplies the windows, to match a simulator's `--time-scale`. */
  readonly timeScale: number
  /** Extra spacing between requests, as a share of the pace (default 0.02). */
  readonly margin: number
}

/**
 * The limits of the contract.
 *
 * @example
 * ```ts
 * import { Admission } from "effect-catalog"
 *
 * Admission.contractLimits.perMinute // 60
 * Admission.contractLimits.concurrent // 2
 * ```
 * @since 0.1.0
 */
export const contractLimits: Limits = { perTenSeconds: 10, perMinute: 60, concurrent: 2, timeScale: 1, margin: 0.02 }

/**
 * No limits at all: requests are sent at once (for a service or simulator
 * without limits, or tests).
 *
 * @example
 * ```ts
 * import { Admission } from "effect-catalog"
 *
 * const AdmissionLive = Admission.layerMemory(Admission.noLimits)
 * ```
 * @since 0.1.0
 */
export const noLimits: Limits = {
  perTenSeconds: Number.POSITIVE_INFINITY,
  perMinute: Number.POSITIVE_INFINITY,
  concurrent: Number.POSITIVE_INFINITY,
  timeScale: 1,
  margin: 0
}

/**
 * The time between two requests that keeps every window under its limit.
 *
 * @example
 * ```ts
 * import { Duration } from "effect"
 * import { Admission } from "effect-catalog"
 *
 * Duration.toMillis(Admission.pace(Admission.contractLimits)) // 1020
 * ```
 * @since 0.1.0
 */
export const pace = (limits: Limits): Duration.Duration => {
  const exact = Math.max(10_000 / limits.perTenSeconds, 60_000 / limits.perMinute) * limits.timeScale
  // Whole milliseconds (stores keep integers), and never less than 10 ms of margin:
  // a busy event loop can delay one send and not the next by about that much.
  return Duration.millis(exact === 0 ? 0 : Math.ceil(Math.max(exact * (1 + limits.margin), exact + 10)))
}

/**
 * The admission service.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Admission } from "effect-catalog"
 *
 * // Admits every request at once, e.g. in a test.
 * const unlimited: Admission.Service = {
 *   admit: (request) => request,
 *   pause: () => Effect.void,
 *   waiting: Effect.succeed(0)
 * }
 * ```
 * @since 0.1.0
 */
export interface Service {
  /** Runs a request once it holds a slot, no pause is in force, and its turn has come. */
  readonly admit: <A, E, R>(request: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** Pauses every waiting request for `retryAfter` (a 429 was answered). */
  readonly pause: (retryAfter: Duration.Duration) => Effect.Effect<void>
  /** How many requests are waiting for a permit now. */
  readonly waiting: Effect.Effect<number>
}

/**
 * The admission service, shared by every request of a client.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Admission } from "effect-catalog"
 *
 * const waiting = Effect.flatMap(Admission.Admission, (admission) => admission.waiting)
 * ```
 * @since 0.1.0
 */
export class Admission extends Context.Tag("effect-catalog/Admission")<Admission, Service>() {}

/**
 * Where the state shared by the requests lives: concurrency slots and the
 * pause.
 *
 * @example
 * ```ts
 * import { Duration, Effect } from "effect"
 * import { Admission } from "effect-catalog"
 *
 * const program = Effect.gen(function*() {
 *   const store: Admission.Store = yield* Admission.memoryStore(Admission.contractLimits)
 *   yield* store.pause(Duration.seconds(2))
 *   return yield* store.paused // at most 2 seconds
 * })
 * ```
 * @since 0.1.0
 */
export interface Store {
  /** Holds one concurrency slot for the life of the scope. */
  readonly slot: Effect.Effect<void, never, Scope.Scope>
  /** How long the pause in force still lasts (zero when none). */
  readonly paused: Effect.Effect<Duration.Duration>
  /** Starts or extends the pause to at least `duration` from now. */
  readonly pause: (duration: Duration.Duration) => Effect.Effect<void>
}

const makeWith = (limits: Limits, store: Store, key: string) =>
  Effect.gen(function*() {
    const sleep = yield* RateLimiter.makeSleep
    const waiting = yield* Ref.make(0)
    const interval = pace(limits)
    const waitForPause: Effect.Effect<void> = Effect.flatMap(store.paused, (left) =>
      Duration.isZero(left) ? Effect.void : Effect.zipRight(Effect.sleep(left), waitForPause))
    const intervalMillis = Duration.toMillis(interval)
    const lastSend = yield* Ref.make(Number.NEGATIVE_INFINITY)
    // The store's queue spaces the turns of every process sharing it; a turn
    // taken late (a busy event loop) must still leave a whole pace after this
    // process's previous send.
    const spaced: Effect.Effect<void> = Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Ref.modify(lastSend, (last) => (now >= last + intervalMillis ? [0, now] as const : [last + intervalMillis - now, last] as const))
    ).pipe(Effect.flatMap((wait) => (wait > 0 ? Effect.zipRight(Effect.sleep(Duration.millis(wait)), spaced) : Effect.void)))
    const shared = sleep({ algorithm: "fixed-window", window: interval, limit: 1, key }).pipe(
      // A store that cannot be reached must not stop requests: they then keep the local pace.
      Effect.catchAll(() => Effect.void)
    )
    // A pause that starts while a request waits for its turn holds it too; it then takes a new turn.
    const turn: Effect.Effect<void> = Duration.isZero(interval) ? waitForPause : Effect.gen(function*() {
      yield* waitForPause
      yield* shared
      yield* spaced
      if (!Duration.isZero(yield* store.paused)) return yield* turn
    })
    const service: Service = {
      admit: (request) =>
        Effect.scoped(
          Effect.gen(function*() {
            yield* Ref.update(waiting, (n) => n + 1)
            yield* Effect.all([store.slot, turn], { discard: true }).pipe(
              Effect.ensuring(Ref.update(waiting, (n) => n - 1))
            )
            return yield* request
          })
        ),
      pause: (retryAfter) => store.pause(retryAfter),
      waiting: Ref.get(waiting)
    }
    return service
  })

/**
 * A store in this process's memory.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Admission } from "effect-catalog"
 *
 * const program = Effect.gen(function*() {
 *   const store = yield* Admission.memoryStore({ ...Admission.contractLimits, concurrent: 1 })
 *   yield* Effect.scoped(Effect.zipRight(store.slot, Effect.log("holding the only slot")))
 * })
 * ```
 * @since 0.1.0
 */
export const memoryStore = (limits: Limits): Effect.Effect<Store> =>
  Effect.gen(function*() {
    const slots = yield* Effect.makeSemaphore(Math.min(limits.concurrent, Number.MAX_SAFE_INTEGER))
    const pausedUntil = yield* Ref.make(0)
    return {
      slot: Effect.asVoid(Effect.acquireRelease(slots.take(1), () => slots.release(1))),
      paused: Effect.zipWith(Ref.get(pausedUntil), Clock.currentTimeMillis, (until, now) => Duration.millis(Math.max(0, until - now))),
      pause: (duration) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Ref.update(pausedUntil, (until) => Math.max(until, now + Duration.toMillis(duration))))
    }
  })

/**
 * Admission for one process: limits kept in memory.
 *
 * @example
 * ```ts
 * import { Admission } from "effect-catalog"
 *
 * const AdmissionLive = Admission.layerMemory({ ...Admission.contractLimits, timeScale: 0.01 })
 * ```
 * @since 0.1.0
 */
export const layerMemory = (limits: Limits = contractLimits): Layer.Layer<Admission> =>
  Layer.effect(Admission, Effect.flatMap(memoryStore(limits), (store) => makeWith(limits, store, "catalog"))).pipe(
    Layer.provide(Layer.provide(RateLimiter.layer, RateLimiter.layerStoreMemory))
  )

// A slot is a member of a sorted set scored by its expiry, on Redis's clock,
// so that a crashed process cannot hold a slot for ever.
const acquireSlotScript = `
local now = redis.call('TIME')
local millis = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', millis)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], millis + tonumber(ARGV[3]), ARGV[2])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
  return 1
end
return 0`

const pauseScript = `
local now = redis.call('TIME')
local millis = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local untilMillis = millis + tonumber(ARGV[1])
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if untilMillis > current then redis.call('SET', KEYS[1], untilMillis, 'PX', tonumber(ARGV[1])) end
return 1`

const pausedScript = `
local now = redis.call('TIME')
local millis = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local untilMillis = tonumber(redis.call('GET', KEYS[1]) or '0')
if untilMillis > millis then return untilMillis - millis end
return 0`

/**
 * Options of the Redis store.
 *
 * @example
 * ```ts
 * import { Admission } from "effect-catalog"
 *
 * const options: Admission.RedisStoreOptions = {
 *   redis: { host: "127.0.0.1", port: 6379 },
 *   prefix: "catalog:team-a:",
 *   slotLifetime: "30 seconds"
 * }
 * const AdmissionLive = Admission.layerRedis(Admission.contractLimits, options)
 * ```
 * @since 0.1.0
 */
export interface RedisStoreOptions {
  readonly redis: RedisOptions
  /** Keys are prefixed with this, one prefix per account (default `catalog:`). */
  readonly prefix?: string
  /** How long a slot is held at most if its process dies (default 60 s). */
  readonly slotLifetime?: Duration.DurationInput
}

/**
 * A store in Redis, shared by every process of the account: concurrency
 * slots are leases that expire, and the pause is a key that expires.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Admission } from "effect-catalog"
 *
 * const pausedFor = Effect.scoped(
 *   Effect.gen(function*() {
 *     const store = yield* Admission.redisStore(Admission.contractLimits, { redis: { host: "127.0.0.1", port: 6379 } })
 *     return yield* store.paused
 *   })
 * )
 * ```
 * @since 0.1.0
 */
export const redisStore = (limits: Limits, options: RedisStoreOptions): Effect.Effect<Store, never, Scope.Scope> =>
  Effect.gen(function*() {
    const prefix = options.prefix ?? "catalog:"
    const redis = yield* Effect.acquireRelease(
      Effect.sync(() => new Redis({ ...options.redis, lazyConnect: false })),
      (client) => Effect.promise(() => client.quit()).pipe(Effect.ignore)
    )
    const lifetime = Duration.toMillis(Duration.decode(options.slotLifetime ?? "60 seconds"))
    const slotsKey = `${prefix}slots`
    const pauseKey = `${prefix}pause`
    const run = (script: string, key: string, ...args: ReadonlyArray<string | number>) =>
      Effect.tryPromise(() => redis.eval(script, 1, key, ...args)).pipe(Effect.map(Number))
    const acquire = (id: string): Effect.Effect<void> =>
      run(acquireSlotScript, slotsKey, limits.concurrent, id, lifetime).pipe(
        Effect.orElseSucceed(() => 0),
        Effect.flatMap((acquired) => acquired === 1 ? Effect.void : Effect.zipRight(Effect.sleep("15 millis"), acquire(id)))
      )
    return {
      slot: Effect.asVoid(Effect.acquireRelease(
        Effect.sync(() => randomUUID()).pipe(Effect.tap(acquire)),
        (id) => Effect.ignore(Effect.tryPromise(() => redis.zrem(slotsKey, id)))
      )),
      paused: run(pausedScript, pauseKey).pipe(Effect.orElseSucceed(() => 0), Effect.map(Duration.millis)),
      pause: (duration) => Effect.ignore(run(pauseScript, pauseKey, Math.max(1, Math.ceil(Duration.toMillis(duration)))))
    }
  })

/**
 * Admission shared by every process of an account through Redis: the pace is
 * kept by `@effect/experimental`'s Redis `RateLimiter` store (on Redis's
 * clock), concurrency slots are expiring leases, and a 429 pauses all of
 * them.
 *
 * @example
 * ```ts
 * import { Admission } from "effect-catalog"
 *
 * const AdmissionLive = Admission.layerRedis(Admission.contractLimits, { redis: { host: "127.0.0.1", port: 6379 } })
 * ```
 * @since 0.1.0
 */
export const layerRedis = (limits: Limits, options: RedisStoreOptions): Layer.Layer<Admission> =>
  Layer.scoped(Admission, Effect.flatMap(redisStore(limits, options), (store) => makeWith(limits, store, "pace"))).pipe(
    Layer.provide(Layer.provide(RateLimiter.layer, RateLimiterRedis.layerStore({ ...options.redis, prefix: `${options.prefix ?? "catalog:"}pace:` })))
  )
