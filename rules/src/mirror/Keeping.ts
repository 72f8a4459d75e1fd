/**
 * The keeper's bookkeeping, written once for both editions and the
 * benchmark: every element it keeps fresh (a walk of a collection's list,
 * or one sub-resource such as a model's offers), what each has shown of its
 * change rate, when each was last verified, and when each is due. Elements
 * wait in a priority queue by due time, and once due in one by deadline, so
 * a poll costs the same however many are kept; replanning prices them by rate buckets, so it costs the
 * same however many share a bucket.
 *
 * Rates are learned from the one bit each visit gives (a 200 or a 304), by
 * Cho and Garcia-Molina's estimator over the visits' mean interval
 * (`ChangeRate.estimateEqual`), shrunk towards the family's mean while an
 * element has few visits. A walk learns its items' rates from which of them
 * its pages found changed.
 *
 * An element's row (`rowOf`, `itemRowsOf`) is what a keeper's database
 * keeps of it; `restore` takes it back, so that a keeper started again goes
 * on with the schedule and rates the last one had, without a cold rescan.
 *
 * Times are seconds of the service's clock.
 *
 * Imports nothing of Effect.
 *
 * @example
 * import { Keeping } from "./Keeping.js"
 *
 * const keeping = new Keeping({ targets: { models: 3600, modelOffers: 86_400 }, secondsPerRequest: 1.2 })
 * keeping.track("models", "models", { pages: 30, items: 3000 }, -Infinity)
 * keeping.track("modelOffers", "acme/a1", undefined, 0)
 * keeping.next(0)?.element.key // "models": a walk never made is due at once
 */
import FlatQueue from "flatqueue"
import { estimateEqual } from "./ChangeRate.js"
import { type Budget, type Element, type Part, plan } from "./Revalidation.js"

/** What a keeper is asked to keep, and how fast it can ask. */
export interface Settings<Group extends string> {
  /** The longest each family may go unverified, seconds. */
  readonly targets: Readonly<Record<Group, number>>
  /** How long a request takes to be admitted and answered, on average: a walk of n pages takes about n of these. */
  readonly secondsPerRequest: number
  /** How long a cursor lives (default an hour): a walk's pages are fetched whole at least this often. */
  readonly cursorSeconds?: number
  /** Bytes a list's page answers with when it changed (default 60,000). */
  readonly bytesPerPage?: number
  /** Bytes a sub-resource answers with when it changed (default 4,000). */
  readonly bytesPerDetail?: number
}

/** A walk's shape: its pages and items as last seen. */
export interface Shape {
  readonly pages: number
  readonly items: number
}

/** Visits counted towards a rate: their number, how many found a change, and their seconds. */
interface Counts {
  visits: number
  changes: number
  seconds: number
}

/** One element the keeper keeps fresh. */
export interface Tracked<Group extends string = string> {
  readonly id: number
  /** What it is: a collection's name for a walk, a parent's id for a sub-resource. */
  readonly key: string
  readonly group: Group
  /** A walk's shape; none for a sub-resource. */
  shape: Shape | undefined
  /** When it was last verified (a walk: when its last complete walk began); `-Infinity` if never. */
  verifiedAt: number
  /** Its seconds between visits, as last planned (its family's target until then). */
  interval: number
  /** Whether its verification is a copy's the keeper did not make, and it has not visited it since. */
  fromCopy: boolean
  /** Not due before this: another keeper is visiting it (`postpone`). */
  heldUntil: number
  readonly counts: Counts
}

/**
 * An element as a keeper's database keeps it, so that a keeper started
 * again goes on where the last one stood: its verification, its interval
 * and what its visits have shown of its rate. Times are seconds; a walk has
 * its shape, a sub-resource none.
 */
export interface ElementRow<Group extends string = string> {
  readonly group: Group
  readonly key: string
  readonly pages: number | null
  readonly items: number | null
  /** `null` when never verified. */
  readonly verifiedAt: number | null
  readonly interval: number
  readonly visits: number
  readonly changes: number
  readonly seconds: number
}

/** What a walk's visits have shown of one of its items' rate, as a database keeps it. */
export interface ItemRow {
  readonly id: string
  readonly visits: number
  readonly changes: number
  readonly seconds: number
}

