/**
 * The admission store in this process's memory (`memoryStore`), and the
 * same as the `AdmissionStore` service (`layerStore`).
 *
 * @internal
 */
import { Clock, Duration, Effect, Layer, makeSemaphore, Option, Ref, takeScoped } from "#edition/internal/Edition.js"
import { AdmissionStore, type Allowance, type Store, type Turn } from "../AdmissionStore.js"
import { followsAllowance, type Limits, underAllowance, windows } from "../../../../rules/src/client/AdmissionWindows.js"
import * as MemoryLedger from "../../../../rules/src/client/MemoryLedger.js"

/** A store in memory, which also gives back when its recent requests were answered. */
export interface MemoryStore extends Store {
  /** When the recent requests were answered, ascending, with those still on their way counted as answered now. */
  readonly answered: Effect.Effect<ReadonlyArray<number>>
  /** @deprecated The same as `answered`, under the name it had when requests were counted from their start; removed in the next major (0.8.0, 2.0.0). */
  readonly starts: Effect.Effect<ReadonlyArray<number>>
}

/** A store in memory, from the moments earlier requests were answered and a read of the live allowance. */
export const memoryStore = (
  limits: Limits,
  answered: ReadonlyArray<number> = [],
  allowance: Option.Option<Allowance> = Option.none()
): Effect.Effect<MemoryStore> =>
  Effect.gen(function*() {
    const slots = yield* makeSemaphore(Math.min(limits.concurrent, Number.MAX_SAFE_INTEGER))
    const sent = yield* Ref.make(MemoryLedger.initial(answered))
    const follows = followsAllowance(limits)
    const lastRead = yield* Ref.make(follows ? allowance : Option.none<Allowance>())
    const windowsIn = (read: Option.Option<Allowance>) =>
      windows(Option.match(read, { onNone: () => limits, onSome: (last) => underAllowance(limits, last.minuteLimit) }))
    const inForce = yield* Ref.make(windowsIn(yield* Ref.get(lastRead)))
    const answer: Effect.Effect<void> = Effect.flatMap(Effect.zip(Clock.currentTimeMillis, Ref.get(inForce)), ([now, windowsOf]) =>
      Ref.update(sent, (state) => MemoryLedger.answer(state, windowsOf, now)))
    const leave: Turn = { _tag: "Leave", answered: answer }
    const recorded = Effect.zipWith(Ref.get(sent), Clock.currentTimeMillis, MemoryLedger.answeredBy)
    return {
      slot: takeScoped(slots, 1),
      turn: Effect.flatMap(Effect.zip(Clock.currentTimeMillis, Ref.get(inForce)), ([now, windowsOf]) =>
        Ref.modify(sent, (state): readonly [Turn, MemoryLedger.Sent] => {
          const next = MemoryLedger.turn(state, windowsOf, now)
          return next._tag === "Leave" ? [leave, next.state] : [{ _tag: "Wait", wait: Duration.millis(next.millis) }, state]
        })),
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
      paused: Effect.zipWith(Ref.get(sent), Clock.currentTimeMillis, (state, now) => Duration.millis(MemoryLedger.pausedFor(state, now))),
      pause: (duration: Duration.Duration) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Ref.update(sent, (state) => MemoryLedger.paused(state, now, Duration.toMillis(duration))))
    }
  })

/** The store in memory as the `AdmissionStore` service. */
export const layerStore = (limits: Limits): Layer.Layer<AdmissionStore> => Layer.effect(AdmissionStore, memoryStore(limits))
