/**
 * The admission store in this process's memory (`memoryStore`), and the
 * same as the `AdmissionStore` service (`layerStore`).
 *
 * @internal
 */
import { Clock, Duration, Effect, Layer, Option, Ref, Semaphore } from "effect"
import { AdmissionStore, type Allowance, type Store, type Turn } from "../AdmissionStore.js"
import { earliestDeparture, followsAllowance, type Limits, underAllowance, type Window, windows } from "../AdmissionWindows.js"

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

/** The longest of some windows, in milliseconds (zero when there are none). */
const longestIn = (windowsOf: ReadonlyArray<Window>) => Math.max(0, ...windowsOf.map((window) => window.millis))

/** A turn: `Leave` when every window has room at `now` and no pause is in force (counting it as on its way), else `Wait`. */
const decide = (state: Sent, windowsOf: ReadonlyArray<Window>, now: number, leave: Turn): readonly [Turn, Sent] => {
  if (state.pausedUntil > now) return [{ _tag: "Wait", wait: Duration.millis(state.pausedUntil - now) }, state]
  const departure = earliestDeparture(state.answered, state.onTheirWay, windowsOf, now)
  return departure > now
    ? [{ _tag: "Wait", wait: Duration.millis(departure - now) }, state]
    : [leave, { ...state, onTheirWay: state.onTheirWay + 1 }]
}

/** A store in memory, which also gives back when its recent requests were answered. */
export interface MemoryStore extends Store {
  /** When the recent requests were answered, ascending, with those still on their way counted as answered now. */
  readonly answered: Effect.Effect<ReadonlyArray<number>>
  /** @deprecated The same as `answered`, under the name it had when requests were counted from their start. */
  readonly starts: Effect.Effect<ReadonlyArray<number>>
}

/** A store in memory, from the moments earlier requests were answered and a read of the live allowance. */
export const memoryStore = (
  limits: Limits,
  answered: ReadonlyArray<number> = [],
  allowance: Option.Option<Allowance> = Option.none()
): Effect.Effect<MemoryStore> =>
  Effect.gen(function*() {
    const slots = yield* Semaphore.make(Math.min(limits.concurrent, Number.MAX_SAFE_INTEGER))
    const sent = yield* Ref.make<Sent>({ answered: [...answered].sort((a, b) => a - b), onTheirWay: 0, pausedUntil: 0 })
    const follows = followsAllowance(limits)
    const lastRead = yield* Ref.make(follows ? allowance : Option.none<Allowance>())
    const windowsIn = (read: Option.Option<Allowance>) =>
      windows(Option.match(read, { onNone: () => limits, onSome: (last) => underAllowance(limits, last.minuteLimit) }))
    const inForce = yield* Ref.make(windowsIn(yield* Ref.get(lastRead)))
    const answer: Effect.Effect<void> = Effect.flatMap(Effect.zip(Clock.currentTimeMillis, Ref.get(inForce)), ([now, windowsOf]) =>
      Ref.update(sent, (state) => ({
        ...state,
        answered: answeredAt(state.answered, now, longestIn(windowsOf)),
        onTheirWay: state.onTheirWay - 1
      })))
    const leave: Turn = { _tag: "Leave", answered: answer }
    const recorded = Effect.zipWith(Ref.get(sent), Clock.currentTimeMillis, (state, now) => [
      ...state.answered,
      ...Array.from({ length: state.onTheirWay }, () => now)
    ])
    return {
      slot: slots.takeScoped(1),
      turn: Effect.flatMap(Effect.zip(Clock.currentTimeMillis, Ref.get(inForce)), ([now, windowsOf]) =>
        Ref.modify(sent, (state) => decide(state, windowsOf, now, leave))),
      ...(follows
        ? {
          allowance: {
            last: Ref.get(lastRead),
            set: (read: Allowance) => Effect.andThen(Ref.set(lastRead, Option.some(read)), Ref.set(inForce, windowsIn(Option.some(read))))
          }
        }
        : {}),
      answered: recorded,
      starts: recorded,
      limits,
      paused: Effect.zipWith(Ref.get(sent), Clock.currentTimeMillis, (state, now) => Duration.millis(Math.max(0, state.pausedUntil - now))),
      pause: (duration: Duration.Duration) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Ref.update(sent, (state) => ({ ...state, pausedUntil: Math.max(state.pausedUntil, now + Duration.toMillis(duration)) })))
    }
  })

/** The store in memory as the `AdmissionStore` service. */
export const layerStore = (limits: Limits): Layer.Layer<AdmissionStore> => Layer.effect(AdmissionStore, memoryStore(limits))