/** A family's figures: what the keeper reports of it and shows as metrics. */
export interface GroupReport {
  readonly group: string
  readonly target: number
  /** Elements kept in it. */
  readonly elements: number
  /** The age of its oldest verification (not the age of a change: that only the truth knows), seconds. */
  readonly oldestVerified: number
  /** When its next visit is due. */
  readonly nextDue: number
  /** Its elements' mean estimated change rate, changes a second (a walk: its items' mean). */
  readonly perSecond: number
  /** The age it promises: its target, or, when the targets do not fit, the longest its elements go unverified with every target stretched by one factor, late by the longest visit of another. */
  readonly promise: number
}

/** What a plan says of the targets. */
export interface Feasibility {
  readonly feasible: boolean
  /** The factor every target stretches by to fit (1 when feasible). */
  readonly stretch: number
  /** The ages promised, seconds, by family. */
  readonly promises: Readonly<Record<string, number>>
  /** What the plan spends, a second. */
  readonly spending: Budget
  /** The mean freshness it expects. */
  readonly freshness: number
}

/** What is left of the account for the keeper, as the live allowance and the windows give it. */
export interface Allowance {
  /** The share of the account the keeper may spend (0.9 leaves a tenth to its other users). */
  readonly share: number
  readonly dailyUnits: number
  readonly unitsUsed: number
  readonly dailyBytes: number
  readonly bytesUsed: number
  /** Seconds until the day's allowance is reset. */
  readonly secondsToReset: number
  /** The requests the account's windows admit a second, the tightest of them. */
  readonly requestsPerSecond: number
}

/** Requests are planned at this share of the keeper's windows: the rest absorbs lateness. */
export const requestsMargin = 0.8
/** Units and bytes are planned at this share of what is left today. */
export const unitsMargin = 0.93

/**
 * What the keeper may spend a second: its share of the windows, and of the
 * units and bytes left today (leaving the others their share) over the
 * day's rest, counted as at least an hour and at most a day (a reset
 * further off is a clock that is not the service's).
 */
export const budgetOf = (allowance: Allowance): Budget => {
  const left = Math.min(86_400, Math.max(3600, allowance.secondsToReset))
  const spare = spareOf(allowance)
  return {
    requestsPerSecond: requestsMargin * allowance.share * allowance.requestsPerSecond,
    unitsPerSecond: (unitsMargin * spare.units) / left,
    bytesPerSecond: (unitsMargin * spare.bytes) / left
  }
}

/** The units and bytes left today to the keeper's share, the others' share left to them; none once it is spent. */
export const spareOf = (allowance: Allowance): { readonly units: number; readonly bytes: number } => {
  const spare = (limit: number, used: number) => Math.max(0, limit - used - (1 - allowance.share) * limit)
  return { units: spare(allowance.dailyUnits, allowance.unitsUsed), bytes: spare(allowance.dailyBytes, allowance.bytesUsed) }
}

const halfOctaves = 2
/** Visits beyond this halve the counts, so that a rate that moves is followed. */
const remembered = 64
/** Visits an element's own counts weigh against its family's mean. */
const priorVisits = 2
/** The rate assumed of a family before anything of it was seen: once a day. */
const priorPerSecond = 1 / 86_400
/** The share of a target kept back for lateness: a poll may wait for admission. */
const targetMargin = 0.95

/** The share of its first interval after which element `id` first comes due: evenly spread over (0, 1] by the golden ratio's sequence. */
const firstShare = (id: number): number => 1 - ((id * 0.6180339887498949) % 1)

/** The rate bucket of a rate: half-octaves of changes a day. */
const bucketOf = (perSecond: number): number =>
  perSecond <= 0 ? -Infinity : Math.round(halfOctaves * Math.log2(perSecond * 86_400))

const bump = (counts: Counts, seconds: number, changed: boolean) => {
  counts.visits++
  counts.seconds += seconds
  if (changed) counts.changes++
  if (counts.visits > remembered) {
    counts.visits /= 2
    counts.changes /= 2
    counts.seconds /= 2
  }
}

const rateOf = (counts: Counts): number =>
  counts.visits === 0 ? 0 : estimateEqual(counts.visits, Math.min(counts.changes, counts.visits), counts.seconds / counts.visits)

