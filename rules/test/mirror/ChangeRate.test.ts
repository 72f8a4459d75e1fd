/**
 * The change-rate estimator the keeper learns from (`rules/src/mirror/ChangeRate`),
 * tested once for both editions: Cho and Garcia-Molina's closed form on
 * equal intervals, the maximum-likelihood rate on unequal ones, against
 * Poisson changes drawn from a fixed seed, and the edges (no visit, no
 * change, every visit a change).
 */
import { describe, expect, it } from "vitest"
import { estimate, estimateEqual, type Visit } from "../../src/mirror/ChangeRate.js"
import { uniform } from "../support/Uniform.js"


/** Visits after these intervals of an element changing at `perSecond` (Poisson): each finds a change with chance 1 − e^(−λt). */
const visitsOf = (perSecond: number, intervals: ReadonlyArray<number>, seed: number): ReadonlyArray<Visit> => {
  const draw = uniform(seed)
  return intervals.map((seconds) => ({ seconds, changed: draw() < -Math.expm1(-perSecond * seconds) }))
}

describe("ChangeRate", () => {
  it("on equal intervals, is −ln((n − X + 0.5)/(n + 0.5)) / I", () => {
    const visits = Array.from({ length: 10 }, (_, i) => ({ seconds: 3600, changed: i < 3 }))
    const expected = -Math.log(7.5 / 10.5) / 3600
    expect(estimate(visits)).toEqual({ perSecond: expected, visits: 10, changes: 3 })
    expect(estimateEqual(10, 3, 3600)).toBe(expected)
  })

  it("finds a rate that changes twice an interval within 15 %, where changes over time watched find less than half of it", () => {
    const interval = 3600
    const perSecond = 2 / interval
    const visits = visitsOf(perSecond, Array.from({ length: 400 }, () => interval), 1)
    const changes = visits.filter((visit) => visit.changed).length
    const naive = changes / (visits.length * interval)
    expect(naive / perSecond).toBeLessThan(0.5)
    expect(Math.abs(estimate(visits).perSecond / perSecond - 1)).toBeLessThan(0.15)
  })

  it("on unequal intervals, is the rate of greatest likelihood: within 10 % of the true rate over 2,000 visits, for several seeds", () => {
    const perSecond = 1 / 1800
    for (const seed of [1, 2, 3, 4, 5]) {
      const draw = uniform(seed * 101)
      const intervals = Array.from({ length: 2000 }, () => (0.2 + 2.8 * draw()) / perSecond)
      const found = estimate(visitsOf(perSecond, intervals, seed)).perSecond
      expect(Math.abs(found / perSecond - 1)).toBeLessThan(0.1)
    }
  })

  it("at the likelihood's maximum, the slope is zero: the changed visits' t/(e^(λt) − 1) sum to the unchanged visits' seconds", () => {
    const visits: ReadonlyArray<Visit> = [
      { seconds: 100, changed: true },
      { seconds: 400, changed: false },
      { seconds: 250, changed: true },
      { seconds: 900, changed: false },
      { seconds: 50, changed: false }
    ]
    const rate = estimate(visits).perSecond
    const changed = visits.filter((visit) => visit.changed).reduce((sum, visit) => sum + visit.seconds / Math.expm1(rate * visit.seconds), 0)
    const unchanged = visits.filter((visit) => !visit.changed).reduce((sum, visit) => sum + visit.seconds, 0)
    expect(changed / unchanged).toBeCloseTo(1, 9)
  })

  it("at the edges: no visit and no change give 0, every visit a change a finite rate, ln(2n + 1)/I", () => {
    expect(estimate([]).perSecond).toBe(0)
    expect(estimate([{ seconds: 0, changed: true }]).perSecond).toBe(0)
    expect(estimate([{ seconds: 60, changed: false }, { seconds: 120, changed: false }]).perSecond).toBe(0)
    const all = Array.from({ length: 5 }, () => ({ seconds: 60, changed: true }))
    expect(estimate(all).perSecond).toBeCloseTo(Math.log(11) / 60, 12)
    expect(Number.isFinite(estimate([{ seconds: 60, changed: true }, { seconds: 600, changed: true }]).perSecond)).toBe(true)
  })
})
