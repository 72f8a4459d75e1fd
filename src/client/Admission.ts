/**
 * Admission: every request waits for a permit under all the account's limits
 * at once, before it is sent, so that a client alone on an account never
 * provokes a 429, and gets the whole allowance.
 *
 * - Concurrency: a slot of the account's concurrent requests, held until the
 *   request ends, interrupted or not.
 * - Frequency: the limits are sliding windows (at most 10 requests starting
 *   in any 10 s, 60 in any minute). The store keeps the start times of the
 *   last minute's requests and books each request the earliest start that
 *   keeps every window under its limit: a cold start sends its first ten at
 *   once, and a long scan settles at the per-minute rate. Each window is
 *   widened by a small absolute margin for clock and event-loop jitter.
 *   Sliding windows keep fixed windows too, whichever the service counts.
 * - One account, one pause: a 429 pauses every request waiting for a permit,
 *   in this process and, with `effect-catalog/redis`, in every process
 *   sharing the account, until its `Retry-After`.
 * - The live allowance: the table's figures are protective, and an account
 *   may allow fewer requests a minute. The client reads `minute_limit` from
 *   `/usage/` (`following`) and admits under the lower of it and the table
 *   (`followsAllowance` says which limits it lowers).
 *
 * @example
 * ```ts
 * import { Redacted } from "effect"
 * import { Admission, CatalogClient } from "effect-catalog"
 *
 * // One process, the contract's limits on a simulator running 100 times faster.
 * const CatalogLive = CatalogClient.layerWith({
 *   baseUrl: "http://127.0.0.1:8080/api/v1",
 *   apiKey: Redacted.make("cat_live_..."),
 *   admission: Admission.layerMemory({ ...Admission.contractLimits, timeScale: 0.01 })
 * })
 * ```
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as KeyValueStore from "@effect/platform/KeyValueStore"
import { Clock, Context, Duration, Effect, Either, Layer, Option, Ref, Schema, Scope } from "effect"
import * as ContractLimits from "../contract/Limits.js"
import type { AdmissionUnavailable } from "./Errors.js"

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
 * @category models
 * @since 0.1.0
 */
