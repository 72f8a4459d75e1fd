/**
 * What a scan of the simulator's models should have yielded, for tests of
 * scans under churn: every model that existed throughout the scan exactly
 * once, and nothing that never existed during it.
 */
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { Records } from "../../tools/src/simulator/data/Records.js"
import type { Lifetime } from "../../rules/src/simulator/Settings.js"
import * as Simulator from "../../common/src/simulator/Simulator.js"

/** The generator of the simulator's records, for its ids. */
export const recordsOf = (simulator: Simulator.Service) =>
  new Records(simulator.options.seed, simulator.options.sizes, simulator.baseUrl, simulator.options.collation)

/** Every id a model can have in the simulator, present or not: the base ids and their churn siblings. */
const modelCandidates = (simulator: Simulator.Service): ReadonlyArray<string> => {
  const records = recordsOf(simulator)
  return Array.from({ length: simulator.options.sizes.models }, (_, i) => [records.modelId(i), `${records.modelId(i)}-preview`]).flat()
}

/** The ids of the catalog's models without churn, ascending by code unit. */
export const catalogModelIds = (simulator: Simulator.Service): ReadonlyArray<string> => {
  const records = recordsOf(simulator)
  return Array.from({ length: simulator.options.sizes.models }, (_, i) => records.modelId(i)).sort()
}

/** The ids that come more than once. */
export const duplicatesOf = (ids: ReadonlyArray<string>): ReadonlyArray<string> => {
  const seen = new Set<string>()
  const repeated: Array<string> = []
  for (const id of ids) {
    if (seen.has(id)) repeated.push(id)
    seen.add(id)
  }
  return repeated
}

const throughout = (life: Lifetime, before: number, after: number) => life.born <= before && life.died > after
const someTimeDuring = (life: Lifetime, before: number, after: number) => life.born <= after && life.died > before

/**
 * Checks the models a scan yielded between the simulator's epochs `before`
 * and `after`: no id twice, every model that existed throughout was yielded,
 * and every yielded model existed at some epoch of the scan. Gives how many
 * models existed throughout and how many only part of the time.
 */
export const expectExactlyOnce = (ids: ReadonlyArray<string>, before: number, after: number) =>
  Effect.gen(function*() {
    const simulator = yield* Simulator.Simulator
    expect(duplicatesOf(ids)).toEqual([])
    const yielded = new Set(ids)
    const missed: Array<string> = []
    let existedThroughout = 0
    let churned = 0
    for (const id of modelCandidates(simulator)) {
      const life = yield* simulator.lifetimeOf("models", id)
      if (life === undefined) continue
      if (throughout(life, before, after)) {
        existedThroughout++
        if (!yielded.has(id)) missed.push(id)
      } else if (someTimeDuring(life, before, after)) {
        churned++
      }
    }
    const phantoms: Array<string> = []
    for (const id of ids) {
      const life = yield* simulator.lifetimeOf("models", id)
      if (life === undefined || !someTimeDuring(life, before, after)) phantoms.push(id)
    }
    expect(missed, "records that existed throughout the scan but were not yielded").toEqual([])
    expect(phantoms, "yielded records that never existed during the scan").toEqual([])
    return { existedThroughout, churned }
  })
