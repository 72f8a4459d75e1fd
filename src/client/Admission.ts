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
  /** Milliseconds added to every window, in the service's time: scaled by `timeScale` as the windows are (default 100). */
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
 * The windows of some limits, widened by the margin and scaled (whole
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
    { millis: Math.ceil((10_000 + limits.marginMillis) * limits.timeScale), limit: limits.perTenSeconds },
    { millis: Math.ceil((60_000 + limits.marginMillis) * limits.timeScale), limit: limits.perMinute }
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
 * @deprecated Admission no longer books starts ahead: it decides when a request leaves (`earliestDeparture`).
 */
export const earliestStart = (starts: ReadonlyArray<number>, windowsOf: ReadonlyArray<Window>, now: number): number =>
  earliestDeparture(starts, 0, windowsOf, Math.max(now, starts.at(-1) ?? now))

/**
 * When a request may leave under `windowsOf`, at `now` or later: `now` when
 * every window has room for it now, else the earliest moment at which it
 * can have. `answered` are the moments the answers of earlier requests came
 * (ascending): each is counted from then, the latest it can have reached
 * the service. `onTheirWay` requests sent and not answered yet count in
 * every window (until their answer comes: when too many are on their way,
 * the moment given is the earliest one possible, and the question is asked
 * again then).
 *
 * @example
 * ```ts
 * import { Admission } from "effect-catalog"
 *
 * const windows = [{ millis: 10_000, limit: 10 }]
 * Admission.earliestDeparture([0, 0, 0, 0, 0, 0, 0, 0, 0], 0, windows, 500) // 500
 * Admission.earliestDeparture([0, 0, 0, 0, 0, 0, 0, 0, 0], 1, windows, 500) // 10000
 * ```
 * @category utils
 * @since 0.6.0
 */
export const earliestDeparture = (
  answered: ReadonlyArray<number>,
  onTheirWay: number,
  windowsOf: ReadonlyArray<Window>,
  now: number
): number => {
  let departure = now
  for (const window of windowsOf) {
    if (onTheirWay >= window.limit) {
      departure = Math.max(departure, now + window.millis)
      continue
    }
    // The oldest of the last `limit` requests must have left the window.
    const oldest = answered[answered.length - (window.limit - onTheirWay)]
    if (oldest !== undefined) departure = Math.max(departure, oldest + window.millis)
  }
  return departure
}

/**
 * The moments (milliseconds from now) at which `requests` requests in a row
 * may start under `limits`, after the starts already booked (also from now:
 * negative for the past): each request takes `requestMillis` (a scan reads
 * its pages one after the other) and is counted in the windows from its
 * answer, as admission counts it. What a plan or a progress line says of
 * the time left.
 *
 * @example
 * ```ts
 * import { Admission } from "effect-catalog"
 *
 * // 12 pages of 100 ms under 10 requests per 10 s (and a 100 ms margin): the 11th waits for the first answer to leave the window.
 * Admission.schedule(12, Admission.contractLimits, [], 100).at(-1) // 10300
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
  const answered = booked.map((start) => start + requestMillis)
  for (let n = 0; n < requests; n++) {
    const previous = starts.at(-1)
    const start = Math.max(earliestDeparture(answered, 0, windowsOf, 0), previous === undefined ? 0 : previous + requestMillis)
    starts.push(start)
    answered.push(start + requestMillis)
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
 * A store's answer to a request ready to leave: `Leave`, recorded as on its
 * way from now (it counts in every window until `answered` records the
 * moment its answer came, or it went without one), or `Wait` at least
 * `wait` before asking again (a window is full, or a pause is in force).
 *
 * @example
 * ```ts
 * import { Duration } from "effect"
 * import type { Admission } from "effect-catalog"
 *
 * const describe = (turn: Admission.Turn) => turn._tag === "Leave" ? "now" : `in ${Duration.format(turn.wait)}`
 * ```
 * @category models
 * @since 0.6.0
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
  /**
   * Decides, at the moment it is asked, whether a request leaves: only when
   * no pause is in force and every window has room now (`earliestDeparture`),
   * and then records it as on its way, in one step.
   */
  readonly turn: Effect.Effect<Turn<E>, E>
  /** How long the pause in force still lasts (zero when none). */
  readonly paused: Effect.Effect<Duration.Duration, E>
  /** Starts or extends the pause to at least `duration` from now. */
  readonly pause: (duration: Duration.Duration) => Effect.Effect<void, E>
  /** The last read of the live allowance, under which it admits; absent when the limits are explicit (`followsAllowance`). */
  readonly allowance?: AllowanceStore<E>
}

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
 * @since 0.2.0
 */
