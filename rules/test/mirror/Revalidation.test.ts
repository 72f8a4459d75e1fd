/**
 * The keeper's revalidation rates (`rules/src/mirror/Revalidation`), tested
 * once for both editions: the freshness formula, a plan within both budgets
 * and every target, more freshness than uniform or rate-proportional
 * revalidation at the same cost, fewer visits for an element that changes
 * too often, and, when the targets do not fit, the stretch that makes them.
 */
import { describe, expect, it } from "vitest"
import { type Budget, type Element, freshness, plan, spending } from "../../src/mirror/Revalidation.js"

const hour = 3600
const day = 86_400

/** 30 pages of models, a few changing every few minutes and most about daily; 3,000 offers families changing weekly or so. */
const catalog = (target: { readonly models: number; readonly offers: number }): ReadonlyArray<Element> => [
  ...Array.from({ length: 30 }, (_, i): Element => ({
    group: "models",
    weight: 100,
    perSecond: i < 3 ? 1 / 600 : i < 10 ? 1 / (4 * hour) : 1 / day,
    requests: 1,
    units: 1,
    bytes: 60_000,
    target: target.models
  })),
  ...Array.from({ length: 3000 }, (_, i): Element => ({
    group: "offers",
    weight: 1,
    perSecond: 1 / ((1 + (i % 13)) * day),
    requests: 1,
    units: 1,
    bytes: 2_000,
    target: target.offers
  }))
]

/** 90 % of the account: 60 requests a minute and 10,000 units and 250 MiB a day. */
const share: Budget = { requestsPerSecond: 0.9, unitsPerSecond: 9000 / day, bytesPerSecond: (0.9 * 250 * 1024 * 1024) / day }

const within = (spent: number, limit: number) => expect(spent).toBeLessThanOrEqual(limit * (1 + 1e-9))

/** The mean freshness, weighted, of revalidating each element at these intervals. */
const meanFreshness = (elements: ReadonlyArray<Element>, intervals: ReadonlyArray<number>) =>
  elements.reduce((sum, element, i) => sum + element.weight * freshness(element.perSecond, intervals[i] ?? Infinity), 0) /
  elements.reduce((sum, element) => sum + element.weight, 0)

/** The one interval for every element (capped by its target) whose revalidations take `requestsPerSecond`. */
const uniformAt = (elements: ReadonlyArray<Element>, requestsPerSecond: number) => {
  let low = 1
  let high = 1e9
  for (let step = 0; step < 100; step++) {
    const middle = Math.sqrt(low * high)
    const intervals = elements.map((element) => Math.min(element.target, middle))
    if (spending(elements, intervals).requestsPerSecond > requestsPerSecond) low = middle
    else high = middle
  }
  return elements.map((element) => Math.min(element.target, high))
}

