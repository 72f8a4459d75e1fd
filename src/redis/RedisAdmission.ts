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
 * @since 0.2.0
 */
import { Duration, Effect, Layer, Option, type Scope } from "effect"
import { randomUUID } from "node:crypto"
import * as Admission from "../client/Admission.js"
import { AdmissionStore, type Allowance, type Store, type Turn } from "../client/AdmissionStore.js"
import { followsAllowance, type Limits, windows } from "../client/AdmissionWindows.js"
import type { AdmissionUnavailable } from "../client/Errors.js"
import * as IORedis from "./internal/ioredis.js"

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
 * @since 0.5.0
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
 * @since 0.5.0
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
 * @since 0.2.0
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
  readonly slotLifetime?: Duration.DurationInput
  /**
   * How long a request waits for a Redis that refused or dropped the
   * connection, from its first failed attempt, or for an answer, before it
   * fails with `AdmissionUnavailable` (default `defaultTimeout`, 5 s).
   */
  readonly timeout?: Duration.DurationInput
  /** Told at once when Redis fails, once per outage: to say that requests wait, and until when. */
  readonly onOutage?: (outage: Outage) => Effect.Effect<void>
}

// Every script reads the time from Redis (in milliseconds, as \`millis\`), so that
// processes on different clocks agree.
const redisClock = `
local now = redis.call('TIME')
local millis = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)`

// A slot is a member of a sorted set scored by its expiry, on Redis's clock,
// so that a crashed process cannot hold a slot for ever.
const acquireSlotScript = `${redisClock}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', millis)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], millis + tonumber(ARGV[3]), ARGV[2])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
  return 1
end
return 0`

// The account's recent requests are one sorted set on Redis's clock: a request on its way is scored by when
// its lease ends (it counts in every window until then, in case its process dies), an answered one by when
// its answer came (the latest it can have reached the service). A request leaves only when, at that moment, no
// pause is in force and every window has room: then it is added, in the same step. Otherwise the script gives
// how long to wait. KEYS: the requests, the account's live minute limit, the pause. ARGV: the longest window,
// a member, the lease, then triples of window, limit, and 1 for the window the live minute limit lowers.
// Gives 0 when the request leaves, else the milliseconds to wait.
const turnScript = `${redisClock}
local pausedUntil = tonumber(redis.call('GET', KEYS[3]) or '0')
if pausedUntil > millis then return pausedUntil - millis end
local live = tonumber(redis.call('GET', KEYS[2]) or '')
local longest = tonumber(ARGV[1])
local lease = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', millis - longest)
local departure = millis
for i = 4, #ARGV - 2, 3 do
  local window = tonumber(ARGV[i])
  local limit = tonumber(ARGV[i + 1])
  if live and ARGV[i + 2] == '1' then limit = math.max(1, math.min(limit, live)) end
  if redis.call('ZCOUNT', KEYS[1], '(' .. (millis - window), '+inf') >= limit then
    local oldest = redis.call('ZREVRANGE', KEYS[1], limit - 1, limit - 1, 'WITHSCORES')
    departure = math.max(departure, math.min(tonumber(oldest[2]), millis) + window)
  end
end
if departure > millis then return departure - millis end
redis.call('ZADD', KEYS[1], millis + lease, ARGV[2])
redis.call('PEXPIRE', KEYS[1], longest + lease)
return 0`

// A request's answer came: it is scored by now from then on. KEYS: the requests. ARGV: the member.
const answeredScript = `${redisClock}
redis.call('ZADD', KEYS[1], 'XX', millis, ARGV[1])
return 1`

const pauseScript = `${redisClock}
local untilMillis = millis + tonumber(ARGV[1])
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if untilMillis > current then redis.call('SET', KEYS[1], untilMillis, 'PX', tonumber(ARGV[1])) end
return 1`

const pausedScript = `${redisClock}
local untilMillis = tonumber(redis.call('GET', KEYS[1]) or '0')
if untilMillis > millis then return untilMillis - millis end
return 0`

