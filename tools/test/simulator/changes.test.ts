/**
 * The simulator's change process (`tools/src/simulator/data/Changes.ts`):
 * fixed by the seed however it is asked, heavy-tailed rates (most records
 * rarely, a few hourly), and Poisson changes at each record's rate.
 */
import { describe, expect, it } from "vitest"
import { ChangeProcess } from "../../src/simulator/data/Changes.js"

const hour = 3600
const day = 86_400
const models = 0

describe("the simulator's change process", () => {
  it("is fixed by the seed: the same histories whatever was asked before, other ones under another seed", () => {
    const asked = new ChangeProcess(1)
    for (let index = 0; index < 50; index++) asked.versionAt(models, index, 30 * day)
    const fresh = new ChangeProcess(1)
    const other = new ChangeProcess(2)
    let differ = 0
    for (let index = 0; index < 50; index++) {
      expect(asked.history(models, index, day)).toEqual(fresh.history(models, index, day))
      expect(asked.versionAt(models, index, 10 * day)).toBe(fresh.history(models, index, 10 * day).length)
      if (other.rateOf(models, index) !== fresh.rateOf(models, index)) differ++
    }
    expect(differ).toBe(50)
  })

  it("draws heavy-tailed rates: most records change less than every ten days, a few every hour, none more than four times an hour", () => {
    const changes = new ChangeProcess(1)
    const rates = Array.from({ length: 10_000 }, (_, index) => changes.rateOf(models, index)).sort((a, b) => a - b)
    expect(rates[5000]).toBeLessThan(1 / (10 * day))
    const hourly = rates.filter((rate) => rate >= 1 / hour).length
    expect(hourly).toBeGreaterThanOrEqual(10)
    expect(hourly).toBeLessThanOrEqual(100)
    expect(rates.at(-1)).toBeLessThanOrEqual(4 / hour)
    // Families draw apart: the offers of model 3 keep a rate of their own.
    expect(changes.rateOf(1, 3)).not.toBe(changes.rateOf(models, 3))
  })

  it("changes each record as a Poisson process at its rate: counts near λt over many records, exponential gaps for one", () => {
    const changes = new ChangeProcess(3)
    const span = 30 * day
    let counted = 0
    let expected = 0
    for (let index = 0; index < 3000; index++) {
      counted += changes.versionAt(models, index, span)
      expected += changes.rateOf(models, index) * span
    }
    expect(Math.abs(counted / expected - 1)).toBeLessThan(0.05)
    const fast = Array.from({ length: 10_000 }, (_, index) => index).find((index) => changes.rateOf(models, index) >= 1 / hour) ?? 0
    const times = changes.history(models, fast, 400 * day)
    const gaps = times.map((time, i) => time - (times[i - 1] ?? 0))
    const mean = gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length
    const deviation = Math.sqrt(gaps.reduce((sum, gap) => sum + (gap - mean) ** 2, 0) / gaps.length)
    expect(Math.abs(mean * changes.rateOf(models, fast) - 1)).toBeLessThan(0.05)
    expect(Math.abs(deviation / mean - 1)).toBeLessThan(0.05)
  })

  it("counts a change at the moment asked as made, and none before the first", () => {
    const changes = new ChangeProcess(1)
    const first = changes.history(models, 5, 365 * day)[0] ?? 0
    expect(changes.versionAt(models, 5, first)).toBe(1)
    expect(changes.versionAt(models, 5, first - 1e-6)).toBe(0)
    expect(changes.versionAt(models, 5, 0)).toBe(0)
  })
})
