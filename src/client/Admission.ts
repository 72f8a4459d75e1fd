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
 *   in this process and, with `effect-catalog/redis`, in every process
 *   sharing the account, until its `Retry-After`.
 *
 * @example
 * ```ts
 * import { Admission, CatalogClient, CatalogConfig } from "effect-catalog"
 *
 * // One process, the contract's limits on a simulator running 100 times faster.
 * const CatalogLive = CatalogClient.layerFrom(CatalogConfig.layer, {
 *   admission: Admission.layerMemory({ ...Admission.contractLimits, timeScale: 0.01 })
 * })
 * ```
 * @since 0.1.0
 */
import * as RateLimiter from "@effect/experimental/RateLimiter"
import { Clock, Context, Duration, Effect, Layer, Ref, Scope } from "effect"

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

/**
 * Admission over any `Store`, paced by the `RateLimiter` in context (whose
 * own store decides who shares the pace: `RateLimiter.layerStoreMemory` for
 * one process, a Redis store for several). Requests of every admission that
 * uses the same `key` in the same `RateLimiter` store share one pace.
 *
 * @example
 * ```ts
 * import * as RateLimiter from "@effect/experimental/RateLimiter"
 * import { Effect, Layer } from "effect"
 * import { Admission } from "effect-catalog"
 *
 * const AdmissionLive = Layer.effect(
 *   Admission.Admission,
 *   Effect.flatMap(Admission.memoryStore(Admission.contractLimits), (store) =>
 *     Admission.make(Admission.contractLimits, store, "my-account"))
 * ).pipe(Layer.provide(Layer.provide(RateLimiter.layer, RateLimiter.layerStoreMemory)))
 * ```
 * @since 0.2.0
 */
export const make = (limits: Limits, store: Store, key: string): Effect.Effect<Service, never, RateLimiter.RateLimiter> =>
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
  Layer.effect(Admission, Effect.flatMap(memoryStore(limits), (store) => make(limits, store, "catalog"))).pipe(
    Layer.provide(Layer.provide(RateLimiter.layer, RateLimiter.layerStoreMemory))
  )
