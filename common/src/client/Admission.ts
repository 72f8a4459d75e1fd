/**
 * Admission: every request waits for a permit under all the account's limits
 * at once, before it is sent, so that a client alone on an account never
 * provokes a 429, and gets the whole allowance.
 *
 * - Concurrency: a slot of the account's concurrent requests, held until the
 *   request ends, interrupted or not.
 * - Frequency: the limits are sliding windows (at most 10 requests in any
 *   10 s, 60 in any minute, as the service counts their arrivals). A request
 *   leaves only when, at that moment, every window has room: the store
 *   counts each earlier request from the moment its answer came (the latest
 *   it can have reached the service) and a request still on its way in
 *   every window, so however late the process runs (a busy machine, a
 *   blocked event loop, a slow store), no window the service counts can
 *   overflow. A cold start sends its first ten at once, and a long scan
 *   settles at the per-minute rate. Each window is widened by a small
 *   margin, in the service's time. Sliding windows keep fixed windows too,
 *   whichever the service counts.
 * - One account, one pause: a 429 pauses every request waiting for a permit,
 *   in this process and, with `effect-catalog/redis`, in every process
 *   sharing the account, until its `Retry-After`.
 * - The live allowance: the table's figures are protective, and an account
 *   may allow fewer requests a minute. The client reads `minute_limit` from
 *   `/usage/` (`following`) and admits under the lower of it and the table
 *   (`followsAllowance` says which limits it lowers).
 *
 * The arithmetic of the windows is `AdmissionWindows`, the store
 * `AdmissionStore`; this module is the service (`Admission`, `make`, and
 * `layer` over the `AdmissionStore` in context) with its layers, and still
 * gives the names of both modules it used to hold.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Admission } from "effect-catalog"
 *
 * // Twelve requests on a simulator running 100 times faster: ten at once, then one as each answer leaves its window.
 * const program = Effect.gen(function*() {
 *   const admission = yield* Admission.Admission
 *   yield* Effect.forEach(Array.from({ length: 12 }), () => admission.admit(Effect.log("sent")), { concurrency: 2 })
 * }).pipe(Effect.provide(Admission.layerMemory({ ...Admission.contractLimits, timeScale: 0.01 })))
 * ```
 * @since 0.1.0 (1.x: 1.0.0)
 */
import { type Duration, Effect, type KeyValueStore, Layer, Ref, type Scope, ServiceTag } from "#edition/internal/Edition.js"
import { type AllowanceStore, AdmissionStore, type Store } from "./AdmissionStore.js"
import { contractLimits, type Limits } from "../../../rules/src/client/AdmissionWindows.js"
import type { AdmissionUnavailable } from "./Errors.js"
import * as KeyValueAdmissionStore from "./internal/KeyValueAdmissionStore.js"
import * as MemoryStore from "./internal/MemoryStore.js"