describe("Revalidation", () => {
  it("freshness is (1 − e^(−λI))/(λI), 1 for an element that never changes", () => {
    expect(freshness(0, day)).toBe(1)
    expect(freshness(1 / hour, hour)).toBeCloseTo(1 - Math.exp(-1), 12)
    expect(freshness(1 / hour, 2 * hour)).toBeCloseTo((1 - Math.exp(-2)) / 2, 12)
  })

  it("a feasible plan meets every target, keeps within both budgets, and spends the requests the targets leave", () => {
    const elements = catalog({ models: hour, offers: day })
    const result = plan(elements, share)
    expect(result.feasible).toBe(true)
    expect(result.stretch).toBe(1)
    result.intervals.forEach((interval, i) => expect(interval).toBeLessThanOrEqual(elements[i]?.target ?? 0))
    within(result.spending.requestsPerSecond, share.requestsPerSecond)
    within(result.spending.unitsPerSecond, share.unitsPerSecond)
    within(result.spending.bytesPerSecond, share.bytesPerSecond)
    expect(result.spending.requestsPerSecond / share.requestsPerSecond).toBeGreaterThan(0.99)
  })

  it("buys more freshness than uniform or rate-proportional revalidation taking the same requests", () => {
    const elements = catalog({ models: hour, offers: day })
    const result = plan(elements, share)
    const spent = result.spending.requestsPerSecond
    const uniform = meanFreshness(elements, uniformAt(elements, spent))
    // Intervals inversely proportional to the rates, scaled to the same requests and capped by the targets.
    const proportional = (() => {
      let low = 1e-6
      let high = 1e6
      const at = (scale: number) => elements.map((element) => Math.min(element.target, scale / element.perSecond))
      for (let step = 0; step < 100; step++) {
        const middle = Math.sqrt(low * high)
        if (spending(elements, at(middle)).requestsPerSecond > spent) low = middle
        else high = middle
      }
      return meanFreshness(elements, at(high))
    })()
    expect(result.freshness).toBeCloseTo(meanFreshness(elements, result.intervals), 12)
    expect(result.freshness).toBeGreaterThan(uniform)
    expect(result.freshness).toBeGreaterThan(proportional)
  })

  it("gives an element that changes too often for the budget fewer visits than one that changes less", () => {
    const element = (perSecond: number): Element => ({ group: "models", weight: 1, perSecond, requests: 1, units: 0, bytes: 0, target: Infinity })
    const elements = [element(1 / 10), element(1 / 1000)]
    const result = plan(elements, { requestsPerSecond: 1 / 500, unitsPerSecond: Infinity, bytesPerSecond: Infinity })
    const [often, seldom] = result.intervals
    expect(often).toBeGreaterThan(seldom ?? Infinity)
  })

  it("keeps to the units when they bind before the requests: changes cost units, 304s none", () => {
    const elements = catalog({ models: hour, offers: Infinity })
    // The catalog changes about 1,270 times a day: revalidating without end could spend no more units than that.
    const tight: Budget = { ...share, unitsPerSecond: 800 / day }
    const result = plan(elements, tight)
    expect(result.feasible).toBe(true)
    within(result.spending.unitsPerSecond, tight.unitsPerSecond)
    expect(result.spending.unitsPerSecond / tight.unitsPerSecond).toBeGreaterThan(0.99)
    within(result.spending.requestsPerSecond, tight.requestsPerSecond)
  })

  it("when the targets need twice the requests, says so: every target stretched twofold fits, and the plan keeps to the stretched ones", () => {
    const elements = Array.from({ length: 100 }, (_, i): Element => ({
      group: i < 50 ? "models" : "skills",
      weight: 1,
      perSecond: 1 / day,
      requests: 1,
      units: 0,
      bytes: 0,
      target: 100
    }))
    const result = plan(elements, { requestsPerSecond: 0.5, unitsPerSecond: Infinity, bytesPerSecond: Infinity })
    expect(result.feasible).toBe(false)
    expect(result.stretch).toBeCloseTo(2, 6)
    result.intervals.forEach((interval) => expect(interval).toBeLessThanOrEqual(100 * result.stretch * (1 + 1e-9)))
    within(result.spending.requestsPerSecond, 0.5)
  })

  it("plans a walk by its items' freshness, within its target, paying the units its dying cursors call for", () => {
    // A list of 30 pages: 300 of its 3,000 items change hourly, the rest weekly; its cursors must be renewed every 55 minutes.
    const items = [{ weight: 300, perSecond: 1 / hour }, { weight: 2700, perSecond: 1 / (7 * day) }]
    const walk: Element = {
      group: "models",
      weight: 3000,
      perSecond: items.reduce((sum, part) => sum + part.weight * part.perSecond, 0) / 30,
      requests: 30,
      units: 30,
      bytes: 30 * 60_000,
      target: 6 * hour,
      items,
      renewEvery: 55 * 60
    }
    const result = plan([walk], share)
    const [interval = Infinity] = result.intervals
    expect(result.feasible).toBe(true)
    expect(interval).toBeLessThanOrEqual(6 * hour)
    within(result.spending.requestsPerSecond, share.requestsPerSecond)
    within(result.spending.unitsPerSecond, share.unitsPerSecond)
    // Whatever it finds, every walk within 55 minutes of the last whole one pays its 30 units.
    expect(result.spending.unitsPerSecond).toBeGreaterThanOrEqual((30 / interval) * Math.min(1, interval / (55 * 60)) * (1 - 1e-9))
    // The freshness it reports is its items', not its pages'.
    const itemsFresh = items.reduce((sum, part) => sum + part.weight * freshness(part.perSecond, interval), 0) / 3000
    expect(result.freshness).toBeCloseTo(itemsFresh, 9)
    // Its pages' bytes bind first: at half the interval they would not fit.
    expect(result.spending.bytesPerSecond / share.bytesPerSecond).toBeGreaterThan(result.spending.unitsPerSecond / share.unitsPerSecond)
    expect(spending([walk], [interval / 2]).bytesPerSecond).toBeGreaterThan(share.bytesPerSecond)
  })
})
