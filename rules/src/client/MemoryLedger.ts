/**
 * What an admission store in memory knows of the requests (`Sent`) and how
 * each event changes it, as plain functions of plain data: a request's turn
 * (it leaves when every window has room and no pause is in force, or waits),
 * its answer, a pause, and the moments a store gives back.
 *
 * Imports nothing of Effect. `MemoryStore`
 * (common/src/client/internal/MemoryStore.ts, compiled against either
 * Effect) keeps a `Sent` in a `Ref` and gives waits as a `Duration`.
 */
import { earliestDeparture, type Window } from "./AdmissionWindows.js"

/** What a store in memory knows of the requests. */
export interface Sent {
  /** When the recent requests were answered, ascending. */
  readonly answered: ReadonlyArray<number>
  /** How many are on their way. */
  readonly onTheirWay: number
  /** Until when a pause is in force. */
  readonly pausedUntil: number
}

/** A store that knows only when earlier requests were answered. */
export const initial = (answered: ReadonlyArray<number>): Sent => ({
  answered: [...answered].sort((a, b) => a - b),
  onTheirWay: 0,
  pausedUntil: 0
})

/** `answered` with `at` in its place, less what every window has left behind at `at`. */
const answeredAt = (answered: ReadonlyArray<number>, at: number, longest: number): ReadonlyArray<number> => {
  const kept = answered.filter((time) => time > at - longest)
  let index = kept.length
  while (index > 0 && (kept[index - 1] ?? at) > at) index--
  return [...kept.slice(0, index), at, ...kept.slice(index)]
}

/** The longest of some windows, in milliseconds (zero when there are none). */
const longestIn = (windowsOf: ReadonlyArray<Window>) => Math.max(0, ...windowsOf.map((window) => window.millis))

/**
 * A request's turn at `now` under the windows in force: it leaves (and is
 * counted as on its way) when every window has room and no pause is in
 * force, else it waits `millis`.
 */
export const turn = (
  state: Sent,
  windowsOf: ReadonlyArray<Window>,
  now: number
): { readonly _tag: "Leave"; readonly state: Sent } | { readonly _tag: "Wait"; readonly millis: number } => {
  if (state.pausedUntil > now) return { _tag: "Wait", millis: state.pausedUntil - now }
  const departure = earliestDeparture(state.answered, state.onTheirWay, windowsOf, now)
  return departure > now
    ? { _tag: "Wait", millis: departure - now }
    : { _tag: "Leave", state: { ...state, onTheirWay: state.onTheirWay + 1 } }
}

/** A request on its way is answered at `now`: kept as long as the longest window in force needs it. */
export const answer = (state: Sent, windowsOf: ReadonlyArray<Window>, now: number): Sent => ({
  ...state,
  answered: answeredAt(state.answered, now, longestIn(windowsOf)),
  onTheirWay: state.onTheirWay - 1
})

/** When the recent requests were answered, ascending, with those still on their way counted as answered `now`. */
export const answeredBy = (state: Sent, now: number): ReadonlyArray<number> => [
  ...state.answered,
  ...Array.from({ length: state.onTheirWay }, () => now)
]

/** How long the pause in force still lasts at `now`, in milliseconds. */
export const pausedFor = (state: Sent, now: number): number => Math.max(0, state.pausedUntil - now)

/** A pause of `millis` from `now`: every request waits until it ends (or a longer pause in force ends). */
export const paused = (state: Sent, now: number, millis: number): Sent => ({
  ...state,
  pausedUntil: Math.max(state.pausedUntil, now + millis)
})
