/**
 * Checks of an account's pace, from what the clients sent (`Traffic`) and
 * what the simulator answered: no sliding 10 s or minute span past its
 * limit, no request during a 429's pause, the spans between retries.
 *
 * @example
 * const all = yield* Simulator.Simulator.pipe(Effect.flatMap((simulator) => simulator.answered))
 * Pace.expectWithinWindows(all, 0.02)
 * Pace.expectPausedAfter429(all, yield* Traffic.exchanges, 400)
 */
import { expect } from "@effect/vitest"
import type * as Simulator from "../../common/src/simulator/Simulator.js"
import type { Exchange } from "./Traffic.js"

/** The most of `times` (ascending) that any span shorter than `window` holds. */
const mostInWindow = (times: ReadonlyArray<number>, window: number): number => {
  let most = 0
  let start = 0
  for (let end = 0; end < times.length; end++) {
    const last = times[end] ?? 0
    while ((times[start] ?? last) <= last - window) start++
    most = Math.max(most, end - start + 1)
  }
  return most
}

/** Checks that the client sent no more than each limit in any sliding 10 s or minute span (scaled). */
export const expectSendsWithinWindows = (times: ReadonlyArray<number>, timeScale: number) => {
  const sorted = [...times].sort((a, b) => a - b)
  expect(mostInWindow(sorted, 10_000 * timeScale)).toBeLessThanOrEqual(10)
  expect(mostInWindow(sorted, 60_000 * timeScale)).toBeLessThanOrEqual(60)
}

/** Checks that no sliding 10 s or minute span (scaled) of the arrivals the simulator admitted (not its refusals) passes its limit, as the simulator counts them. */
export const expectWithinWindows = (answered: ReadonlyArray<Simulator.Answered>, timeScale: number) => {
  const times = answered.filter((entry) => entry.status !== 429).map((entry) => entry.arrived).sort((a, b) => a - b)
  expect(mostInWindow(times, 10_000 * timeScale)).toBeLessThanOrEqual(10)
  expect(mostInWindow(times, 60_000 * timeScale)).toBeLessThanOrEqual(60)
}

/** The spans between consecutive times. */
export const gaps = (times: ReadonlyArray<number>): ReadonlyArray<number> => times.slice(1).map((time, index) => time - (times[index] ?? time))

/**
 * How long after a pause is noted a request may still leave that its
 * admission granted before the pause was stored: the grant, the answer of a
 * shared store and the request's own steps take a few ms on a loaded machine.
 */
const admittedBeforeThePause = 30

/**
 * Checks that the injected 429 (the one whose pause lasts `retryAfterMillis`)
 * paused every request for its `Retry-After`: once the client had paused its
 * admission for it, no request left until `Retry-After` after the 429 was
 * answered (a few ms allowed, and a request admitted just before the pause
 * may still leave); in the simulator's record, no request was
 * answered during the pause but the one other request a concurrency of 2 can
 * have had in flight. Returns the 429.
 */
export const expectPausedAfter429 = (all: ReadonlyArray<Simulator.Answered>, exchanges: ReadonlyArray<Exchange>, retryAfterMillis: number) => {
  const paused = exchanges.find((entry) => entry.kind === "pause" && entry.millis === retryAfterMillis)
  expect(paused).toBeDefined()
  const pausedAt = paused?.at ?? 0
  const refusal = all.filter((entry) => entry.status === 429 && entry.at <= pausedAt).at(-1)
  expect(refusal).toBeDefined()
  const refusedAt = refusal?.at ?? 0
  const pauseEnds = refusedAt + retryAfterMillis - 2
  const sentDuringPause = exchanges.filter((entry) => entry.kind === "send" && entry.at > pausedAt + admittedBeforeThePause && entry.at < pauseEnds)
  expect(sentDuringPause.map((entry) => ({ path: entry.path, millisAfterThe429: entry.at - refusedAt, millisAfterThePause: entry.at - pausedAt })))
    .toEqual([])
  const answeredDuringPause = all.filter((entry) => entry.status !== 429 && entry.at > refusedAt && entry.at < pauseEnds)
  expect(answeredDuringPause.length).toBeLessThanOrEqual(1)
  expect(all.some((entry) => entry.at >= pauseEnds)).toBe(true)
  return refusal
}
