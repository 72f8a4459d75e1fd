/**
 * How often an element of the catalog changes, learned from the keeper's
 * revalidations of it. Each revalidation gives one bit: a 200 (it changed
 * since the last one) or a 304 (it did not), after some interval. Changes
 * are taken as a Poisson process of rate λ, after Cho and Garcia-Molina,
 * "Estimating Frequency of Change" (ACM TOIT, 2003): a revalidation after
 * an interval t finds a change with probability 1 − e^(−λt).
 *
 * The naive estimate, changes over time watched, counts at most one change
 * per interval, and so falls short of λ when elements change more than once
 * between visits. With equal intervals I, the paper's estimator
 * λ̂ = −ln((n − X + 0.5)/(n + 0.5)) / I has the least bias and stays finite
 * when every visit found a change. The keeper's intervals vary as its
 * schedule adapts, so with unequal intervals λ̂ is the maximum-likelihood
 * rate; where no visit or every visit found a change, the closed form
 * over the mean interval.
 *
 * Imports nothing of Effect: both editions' keepers estimate with it.
 *
 * @example
 * import { estimate } from "./ChangeRate.js"
 *
 * // 10 visits an hour apart, 3 of them finding a change: about 0.34 changes an hour.
 * estimate(Array.from({ length: 10 }, (_, i) => ({ seconds: 3600, changed: i < 3 }))).perSecond * 3600
 */

/** One revalidation: the seconds since the one before, and whether it found a change (a 200, not a 304). */
export interface Visit {
  readonly seconds: number
  readonly changed: boolean
}

/** A change rate, and the visits it was learned from. */
export interface Estimate {
  /** λ̂, changes a second. */
  readonly perSecond: number
  readonly visits: number
  readonly changes: number
}

/** Two intervals closer than this share are taken as equal (the closed form is exact for them). */
const equalIntervals = 1e-9

/**
 * The bias-reduced estimate over `visits` visits of `seconds` each, of which
 * `changes` found a change (Cho and Garcia-Molina's estimator).
 */
export const estimateEqual = (visits: number, changes: number, seconds: number): number =>
  changes === 0 || seconds <= 0 ? 0 : -Math.log((visits - changes + 0.5) / (visits + 0.5)) / seconds

/**
 * The slope of the log-likelihood at `rate`: for each visit that found a
 * change, t·e^(−λt)/(1 − e^(−λt)); less the seconds of those that found none.
 * It falls as the rate grows, from +∞ to −(unchanged seconds).
 */
const slope = (visits: ReadonlyArray<Visit>, rate: number): number => {
  let sum = 0
  for (const visit of visits) {
    if (visit.changed) sum += visit.seconds / Math.expm1(rate * visit.seconds)
    else sum -= visit.seconds
  }
  return sum
}

/** The rate at which the likelihood of `visits` is greatest, when some found a change and some did not. */
const maximumLikelihood = (visits: ReadonlyArray<Visit>): number => {
  let low = 0
  let high = 1 / Math.max(...visits.map((visit) => visit.seconds))
  while (slope(visits, high) > 0) high *= 2
  // 80 halvings leave the rate exact to the last bits of a double.
  for (let step = 0; step < 80 && high - low > high * 1e-15; step++) {
    const middle = (low + high) / 2
    if (slope(visits, middle) > 0) low = middle
    else high = middle
  }
  return (low + high) / 2
}

/** The change rate that `visits` show (none: 0). */
export const estimate = (visits: ReadonlyArray<Visit>): Estimate => {
  const counted = visits.filter((visit) => visit.seconds > 0)
  const changes = counted.filter((visit) => visit.changed).length
  const result = (perSecond: number): Estimate => ({ perSecond, visits: counted.length, changes })
  if (counted.length === 0) return result(0)
  const seconds = counted.map((visit) => visit.seconds)
  const mean = seconds.reduce((sum, s) => sum + s, 0) / counted.length
  const equal = seconds.every((s) => Math.abs(s - mean) <= mean * equalIntervals)
  // With none or all changed the likelihood has no finite maximum: the closed form's correction decides.
  if (equal || changes === 0 || changes === counted.length) return result(estimateEqual(counted.length, changes, mean))
  return result(maximumLikelihood(counted))
}