export interface Limits {
  readonly perTenSeconds: number
  readonly perMinute: number
  readonly concurrent: number
  /** Multiplies the windows, to match a simulator's `--time-scale`. */
  readonly timeScale: number
  /** Milliseconds added to every window, for clock and event-loop jitter (default 100). */
  readonly marginMillis: number
  /** Whether the account's live `minute_limit` may lower `perMinute` (see `followsAllowance`). */
  readonly live?: boolean
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
 * @category constants
 * @since 0.1.0
 */
export const contractLimits: Limits = {
  perTenSeconds: ContractLimits.requestsPerTenSeconds,
  perMinute: ContractLimits.requestsPerMinute,
  concurrent: ContractLimits.concurrentRequests,
  timeScale: 1,
  marginMillis: 100
}

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
 * @category constants
 * @since 0.1.0
 */
export const noLimits: Limits = {
  perTenSeconds: Number.POSITIVE_INFINITY,
  perMinute: Number.POSITIVE_INFINITY,
  concurrent: Number.POSITIVE_INFINITY,
  timeScale: 1,
  marginMillis: 0
}

/**
 * Whether `limits` follow the live allowance, lowered to the account's
 * `minute_limit`, read from `/usage/`, when it is lower: as `live` says, and
 * when it says nothing, if they are the contract's table (whatever their
 * time scale and margin). Any other figure, or `live: false`, makes the
 * limits explicit: an admission made from them keeps them, and a client
 * over it never reads `/usage/` for them. This holds for every
 * admission layer (`layerMemory`, `layerKeyValueStore`, `RedisAdmission.layer`)
 * and for `CatalogClient.layerWith`'s `limits` (`{ timeScale: 0.01 }` follows,
 * `{ perMinute: 30 }` and `{ live: false }` are kept).
 *
 * @example
 * ```ts
 * import { Admission } from "effect-catalog"
 *
 * Admission.followsAllowance({ ...Admission.contractLimits, timeScale: 0.01 }) // true
 * Admission.followsAllowance({ ...Admission.contractLimits, perMinute: 30 }) // false
 * Admission.followsAllowance({ ...Admission.contractLimits, live: false }) // false
 * ```
 * @category guards
 * @since 0.5.0
 */
export const followsAllowance = (limits: Limits): boolean =>
  limits.live ?? (
    limits.perTenSeconds === contractLimits.perTenSeconds &&
    limits.perMinute === contractLimits.perMinute &&
    limits.concurrent === contractLimits.concurrent
  )

/**
 * Limits under a live `minute_limit`: the lower of it and their own per-minute limit.
 *
 * @example
 * ```ts
 * import { Admission } from "effect-catalog"
 *
 * Admission.underAllowance(Admission.contractLimits, 20).perMinute // 20
 * ```
 * @category utils
 * @since 0.5.0
 */
export const underAllowance = (limits: Limits, minuteLimit: number): Limits => ({
  ...limits,
  perMinute: Math.min(limits.perMinute, minuteLimit)
})

/**
 * A sliding window: at most `limit` requests start in any span of `millis`.
 *
 * @example
 * ```ts
 * import { Admission } from "effect-catalog"
 *
 * const window: Admission.Window = { millis: 10_100, limit: 10 }
 * ```
 * @category models
 * @since 0.2.0
 */
export interface Window {
  readonly millis: number
  readonly limit: number
}

/**
 * A read of the account's live allowance: its `minute_limit`, and when it
 * was read (milliseconds since the epoch, by the reader's clock).
 *
 * @example
 * ```ts
 * import { Admission } from "effect-catalog"
 *
 * const read: Admission.Allowance = { minuteLimit: 20, readAt: Date.now() }
 * ```
 * @category models
 * @since 0.5.0
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
 * import { Admission } from "effect-catalog"
 *
 * const program = Effect.gen(function*() {
 *   const store = yield* Admission.memoryStore(Admission.contractLimits)
 *   yield* Effect.fromNullable(store.allowance).pipe(
 *     Effect.flatMap((allowance) => allowance.set({ minuteLimit: 20, readAt: 0 })),
 *     Effect.ignore
 *   )
 *   return Option.isSome(yield* store.allowance?.last ?? Effect.succeed(Option.none()))
 * })
 * ```
 * @category models
 * @since 0.5.0
 */
export interface AllowanceStore<E = never> {
  readonly last: Effect.Effect<Option.Option<Allowance>, E>
  readonly set: (allowance: Allowance) => Effect.Effect<void, E>
}

/**
 * The windows of some limits, scaled and widened by the margin (whole
 * milliseconds: stores keep integers); none for a limit that is infinite.
 *
 * @example
 * ```ts
 * import { Admission } from "effect-catalog"
 *
 * Admission.windows(Admission.contractLimits) // [{ millis: 10100, limit: 10 }, { millis: 60100, limit: 60 }]
 * ```
 * @category utils
 * @since 0.2.0
 */
export const windows = (limits: Limits): ReadonlyArray<Window> =>
  [
    { millis: Math.ceil(10_000 * limits.timeScale + limits.marginMillis), limit: limits.perTenSeconds },
    { millis: Math.ceil(60_000 * limits.timeScale + limits.marginMillis), limit: limits.perMinute }
  ].filter((window) => Number.isFinite(window.limit))

/**
 * The earliest start, at `now` or later and not before the last one booked,
 * that keeps every window under its limit, given the starts booked so far
 * (ascending).
 *
 * @example
 * ```ts
 * import { Admission } from "effect-catalog"
 *
 * const tenAtOnce = Array.from({ length: 10 }, () => 0)
 * Admission.earliestStart(tenAtOnce, [{ millis: 10_000, limit: 10 }], 500) // 10000
 * ```
 * @category utils
 * @since 0.2.0
 */
export const earliestStart = (starts: ReadonlyArray<number>, windowsOf: ReadonlyArray<Window>, now: number): number => {
  let start = Math.max(now, starts.at(-1) ?? now)
  for (const window of windowsOf) {
    // The oldest of the last `limit` starts must have left the window.
    const oldest = starts[starts.length - window.limit]
    if (oldest !== undefined) start = Math.max(start, oldest + window.millis)
  }
  return start
}

/**
 * The moments (milliseconds from now) at which `requests` requests in a row
 * may start under `limits`, after the starts already booked (also from now:
 * negative for the past): each at the earliest start the windows allow, and
 * not before the one before it has taken `requestMillis` (a scan reads its
 * pages one after the other). What a plan or a progress line says of the
 * time left.
 *
 * @example
 * ```ts
 * import { Admission } from "effect-catalog"
 *
 * // 12 pages of 100 ms under 10 requests per 10 s (and a 100 ms margin): the 11th waits for the first to leave the window.
 * Admission.schedule(12, Admission.contractLimits, [], 100).at(-1) // 10200
 * ```
 * @category utils
 * @since 0.4.0
 */
export const schedule = (
  requests: number,
  limits: Limits,
  booked: ReadonlyArray<number>,
  requestMillis: number
): ReadonlyArray<number> => {
  const windowsOf = windows(limits)
  const starts = [...booked]
  for (let n = 0; n < requests; n++) {
    const previous = starts.at(-1)
    starts.push(Math.max(earliestStart(starts, windowsOf, 0), previous === undefined ? 0 : previous + requestMillis))
  }
  return starts
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
 * @category models
 * @since 0.1.0
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
 * @since 0.1.0
 */
export class Admission extends Context.Tag("effect-catalog/Admission")<Admission, Service>() {}

/**
 * Where the state shared by the requests lives: concurrency slots, the start
 * times of recent requests, and the pause. `E` is how reading or writing it
 * fails: `never` in memory, `AdmissionUnavailable` for a store shared
 * through a server.
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
 * @category models
 * @since 0.1.0
 */
export interface Store<E = never> {
  /** Holds one concurrency slot for the life of the scope. */
  readonly slot: Effect.Effect<void, E, Scope.Scope>
  /** Books the earliest start that keeps every window under its limit, and gives how long until it. */
  readonly book: Effect.Effect<Duration.Duration, E>
  /** How long the pause in force still lasts (zero when none). */
  readonly paused: Effect.Effect<Duration.Duration, E>
  /** Starts or extends the pause to at least `duration` from now. */
  readonly pause: (duration: Duration.Duration) => Effect.Effect<void, E>
  /** The last read of the live allowance, under which it books; absent when the limits are explicit (`followsAllowance`). */
  readonly allowance?: AllowanceStore<E>
}

/**
 * Admission over any `Store`: a request takes a slot, waits out any pause,
 * books its start and waits for it; a pause that began meanwhile holds it
 * again, and it books anew. A store that fails fails the request, unsent. A
 * pause the store cannot record is let go: the request that met the 429
 * has failed already, and the next one meets the store's failure itself.
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
 * @since 0.2.0
 */
export const make = (store: Store<AdmissionUnavailable>): Effect.Effect<Service> =>
  Effect.gen(function*() {
    const waiting = yield* Ref.make(0)
    const waitForPause: Effect.Effect<void, AdmissionUnavailable> = Effect.flatMap(store.paused, (left) =>
      Duration.isZero(left) ? Effect.void : Effect.zipRight(Effect.sleep(left), waitForPause))
    const turn: Effect.Effect<void, AdmissionUnavailable> = waitForPause.pipe(
      Effect.zipRight(store.book),
      Effect.flatMap((wait) => Duration.isZero(wait) ? Effect.void : Effect.sleep(wait)),
      Effect.zipRight(store.paused),
      Effect.flatMap((left) => Duration.isZero(left) ? Effect.void : turn)
    )
    const startedWaiting = Ref.update(waiting, (n) => n + 1)
    const stoppedWaiting = Ref.update(waiting, (n) => n - 1)
    // The slot first: the booked start is then the moment the request leaves.
    const admitted = Effect.zipRight(startedWaiting, Effect.ensuring(Effect.zipRight(store.slot, turn), stoppedWaiting))
    const service: Service = {
      admit: (request) => Effect.scoped(Effect.zipRight(admitted, request)),
      pause: (retryAfter) => Effect.ignore(store.pause(retryAfter)),
      waiting: Ref.get(waiting)
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

/** The shortest time between two reads of `/usage/`: the contract allows 5 calls a minute. */
const usageSpacingMillis = 12_000

/** The UTC day of a moment, as the service counts its daily allowance. */
const utcDay = (millis: number) => new Date(millis).toISOString().slice(0, 10)

/** Where a client stands with its reads of the live allowance. */
interface Reads {
  /** Whether a request was admitted before (the first is never preceded by a read). */
  readonly sent: boolean
  /** When this client last read (or tried to read) `/usage/`. */
  readonly tried: number
  /** The UTC day of the read in force, `""` while none is. */
  readonly day: string
  /** Since when the read in force may be out of date (a 429 the admission did not expect); `null` while it is current. */
  readonly staleSince: number | null
}

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
 * @since 0.5.0
 */
export const following = <E>(admission: Service, minuteLimit: Effect.Effect<number, E>): Effect.Effect<Service> => {
  const allowance = admission.allowance
  if (allowance === undefined) return Effect.succeed(admission)
  return Effect.gen(function*() {
    const lock = yield* Effect.makeSemaphore(1)
    const reads = yield* Ref.make<Reads>({ sent: false, tried: Number.NEGATIVE_INFINITY, day: "", staleSince: null })
    const refresh = lock.withPermits(1)(Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const today = utcDay(now)
      const last = yield* Ref.get(reads)
      if (!last.sent) return yield* Ref.set(reads, { ...last, sent: true })
      if (last.staleSince === null && last.day === today) return
      const stored = yield* Effect.either(allowance.last)
      // A store that cannot tell cannot admit either: the request meets its failure, and no read is spent on it.
      if (Either.isLeft(stored)) return yield* Ref.set(reads, { ...last, tried: now })
      const known = Option.getOrNull(stored.right)
      if (known !== null && utcDay(known.readAt) === today && known.readAt >= (last.staleSince ?? Number.NEGATIVE_INFINITY)) {
        return yield* Ref.set(reads, { ...last, day: today, staleSince: null })
      }
      if (now - Math.max(last.tried, known?.readAt ?? Number.NEGATIVE_INFINITY) < usageSpacingMillis) return
      yield* Ref.set(reads, { ...last, tried: now })
      yield* minuteLimit.pipe(
        Effect.flatMap((limit) => allowance.set({ minuteLimit: limit, readAt: now })),
        Effect.zipRight(Ref.update(reads, (current) => ({ ...current, day: today, staleSince: null }))),
        Effect.ignore
      )
    }))
    return {
      ...admission,
      admit: (request) => Effect.zipRight(refresh, admission.admit(request)),
      pause: (retryAfter) =>
        Effect.zipRight(
          Effect.flatMap(Clock.currentTimeMillis, (now) => Ref.update(reads, (last) => ({ ...last, staleSince: last.staleSince ?? now }))),
          admission.pause(retryAfter)
        )
    }
  })
}

/** Books in a list of starts kept in a `Ref` under the limits in force: drops those older than every window, appends the new one. */
const bookIn = (starts: Ref.Ref<ReadonlyArray<number>>, limits: Ref.Ref<Limits>) =>
  Effect.flatMap(Effect.zip(Clock.currentTimeMillis, Ref.get(limits)), ([now, inForce]) => {
    const windowsOf = windows(inForce)
    const longest = Math.max(0, ...windowsOf.map((window) => window.millis))
    return Ref.modify(starts, (all) => {
      const recent = all.filter((start) => start > now - longest)
      const start = earliestStart(recent, windowsOf, now)
      return [Duration.millis(start - now), windowsOf.length === 0 ? [] : [...recent, start]] as const
    })
  })

/**
 * A store in this process's memory, starting from the start times of
 * `starts` (requests sent before, e.g. by a previous run) and, when its
 * limits follow the live allowance, under `allowance` (a previous run's read).
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
 * @category constructors
 * @since 0.1.0
 */
export const memoryStore = (
  limits: Limits,
  starts: ReadonlyArray<number> = [],
  allowance: Option.Option<Allowance> = Option.none()
): Effect.Effect<Store & { readonly starts: Effect.Effect<ReadonlyArray<number>> }> =>
  Effect.gen(function*() {
    const slots = yield* Effect.makeSemaphore(Math.min(limits.concurrent, Number.MAX_SAFE_INTEGER))
    const pausedUntil = yield* Ref.make(0)
    const booked = yield* Ref.make(starts)
    const follows = followsAllowance(limits)
    const lastRead = yield* Ref.make(follows ? allowance : Option.none())
    const inForce = yield* Ref.make(Option.match(yield* Ref.get(lastRead), {
      onNone: () => limits,
      onSome: (read) => underAllowance(limits, read.minuteLimit)
    }))
    return {
      slot: Effect.asVoid(Effect.acquireRelease(slots.take(1), () => slots.release(1))),
      book: bookIn(booked, inForce),
      ...(follows
        ? {
          allowance: {
            last: Ref.get(lastRead),
            set: (read: Allowance) =>
              Effect.zipRight(Ref.set(lastRead, Option.some(read)), Ref.set(inForce, underAllowance(limits, read.minuteLimit)))
          }
        }
        : {}),
      starts: Ref.get(booked),
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
 * @category layers
 * @since 0.1.0
 */
export const layerMemory = (limits: Limits = contractLimits): Layer.Layer<Admission> =>
  Layer.effect(Admission, Effect.flatMap(memoryStore(limits), make))

const Starts = Schema.parseJson(Schema.Array(Schema.Number))

const LastRead = Schema.parseJson(Schema.Struct({ minuteLimit: Schema.Number, readAt: Schema.Number }))

/**
 * Admission for one process that remembers, in the `KeyValueStore` in
 * context, when its recent requests started (under `key`, at most once a
 * second while requests go, and when the layer is released) and its last
 * read of the live allowance (under `<key>.allowance`, when it is read): a
 * run that follows another one on the same account (the `catalog` command
 * run twice) knows what the first spent in the last minute, admits under
 * the allowance it read, and provokes no 429 nor a read of `/usage/` past
 * its 5 a minute. A store that fails is treated as empty.
 *
 * @example
 * ```ts
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
 * @since 0.2.0
 */
export const layerKeyValueStore = (limits: Limits, key: string): Layer.Layer<Admission, never, KeyValueStore.KeyValueStore> =>
  Layer.scoped(
    Admission,
    Effect.gen(function*() {
      const keyValueStore = yield* KeyValueStore.KeyValueStore
      const saved = keyValueStore.forSchema(Starts)
      const savedRead = keyValueStore.forSchema(LastRead)
      const allowanceKey = `${key}.allowance`
      const starts = yield* saved.get(key).pipe(Effect.map(Option.getOrElse(() => [])), Effect.orElseSucceed(() => []))
      const lastRead = yield* savedRead.get(allowanceKey).pipe(Effect.orElseSucceed(() => Option.none()))
      const store = yield* memoryStore(limits, starts, lastRead)
      const save = Effect.flatMap(store.starts, (all) => Effect.ignore(saved.set(key, all)))
      // Saved at most once a second while requests go, and when the layer is released.
      const savedAt = yield* Ref.make(Number.NEGATIVE_INFINITY)
      const saveSoon = Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.flatMap(Ref.modify(savedAt, (last) => now - last >= 1_000 ? [true, now] as const : [false, last] as const), (due) =>
          due ? save : Effect.void))
      yield* Effect.addFinalizer(() => save)
      const allowance = store.allowance
      return yield* make({
        ...store,
        book: Effect.tap(store.book, () => saveSoon),
        ...(allowance === undefined ? {} : {
          allowance: {
            ...allowance,
            set: (read: Allowance) => Effect.zipRight(allowance.set(read), Effect.ignore(savedRead.set(allowanceKey, read)))
          }
        })
      })
    })
  )

/**
 * The step of the request path that admits each request: it waits for a
 * slot and for its turn under the windows, and holds the slot until its
 * answer has been read; a store that fails fails the request, unsent, with
 * `AdmissionUnavailable`.
 *
 * @example
 * ```ts
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
 * @since 0.2.0
 */
export const step = (admission: Service) =>
<E, R>(client: HttpClient.HttpClient.With<E, R>): HttpClient.HttpClient.With<E | AdmissionUnavailable, R> =>
  HttpClient.transform(client, (response) => admission.admit(response))
