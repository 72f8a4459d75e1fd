/**
 * A collection of generated records kept in ascending id order, where each
 * slot holds a base record and, under churn, a sibling inserted during a scan.
 * Churn is a pure function of the seed and the catalog's epoch (the count of
 * list pages served), so what existed when is always known.
 *
 * @since 0.1.0
 */
import type { Compare } from "./Collation.js"
import type { Churn, Lifetime } from "../../../../rules/src/simulator/Settings.js"
import type { Seeded } from "./Random.js"

export type { Churn, Lifetime }

const forever: Lifetime = { born: 0, died: Number.POSITIVE_INFINITY }
const never: Lifetime = { born: Number.POSITIVE_INFINITY, died: Number.POSITIVE_INFINITY }

/**
 * The lowest index in `[0, count)` at which a monotonic predicate holds, or
 * `count` if it holds nowhere.
 *
 * @since 0.1.0
 */
export const firstIndex = (count: number, holds: (index: number) => boolean): number => {
  let low = 0
  let high = count
  while (low < high) {
    const middle = (low + high) >>> 1
    if (holds(middle)) high = middle
    else low = middle + 1
  }
  return low
}

/**
 * The lowest index whose value is above `after`, for values ascending with
 * the index in the order `compare`.
 *
 * @since 0.1.0
 */
export const firstAbove = (count: number, valueAt: (index: number) => string, after: string, compare: Compare): number =>
  firstIndex(count, (index) => compare(valueAt(index), after) > 0)

/**
 * What the change process says of a slot at the simulator's present
 * moment (`Catalog`, which knows the time): its edits so far, and whether
 * its record (the base one, or the sibling added beside it) exists.
 *
 * @since 0.7.3
 */
export interface Timeline {
  readonly edits: (index: number, sibling: boolean) => number
  readonly exists: (index: number, sibling: boolean) => boolean
}

/**
 * Slots of one kind of record.
 *
 * @since 0.1.0
 */
export class Slots<A extends { readonly id: string }> {
  constructor(
    private readonly random: Seeded,
    private readonly salt: number,
    readonly count: number,
    readonly baseId: (index: number) => string,
    private readonly siblingSuffix: string,
    private readonly build: (index: number, id: string, version: number) => A,
    private readonly churn: () => Churn,
    private readonly compare: Compare,
    private readonly timeline?: Timeline
  ) {}

  /** Whether a slot can hold a sibling: under churn, or when records are added over time. */
  private get siblings(): boolean {
    return this.churn().rate > 0 || this.timeline !== undefined
  }

  siblingId(index: number): string {
    return `${this.baseId(index)}${this.siblingSuffix}`
  }

  lifetime(index: number, sibling: boolean): Lifetime {
    const { horizon, rate } = this.churn()
    if (rate <= 0) return sibling ? never : forever
    const r = this.random
    if (sibling) {
      return r.unit(this.salt, index, 2) < rate / 2 ? { born: 1 + r.int(this.salt, horizon, index, 3), died: forever.died } : never
    }
    return r.unit(this.salt, index, 1) < rate / 2 ? { born: 0, died: 1 + r.int(this.salt, horizon, index, 4) } : forever
  }

  /** Edits: under churn a share of records changes once, at some epoch; over time, as often as the change process says. */
  version(index: number, sibling: boolean, epoch: number): number {
    const { horizon, rate } = this.churn()
    const r = this.random
    const churned = rate > 0 && r.unit(this.salt, index, 5) < rate / 2 && epoch >= 1 + r.int(this.salt, horizon, index, 6) ? 1 : 0
    return churned + (this.timeline?.edits(index, sibling) ?? 0)
  }

  /** A base record exists while churn and time both keep it; a sibling once either has added it. */
  private exists(index: number, sibling: boolean, epoch: number): boolean {
    const { born, died } = this.lifetime(index, sibling)
    const churned = born <= epoch && epoch < died
    if (this.timeline === undefined) return churned
    const timed = this.timeline.exists(index, sibling)
    return sibling ? churned || timed : churned && timed
  }

  private make(index: number, sibling: boolean, epoch: number): A {
    return this.build(index, sibling ? this.siblingId(index) : this.baseId(index), this.version(index, sibling, epoch))
  }

  /**
   * The records with an id above `after`, in ascending id order, as they are
   * at `epoch`, among the slots from `from` (inclusive) to `to` (exclusive)
   * that `keep` accepts.
   */
  *scan(
    after: string | null,
    epoch: number,
    keep: (index: number) => boolean = () => true,
    from = 0,
    to = this.count
  ): Generator<A> {
    const start = after === null ? from : Math.max(from, firstAbove(to, (i) => this.siblingId(i), after, this.compare))
    for (let index = start; index < to; index++) {
      if (!keep(index)) continue
      if ((after === null || this.compare(this.baseId(index), after) > 0) && this.exists(index, false, epoch)) {
        yield this.make(index, false, epoch)
      }
      if (this.siblings && this.exists(index, true, epoch)) yield this.make(index, true, epoch)
    }
  }

  /** The slot and variant of an id, whether or not it exists now. */
  locate(id: string): { readonly index: number; readonly sibling: boolean } | undefined {
    const index = firstAbove(this.count, (i) => this.baseId(i), id, this.compare) - 1
    if (index < 0) return undefined
    if (this.baseId(index) === id) return { index, sibling: false }
    if (this.siblings && this.siblingId(index) === id) return { index, sibling: true }
    return undefined
  }

  /** The record with this id as it is at `epoch`, if it exists then. */
  find(id: string, epoch: number): A | undefined {
    const slot = this.locate(id)
    return slot && this.exists(slot.index, slot.sibling, epoch) ? this.make(slot.index, slot.sibling, epoch) : undefined
  }

  /** When the record with this id exists (for tests of scans under churn). */
  lifetimeOf(id: string): Lifetime | undefined {
    const slot = this.locate(id)
    return slot && this.lifetime(slot.index, slot.sibling)
  }
}
