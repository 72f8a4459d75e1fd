/**
 * How often the keeper revalidates each element of the mirror (a page of a
 * list, or a detail), so that every freshness target is met and the rest
 * of its share of the account buys the most freshness.
 *
 * An element changing at rate λ and revalidated f times a second is fresh
 * (1 − e^(−λ/f))·f/λ of the time (Cho and Garcia-Molina, SIGMOD 2000). A
 * revalidation takes a request slot whether it finds a change or not, and
 * units only when it does (a 304 costs none), that is u·f·(1 − e^(−λ/f)) units
 * a second. The optimum over the two budgets gives each element the rate
 * at which the marginal freshness equals what its request and its units
 * cost at the two budgets' prices (μ for requests, ν for units). Writing
 * x = λ/f and B(x) = 1 − (1 + x)·e^(−x), that is where
 * B(x)·(w/λ − ν·u) = μ·r, for an element of weight w: an element
 * that changes too often for the budget gets fewer visits, as the theory
 * says it should. The element's target is a hard cap on its interval, and
 * the prices are found by bisection so that each budget is spent and not
 * passed.
 *
 * A walk of a list verifies many items that change apart from one another:
 * its `items` say what it buys (their freshness), its own rate what it
 * costs, and `renewEvery` that its pages must be fetched whole at least that
 * often, since the cursors a 304 leaves in place die. Its interval is the
 * one that maximises the same gain less cost, found by golden section.
 *
 * When the targets alone need more than the budgets, `plan` says by how much
 * every target must stretch to fit (`stretch`): the ages it can promise.
 *
 * Imports nothing of Effect: both editions' keepers plan with it.
 *
 * @example
 * import { plan } from "./Revalidation.js"
 *
 * const pages = Array.from({ length: 30 }, (_, i) => ({
 *   group: "models", weight: 100, perSecond: i < 3 ? 1 / 600 : 1 / 86_400, requests: 1, units: 1, bytes: 60_000, target: 3600
 * }))
 * plan(pages, { requestsPerSecond: 0.9, unitsPerSecond: 9000 / 86_400, bytesPerSecond: Infinity }).feasible // true
 */

/** An element the keeper revalidates. */
export interface Element<Group extends string = string> {
  /** Its collection or sub-resource family, whose target it has. */
  readonly group: Group
  /** How much of the mirror it holds: its items. */
  readonly weight: number
  /** Its change rate, changes a second (`ChangeRate.estimate`). */
  readonly perSecond: number
  /** Requests a revalidation takes. */
  readonly requests: number
  /** Units a revalidation costs when it finds a change (none when it is a 304). */
  readonly units: number
  /** Bytes a revalidation receives when it finds a change. */
  readonly bytes: number
  /** The longest it may go unverified, seconds (`Infinity`: no target). */
  readonly target: number
  /**
   * What one visit verifies when its items change apart from one another
   * (a walk of a list: its items by rate): the freshness a visit buys is
   * theirs, and `weight` and `perSecond` then say only what it costs.
   */
  readonly items?: ReadonlyArray<Part>
  /** The span within which a visit pays its units whatever it finds (a list whose cursors die), seconds. */
  readonly renewEvery?: number
}

/** Items of a walk that change at one rate. */
export interface Part {
  readonly weight: number
  readonly perSecond: number
}

/** What the keeper may spend, a second: its share of the account's windows and of the day's units and bytes. */
export interface Budget {
  readonly requestsPerSecond: number
  readonly unitsPerSecond: number
  readonly bytesPerSecond: number
}

/** What revalidating at some rates costs, a second. */
export interface Spending {
  readonly requestsPerSecond: number
  readonly unitsPerSecond: number
  readonly bytesPerSecond: number
}

/** The revalidation rates of the elements, in their order, and what they cost and buy. */
export interface Plan {
  /** Seconds between revalidations of each element. */
  readonly intervals: ReadonlyArray<number>
  readonly spending: Spending
  /** The mean freshness the rates give, weighted by the elements' weights. */
  readonly freshness: number
  /** Whether every target fits in the budget. */
  readonly feasible: boolean
  /** The factor by which every target stretches to fit: 1 when feasible. */
  readonly stretch: number
}

