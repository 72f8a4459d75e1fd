/**
 * The measure of a copy's freshness and age from the truth
 * (`rules/src/mirror/Freshness`), tested once for both editions: exact
 * figures on a small history, a change at a verification, Poisson changes
 * against the closed forms of mean freshness and age, and the percentile of
 * age over time.
 */
import { describe, expect, it } from "vitest"
import { measure, summarise } from "../../src/mirror/Freshness.js"
import { uniform } from "../support/Uniform.js"


describe("Freshness", () => {
  it("changed at 10 s and verified at 30 s, over [0, 40]: fresh half the time, a mean age of 5 s, at most 20 s, within a 15 s target 7/8 of the time", () => {
    const found = measure({ changes: [10], verified: [0, 30], start: 0, end: 40, target: 15 })
    expect(found).toEqual({ seconds: 40, freshness: 0.5, meanAge: 5, maxAge: 20, withinTarget: 0.875, staleStretches: [{ fromAge: 0, toAge: 20 }] })
  })

  it("counts a change at the moment of a verification as copied, and only the first change after a verification starts the age", () => {
    expect(measure({ changes: [30], verified: [30], start: 0, end: 40, target: 10 }).freshness).toBe(1)
    const twice = measure({ changes: [5, 8, 12], verified: [20], start: 0, end: 40, target: 10 })
    expect(twice.staleStretches).toEqual([{ fromAge: 0, toAge: 15 }])
    expect(twice.maxAge).toBe(15)
  })

  it("under Poisson changes verified every I, agrees with (1 − e^(−λI))/(λI) and the mean age I/2 − 1/λ + (1 − e^(−λI))/(λ²I)", () => {
    const perSecond = 1 / 100
    const interval = 50
    const end = 2_000_000
    const draw = uniform(1)
    const changes: Array<number> = []
    for (let t = -Math.log(1 - draw()) / perSecond; t < end; t += -Math.log(1 - draw()) / perSecond) changes.push(t)
    const verified = Array.from({ length: end / interval }, (_, k) => (k + 1) * interval)
    const found = measure({ changes, verified, start: 0, end, target: interval })
    const x = perSecond * interval
    expect(Math.abs(found.freshness / (-Math.expm1(-x) / x) - 1)).toBeLessThan(0.01)
    const meanAge = interval / 2 - 1 / perSecond + -Math.expm1(-x) / (perSecond * x)
    expect(Math.abs(found.meanAge / meanAge - 1)).toBeLessThan(0.02)
    expect(found.maxAge).toBeLessThanOrEqual(interval)
    expect(found.withinTarget).toBe(1)
  })

  it("the 95th percentile of age is the age the copies were over 5 % of the time; means are weighted by items", () => {
    const stale = measure({ changes: [80], verified: [], start: 0, end: 100, target: 100 })
    expect(summarise([{ measure: stale, weight: 1 }]).p95Age).toBeCloseTo(15, 9)
    const fresh = measure({ changes: [], verified: [], start: 0, end: 100, target: 100 })
    const summary = summarise([{ measure: stale, weight: 1 }, { measure: fresh, weight: 3 }])
    expect(summary.freshness).toBeCloseTo((0.8 + 3) / 4, 12)
    expect(summary.maxAge).toBe(20)
    // Over 400 weighted seconds, the age passes a on 20 − a of them.
    expect(summary.p95Age).toBeCloseTo(0, 9)
    expect(summarise([]).freshness).toBe(1)
  })

  it("measured from after a warm-up, a copy stale then counts from then, at its age", () => {
    // Changed at 10, verified at 30, measured over [20, 40]: stale from 20 to 30 at ages 10 to 20.
    const found = measure({ changes: [10], verified: [30], start: 0, from: 20, end: 40, target: 15 })
    expect(found).toEqual({ seconds: 20, freshness: 0.5, meanAge: 7.5, maxAge: 20, withinTarget: 0.75, staleStretches: [{ fromAge: 10, toAge: 20 }] })
    expect(measure({ changes: [10], verified: [15], start: 0, from: 20, end: 40, target: 15 }).freshness).toBe(1)
  })
})
