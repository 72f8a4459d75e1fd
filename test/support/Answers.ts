/**
 * What the simulator in context has answered, in its own record (its clock,
 * refusals included), and a wait for it.
 *
 * @example
 * const running = yield* Effect.fork(scans)
 * yield* Answers.atLeast(6)
 * expect(yield* Answers.withStatus(429)).toBe(0)
 */
import { Effect } from "effect"
import * as Simulator from "../../common/src/simulator/Simulator.js"
import * as WallClock from "./WallClock.js"

/** Every answer so far, oldest first. */
export const all = Effect.flatMap(Simulator.Simulator, (simulator) => simulator.answered)

/** How many answers had `status` so far. */
export const withStatus = (status: number) =>
  Effect.flatMap(Simulator.Simulator, (simulator) => Effect.map(simulator.statusCounts, (counts) => counts.get(status) ?? 0))

/** Waits on the wall clock (so on the test clock too) until the simulator has answered `count` requests. */
export const atLeast = (count: number) => WallClock.eventually(Effect.map(all, (answered) => answered.length >= count))
