/**
 * Where admission keeps the state shared by the requests (concurrency slots,
 * the requests on their way and the moments the recent ones were answered,
 * the pause after a 429, the last read of the live allowance), and the store
 * as a service of its own: `Admission.layer` admits over the `AdmissionStore`
 * in context, whichever it is (in memory, in a `KeyValueStore`, in Redis with
 * `RedisAdmission.layerStore`, or one of your own).
 *
 * @example
 * ```ts
 * import { Duration, Effect, Layer } from "effect"
 * import { Admission, AdmissionStore, AdmissionWindows } from "effect-catalog"
 *
 * // The store in memory, logging every pause, under the admission service.
 * const Logged = Layer.effect(
 *   AdmissionStore.AdmissionStore,
 *   Effect.map(Admission.memoryStore(AdmissionWindows.contractLimits), (store): AdmissionStore.Store => ({
 *     ...store,
 *     pause: (duration) => Effect.andThen(Effect.log(`paused for ${Duration.format(duration)}`), store.pause(duration))
 *   }))
 * )
 * const AdmissionLive = Admission.layer.pipe(Layer.provide(Logged))
 * ```
 * @since 0.7.0 (1.x: 1.0.0)
 */
import { type Duration, type Effect, type Option, type Scope, ServiceTag } from "#edition/internal/Edition.js"
import type { Limits } from "../../../rules/src/client/AdmissionWindows.js"
import type { AdmissionUnavailable } from "./Errors.js"

/**
 * A read of the account's live allowance: its `minute_limit`, and when it
 * was read (milliseconds since the epoch, by the reader's clock).
 *
 * @example
 * ```ts
 * import type { AdmissionStore } from "effect-catalog"
 *
 * const read: AdmissionStore.Allowance = { minuteLimit: 20, readAt: Date.now() }
 * ```
 * @category models
 * @since 0.5.0 (1.x: 1.0.0)
 */
export interface Allowance {
  readonly minuteLimit: number
  readonly readAt: number
}

/**
 * Where a store keeps the last read of the live allowance: `set` admits
 * under it from then on, `last` gives it back (to this process, to a later
 * run, or to another process sharing the store).
 *
 * @example
 * ```ts
 * import { Effect, Option } from "effect"
 * import { Admission, AdmissionWindows } from "effect-catalog"
 *
 * const program = Effect.gen(function*() {
 *   const store = yield* Admission.memoryStore(AdmissionWindows.contractLimits)
 *   const allowance = store.allowance
 *   if (allowance === undefined) return false
 *   yield* allowance.set({ minuteLimit: 20, readAt: 0 })
 *   return Option.isSome(yield* allowance.last)
 * })
 * ```
 * @category models
 * @since 0.5.0 (1.x: 1.0.0)
 */
export interface AllowanceStore<E = never> {
  readonly last: Effect.Effect<Option.Option<Allowance>, E>
  readonly set: (allowance: Allowance) => Effect.Effect<void, E>
}

/**
 * A store's answer to a request ready to leave: `Leave`, recorded as on its
 * way from now (it counts in every window until `answered` records the
 * moment its answer came, or it went without one), or `Wait` at least
 * `wait` before asking again (a window is full, or a pause is in force).
 *
 * @example
 * ```ts
 * import { Duration } from "effect"
 * import type { AdmissionStore } from "effect-catalog"
 *
 * const describe = (turn: AdmissionStore.Turn) => turn._tag === "Leave" ? "now" : `in ${Duration.format(turn.wait)}`
 * ```
 * @category models
 * @since 0.6.0 (1.x: 1.0.0)
 */
export type Turn<E = never> =
  | { readonly _tag: "Leave"; readonly answered: Effect.Effect<void, E> }
  | { readonly _tag: "Wait"; readonly wait: Duration.Duration }

/**
 * Where the state shared by the requests lives: concurrency slots, the
 * requests on their way and the moments the recent ones were answered, and
 * the pause. `E` is how reading or writing it fails: `never` in memory,
 * `AdmissionUnavailable` for a store shared through a server.
 *
 * @example
 * ```ts
 * import { Duration, Effect } from "effect"
 * import { Admission, type AdmissionStore, AdmissionWindows } from "effect-catalog"
 *
 * const program = Effect.gen(function*() {
 *   const store: AdmissionStore.Store = yield* Admission.memoryStore(AdmissionWindows.contractLimits)
 *   yield* store.pause(Duration.seconds(2))
 *   return yield* store.paused // at most 2 seconds
 * })
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export interface Store<E = never> {
  /** Holds one concurrency slot for the life of the scope. */
  readonly slot: Effect.Effect<void, E, Scope.Scope>
  /**
   * Decides, at the moment it is asked, whether a request leaves: only when
   * no pause is in force and every window has room now
   * (`AdmissionWindows.earliestDeparture`), and then records it as on its
   * way, in one step.
   */
  readonly turn: Effect.Effect<Turn<E>, E>
  /** How long the pause in force still lasts (zero when none). */
  readonly paused: Effect.Effect<Duration.Duration, E>
  /** Starts or extends the pause to at least `duration` from now. */
  readonly pause: (duration: Duration.Duration) => Effect.Effect<void, E>
  /** The last read of the live allowance, under which it admits; absent when the limits are explicit (`AdmissionWindows.followsAllowance`). */
  readonly allowance?: AllowanceStore<E>
  /** The limits it admits under, before any live allowance lowers them; absent for a store of one's own that does not say. */
  readonly limits?: Limits
}

/**
 * The store admission runs over, as a service of its own: its failures are
 * `AdmissionUnavailable` (a store in memory, that cannot fail, is one too).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { AdmissionStore } from "effect-catalog"
 *
 * // How long the pause in force still lasts, in whichever store admission runs over.
 * const pausedFor = Effect.gen(function*() {
 *   const store = yield* AdmissionStore.AdmissionStore
 *   return yield* store.paused
 * })
 * ```
 * @category services
 * @since 0.7.0 (1.x: 1.0.0)
 */
export class AdmissionStore extends ServiceTag<AdmissionStore, Store<AdmissionUnavailable>>()("effect-catalog/AdmissionStore") {}
