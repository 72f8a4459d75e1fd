/**
 * The keeper's bookkeeping (`rules/src/mirror/Keeping`), tested once for
 * both editions: what is due comes first, a visit schedules the next, rates
 * are learned from the 304s and 200s, a replan keeps within the budget and
 * the targets, and when the targets do not fit it promises them stretched.
 */
import { describe, expect, it } from "vitest"
import { Keeping } from "../../src/mirror/Keeping.js"
import type { Budget } from "../../src/mirror/Revalidation.js"
import { uniform } from "../support/Uniform.js"

const hour = 3600
const day = 86_400

const share: Budget = { requestsPerSecond: 0.9, unitsPerSecond: 9000 / day, bytesPerSecond: (0.9 * 250 * 1024 * 1024) / day }

const keeping = () => new Keeping({ targets: { models: hour, modelOffers: day }, secondsPerRequest: 1.2 })

describe("Keeping", () => {
  it("has what was never verified due at once, then each element its interval after its visit", () => {
    const kept = keeping()
    const offers = kept.track("modelOffers", "acme/a1", undefined, 500)
    const walk = kept.track("models", "models", { pages: 30, items: 3000 }, -Infinity)
    expect(kept.next(0)).toEqual({ element: walk, due: -Infinity })
    kept.visited(walk, 1000, true)
    expect(kept.next(1000)).toEqual({ element: walk, due: 1000 + hour })
    expect(kept.dueOf(offers)).toBe(500 + day)
    kept.untrack("models", "models")
    expect(kept.next(1000)).toEqual({ element: offers, due: 500 + day })
  })

  it("has a copy's elements, all verified at once, come due spread over their first interval, then each its interval after its visit", () => {
    const kept = keeping()
    const offers = Array.from({ length: 1000 }, (_, i) => kept.track("modelOffers", `acme/${i}`, undefined, 0))
    const dues = offers.map((element) => kept.dueOf(element))
    for (const quarter of [1, 2, 3, 4]) {
      const by = dues.filter((due) => due <= (quarter * day) / 4).length
      expect(by).toBeGreaterThanOrEqual(quarter * 250 - 5)
      expect(by).toBeLessThanOrEqual(quarter * 250 + 5)
    }
    expect(Math.min(...dues)).toBeGreaterThan(0)
    const first = offers[1]
    if (first === undefined) throw new Error("no offers")
    kept.visited(first, 100, false)
    expect(kept.dueOf(first)).toBe(100 + day)
  })

  it("drops what it stops keeping, and keeps one element per key", () => {
    const kept = keeping()
    const first = kept.track("modelOffers", "acme/a1", undefined, 0)
    expect(kept.track("modelOffers", "acme/a1", undefined, 99)).toBe(first)
    kept.track("modelOffers", "acme/a2", undefined, 10)
    kept.untrack("modelOffers", "acme/a1")
    expect(kept.size).toBe(1)
    expect(kept.find("modelOffers", "acme/a1")).toBeUndefined()
    expect(kept.next(0)?.element.key).toBe("acme/a2")
  })

  it("visits, of what is due, the element whose deadline is nearest", () => {
    const kept = keeping()
    const offers = kept.track("modelOffers", "acme/a1", undefined, 0)
    const walk = kept.track("models", "models", { pages: 30, items: 3000 }, day - 3 * hour)
    kept.intervalsBy((element) => (element === walk ? hour : day / 2))
    // The offers came due at half a day but may wait till a day; the walk, due two hours before a day, must be walked by then.
    const now = day - 1.5 * hour
    expect(kept.next(now)?.element).toBe(walk)
    kept.visited(walk, now, false)
    expect(kept.next(now)).toEqual({ element: offers, due: day / 2 })
    kept.visited(offers, now, false)
    expect(kept.next(now)).toEqual({ element: walk, due: now + hour })
  })

  it("learns an element's rate from which visits found a change", () => {
    const kept = keeping()
    const draw = uniform(38)
    const perSecond = 1 / (6 * hour)
    const every = 2 * hour
    const elements = Array.from({ length: 40 }, (_, i) => kept.track("modelOffers", `acme/${i}`, undefined, 0))
    for (const element of elements) {
      for (let visit = 1; visit <= 64; visit++) kept.visited(element, visit * every, draw() < -Math.expm1(-perSecond * every))
    }
    const mean = elements.reduce((sum, element) => sum + kept.rateOf(element), 0) / elements.length
    expect(mean / perSecond).toBeGreaterThan(0.9)
    expect(mean / perSecond).toBeLessThan(1.1)
  })

  it("plans within the budget and every target, visiting a family's busy elements more than its quiet ones", () => {
    const kept = keeping()
    const draw = uniform(7)
    kept.track("models", "models", { pages: 30, items: 3000 }, 0)
    const busy = Array.from({ length: 50 }, (_, i) => kept.track("modelOffers", `busy/${i}`, undefined, 0))
    const quiet = Array.from({ length: 500 }, (_, i) => kept.track("modelOffers", `quiet/${i}`, undefined, 0))
    for (let visit = 1; visit <= 30; visit++) {
      for (const element of busy) kept.visited(element, visit * hour, draw() < -Math.expm1(-hour / (3 * hour)))
      for (const element of quiet) kept.visited(element, visit * hour, draw() < -Math.expm1(-hour / (30 * day)))
    }
    const feasibility = kept.replan(share)
    expect(feasibility.feasible).toBe(true)
    expect(feasibility.promises).toEqual({ models: hour, modelOffers: day })
    expect(feasibility.spending.requestsPerSecond).toBeLessThanOrEqual(share.requestsPerSecond * (1 + 1e-9))
    expect(feasibility.spending.unitsPerSecond).toBeLessThanOrEqual(share.unitsPerSecond * (1 + 1e-9))
    for (const element of [...busy, ...quiet]) expect(element.interval).toBeLessThanOrEqual(day)
    expect(kept.find("models", "models")?.interval).toBeLessThanOrEqual(hour)
    expect(busy[0]?.interval).toBeLessThan(quiet[0]?.interval ?? 0)
  })

  it("learns a walk's items' rates from its pages, and reports them", () => {
    const kept = keeping()
    const walk = kept.track("models", "models", { pages: 1, items: 100 }, 0)
    const draw = uniform(3)
    for (let visit = 1; visit <= 40; visit++) {
      kept.itemsSeen(walk, Array.from({ length: 100 }, (_, i) => [`m${i}`, draw() < -Math.expm1(-hour / day)] as const), hour)
    }
    const [report] = kept.report(40 * hour).filter((group) => group.group === "models")
    expect((report?.perSecond ?? 0) * day).toBeGreaterThan(0.7)
    expect((report?.perSecond ?? 0) * day).toBeLessThan(1.4)
    expect(report?.elements).toBe(1)
  })

  it("when the targets need more requests than the share, promises every target stretched by one factor", () => {
    const kept = keeping()
    for (let i = 0; i < 100_000; i++) kept.track("modelOffers", `acme/${i}`, undefined, 0)
    kept.track("models", "models", { pages: 30, items: 3000 }, 0)
    const feasibility = kept.replan({ ...share, unitsPerSecond: 1, bytesPerSecond: Infinity })
    expect(feasibility.feasible).toBe(false)
    // 100,000 offers a day at 0.9 requests a second need about 35 % more than a day, with 5 % of it kept back for lateness.
    expect(feasibility.stretch).toBeGreaterThan(1.3)
    expect(feasibility.stretch).toBeLessThan(1.4)
    // A promise is the longest its elements go unverified, each family's cap stretched, and then late by the longest
    // visit of another: the models' walk of 30 requests for the offers, an offers list's one request for the walk.
    const lead = 30 * 1.2
    expect(feasibility.promises.modelOffers).toBeCloseTo((0.95 * day - 1.2) * feasibility.stretch + lead, 3)
    const models = kept.report(0).find((group) => group.group === "models")?.promise
    expect(models).toBeCloseTo((0.95 * hour - lead) * feasibility.stretch + 1.2, 3)
    expect(feasibility.spending.requestsPerSecond).toBeLessThanOrEqual(share.requestsPerSecond * (1 + 1e-9))
  })

  it("goes on from its rows as it stood: the same schedule, rates and plan", () => {
    const kept = keeping()
    const draw = uniform(11)
    const walk = kept.track("models", "models", { pages: 2, items: 200 }, -Infinity)
    const offers = Array.from({ length: 30 }, (_, i) => kept.track("modelOffers", `acme/${i}`, undefined, 0))
    for (let visit = 1; visit <= 20; visit++) {
      for (const [i, element] of offers.entries()) kept.visited(element, visit * hour + i, draw() < (i % 3 === 0 ? 0.5 : 0.05))
      kept.itemsSeen(walk, Array.from({ length: 200 }, (_, i) => [`m${i}`, draw() < 0.02] as const), hour)
      kept.visited(walk, visit * hour, draw() < 0.5)
    }
    kept.replan(share)
    const again = keeping()
    for (const element of kept.elements()) again.restore(kept.rowOf(element), kept.itemRowsOf(element))
    expect(again.size).toBe(kept.size)
    for (const element of kept.elements()) {
      const restored = again.find(element.group, element.key)
      expect(restored && again.rowOf(restored)).toEqual(kept.rowOf(element))
    }
    expect(again.next(21 * hour)?.element.key).toBe(kept.next(21 * hour)?.element.key)
    // A family's prior is its elements' mean, taken at each replan.
    expect(again.replan(share)).toEqual(kept.replan(share))
    for (const element of kept.elements()) {
      const restored = again.find(element.group, element.key)
      expect(restored && again.rateOf(restored)).toBe(kept.rateOf(element))
    }
    expect(again.report(21 * hour)).toEqual(kept.report(21 * hour))
    // A walk never made is still due at once.
    const fresh = keeping()
    fresh.restore(keeping().rowOf(keeping().track("models", "models", { pages: 1, items: 10 }, -Infinity)))
    expect(fresh.next(0)?.due).toBe(-Infinity)
  })
})