/** The share of time an element changing at `perSecond` is fresh when revalidated every `interval` seconds. */
export const freshness = (perSecond: number, interval: number): number => {
  if (perSecond === 0) return 1
  const x = perSecond * interval
  return x === 0 ? 1 : x === Infinity ? 0 : -Math.expm1(-x) / x
}

/** The chance that a revalidation after `interval` seconds finds a change. */
const changeChance = (perSecond: number, interval: number): number => -Math.expm1(-perSecond * interval)

/** The share of visits that pay units and bytes: those finding a change, and those renewing what a 304 leaves to die. */
const paidShare = (element: Element, interval: number): number => {
  const changed = changeChance(element.perSecond, interval)
  return element.renewEvery === undefined ? changed : Math.min(1, changed + interval / element.renewEvery)
}

/** What revalidating each element every `intervals[i]` seconds costs, a second. */
export const spending = (elements: ReadonlyArray<Element>, intervals: ReadonlyArray<number>): Spending => {
  let requestsPerSecond = 0
  let unitsPerSecond = 0
  let bytesPerSecond = 0
  elements.forEach((element, i) => {
    const interval = intervals[i] ?? Infinity
    if (interval === Infinity) return
    const paid = paidShare(element, interval)
    requestsPerSecond += element.requests / interval
    unitsPerSecond += (element.units * paid) / interval
    bytesPerSecond += (element.bytes * paid) / interval
  })
  return { requestsPerSecond, unitsPerSecond, bytesPerSecond }
}

/** The freshness, weighted and summed, that visiting `element` every `interval` seconds keeps. */
const keeps = (element: Element, interval: number): number =>
  element.items === undefined
    ? element.weight * freshness(element.perSecond, interval)
    : element.items.reduce((sum, part) => sum + part.weight * freshness(part.perSecond, interval), 0)

/** The weight of what an element holds. */
const held = (element: Element): number =>
  element.items === undefined ? element.weight : element.items.reduce((sum, part) => sum + part.weight, 0)

const fits = (spent: Spending, budget: Budget): boolean =>
  spent.requestsPerSecond <= budget.requestsPerSecond &&
  spent.unitsPerSecond <= budget.unitsPerSecond &&
  spent.bytesPerSecond <= budget.bytesPerSecond

/** The x at which B(x) = 1 − (1 + x)·e^(−x) equals `k`, for 0 < k < 1 (B rises from 0 to 1). */
const solveB = (k: number): number => {
  let low = 0
  let high = 1
  while (-Math.expm1(-high) - high * Math.exp(-high) < k) high *= 2
  for (let step = 0; step < 64; step++) {
    const middle = (low + high) / 2
    if (-Math.expm1(-middle) - middle * Math.exp(-middle) < k) low = middle
    else high = middle
  }
  return (low + high) / 2
}

/** The golden ratio's conjugate, the step of golden-section search. */
const golden = (Math.sqrt(5) - 1) / 2

/** The shortest interval a walk is planned at: a second (its pages take longer than that to fetch). */
const shortestWalk = 1

/**
 * A walk's interval at the prices: the one in [1 s, target] at which the
 * freshness it keeps, less what its requests and units cost, is greatest
 * (golden section over the interval's logarithm).
 */
const walkIntervalAt = (element: Element, requestPrice: number, unitPrice: number): number => {
  const worth = (logInterval: number) => {
    const interval = Math.exp(logInterval)
    return keeps(element, interval) - requestPrice * element.requests / interval -
      unitPrice * element.units * paidShare(element, interval) / interval
  }
  let low = Math.log(shortestWalk)
  let high = Math.log(Math.min(element.target, 1e9))
  if (high <= low) return Math.exp(high)
  for (let step = 0; step < 60 && high - low > 1e-4; step++) {
    const a = high - golden * (high - low)
    const b = low + golden * (high - low)
    if (worth(a) < worth(b)) low = a
    else high = b
  }
  const found = (low + high) / 2
  // The search ends within a hair of the cap when the cap is best: the cap itself, so that targets stretched to fit do fit.
  const cap = Math.log(Math.min(element.target, 1e9))
  return Math.exp(worth(cap) >= worth(found) ? cap : found)
}

