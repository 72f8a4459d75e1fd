/**
 * How fresh a mirror's copy of an element was over a span of time, from the
 * truth: when the element changed at the source, and when the mirror
 * verified it (a revalidation that found it unchanged, or a copy of it as
 * it then was). After Cho and Garcia-Molina (SIGMOD 2000): the copy is
 * fresh at t when it equals the source, and its age at t is 0 when fresh,
 * else t less the time of the first change not yet copied. The goals are
 * their means over time; a target is met at t when the age is at most the
 * target.
 *
 * The tests and the benchmark measure the keeper with it, against the
 * simulator's history of each record.
 *
 * A change at the moment of a verification is taken as copied by it. A
 * history may be measured from a later moment than it starts (`from`, after
 * a warm-up): a copy stale then is counted stale from then, at its age.
 *
 * Imports nothing of Effect.
 *
 * @example
 * import { measure } from "./Freshness.js"
 *
 * // Changed at 10 s, verified at 0 and 30 s, over [0, 40]: stale from 10 to 30.
 * measure({ changes: [10], verified: [0, 30], start: 0, end: 40, target: 15 }).freshness // 0.5
 */

/** One element's history over [start, end]: both lists in order, times in seconds. */
export interface History {
  readonly changes: ReadonlyArray<number>
  /** When the mirror verified it; the copy is taken as fresh at `start`. */
  readonly verified: ReadonlyArray<number>
  readonly start: number
  readonly end: number
  /** Where the measure begins (default `start`): the history before it only says how stale the copy was then. */
  readonly from?: number
  /** The target age, seconds. */
  readonly target: number
}

/** A stale stretch within the measure: the copy's age when it began to count and when a verification (or the end) ended it. */
export interface Stretch {
  readonly fromAge: number
  readonly toAge: number
}

/** What a copy was over a span of time. */
export interface Measure {
  readonly seconds: number
  /** The share of the time it was fresh. */
  readonly freshness: number
  /** Its mean age, seconds. */
  readonly meanAge: number
  readonly maxAge: number
  /** The share of the time its age was within the target. */
  readonly withinTarget: number
  /** Each stale stretch's ages, for percentiles of age. */
  readonly staleStretches: ReadonlyArray<Stretch>
}

/** How fresh the copy was over its history's span. */
export const measure = (history: History): Measure => {
  const { end, start, target } = history
  const from = Math.max(start, history.from ?? start)
  const seconds = end - from
  const verifications = [start, ...history.verified.filter((time) => time > start && time < end), end]
  const staleStretches: Array<Stretch> = []
  let next = 0
  for (let k = 0; k + 1 < verifications.length; k++) {
    const verified = verifications[k] ?? start
    const to = verifications[k + 1] ?? end
    while (next < history.changes.length && (history.changes[next] ?? Infinity) <= verified) next++
    const firstChange = history.changes[next]
    if (firstChange !== undefined && firstChange < to && to > from) {
      staleStretches.push({ fromAge: Math.max(firstChange, from) - firstChange, toAge: to - firstChange })
    }
  }
  const stale = staleStretches.reduce((sum, { fromAge, toAge }) => sum + toAge - fromAge, 0)
  const ageArea = staleStretches.reduce((sum, { fromAge, toAge }) => sum + (toAge * toAge - fromAge * fromAge) / 2, 0)
  return {
    seconds,
    freshness: seconds === 0 ? 1 : 1 - stale / seconds,
    meanAge: seconds === 0 ? 0 : ageArea / seconds,
    maxAge: staleStretches.reduce((most, { toAge }) => Math.max(most, toAge), 0),
    withinTarget: seconds === 0 ? 1 : 1 - staleStretches.reduce((sum, stretch) => sum + overAge(stretch, target), 0) / seconds,
    staleStretches
  }
}

/** The time within a stale stretch that the copy's age was over `age`. */
const overAge = ({ fromAge, toAge }: Stretch, age: number): number => Math.max(0, toAge - Math.max(fromAge, age))

/** What several copies were, each weighted (its items), over spans of the same length. */
export interface Summary {
  readonly freshness: number
  readonly meanAge: number
  readonly maxAge: number
  /** The age the copies were within 95 % of the time. */
  readonly p95Age: number
  readonly withinTarget: number
}

/** The age `a` at which the share of time with an age over `a` is `share`: the age is a ramp over each stale stretch. */
const ageQuantile = (measures: ReadonlyArray<{ readonly measure: Measure; readonly weight: number }>, share: number): number => {
  const time = measures.reduce((sum, { measure, weight }) => sum + weight * measure.seconds, 0)
  const over = (age: number) =>
    measures.reduce((sum, { measure, weight }) => sum + weight * measure.staleStretches.reduce((s, stretch) => s + overAge(stretch, age), 0), 0) / time
  if (time === 0 || over(0) <= share) return 0
  let low = 0
  let high = measures.reduce((most, { measure }) => Math.max(most, measure.maxAge), 0)
  for (let step = 0; step < 60; step++) {
    const middle = (low + high) / 2
    if (over(middle) > share) low = middle
    else high = middle
  }
  return high
}

/** The weighted means of several copies' measures, their greatest age and the 95th percentile of age over time. */
export const summarise = (measures: ReadonlyArray<{ readonly measure: Measure; readonly weight: number }>): Summary => {
  const weight = measures.reduce((sum, entry) => sum + entry.weight, 0)
  const mean = (of: (measure: Measure) => number, empty: number) =>
    weight === 0 ? empty : measures.reduce((sum, entry) => sum + entry.weight * of(entry.measure), 0) / weight
  return {
    freshness: mean((measure) => measure.freshness, 1),
    meanAge: mean((measure) => measure.meanAge, 0),
    maxAge: measures.reduce((most, { measure }) => Math.max(most, measure.maxAge), 0),
    p95Age: ageQuantile(measures, 0.05),
    withinTarget: mean((measure) => measure.withinTarget, 1)
  }
}