/** The estimate shrunk towards `prior` while the counts are few. */
const shrunk = (counts: Counts, prior: number): number =>
  (rateOf(counts) * counts.visits + prior * priorVisits) / (counts.visits + priorVisits)

/**
 * The keeper's elements, their rates and their schedule.
 *
 * @since 0.7.3
 */
export class Keeping<Group extends string = string> {
  private readonly byKey = new Map<string, Tracked<Group>>()
  private readonly byId: Array<Tracked<Group> | undefined> = []
  private readonly free: Array<number> = []
  /** Elements not yet due, by due time. */
  private readonly queue = new FlatQueue<number>()
  /** Elements due, by deadline. */
  private readonly ready = new FlatQueue<number>()
  /** Each walk's items' counts, by walk key and item id. */
  private readonly itemCounts = new Map<string, Map<string, Counts>>()
  /** Each family's mean rate among elements with visits, as of the last replan: the prior of its new elements. */
  private readonly priors = new Map<Group, number>()
  /** The ages promised by the last plan, by family. */
  private promises: Readonly<Record<string, number>> = {}
  /** Rates that stand in for the learned ones (the benchmark's oracle): an element's parts, one for a sub-resource. */
  private known: ((element: Tracked<Group>) => ReadonlyArray<Part>) | undefined

  constructor(readonly settings: Settings<Group>) {}

  private keyOf(group: Group, key: string) {
    return `${group}\u0000${key}`
  }

  /** Starts keeping an element (again, if it was kept before: its rates and verification stay). */
  track(group: Group, key: string, shape: Shape | undefined, verifiedAt: number): Tracked<Group> {
    const found = this.byKey.get(this.keyOf(group, key))
    if (found !== undefined) {
      if (shape !== undefined) found.shape = shape
      return found
    }
    const id = this.free.pop() ?? this.byId.length
    const element: Tracked<Group> = {
      id,
      key,
      group,
      shape,
      verifiedAt,
      interval: this.settings.targets[group],
      fromCopy: verifiedAt !== -Infinity,
      heldUntil: -Infinity,
      counts: { visits: 0, changes: 0, seconds: 0 }
    }
    this.byId[id] = element
    this.byKey.set(this.keyOf(group, key), element)
    this.queue.push(id, this.dueOf(element))
    return element
  }

  /** An element as its row: what `restore` takes back. */
  rowOf(element: Tracked<Group>): ElementRow<Group> {
    const { changes, seconds, visits } = element.counts
    return {
      group: element.group,
      key: element.key,
      pages: element.shape?.pages ?? null,
      items: element.shape?.items ?? null,
      verifiedAt: element.verifiedAt === -Infinity ? null : element.verifiedAt,
      interval: element.interval,
      visits,
      changes,
      seconds
    }
  }

  /** A walk's items' counts, as rows. */
  itemRowsOf(walk: Tracked<Group>): ReadonlyArray<ItemRow> {
    return [...this.itemCounts.get(walk.key) ?? []].map(([id, counts]) => ({ id, ...counts }))
  }

  /** Keeps an element as a row recorded it (with its walk's items' rows), as `track` would, its visits and interval as they were. */
  restore(row: ElementRow<Group>, items: ReadonlyArray<ItemRow> = []): Tracked<Group> {
    const shape = row.pages === null || row.items === null ? undefined : { pages: row.pages, items: row.items }
    const element = this.track(row.group, row.key, shape, row.verifiedAt ?? -Infinity)
    // Verified since it was held back: the keeper that held it is done.
    if ((row.verifiedAt ?? -Infinity) > element.verifiedAt) element.heldUntil = -Infinity
    element.verifiedAt = row.verifiedAt ?? -Infinity
    element.interval = row.interval
    // Nothing visited yet but verified: a copy's verification (or the first visit of one never verified, spread as well: due a little early).
    element.fromCopy = row.visits === 0 && row.verifiedAt !== null
    Object.assign(element.counts, { visits: row.visits, changes: row.changes, seconds: row.seconds })
    if (items.length > 0) {
      this.itemCounts.set(row.key, new Map(items.map((item) => [item.id, { visits: item.visits, changes: item.changes, seconds: item.seconds }])))
    }
    this.queue.push(element.id, this.dueOf(element))
    return element
  }

