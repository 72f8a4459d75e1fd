/**
 * Waiting on the wall clock, for tests on the test clock: there
 * `Effect.sleep` waits until the test moves the clock, while HTTP exchanges
 * take real time. Either wait works on the real clock too.
 *
 * @example
 * const answered = Effect.map(simulator.answered, (all) => all.length >= 3)
 * yield* WallClock.eventually(answered)
 */
import { Effect } from "effect"

/** Waits `millis` on the wall clock, while the test clock stands still. */
export const pause = (millis: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, millis)))

/** Polls `condition` on the wall clock until it holds; the test fails if it has not within `millis`. */
export const eventually = <E, R>(condition: Effect.Effect<boolean, E, R>, millis = 10_000): Effect.Effect<void, E, R> =>
  Effect.gen(function*() {
    const deadline = performance.now() + millis
    while (!(yield* condition)) {
      if (performance.now() > deadline) return yield* Effect.dieMessage(`not within ${millis} ms`)
      yield* pause(2)
    }
  })
