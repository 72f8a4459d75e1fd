/**
 * When each record of the simulated catalog changes: a Poisson process of
 * its own for every record of every changing family, at a hidden rate drawn
 * from a heavy-tailed (Pareto) distribution that the seed fixes, so that
 * most records change rarely and a few hourly, as the keeper's benchmark
 * needs them to. Records are also added and removed, each family's at
 * rates of their own. Every time is a pure function of the seed, the
 * family and the record's index: the history of a record up to any moment
 * is the same however it is asked for, and it is the truth a test measures
 * a mirror's freshness against (`rules/src/mirror/Freshness.ts`).
 *
 * Under the `"daily"` pattern every rate follows one daily cycle (a
 * sinusoid between 0.2 and 1.8 times the rate) with an hour's burst of five
 * times the rate at a seeded hour of each day: the process runs on a clock
 * warped by the cumulative intensity, so each record's share of changes
 * stays its own.
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
import type { ChangePattern, ChangingFamily } from "../../../../rules/src/simulator/Settings.js"
import { Seeded } from "./Random.js"

/**
 * The change process's number of each changing family (a model's offers
 * share the model's index); a sibling's edits are drawn under its family's
 * number plus `siblingFamily`.
 *
 * @since 0.7.3
 */
export const familyNumbers: Readonly<Record<ChangingFamily, number>> = { models: 0, skills: 1, mcps: 2, modelOffers: 3 }

/** @since 0.7.3 */
export const siblingFamily = 16

/** The shape of the rates' tail: the share of records changing at least k times the slowest rate is k^(−0.8). */
const tailIndex = 0.8

/** The slowest records change about once in 60 days. */
const slowestPerSecond = 1 / (60 * 86_400)

/** The fastest change four times an hour. */
const fastestPerSecond = 4 / 3600

/** A record of a family is added, as the sibling of a slot, about once in 200 days a slot. */
const additionsPerSecond = 1 / (200 * 86_400)

/** A record is removed about once in 400 days. */
const deletionsPerSecond = 1 / (400 * 86_400)

const day = 86_400

/** The daily cycle's swing about the mean rate. */
const cycleSwing = 0.8

/** How much the burst hour adds to the rate, in multiples of it. */
const burstExtra = 4

/** Salts of the change process, apart from those of the records' attributes. */
const rateSalt = 0x1_0000
const gapSalt = 0x2_0000
const bornSalt = 0x3_0000
const diedSalt = 0x4_0000
const burstSalt = 0x5_0000

/**
 * The change process of one catalog.
 *
 * @since 0.7.3
 */
export class ChangeProcess {
  private readonly random: Seeded
  /** The change times generated so far, by family and record, each list in order, with the unwarped time of the last. */
  private readonly generated = new Map<number, Map<number, { readonly times: Array<number>; steady: number }>>()

  constructor(readonly seed: number, readonly pattern: ChangePattern = "steady") {
    this.random = new Seeded(seed)
  }

  /** The hidden rate of record `index` of `family`, changes a second (its mean, under the daily pattern). */
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

  /** When the record added at slot `index` of `family` appears (`Infinity`: never). */
  bornAt(family: number, index: number): number {
    return this.warp(this.exponential(bornSalt + family, index, additionsPerSecond))
  }

  /** When the record at slot `index` of `family` is removed (`Infinity`: never). */
  diedAt(family: number, index: number): number {
    return this.warp(this.exponential(diedSalt + family, index, deletionsPerSecond))
  }

  /** A seeded exponential draw at `rate`, in the process's own (unwarped) seconds. */
  private exponential(salt: number, index: number, rate: number, nth = 0): number {
    return -Math.log(1 - this.random.unit(salt, index, nth)) / rate
  }

  /** The record's change times, generated until one falls after `until`. */
  private timesThrough(family: number, index: number, until: number): ReadonlyArray<number> {
    let byIndex = this.generated.get(family)
    if (byIndex === undefined) this.generated.set(family, byIndex = new Map())
    let generated = byIndex.get(index)
    if (generated === undefined) byIndex.set(index, generated = { times: [], steady: 0 })
    const { times } = generated
    const rate = this.rateOf(family, index)
    while ((times.at(-1) ?? 0) <= until) {
      generated.steady += this.exponential(gapSalt + family, index, rate, times.length)
      times.push(this.warp(generated.steady))
    }
    return times
  }

  /** The hour of day `d`'s burst begins, seconds into the day. */
  private burstStart(d: number): number {
    return this.random.int(burstSalt, 23, d) * 3600
  }

  /** The cumulative intensity at `t`: the seconds a steady process would have run by then. */
  private intensity(t: number): number {
    if (this.pattern === "steady") return t
    const whole = Math.floor(t / day)
    const into = t - whole * day
    const start = this.burstStart(whole)
    const burst = whole * 3600 + Math.min(3600, Math.max(0, into - start))
    return t + (cycleSwing * day / (2 * Math.PI)) * (1 - Math.cos((2 * Math.PI * t) / day)) + burstExtra * burst
  }

  /** The time at which the cumulative intensity reaches `steady`: the warped clock's inverse. */
  private warp(steady: number): number {
    if (this.pattern === "steady" || !Number.isFinite(steady)) return steady
    // The intensity rises at least 0.2 and at most 1.8 + 4 a second.
    let low = steady / (1 + cycleSwing + burstExtra)
    let high = steady / (1 - cycleSwing)
    for (let step = 0; step < 60 && high - low > 1e-6; step++) {
      const middle = (low + high) / 2
      if (this.intensity(middle) < steady) low = middle
      else high = middle
    }
    return high
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