  /** Every element kept. */
  elements(): IterableIterator<Tracked<Group>> {
    return this.byKey.values()
  }

  /** Stops keeping an element (its parent is gone). */
  untrack(group: Group, key: string): void {
    const element = this.byKey.get(this.keyOf(group, key))
    if (element === undefined) return
    this.byKey.delete(this.keyOf(group, key))
    this.byId[element.id] = undefined
    this.itemCounts.delete(key)
    // Its entry in the queue is dropped when it comes up.
    this.free.push(element.id)
  }

  find(group: Group, key: string): Tracked<Group> | undefined {
    return this.byKey.get(this.keyOf(group, key))
  }

  get size(): number {
    return this.byKey.size
  }

  /**
   * When an element is next due: at once if never verified, else its
   * interval after its last verification. Elements not yet visited by the
   * keeper (a copy made by one sync, all verified at about one time) come
   * due spread over their first interval, each at its own share of it:
   * otherwise they would all come due at once, again every interval, a
   * burst that crowds out everything else.
   */
  dueOf(element: Tracked<Group>): number {
    return Math.max(element.heldUntil, this.plannedDueOf(element))
  }

  private plannedDueOf(element: Tracked<Group>): number {
    if (element.verifiedAt === -Infinity) return -Infinity
    if (element.fromCopy) return element.verifiedAt + element.interval * firstShare(element.id)
    return element.verifiedAt + element.interval
  }

  /** Holds an element back until `until`: another keeper is visiting it, and what it finds is read back then. */
  postpone(element: Tracked<Group>, until: number): void {
    element.heldUntil = until
    this.queue.push(element.id, this.dueOf(element))
  }

  /** When an element must have been verified again to keep its family's promise. */
  deadlineOf(element: Tracked<Group>): number {
    if (element.verifiedAt === -Infinity) return -Infinity
    return element.verifiedAt + (this.promises[element.group] ?? this.settings.targets[element.group])
  }

  /**
   * What to visit at `now`: of the elements due by then, the one whose
   * deadline is nearest (so a walk with little slack does not wait behind
   * sub-resources that came due earlier with more); when none is due, the
   * one due soonest, and when. `undefined` when none is kept.
   */
  next(now: number): { readonly element: Tracked<Group>; readonly due: number } | undefined {
    for (;;) {
      const id = this.queue.peek()
      if (id === undefined) break
      const queued = this.queue.peekValue() ?? 0
      if (queued > now) break
      this.queue.pop()
      const element = this.byId[id]
      if (element === undefined) continue
      const due = this.dueOf(element)
      // A visit moved it later: its entry moves with it.
      if (due !== queued) this.queue.push(id, due)
      else this.ready.push(id, this.deadlineOf(element))
    }
    for (;;) {
      const id = this.ready.peek()
      if (id === undefined) break
      const element = this.byId[id]
      // An entry is stale once its element is gone or was visited since (a visit queues it by due time again).
      if (element === undefined || this.ready.peekValue() !== this.deadlineOf(element) || this.dueOf(element) > now) {
        this.ready.pop()
        continue
      }
      return { element, due: this.dueOf(element) }
    }
    for (;;) {
      const id = this.queue.peek()
      if (id === undefined) return undefined
      const element = this.byId[id]
      if (element === undefined) {
        this.queue.pop()
        continue
      }
      const due = this.dueOf(element)
      if (due !== this.queue.peekValue()) {
        this.queue.pop()
        this.queue.push(id, due)
        continue
      }
      return { element, due }
    }
  }

  /** Records a visit begun at `at` that found the element changed (a 200) or not (a 304), and schedules the next. */
  visited(element: Tracked<Group>, at: number, changed: boolean): void {
    if (element.verifiedAt !== -Infinity && at > element.verifiedAt) bump(element.counts, at - element.verifiedAt, changed)
    element.verifiedAt = at
    element.fromCopy = false
    element.heldUntil = -Infinity
    this.queue.push(element.id, this.dueOf(element))
  }

