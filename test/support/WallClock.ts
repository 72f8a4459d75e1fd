/**
 * Waiting on the wall clock, for tests on the test clock: there
 * `Effect.sleep` waits until the test moves the clock, while HTTP exchanges
 * take real time.
 */
import { Effect } from "effect"

/** Waits `millis` on the wall clock, while the test clock stands still. */
export const pause = (millis: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, millis)))
