/**
 * What a scan of the simulator's models should have given, for tests of
 * scans under churn: every model that existed throughout the scan exactly
 * once, and nothing that never existed during it.
 *
 * @example
 * const listedBefore = yield* Churn.listedIds
 * const before = yield* simulator.epoch
 * const ids = ... // the scan
 * const { churned } = yield* Churn.expectExactlyOnce(ids, before, yield* simulator.epoch, listedBefore)
 */
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { Simulator } from "effect-catalog/simulator"

/** The ids of the simulator's models as they are now, ascending by code unit. */
export const listedIds = Simulator.Simulator.use((simulator) => Effect.map(simulator.listed("models"), (models) => models.map((model) => model.id).sort()))

/** The ids that come more than once. */
export const duplicatesOf = (ids: ReadonlyArray<string>): ReadonlyArray<string> => ids.filter((id, index) => ids.indexOf(id) !== index)

/**
 * Checks the models a scan gave between the simulator's epochs `before` and
 * `after`: no id twice, every model that existed throughout given, and every
 * model given one that existed at some epoch of the scan. `listedBefore` are
 * the ids listed before the scan (every model that existed throughout is
 * among them). Gives how many models existed throughout, and how many only
 * part of the time.
 */
export const expectExactlyOnce = (ids: ReadonlyArray<string>, before: number, after: number, listedBefore: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const simulator = yield* Simulator.Simulator
    expect(duplicatesOf(ids), "models given twice").toEqual([])
    const given = new Set(ids)
    const missed: Array<string> = []
    const phantoms: Array<string> = []
    let existedThroughout = 0
    let churned = 0
    for (const id of new Set([...listedBefore, ...(yield* listedIds), ...ids])) {
      const life = yield* simulator.lifetimeOf("models", id)
      const during = life !== undefined && life.born <= after && life.died > before
      if (life !== undefined && life.born <= before && life.died > after) {
        existedThroughout++
        if (!given.has(id)) missed.push(id)
      } else if (during) {
        churned++
      }
      if (given.has(id) && !during) phantoms.push(id)
    }
    expect(missed, "models that existed throughout the scan but were not given").toEqual([])
    expect(phantoms, "models given that never existed during the scan").toEqual([])
    return { existedThroughout, churned }
  })