  /** Records what a walk's page found of its items: each one's change bit, for its seconds since its last visit. */
  itemsSeen(walk: Tracked<Group>, items: ReadonlyArray<readonly [id: string, changed: boolean]>, seconds: number): void {
    let counts = this.itemCounts.get(walk.key)
    if (counts === undefined) this.itemCounts.set(walk.key, counts = new Map())
    for (const [id, changed] of items) {
      let item = counts.get(id)
      if (item === undefined) counts.set(id, item = { visits: 0, changes: 0, seconds: 0 })
      if (seconds > 0 && Number.isFinite(seconds)) bump(item, seconds, changed)
    }
  }

  /** Forgets an item of a walk (it was removed). */
  itemGone(walk: Tracked<Group>, id: string): void {
    this.itemCounts.get(walk.key)?.delete(id)
  }

  /** Replaces learned rates with given ones: the benchmark's oracle knows them. */
  useKnownRates(rates: (element: Tracked<Group>) => ReadonlyArray<Part>): void {
    this.known = rates
  }

  private priorOf(group: Group): number {
    return this.priors.get(group) ?? priorPerSecond
  }

  /** Each family's mean rate over its elements that have been visited. */
  private updatePriors() {
    const sums = new Map<Group, { sum: number; count: number }>()
    for (const element of this.byKey.values()) {
      if (element.shape !== undefined || element.counts.visits === 0) continue
      const entry = sums.get(element.group) ?? { sum: 0, count: 0 }
      entry.sum += rateOf(element.counts)
      entry.count++
      sums.set(element.group, entry)
    }
    for (const [group, { count, sum }] of sums) this.priors.set(group, sum / count)
  }

  /** An element's estimated rate, changes a second. */
  rateOf(element: Tracked<Group>): number {
    return shrunk(element.counts, this.priorOf(element.group))
  }

  /** A walk's items by rate bucket, each bucket at its members' mean rate. */
  private itemParts(walk: Tracked<Group>): ReadonlyArray<Part> {
    const counts = this.itemCounts.get(walk.key)
    const items = walk.shape?.items ?? 0
    if (counts === undefined || counts.size === 0) return [{ weight: Math.max(1, items), perSecond: priorPerSecond * 0.2 }]
    const prior = [...counts.values()].reduce((sum, item) => sum + rateOf(item), 0) / counts.size
    const buckets = new Map<number, { weight: number; sum: number }>()
    for (const item of counts.values()) {
      const rate = shrunk(item, prior)
      const bucket = bucketOf(rate)
      const entry = buckets.get(bucket) ?? { weight: 0, sum: 0 }
      entry.weight++
      entry.sum += rate
      buckets.set(bucket, entry)
    }
    return [...buckets.values()].map(({ sum, weight }) => ({ weight, perSecond: sum / weight }))
  }

  /** The planning elements: walks one each, sub-resources by family and rate bucket. */
  private planned(): {
    readonly elements: ReadonlyArray<Element>
    readonly members: ReadonlyArray<ReadonlyArray<Tracked<Group>>>
    /** How long after its visit begins each element is verified: a walk's pages, a sub-resource's one request. */
    readonly leads: ReadonlyArray<number>
  } {
    const { bytesPerDetail = 4000, bytesPerPage = 60_000, cursorSeconds = 3600, secondsPerRequest } = this.settings
    const elements: Array<Element> = []
    const members: Array<ReadonlyArray<Tracked<Group>>> = []
    const leads: Array<number> = []
    const buckets = new Map<string, { readonly group: Group; readonly members: Array<Tracked<Group>>; sum: number }>()
    for (const element of this.byKey.values()) {
      const target = this.settings.targets[element.group]
      const known = this.known?.(element)
      if (element.shape !== undefined) {
        const { pages } = element.shape
        const items = known ?? this.itemParts(element)
        const lead = pages * secondsPerRequest
        elements.push({
          group: element.group,
          weight: element.shape.items,
          // Its pages change with any of their items.
          perSecond: items.reduce((sum, part) => sum + part.weight * part.perSecond, 0) / Math.max(1, pages),
          requests: pages,
          units: pages,
          bytes: pages * bytesPerPage,
          target: Math.max(lead, target * targetMargin - lead),
          items,
          renewEvery: cursorSeconds - lead
        })
        members.push([element])
        leads.push(lead)
        continue
      }
      const rate = known === undefined ? this.rateOf(element) : (known[0]?.perSecond ?? 0)
      const key = `${element.group}\u0000${bucketOf(rate)}`
      let bucket = buckets.get(key)
      if (bucket === undefined) buckets.set(key, bucket = { group: element.group, members: [], sum: 0 })
      bucket.members.push(element)
      bucket.sum += rate
    }
    for (const bucket of buckets.values()) {
      const n = bucket.members.length
      elements.push({
        group: bucket.group,
        weight: n,
        perSecond: bucket.sum / n,
        requests: n,
        units: n,
        bytes: n * bytesPerDetail,
        target: this.settings.targets[bucket.group] * targetMargin - secondsPerRequest
      })
      members.push(bucket.members)
      leads.push(secondsPerRequest)
    }
    return { elements, members, leads }
  }