/** The interval of an element at the prices μ (a request) and ν (a unit), capped by its target. */
const intervalAt = (element: Element, requestPrice: number, unitPrice: number): number => {
  if (element.items !== undefined) return walkIntervalAt(element, requestPrice, unitPrice)
  const { perSecond, target } = element
  if (perSecond === 0) return target
  const worth = element.weight / perSecond - unitPrice * element.units
  const k = worth <= 0 ? 1 : (requestPrice * element.requests) / worth
  // At k ≥ 1 a visit buys less than it costs at any rate: only the target calls for one.
  if (k >= 1) return target
  if (k <= 0) return 0
  return Math.min(target, solveB(k) / perSecond)
}

const intervalsAt = (elements: ReadonlyArray<Element>, requestPrice: number, unitPrice: number) =>
  elements.map((element) => intervalAt(element, requestPrice, unitPrice))

/** The least price in [0, ∞) at which `spent(price)`, falling as the price rises, is within `limit`. */
const leastPrice = (spent: (price: number) => number, limit: number): number => {
  if (spent(0) <= limit) return 0
  let high = 1
  // The price rises until the spending fits, or until only the targets are left to pay for.
  for (let step = 0; step < 200 && spent(high) > limit; step++) high *= 4
  let low = 0
  for (let step = 0; step < 60; step++) {
    const middle = (low + high) / 2
    if (spent(middle) > limit) low = middle
    else high = middle
  }
  return high
}

/** The intervals that best spend `budget` when every target fits in it. */
const optimal = (elements: ReadonlyArray<Element>, budget: Budget): ReadonlyArray<number> => {
  // Units and bytes are both paid only for changes: the unit price makes room for the tighter of them.
  const unitsLimit = (intervals: ReadonlyArray<number>) => {
    const spent = spending(elements, intervals)
    return Math.max(spent.unitsPerSecond / budget.unitsPerSecond, spent.bytesPerSecond / budget.bytesPerSecond)
  }
  const requestPriceAt = (unitPrice: number) =>
    leastPrice((price) => spending(elements, intervalsAt(elements, price, unitPrice)).requestsPerSecond, budget.requestsPerSecond)
  const unitPrice = leastPrice((price) => unitsLimit(intervalsAt(elements, requestPriceAt(price), price)), 1)
  return intervalsAt(elements, requestPriceAt(unitPrice), unitPrice)
}

/** The intervals that best spend `budget`, each within its element's target, or the targets stretched until they fit. */
export const plan = (elements: ReadonlyArray<Element>, budget: Budget): Plan => {
  const targets = elements.map((element) => element.target)
  const feasible = fits(spending(elements, targets), budget)
  let stretch = 1
  if (!feasible) {
    const fitsStretched = (factor: number) => fits(spending(elements, targets.map((target) => target * factor)), budget)
    let low = 1
    let high = 2
    // A budget of nothing fits no target however far it stretches: 2^64 stands for never.
    for (let step = 0; step < 64 && !fitsStretched(high); step++) high *= 2
    for (let step = 0; step < 50; step++) {
      const middle = (low + high) / 2
      if (fitsStretched(middle)) high = middle
      else low = middle
    }
    stretch = high
  }
  const stretched = stretch === 1 ? elements : elements.map((element) => ({ ...element, target: element.target * stretch }))
  const intervals = optimal(stretched, budget)
  const weight = elements.reduce((sum, element) => sum + held(element), 0)
  const fresh = elements.reduce((sum, element, i) => sum + keeps(element, intervals[i] ?? Infinity), 0)
  return { intervals, spending: spending(elements, intervals), freshness: weight === 0 ? 1 : fresh / weight, feasible, stretch }
}