// The names of the windows and of the store, as this module gave them before they had modules of their own.
export {
  contractLimits,
  earliestDeparture,
  earliestStart,
  followsAllowance,
  type Limits,
  noLimits,
  schedule,
  underAllowance,
  type Window,
  windows
} from "../../../rules/src/client/AdmissionWindows.js"
export type { Allowance, AllowanceStore, Store, Turn } from "./AdmissionStore.js"

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
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export interface Service {
  /**
   * Runs a request once it holds a slot, no pause is in force, and its turn
   * has come; fails with `AdmissionUnavailable`, the request unsent, when the
   * store cannot tell (a shared store that cannot be reached).
   */
  readonly admit: <A, E, R>(request: Effect.Effect<A, E, R>) => Effect.Effect<A, E | AdmissionUnavailable, R>
  /** Pauses every waiting request for `retryAfter` (a 429 was answered). */
  readonly pause: (retryAfter: Duration.Duration) => Effect.Effect<void>
  /** How many requests are waiting for a permit now. */
  readonly waiting: Effect.Effect<number>
  /**
   * The live allowance admission follows (`set` admits under a new read
   * from then on); absent when the limits are explicit
   * (`followsAllowance`), and then `/usage/` is never read.
   */
  readonly allowance?: AllowanceStore<AdmissionUnavailable>
  /**
   * The limits it admits under, before any live allowance lowers them:
   * what a plan of the requests to come schedules them by
   * (`Mirror.plan`); absent for an admission of one's own that does not say.
   */
  readonly limits?: Limits
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
 * @category services
 * @since 0.1.0 (1.x: 1.0.0)
 */
export class Admission extends ServiceTag<Admission, Service>()("effect-catalog/Admission") {}

/**
 * Until the store lets the request leave: its turn asked for, and slept on
 * as long as it says; a turn to leave is recorded as answered when the
 * scope closes, whatever ends the request.
 */
const leaveOver = (store: Store<AdmissionUnavailable>): Effect.Effect<void, AdmissionUnavailable, Scope.Scope> =>
  Effect.flatMap(
    Effect.acquireRelease(store.turn, (turn) => turn._tag === "Leave" ? Effect.ignore(turn.answered) : Effect.void),
    (turn) => turn._tag === "Leave" ? Effect.void : Effect.andThen(Effect.sleep(turn.wait), leaveOver(store))
  )

/**
 * Admission over any `Store`: a request takes a slot, then asks the store
 * for its turn, waiting as long as it is told, until the store lets it
 * leave; when it ends (answered, failed or interrupted), the store records
 * when. A store that fails fails the request, unsent. A pause the store
 * cannot record is let go: the request that met the 429 has failed
 * already, and the next one meets the store's failure itself.
 *
 * @example
 * ```ts
 * import { Effect, Layer } from "effect"
 * import { Admission } from "effect-catalog"
 *
 * const AdmissionLive = Layer.effect(
 *   Admission.Admission,
 *   Effect.flatMap(Admission.memoryStore(Admission.contractLimits), Admission.make)
 * )
 * ```
 * @category constructors
 * @since 0.2.0 (1.x: 1.0.0)
 */
export const make = (store: Store<AdmissionUnavailable>): Effect.Effect<Service> =>
  Effect.gen(function*() {
    const waiting = yield* Ref.make(0)
    const startedWaiting = Ref.update(waiting, (n) => n + 1)
    const stoppedWaiting = Ref.update(waiting, (n) => n - 1)
    const admitted = Effect.andThen(startedWaiting, Effect.ensuring(Effect.andThen(store.slot, leaveOver(store)), stoppedWaiting))
    const service: Service = {
      admit: (request) => Effect.scoped(Effect.andThen(admitted, request)),
      pause: (retryAfter) => Effect.ignore(store.pause(retryAfter)),
      waiting: Ref.get(waiting),
      ...(store.limits === undefined ? {} : { limits: store.limits })
    }
    const allowance = store.allowance
    return allowance === undefined ? service : {
      ...service,
      allowance: {
        last: allowance.last,
        set: (read) => Effect.ignore(allowance.set(read))
      }
    }
  })

/**
 * Admission over the `AdmissionStore` in context (see `make`). As any layer,
 * it is built once in a graph of layers (in Effect 4, once under an
 * enclosing `Effect.provide` that built it already, too), whatever store it is given in each
 * place: `Layer.fresh(Admission.layer)` is another admission, over the store
 * given to it (as `layerMemory`, `layerKeyValueStore` and
 * `RedisAdmission.layer` each are).
 *
 * @example
 * ```ts
 * import { Layer } from "effect"
 * import { Admission, AdmissionStore, AdmissionWindows } from "effect-catalog"
 *
 * // Over a store made in place.
 * const InMemory = Layer.effect(AdmissionStore.AdmissionStore, Admission.memoryStore(AdmissionWindows.contractLimits))
 * const AdmissionLive = Admission.layer.pipe(Layer.provide(InMemory))
 * ```
 * @category layers
 * @since 0.7.0 (1.x: 1.0.0)
 */
export const layer: Layer.Layer<Admission, never, AdmissionStore> = Layer.effect(Admission, Effect.flatMap(AdmissionStore, make))

export {
  /**
   * Admission that follows the account's live allowance: `minuteLimit` reads
   * it (from `/usage/`, admitted by `admission` itself, as the service counts
   * it). It is read when a client first sends more than one request (before
   * its second: one request alone passes no allowance, and a command that
   * sends one spends no read), and again before the next request after a
   * pause (a 429 the admission did not expect) or on a new UTC day; never
   * twice in 12 seconds. A read the store already holds from the same UTC
   * day, and newer than any such 429 (by an earlier run, or by another
   * process sharing the store), is taken instead of reading again, and the
   * 12 seconds count from it: processes and runs of one account keep within
   * `/usage/`'s own 5 calls a minute together. A read that fails leaves the
   * limits as they were, and is tried again after 12 seconds. An admission
   * with explicit limits (no `allowance`) is given back as it is.
   *
   * @example
   * ```ts
   * import { Effect } from "effect"
   * import { Admission } from "effect-catalog"
   *
   * // An account that allows 20 requests a minute.
   * const admission = Effect.flatMap(Admission.memoryStore(Admission.contractLimits), Admission.make).pipe(
   *   Effect.flatMap((admission) => Admission.following(admission, Effect.succeed(20)))
   * )
   * ```
   * @category constructors
   * @since 0.5.0 (1.x: 1.0.0)
   */
  following
} from "#edition/client/internal/Following.js"

export {
  /**
   * A store in this process's memory, starting from the moments the requests
   * of `answered` were answered (e.g. by a previous run) and, when its limits
   * follow the live allowance, under `allowance` (a previous run's read).
   * `answered` gives them back, with those still on their way counted as
   * answered now (`starts`, deprecated, is the same under its former name).
   *
   * @example
   * ```ts
   * import { Effect } from "effect"
   * import { Admission } from "effect-catalog"
   *
   * const program = Effect.gen(function*() {
   *   const store = yield* Admission.memoryStore({ ...Admission.contractLimits, concurrent: 1 })
   *   yield* Effect.scoped(Effect.andThen(store.slot, Effect.log("holding the only slot")))
   * })
   * ```
   * @category constructors
   * @since 0.1.0 (1.x: 1.0.0)
   */
  memoryStore
} from "./internal/MemoryStore.js"

/**
 * Admission for one process: limits kept in memory.
 *
 * @example
 * ```ts
 * import { Admission } from "effect-catalog"
 *
 * const AdmissionLive = Admission.layerMemory({ ...Admission.contractLimits, timeScale: 0.01 })
 * ```
 * @category layers
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const layerMemory = (limits: Limits = contractLimits): Layer.Layer<Admission> =>
  Layer.provide(Layer.fresh(layer), MemoryStore.layerStore(limits))

/**
 * Admission for one process that remembers, in the `KeyValueStore` in
 * context, when its recent requests were answered (under `key`, at most
 * once a second while requests go, and when the layer is released) and its
 * last read of the live allowance (under `<key>.allowance`, when it is
 * read): a run that follows another one on the same account (the `catalog`
 * command run twice) knows what the first spent in the last minute, admits
 * under the allowance it read, and provokes no 429 nor a read of `/usage/`
 * past its 5 a minute. A store that fails is treated as empty.
 *
 * What it keeps is kept the same by either edition: each reads the other's.
 *
 * @example
 * ```ts effect4
 * import { NodeServices } from "@effect/platform-node"
 * import { Layer } from "effect"
 * import { KeyValueStore } from "effect/persistence"
 * import { Admission } from "effect-catalog"
 *
 * const AdmissionLive = Admission.layerKeyValueStore(Admission.contractLimits, "my-account").pipe(
 *   Layer.provide(KeyValueStore.layerFileSystem(".catalog-state")),
 *   Layer.provide(NodeServices.layer)
 * )
 * ```
 *
 * In Effect 3, `KeyValueStore` is `@effect/platform`'s, and `NodeContext.layer` gives the file system:
 *
 * ```ts effect3
 * import { KeyValueStore } from "@effect/platform"
 * import { NodeContext } from "@effect/platform-node"
 * import { Layer } from "effect"
 * import { Admission } from "effect-catalog"
 *
 * const AdmissionLive = Admission.layerKeyValueStore(Admission.contractLimits, "my-account").pipe(
 *   Layer.provide(KeyValueStore.layerFileSystem(".catalog-state")),
 *   Layer.provide(NodeContext.layer)
 * )
 * ```
 * @category layers
 * @since 0.2.0 (1.x: 1.0.0)
 */
export const layerKeyValueStore = (limits: Limits, key: string): Layer.Layer<Admission, never, KeyValueStore.KeyValueStore> =>
  Layer.provide(Layer.fresh(layer), KeyValueAdmissionStore.layerStore(limits, key))

export {
  /**
   * The step of the request path that admits each request: it waits for a
   * slot and for its turn under the windows, and holds the slot until its
   * answer has been read; a store that fails fails the request, unsent, with
   * `AdmissionUnavailable`.
   *
   * @example
   * ```ts effect4
   * import { Effect } from "effect"
   * import { HttpClient } from "effect/http"
   * import { Admission } from "effect-catalog"
   *
   * const admitted = Effect.gen(function*() {
   *   const admission = yield* Admission.Admission
   *   const client = yield* HttpClient.HttpClient
   *   return Admission.step(admission)(client)
   * })
   * ```
   *
   * In Effect 3, `HttpClient` is `@effect/platform`'s:
   *
   * ```ts effect3
   * import { HttpClient } from "@effect/platform"
   * import { Effect } from "effect"
   * import { Admission } from "effect-catalog"
   *
   * const admitted = Effect.gen(function*() {
   *   const admission = yield* Admission.Admission
   *   const client = yield* HttpClient.HttpClient
   *   return Admission.step(admission)(client)
   * })
   * ```
   * @category combinators
   * @since 0.2.0 (1.x: 1.0.0)
   */
  step
} from "./internal/AdmissionMiddleware.js"