export const make = (store: Store<AdmissionUnavailable>): Effect.Effect<Service> =>
  Effect.gen(function*() {
    const waiting = yield* Ref.make(0)
    // Each answer from the store is taken with its release: a request that leaves is recorded as answered when its
    // scope closes, whatever ends it.
    const leave: Effect.Effect<void, AdmissionUnavailable, Scope.Scope> = Effect.flatMap(
      Effect.acquireRelease(store.turn, (turn) => turn._tag === "Leave" ? Effect.ignore(turn.answered) : Effect.void),
      (turn) => turn._tag === "Leave" ? Effect.void : Effect.zipRight(Effect.sleep(turn.wait), leave)
    )
    const startedWaiting = Ref.update(waiting, (n) => n + 1)
    const stoppedWaiting = Ref.update(waiting, (n) => n - 1)
    const admitted = Effect.zipRight(startedWaiting, Effect.ensuring(Effect.zipRight(store.slot, leave), stoppedWaiting))
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

/** What a store in memory knows of the requests. */
interface Sent {
  /** When the recent requests were answered, ascending. */
  readonly answered: ReadonlyArray<number>
  /** How many are on their way. */
  readonly onTheirWay: number
  /** Until when a pause is in force. */
  readonly pausedUntil: number
}

/** `answered` with `at` in its place, less what every window has left behind at `at`. */
const answeredAt = (answered: ReadonlyArray<number>, at: number, longest: number): ReadonlyArray<number> => {
  const kept = answered.filter((time) => time > at - longest)
  let index = kept.length
  while (index > 0 && (kept[index - 1] ?? at) > at) index--
  return [...kept.slice(0, index), at, ...kept.slice(index)]
}

/**
 * A store in this process's memory, starting from the moments the requests
 * of `answered` were answered (e.g. by a previous run) and, when its limits
 * follow the live allowance, under `allowance` (a previous run's read).
 * `starts` gives them back, with those still on their way counted as
 * answered now.
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
  answered: ReadonlyArray<number> = [],
  allowance: Option.Option<Allowance> = Option.none()
): Effect.Effect<Store & { readonly starts: Effect.Effect<ReadonlyArray<number>> }> =>
  Effect.gen(function*() {
    const slots = yield* Effect.makeSemaphore(Math.min(limits.concurrent, Number.MAX_SAFE_INTEGER))
    const sent = yield* Ref.make<Sent>({ answered: [...answered].sort((a, b) => a - b), onTheirWay: 0, pausedUntil: 0 })
    const follows = followsAllowance(limits)
    const lastRead = yield* Ref.make(follows ? allowance : Option.none())
    const windowsIn = (read: Option.Option<Allowance>) =>
      windows(Option.match(read, { onNone: () => limits, onSome: (last) => underAllowance(limits, last.minuteLimit) }))
    const inForce = yield* Ref.make(windowsIn(yield* Ref.get(lastRead)))
    const longestIn = (windowsOf: ReadonlyArray<Window>) => Math.max(0, ...windowsOf.map((window) => window.millis))
    const answer: Effect.Effect<void> = Effect.flatMap(Effect.zip(Clock.currentTimeMillis, Ref.get(inForce)), ([now, windowsOf]) =>
      Ref.update(sent, (state) => ({
        ...state,
        answered: answeredAt(state.answered, now, longestIn(windowsOf)),
        onTheirWay: state.onTheirWay - 1
      })))
    const leave: Turn = { _tag: "Leave", answered: answer }
    return {
      slot: Effect.asVoid(Effect.acquireRelease(slots.take(1), () => slots.release(1))),
      turn: Effect.flatMap(Effect.zip(Clock.currentTimeMillis, Ref.get(inForce)), ([now, windowsOf]) =>
        Ref.modify(sent, (state): readonly [Turn, Sent] => {
          if (state.pausedUntil > now) return [{ _tag: "Wait", wait: Duration.millis(state.pausedUntil - now) }, state]
          const departure = earliestDeparture(state.answered, state.onTheirWay, windowsOf, now)
          return departure > now
            ? [{ _tag: "Wait", wait: Duration.millis(departure - now) }, state]
            : [leave, { ...state, onTheirWay: state.onTheirWay + 1 }]
        })),
      ...(follows
        ? {
          allowance: {
            last: Ref.get(lastRead),
            set: (read: Allowance) => Effect.zipRight(Ref.set(lastRead, Option.some(read)), Ref.set(inForce, windowsIn(Option.some(read))))
          }
        }
        : {}),
      starts: Effect.zipWith(Ref.get(sent), Clock.currentTimeMillis, (state, now) => [
        ...state.answered,
        ...Array.from({ length: state.onTheirWay }, () => now)
      ]),
      paused: Effect.zipWith(Ref.get(sent), Clock.currentTimeMillis, (state, now) => Duration.millis(Math.max(0, state.pausedUntil - now))),
      pause: (duration) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Ref.update(sent, (state) => ({ ...state, pausedUntil: Math.max(state.pausedUntil, now + Duration.toMillis(duration)) })))
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
        turn: Effect.tap(store.turn, () => saveSoon),
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