  /**
   * Plans every element's interval within `budget` (what the keeper may
   * spend, a second), and says whether the targets fit and what it
   * promises: when they do not, every target stretched by one factor.
   */
  replan(budget: Budget): Feasibility {
    this.updatePriors()
    const { elements, leads, members } = this.planned()
    const planned = plan(elements, budget)
    planned.intervals.forEach((interval, i) => {
      for (const element of members[i] ?? []) element.interval = Math.max(1, interval)
    })
    this.requeue()
    // The age promised is the longest an element goes unverified as planned, and then late: a visit begun waits for
    // none but the one under way (a walk is not cut short), so an element is late by at most the longest other lead.
    const [longestLead = 0, nextLead = 0] = [...leads].sort((a, b) => b - a)
    const longest = new Map<string, number>()
    elements.forEach((element, i) => {
      const lead = leads[i] ?? 0
      const age = Math.min(planned.intervals[i] ?? Infinity, element.target * planned.stretch) + (lead === longestLead ? nextLead : longestLead)
      longest.set(element.group, Math.max(longest.get(element.group) ?? 0, age))
    })
    const promises: Record<string, number> = {}
    for (const [group, target] of Object.entries<number>(this.settings.targets)) {
      promises[group] = planned.feasible ? target : longest.get(group) ?? target * planned.stretch
    }
    this.promises = promises
    return { feasible: planned.feasible, stretch: planned.stretch, promises, spending: planned.spending, freshness: planned.freshness }
  }

  /** Sets every element's interval by a rule of the caller's instead of the plan (a benchmark's baselines). */
  intervalsBy(intervalOf: (element: Tracked<Group>) => number): void {
    for (const element of this.byKey.values()) element.interval = Math.max(1, intervalOf(element))
    this.requeue()
  }

  /** Queues every element at its due time again: intervals that shrank would otherwise wait at their old due times. */
  private requeue() {
    this.queue.clear()
    this.ready.clear()
    for (const element of this.byKey.values()) this.queue.push(element.id, this.dueOf(element))
  }

  /** The age promised for a family by the last plan: its target until one is made. */
  promiseOf(group: Group): number {
    return this.promises[group] ?? this.settings.targets[group]
  }

  /** Per family: its oldest verification, next due, mean rate and promise, at `now`. */
  report(now: number): ReadonlyArray<GroupReport> {
    const groups = new Map<Group, { elements: number; oldest: number; next: number; rate: number }>()
    for (const element of this.byKey.values()) {
      const entry = groups.get(element.group) ?? { elements: 0, oldest: now, next: Infinity, rate: 0 }
      entry.elements++
      entry.oldest = Math.min(entry.oldest, element.verifiedAt)
      entry.next = Math.min(entry.next, this.dueOf(element))
      const parts = element.shape === undefined ? undefined : this.itemParts(element)
      entry.rate += parts === undefined
        ? this.rateOf(element)
        : parts.reduce((sum, part) => sum + part.weight * part.perSecond, 0) / parts.reduce((sum, part) => sum + part.weight, 0)
      groups.set(element.group, entry)
    }
    return [...groups].map(([group, entry]) => ({
      group,
      target: this.settings.targets[group],
      elements: entry.elements,
      oldestVerified: now - entry.oldest,
      nextDue: entry.next,
      perSecond: entry.rate / entry.elements,
      promise: this.promises[group] ?? this.settings.targets[group]
    }))
  }
}
