/**
 * When each record of the simulated catalog changes: a Poisson process of
 * its own for every record of every collection and sub-resource family,
 * at a hidden rate drawn from a heavy-tailed (Pareto) distribution that the
 * seed fixes, so that most records change rarely and a few hourly, as the
 * keeper's benchmark needs them to. Every change time is a pure function
 * of the seed, the family and the record's index: the history of a record
 * up to any moment is the same however it is asked for, and it is the
 * truth a test measures a mirror's freshness against
 * (`rules/src/mirror/Freshness.ts`).
 *
 * Times are seconds of the simulator's clock since its start.
 *
 * @example
 * import { ChangeProcess } from "./Changes.js"
 *
 * const changes = new ChangeProcess(1)
 * changes.versionAt(0, 17, 86_400) // how many times model 17 changed in its first day
 *
 * @since 0.7.3
 */
import { Seeded } from "./Random.js"

/** The shape of the rates' tail: the share of records changing at least k times the slowest rate is k^(−0.8). */
const tailIndex = 0.8

/** The slowest records change about once in 60 days. */
const slowestPerSecond = 1 / (60 * 86_400)

/** The fastest change four times an hour. */
const fastestPerSecond = 4 / 3600

/** Salts of the change process, apart from those of the records' attributes. */
const rateSalt = 0x1_0000
const gapSalt = 0x2_0000

/**
 * The change process of one catalog.
 *
 * @since 0.7.3
 */
export class ChangeProcess {
  private readonly random: Seeded
  /** The change times generated so far, by family and record, each list in order. */
  private readonly generated = new Map<number, Map<number, Array<number>>>()

  constructor(readonly seed: number) {
    this.random = new Seeded(seed)
  }

  /** The hidden rate of record `index` of `family`, changes a second. */
  rateOf(family: number, index: number): number {
    // 1 − unit is in (0, 1], so the rate is finite.
    const draw = 1 - this.random.unit(rateSalt + family, index)
    return Math.min(fastestPerSecond, slowestPerSecond * Math.pow(draw, -1 / tailIndex))
  }

  /** The times the record changed, in order, up to and including `until`. */
  history(family: number, index: number, until: number): ReadonlyArray<number> {
    const times = this.timesThrough(family, index, until)
    return times.slice(0, this.countThrough(times, until))
  }

  /** How many times the record had changed by `at`: its version then, 0 before its first change. */
  versionAt(family: number, index: number, at: number): number {
    return this.countThrough(this.timesThrough(family, index, at), at)
  }

  /** The record's change times, generated until one falls after `until`. */
  private timesThrough(family: number, index: number, until: number): ReadonlyArray<number> {
    let byIndex = this.generated.get(family)
    if (byIndex === undefined) this.generated.set(family, byIndex = new Map())
    let times = byIndex.get(index)
    if (times === undefined) byIndex.set(index, times = [])
    const rate = this.rateOf(family, index)
    let last = times.at(-1) ?? 0
    while (last <= until) {
      last += -Math.log(1 - this.random.unit(gapSalt + family, index, times.length)) / rate
      times.push(last)
    }
    return times
  }

  /** How many of the ordered `times` are at or before `at`. */
  private countThrough(times: ReadonlyArray<number>, at: number): number {
    let low = 0
    let high = times.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if ((times[middle] ?? Infinity) <= at) low = middle + 1
      else high = middle
    }
    return low
  }
}