// The last read of the live allowance: its minute limit (which \`bookScript\`
// reads) and when it was read, kept together for a day (every process reads
// \`/usage/\` again on a new UTC day). KEYS: the minute limit, the read time.
// ARGV: the limit, the read time, the lifetime.
const allowScript = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', tonumber(ARGV[3]))
redis.call('SET', KEYS[2], ARGV[2], 'PX', tonumber(ARGV[3]))
return 1`

const prefixOf = (options: Options) => options.prefix ?? "catalog:"

/** A turn that waits `millis` before asking again. */
const waitFor = (millis: number): Turn<AdmissionUnavailable> => ({ _tag: "Wait", wait: Duration.millis(millis) })

/** A request that leaves under no window: nothing is recorded of it. */
const leaveUnrecorded: Turn<AdmissionUnavailable> = { _tag: "Leave", answered: Effect.void }

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
 * @since 0.2.0
 */
export const store = (
  limits: Limits,
  options: Options
): Effect.Effect<Store<AdmissionUnavailable>, never, Scope.Scope> =>
  Effect.gen(function*() {
    const redis = yield* IORedis.connect(options.redis, {
      timeout: options.timeout ?? defaultTimeout,
      ...(options.onOutage === undefined ? {} : { onOutage: options.onOutage })
    })
    const lifetime = Duration.toMillis(Duration.decode(options.slotLifetime ?? "60 seconds"))
    const slotsKey = `${prefixOf(options)}slots`
    const startsKey = `${prefixOf(options)}starts`
    const windowsOf = windows(limits)
    const follows = followsAllowance(limits)
    const longest = Math.max(0, ...windowsOf.map((window) => window.millis))
    const pauseKey = `${prefixOf(options)}pause`
    const minuteLimitKey = `${prefixOf(options)}minute-limit`
    const readAtKey = `${prefixOf(options)}minute-limit-read-at`
    const runOn = (script: string, keys: ReadonlyArray<string>, ...args: ReadonlyArray<string | number>) =>
      redis.run((client) => client.eval(script, keys.length, ...keys, ...args)).pipe(Effect.map(Number))
    const run = (script: string, key: string, ...args: ReadonlyArray<string | number>) => runOn(script, [key], ...args)
    const liveMillis = Duration.toMillis(Duration.days(1))
    const acquire = (id: string): Effect.Effect<void, AdmissionUnavailable> =>
      run(acquireSlotScript, slotsKey, limits.concurrent, id, lifetime).pipe(
        Effect.flatMap((acquired) => acquired === 1 ? Effect.void : Effect.zipRight(Effect.sleep("15 millis"), acquire(id)))
      )
    const shared: Store<AdmissionUnavailable> = {
      // The release is in place before the slot is asked for, and is sent on the same connection: Redis runs it after
      // the request for the slot, so a slot whose answer was lost or came too late is given back too.
      slot: Effect.acquireRelease(
        Effect.sync(() => randomUUID()),
        (id) => redis.send((client) => client.zrem(slotsKey, id))
      ).pipe(Effect.flatMap(acquire)),
      turn: windowsOf.length === 0
        ? Effect.map(run(pausedScript, pauseKey), (left) => left > 0 ? waitFor(left) : leaveUnrecorded)
        : Effect.suspend(() => {
          const id = randomUUID()
          return runOn(
            turnScript,
            [startsKey, minuteLimitKey, pauseKey],
            longest,
            id,
            lifetime,
            ...windowsOf.flatMap((window) => [window.millis, window.limit, window.limit === limits.perMinute && follows ? 1 : 0])
          ).pipe(Effect.map((left): Turn<AdmissionUnavailable> =>
            left > 0 ? waitFor(left) : { _tag: "Leave", answered: Effect.asVoid(run(answeredScript, startsKey, id)) }
          ))
        }),
      paused: run(pausedScript, pauseKey).pipe(Effect.map(Duration.millis)),
      pause: (duration) => Effect.asVoid(run(pauseScript, pauseKey, Math.max(1, Math.ceil(Duration.toMillis(duration))))),
      ...(follows
        ? {
          allowance: {
            last: redis.run((client) => client.mget(minuteLimitKey, readAtKey)).pipe(
              Effect.map(([minuteLimit, readAt]) =>
                minuteLimit == null || readAt == null
                  ? Option.none()
                  : Option.some({ minuteLimit: Number(minuteLimit), readAt: Number(readAt) })
              )
            ),
            set: (read: Allowance) => Effect.asVoid(runOn(allowScript, [minuteLimitKey, readAtKey], read.minuteLimit, read.readAt, liveMillis))
          }
        }
        : {}),
      limits
    }
    return shared
  })

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
 * @since 0.7.0
 */
export const layerStore = (limits: Limits, options: Options): Layer.Layer<AdmissionStore> =>
  Layer.scoped(AdmissionStore, store(limits, options))

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
 * @since 0.2.0
 */
export const layer = (limits: Limits, options: Options): Layer.Layer<Admission.Admission> =>
  Layer.provide(Layer.fresh(Admission.layer), layerStore(limits, options))
