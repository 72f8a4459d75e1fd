/**
 * Benchmark 11, the keeper's policy, in a discrete-event run: the shared
 * planning rules (`rules/src/mirror/Keeping`, `Walk`, `Revalidation`) keep a
 * mirror of the default catalog (3,000 models, 1,500 Skills, 600 MCP
 * servers, every model's offers) against the simulator's own change process
 * (`tools/src/simulator/data/Changes`), days in seconds, under the account's
 * windows and 10,000 units a day, beside four baselines under the same
 * budgets: a cron full rescan at the interval its units allow, uniform
 * revalidation, revalidation proportional to the true rates, and an oracle
 * that plans with the true rates. Freshness and age are measured against
 * each record's true history (`rules/src/mirror/Freshness`).
 *
 * Lists are walked page by page as the service pages them (100 items after
 * the last page's last id), each page revalidated by its ETag while its
 * cursor lives; a page answers 304 exactly when its items and their versions
 * are those of its last 200. A deletion is committed when a complete walk
 * no longer finds the record.
 *
 *   npx tsx bench/run.ts keeper
 */
import { measure, type Measure, summarise, type Summary } from "../rules/src/mirror/Freshness.js"
import { budgetOf, type Feasibility, Keeping, requestsMargin, type Tracked, unitsMargin } from "../rules/src/mirror/Keeping.js"
import { type Budget, type Element, type Part, spending } from "../rules/src/mirror/Revalidation.js"
import { WalkPages } from "../rules/src/mirror/Walk.js"
import type { ChangePattern } from "../rules/src/simulator/Settings.js"
import { ChangeProcess, familyNumbers, siblingFamily } from "../tools/src/simulator/data/Changes.js"
import { defaultSizes, Records } from "../tools/src/simulator/data/Records.js"
import { type Benchmark, figure, round } from "./support.js"

const minute = 60
const hour = 3600
const day = 86_400

type Family = "models" | "skills" | "mcps" | "modelOffers"
type ListFamily = Exclude<Family, "modelOffers">
const lists: ReadonlyArray<ListFamily> = ["models", "skills", "mcps"]
const families: ReadonlyArray<Family> = [...lists, "modelOffers"]
const isList = (family: Family): family is ListFamily => family !== "modelOffers"

// The account and the keeper's share of it ------------------------------------

const unitsPerDay = 10_000
const bytesPerDay = 250 * 1024 * 1024
/** The keeper leaves 10 % of the account to its other users. */
const share = 0.9
const plannedRequestsPerSecond = requestsMargin * share
const pageSize = 100
const bytesPerPage = 60_000
const bytesPerDetail = 4_000
const cursorSeconds = hour
const secondsPerAnswer = 0.05
const replanEvery = 15 * minute

/**
 * The account's windows and day as the service counts them: each request is
 * admitted at the first moment the share's windows (9 in 10 s, 54 in 60 s)
 * allow it, and the service's own (10 and 60) are checked, so a 429 would
 * be counted.
 */
class Account {
  private readonly sent: Array<number> = []
  requests = 0
  notModified = 0
  units = 0
  bytes = 0
  tooMany = 0
  unitsToday = 0
  bytesToday = 0
  waitedForReset = 0
  private today = 0

  /** When a request asked for at `now` goes out. */
  admit(now: number): number {
    let at = now
    const n = this.sent.length
    at = Math.max(at, (this.sent[n - 9] ?? -Infinity) + 10, (this.sent[n - 54] ?? -Infinity) + 60)
    if (Math.floor(at / day) !== this.today) this.resetTo(Math.floor(at / day))
    if (this.unitsToday + 1 > share * unitsPerDay || this.bytesToday + bytesPerPage > share * bytesPerDay) {
      this.waitedForReset++
      at = (this.today + 1) * day
      this.resetTo(this.today + 1)
    }
    if ((this.sent[n - 10] ?? -Infinity) > at - 10 || (this.sent[n - 60] ?? -Infinity) > at - 60) this.tooMany++
    this.sent.push(at)
    if (this.sent.length > 256) this.sent.splice(0, 128)
    this.requests++
    return at
  }

  private resetTo(today: number) {
    this.today = today
    this.unitsToday = 0
    this.bytesToday = 0
  }

  answered(status: 200 | 304, bytes: number) {
    if (status === 304) {
      this.notModified++
      return
    }
    this.units++
    this.unitsToday++
    this.bytes += bytes
    this.bytesToday += bytes
  }

  /** What may be spent a second from `now` on: the planned requests, and the units and bytes left today over the day's rest. */
  budget(now: number): Budget {
    return budgetOf({
      share,
      dailyUnits: unitsPerDay,
      unitsUsed: this.unitsToday,
      dailyBytes: bytesPerDay,
      bytesUsed: this.bytesToday,
      secondsToReset: (this.today + 1) * day - now,
      requestsPerSecond: 1
    })
  }
}

// The world: the simulator's change process over the default catalog --------

/**
 * One list's records as the simulator keeps them: key 2i is slot i's
 * record, alive from the start until its deletion; key 2i + 1 its sibling,
 * alive from its addition on. Keys in order are the list's order.
 */
class ListWorld {
  readonly keys: number
  readonly born: Float64Array
  readonly died: Float64Array

  constructor(readonly changes: ChangeProcess, readonly family: number, slots: number) {
    this.keys = 2 * slots
    this.born = new Float64Array(this.keys)
    this.died = new Float64Array(this.keys)
    for (let i = 0; i < slots; i++) {
      this.born[2 * i] = 0
      this.died[2 * i] = changes.diedAt(family, i)
      this.born[2 * i + 1] = changes.bornAt(family, i)
      this.died[2 * i + 1] = Infinity
    }
  }

  alive(key: number, at: number): boolean {
    return (this.born[key] ?? Infinity) <= at && (this.died[key] ?? 0) > at
  }

  private edited(key: number): number {
    return key % 2 === 1 ? this.family + siblingFamily : this.family
  }

  version(key: number, at: number): number {
    return this.changes.versionAt(this.edited(key), key >> 1, at)
  }

  rate(key: number): number {
    return this.changes.rateOf(this.edited(key), key >> 1)
  }

  edits(key: number, until: number): ReadonlyArray<number> {
    return this.changes.history(this.edited(key), key >> 1, until)
  }

  /** The page after key `after` at `at`: up to 100 alive keys, their versions, and whether more follow. */
  page(after: number, at: number): { readonly keys: ReadonlyArray<number>; readonly versions: ReadonlyArray<number>; readonly last: boolean } {
    const keys: Array<number> = []
    const versions: Array<number> = []
    let key = after + 1
    for (; key < this.keys && keys.length < pageSize; key++) {
      if (!this.alive(key, at)) continue
      keys.push(key)
      versions.push(this.version(key, at))
    }
    while (key < this.keys && !this.alive(key, at)) key++
    return { keys, versions, last: key >= this.keys }
  }

  count(at: number): number {
    let alive = 0
    for (let key = 0; key < this.keys; key++) if (this.alive(key, at)) alive++
    return alive
  }
}

/** The catalog's records and their changes for one seed and pattern. */
class World {
  readonly changes: ChangeProcess
  readonly records: Records
  readonly lists: Readonly<Record<ListFamily, ListWorld>>

  constructor(readonly seed: number, pattern: ChangePattern) {
    this.changes = new ChangeProcess(seed, pattern)
    this.records = new Records(seed, defaultSizes, "https://catalog.example")
    this.lists = {
      models: new ListWorld(this.changes, familyNumbers.models, defaultSizes.models),
      skills: new ListWorld(this.changes, familyNumbers.skills, defaultSizes.skills),
      mcps: new ListWorld(this.changes, familyNumbers.mcps, defaultSizes.mcps)
    }
  }

  /** A model's offers (by the model's key) change with their own history; a model without offers has an empty list that never changes. */
  offersVersion(model: number, at: number): number {
    return this.records.offerCount(model >> 1) === 0 ? 0 : this.changes.versionAt(familyNumbers.modelOffers, model >> 1, at)
  }

  offersRate(model: number): number {
    return this.records.offerCount(model >> 1) === 0 ? 0 : this.changes.rateOf(familyNumbers.modelOffers, model >> 1)
  }

  offersEdits(model: number, until: number): ReadonlyArray<number> {
    return this.records.offerCount(model >> 1) === 0 ? [] : this.changes.history(familyNumbers.modelOffers, model >> 1, until)
  }
}

// The mirror and what the truth needs of it -----------------------------------

/** One family's copy: each record's version as copied, every verification of it, and when its deletion was committed. */
class Copy {
  readonly version = new Map<number, number>()
  readonly verified = new Map<number, Array<number>>()
  readonly committedGone = new Map<number, number>()

  verify(key: number, at: number) {
    let times = this.verified.get(key)
    if (times === undefined) this.verified.set(key, times = [])
    times.push(at)
  }
}

interface Mirror {
  readonly copies: Readonly<Record<Family, Copy>>
}

const startingMirror = (world: World): Mirror => {
  const copies = { models: new Copy(), skills: new Copy(), mcps: new Copy(), modelOffers: new Copy() }
  for (const family of lists) {
    const list = world.lists[family]
    for (let key = 0; key < list.keys; key++) {
      if (!list.alive(key, 0)) continue
      copies[family].version.set(key, list.version(key, 0))
      if (family === "models") copies.modelOffers.version.set(key, world.offersVersion(key, 0))
    }
  }
  return { copies }
}

// Policies -----------------------------------------------------------------

type Targets = Readonly<Record<Family, number>>

interface Scenario {
  readonly name: string
  readonly pattern: ChangePattern
  readonly targets: Targets
  /** Whether the targets are meant to fit: a feasible scenario's targets must be met, an infeasible one's promises come true. */
  readonly feasible: boolean
}

type PolicyName = "keeper" | "oracle" | "uniform" | "proportional" | "cron"
const policies: ReadonlyArray<PolicyName> = ["keeper", "oracle", "uniform", "proportional", "cron"]

/** What a run leaves to be measured. */
interface Run {
  readonly account: Account
  readonly mirror: Mirror
  readonly end: number
  /** The last plan's feasibility (the scheduled policies). */
  readonly feasibility: Feasibility | undefined
  /** Estimated against true rates, the keeper's: each tracked offers list's. */
  readonly rates: ReadonlyArray<readonly [estimated: number, truth: number]>
  readonly expiredCursors: number
  readonly seconds: number
}

const bucketOf = (perSecond: number) => (perSecond <= 0 ? -Infinity : Math.round(2 * Math.log2(perSecond * day)))

/** A list's alive records' true rates, by half-octave bucket. */
const trueParts = (list: ListWorld, at: number): ReadonlyArray<Part> => {
  const buckets = new Map<number, { weight: number; sum: number }>()
  for (let key = 0; key < list.keys; key++) {
    if (!list.alive(key, at)) continue
    const rate = list.rate(key)
    const entry = buckets.get(bucketOf(rate)) ?? { weight: 0, sum: 0 }
    entry.weight++
    entry.sum += rate
    buckets.set(bucketOf(rate), entry)
  }
  return [...buckets.values()].map(({ sum, weight }) => ({ weight, perSecond: sum / weight }))
}

/** The true planning elements of what is tracked, for the baselines that fit one rule to the budget. */
const trueElements = (world: World, tracked: ReadonlyArray<Tracked<Family>>, at: number): ReadonlyArray<Element> =>
  tracked.map((element): Element => {
    if (element.shape !== undefined && isList(element.group)) {
      const { pages } = element.shape
      const items = trueParts(world.lists[element.group], at)
      return {
        group: element.group,
        weight: element.shape.items,
        perSecond: items.reduce((sum, part) => sum + part.weight * part.perSecond, 0) / Math.max(1, pages),
        requests: pages,
        units: pages,
        bytes: pages * bytesPerPage,
        target: Infinity,
        items,
        renewEvery: cursorSeconds - pages / plannedRequestsPerSecond
      }
    }
    return { group: element.group, weight: 1, perSecond: world.offersRate(Number(element.key)), requests: 1, units: 1, bytes: bytesPerDetail, target: Infinity }
  })

/** The least scale, by bisection over its logarithm, at which `intervalsAt(scale)` spends within `budget`. */
const fitScale = (elements: ReadonlyArray<Element>, budget: Budget, intervalsAt: (scale: number) => ReadonlyArray<number>): number => {
  const fitsAt = (scale: number) => {
    const spent = spending(elements, intervalsAt(scale))
    return spent.requestsPerSecond <= budget.requestsPerSecond && spent.unitsPerSecond <= budget.unitsPerSecond && spent.bytesPerSecond <= budget.bytesPerSecond
  }
  let low = Math.log(1e-9)
  let high = Math.log(1e12)
  for (let step = 0; step < 80; step++) {
    const middle = (low + high) / 2
    if (fitsAt(Math.exp(middle))) high = middle
    else low = middle
  }
  return Math.exp(high)
}

/** The longest interval a baseline gives anything: records that never change are still looked at monthly. */
const longest = 30 * day

/** A scheduled policy's run: the keeper, the oracle, uniform or proportional revalidation, each over the same bookkeeping. */
const scheduled = (world: World, scenario: Scenario, policy: Exclude<PolicyName, "cron">, end: number): Run => {
  const started = performance.now()
  const account = new Account()
  const mirror = startingMirror(world)
  const keeping = new Keeping<Family>({ targets: scenario.targets, secondsPerRequest: 1 / plannedRequestsPerSecond, cursorSeconds, bytesPerPage, bytesPerDetail })
  const walks = new Map<ListFamily, WalkPages>()
  for (const family of lists) {
    const items = world.lists[family].count(0)
    keeping.track(family, family, { pages: Math.ceil(items / pageSize), items }, -Infinity)
    walks.set(family, new WalkPages(cursorSeconds))
  }
  for (const key of mirror.copies.modelOffers.version.keys()) keeping.track("modelOffers", String(key), undefined, 0)
  if (policy === "oracle") {
    keeping.useKnownRates((element) =>
      isList(element.group) ? trueParts(world.lists[element.group], now) : [{ weight: 1, perSecond: world.offersRate(Number(element.key)) }]
    )
  }
  let now = 0
  let nextReplan = 0
  let feasibility: Feasibility | undefined
  let expiredCursors = 0

  const replan = () => {
    const budget = account.budget(now)
    feasibility = keeping.replan(budget)
    if (policy === "keeper" || policy === "oracle") return
    const tracked = [...trackedElements()]
    const elements = trueElements(world, tracked, now)
    const intervalOf = policy === "uniform"
      ? (_: Element, scale: number) => Math.min(longest, scale)
      : (element: Element, scale: number) => Math.min(longest, element.perSecond === 0 ? Infinity : scale / element.perSecond)
    const scale = fitScale(elements, budget, (scale) => elements.map((element) => intervalOf(element, scale)))
    const byElement = new Map(tracked.map((element, i) => [element, elements[i]]))
    keeping.intervalsBy((element) => {
      const planned = byElement.get(element)
      return planned === undefined ? longest : intervalOf(planned, scale)
    })
  }

  function* trackedElements(): Generator<Tracked<Family>> {
    for (const family of lists) {
      const walk = keeping.find(family, family)
      if (walk !== undefined) yield walk
    }
    for (const key of mirror.copies.models.version.keys()) {
      const offers = keeping.find("modelOffers", String(key))
      if (offers !== undefined) yield offers
    }
  }

  const walkList = (walk: Tracked<Family>, family: ListFamily) => {
    const list = world.lists[family]
    const pages = walks.get(family) ?? new WalkPages(cursorSeconds)
    const copy = mirror.copies[family]
    const seen = new Set<number>()
    const since = walk.verifiedAt
    let began = -Infinity
    let changed = false
    let after = -1
    for (let index = 0; ; index++) {
      const { etag } = pages.ask(index, now)
      const at = account.admit(now)
      if (began === -Infinity) began = at
      if (index > 0 && at - (pages.page(index - 1)?.issuedAt ?? at) > cursorSeconds) expiredCursors++
      const content = list.page(after, at)
      const signature = content.keys.map((key, i) => `${key}:${content.versions[i]}`).join(",")
      const status = etag === signature ? 304 : 200
      account.answered(status, bytesPerPage)
      pages.answered(index, at, status === 304 ? { status } : { status, etag: signature, next: content.last ? null : String(content.keys.at(-1) ?? after), items: [] })
      const bits: Array<readonly [string, boolean]> = []
      content.keys.forEach((key, i) => {
        const version = content.versions[i] ?? 0
        const fresh = copy.version.get(key)
        seen.add(key)
        copy.verify(key, at)
        if (fresh === version) {
          if (Number.isFinite(since)) bits.push([String(key), false])
          return
        }
        if (fresh !== undefined && Number.isFinite(since)) bits.push([String(key), true])
        changed = true
        copy.version.set(key, version)
        if (fresh === undefined && family === "models") {
          // A new model: its offers are tracked, and copied as soon as they can be.
          keeping.track("modelOffers", String(key), undefined, -Infinity)
        }
      })
      keeping.itemsSeen(walk, bits, at - since)
      now = at + secondsPerAnswer
      if (content.last) {
        pages.ended(index)
        break
      }
      after = content.keys.at(-1) ?? after
    }
    // A complete walk that no longer finds a record commits its deletion.
    for (const key of [...copy.version.keys()]) {
      if (seen.has(key)) continue
      copy.version.delete(key)
      copy.committedGone.set(key, now)
      keeping.itemGone(walk, String(key))
      changed = true
      if (family === "models") {
        mirror.copies.modelOffers.version.delete(key)
        mirror.copies.modelOffers.committedGone.set(key, now)
        keeping.untrack("modelOffers", String(key))
      }
    }
    keeping.track(family, family, { pages: pages.length, items: seen.size }, walk.verifiedAt)
    keeping.visited(walk, began, changed)
  }

  /** The offers lists whose ETag the keeper holds: the starting copy has none, so each is first fetched whole. */
  const withEtag = new Set<number>()
  const fetchOffers = (element: Tracked<Family>) => {
    const key = Number(element.key)
    const at = account.admit(now)
    const version = world.offersVersion(key, at)
    const copy = mirror.copies.modelOffers
    const copied = copy.version.get(key)
    account.answered(withEtag.has(key) && copied === version ? 304 : 200, bytesPerDetail)
    withEtag.add(key)
    copy.version.set(key, version)
    copy.verify(key, at)
    keeping.visited(element, at, copied !== version)
    now = at + secondsPerAnswer
  }

  while (now < end) {
    if (now >= nextReplan) {
      replan()
      nextReplan += replanEvery
    }
    const next = keeping.next(now)
    if (next === undefined) break
    if (next.due > now) {
      now = Math.min(next.due, nextReplan, end)
      continue
    }
    const { element } = next
    if (isList(element.group)) walkList(element, element.group)
    else fetchOffers(element)
  }
  const rates: Array<readonly [number, number]> = []
  for (const element of trackedElements()) {
    if (element.shape === undefined && element.counts.visits >= 4) rates.push([keeping.rateOf(element), world.offersRate(Number(element.key))])
  }
  return { account, mirror, end, feasibility, rates, expiredCursors, seconds: (performance.now() - started) / 1000 }
}

/** A cron full rescan: every list walked whole and every model's offers read, a cycle every interval the units allow. */
const cron = (world: World, end: number): Run => {
  const started = performance.now()
  const account = new Account()
  const mirror = startingMirror(world)
  let now = 0
  const cycleUnits = lists.reduce((sum, family) => sum + Math.ceil(world.lists[family].count(0) / pageSize), 0) + mirror.copies.modelOffers.version.size
  const interval = cycleUnits / ((unitsMargin * share * unitsPerDay) / day)
  // The mirror starts copied: the first cycle is one interval in, and none begins after the run's end.
  for (let cycleStart = interval; cycleStart < end; cycleStart += interval) {
    now = Math.max(now, cycleStart)
    for (const family of lists) {
      const list = world.lists[family]
      const copy = mirror.copies[family]
      const seen = new Set<number>()
      let after = -1
      for (;;) {
        const at = account.admit(now)
        const content = list.page(after, at)
        account.answered(200, bytesPerPage)
        content.keys.forEach((key, i) => {
          seen.add(key)
          copy.verify(key, at)
          copy.version.set(key, content.versions[i] ?? 0)
          if (family === "models" && !mirror.copies.modelOffers.version.has(key)) mirror.copies.modelOffers.version.set(key, -1)
        })
        now = at + secondsPerAnswer
        if (content.last) break
        after = content.keys.at(-1) ?? after
      }
      for (const key of [...copy.version.keys()]) {
        if (seen.has(key)) continue
        copy.version.delete(key)
        copy.committedGone.set(key, now)
        if (family === "models") {
          mirror.copies.modelOffers.version.delete(key)
          mirror.copies.modelOffers.committedGone.set(key, now)
        }
      }
    }
    for (const key of [...mirror.copies.modelOffers.version.keys()]) {
      const at = account.admit(now)
      account.answered(200, bytesPerDetail)
      mirror.copies.modelOffers.version.set(key, world.offersVersion(key, at))
      mirror.copies.modelOffers.verify(key, at)
      now = at + secondsPerAnswer
    }
  }
  return { account, mirror, end: Math.max(end, now), feasibility: undefined, rates: [], expiredCursors: 0, seconds: (performance.now() - started) / 1000 }
}

// Measuring against the truth ------------------------------------------------

interface FamilyMeasure {
  readonly summary: Summary
  /** The records measured. */
  readonly records: number
  /** Change-feed latency: each change at the source to the commit that copied it, seconds. */
  readonly latencies: Array<number>
}

const percentile = (values: Array<number>, p: number): number => {
  if (values.length === 0) return 0
  values.sort((a, b) => a - b)
  return values[Math.min(values.length - 1, Math.floor(p * values.length))] ?? 0
}

/** Each record's freshness and age after the warm-up, and the latency of each of its changes. */
const measureFamily = (world: World, run: Run, family: Family, target: number, warm: number): FamilyMeasure => {
  const end = run.end
  const copy = run.mirror.copies[family]
  const list = world.lists[family === "modelOffers" ? "models" : family]
  const measures: Array<{ readonly measure: Measure; readonly weight: number }> = []
  const latencies: Array<number> = []
  for (let key = 0; key < list.keys; key++) {
    const born = list.born[key] ?? Infinity
    const died = list.died[key] ?? Infinity
    if (born > end) continue
    const committed = copy.committedGone.get(key)
    const spanEnd = Math.min(end, committed ?? end)
    if (spanEnd <= warm) continue
    const edits = (family === "modelOffers" ? world.offersEdits(key, end) : list.edits(key, end)).filter((time) => time > born && time < died)
    // A record added is a change its copy lacks until it is copied; a record removed, one until its deletion is committed.
    const changes = [...(born > 0 && (family !== "modelOffers" || world.offersRate(key) > 0) ? [born] : []), ...edits, ...(died <= end ? [died] : [])]
    const verified = copy.verified.get(key) ?? []
    const start = born > 0 ? born - 1e-6 : 0
    measures.push({ measure: measure({ changes, verified, start, from: warm, end: spanEnd, target }), weight: 1 })
    let v = 0
    for (const change of changes) {
      if (change < warm) continue
      while (v < verified.length && (verified[v] ?? Infinity) < change) v++
      const copied = change === died ? committed : verified[v]
      latencies.push((copied ?? end) - change)
    }
  }
  return { summary: summarise(measures), records: measures.length, latencies }
}

interface PolicyResult {
  readonly policy: PolicyName
  readonly run: Run
  readonly byFamily: Readonly<Record<Family, FamilyMeasure>>
  readonly overall: Summary
}

const evaluate = (world: World, scenario: Scenario, policy: PolicyName, end: number, warm: number): PolicyResult => {
  const run = policy === "cron" ? cron(world, end) : scheduled(world, scenario, policy, end)
  const byFamily = {
    models: measureFamily(world, run, "models", scenario.targets.models, warm),
    skills: measureFamily(world, run, "skills", scenario.targets.skills, warm),
    mcps: measureFamily(world, run, "mcps", scenario.targets.mcps, warm),
    modelOffers: measureFamily(world, run, "modelOffers", scenario.targets.modelOffers, warm)
  }
  // Overall figures weigh each family by its records.
  const weightOf = (family: Family) => byFamily[family].records
  const total = families.reduce((sum, family) => sum + weightOf(family), 0)
  const mean = (of: (summary: Summary) => number) => families.reduce((sum, family) => sum + weightOf(family) * of(byFamily[family].summary), 0) / total
  const overall: Summary = {
    freshness: mean((s) => s.freshness),
    meanAge: mean((s) => s.meanAge),
    maxAge: Math.max(...families.map((family) => byFamily[family].summary.maxAge)),
    p95Age: Math.max(...families.map((family) => byFamily[family].summary.p95Age)),
    withinTarget: mean((s) => s.withinTarget)
  }
  return { policy, run, byFamily, overall }
}

// The scenarios and the report ---------------------------------------------

const scenarios: ReadonlyArray<Scenario> = [
  { name: "steady", pattern: "steady", feasible: true, targets: { models: hour, skills: 6 * hour, mcps: 6 * hour, modelOffers: day } },
  { name: "daily cycle and bursts", pattern: "daily", feasible: true, targets: { models: hour, skills: 6 * hour, mcps: 6 * hour, modelOffers: day } },
  { name: "infeasible", pattern: "steady", feasible: false, targets: { models: 2 * minute, skills: 5 * minute, mcps: 5 * minute, modelOffers: hour } }
]

const duration = (seconds: number): string =>
  seconds >= 2 * hour ? `${(seconds / hour).toFixed(1)} h` : seconds >= 2 * minute ? `${(seconds / minute).toFixed(1)} m` : `${seconds.toFixed(0)} s`

const aligned = (rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length))) ?? []
  return rows.map((row) => row.map((cell, column) => (column < 2 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join("  ").trimEnd()).join("\n")
}

const detailOf = (scenario: Scenario, results: ReadonlyArray<PolicyResult>): string => {
  const rows: Array<ReadonlyArray<string>> = [["policy", "collection", "fresh", "mean age", "p95 age", "max age", "in target", "feed p50", "feed p95"]]
  for (const result of results) {
    for (const family of [...families, "overall"] as const) {
      const summary = family === "overall" ? result.overall : result.byFamily[family].summary
      const latencies = family === "overall" ? families.flatMap((f) => result.byFamily[f].latencies) : result.byFamily[family].latencies
      rows.push([
        family === "models" ? result.policy : "",
        family === "overall" ? "overall" : `${family} (${duration(scenario.targets[family])})`,
        summary.freshness.toFixed(4),
        duration(summary.meanAge),
        duration(summary.p95Age),
        duration(summary.maxAge),
        `${(100 * summary.withinTarget).toFixed(2)} %`,
        duration(percentile(latencies, 0.5)),
        duration(percentile(latencies, 0.95))
      ])
    }
  }
  // The rate error is the median factor between the keeper's learned rate of an offers list and its true one.
  const spend: Array<ReadonlyArray<string>> = [["policy", "", "units/day", "of share", "requests/day", "304 share", "MiB/day", "429s", "cursor 409s", "rate error", "run"]]
  for (const { policy, run } of results) {
    const a = run.account
    // A cron cycle runs to its end, past the run's.
    const days = run.end / day
    const errors = run.rates.filter(([, truth]) => truth > 0).map(([estimated, truth]) => Math.abs(Math.log(Math.max(estimated, 1e-12) / truth)))
    spend.push([
      policy,
      "",
      (a.units / days).toFixed(0),
      `${((100 * a.units) / days / (share * unitsPerDay)).toFixed(1)} %`,
      (a.requests / days).toFixed(0),
      `${((100 * a.notModified) / Math.max(1, a.requests)).toFixed(1)} %`,
      (a.bytes / days / (1024 * 1024)).toFixed(1),
      String(a.tooMany),
      String(run.expiredCursors),
      policy === "keeper" ? `×${Math.exp(percentile(errors, 0.5)).toFixed(2)}` : "",
      `${run.seconds.toFixed(1)} s`
    ])
  }
  return `${scenario.name}:\n${aligned(rows)}\n\n${aligned(spend)}`
}

export const run = async (options: { readonly seeds?: ReadonlyArray<number>; readonly days?: number; readonly warmHours?: number } = {}): Promise<Benchmark> => {
  const started = performance.now()
  const seeds = options.seeds ?? [1, 2]
  const days = options.days ?? 2
  const warm = (options.warmHours ?? 12) * hour
  const end = days * day
  const measuredDays = (end - warm) / day
  const figures = []
  const details: Array<string> = []
  for (const scenario of scenarios) {
    for (const seed of seeds) {
      const world = new World(seed, scenario.pattern)
      const results = policies.map((policy) => {
        const result = evaluate(world, scenario, policy, end, warm)
        process.stderr.write(`    ${scenario.name}, seed ${seed}: ${policy} ${result.run.seconds.toFixed(1)} s\n`)
        return result
      })
      details.push(detailOf(scenario, results))
      const of = (policy: PolicyName) => results.find((result) => result.policy === policy)
      const keeper = of("keeper")
      const oracle = of("oracle")
      if (keeper === undefined || oracle === undefined) continue
      const label = `${scenario.name}${seeds.length > 1 ? `, seed ${seed}` : ""}`
      const unitsShare = keeper.run.account.units / days / (share * unitsPerDay)
      figures.push(figure(`${label}: keeper 429s`, keeper.run.account.tooMany, "", { text: "0", check: (value) => value === 0 }))
      figures.push(figure(`${label}: keeper units of its share`, 100 * unitsShare, "%", { text: "≤ 95", check: (value) => value <= 95 }))
      const ratio = keeper.overall.freshness / oracle.overall.freshness
      figures.push(figure(`${label}: keeper freshness ÷ oracle's`, ratio, "", { text: "≥ 0.95", check: (value) => value >= 0.95 }))
      for (const baseline of ["cron", "uniform"] as const) {
        const other = of(baseline)
        if (other === undefined) continue
        figures.push(figure(`${label}: keeper freshness − ${baseline}'s`, keeper.overall.freshness - other.overall.freshness, "", { text: "> 0", check: (value) => value > 0 }))
      }
      if (scenario.feasible) {
        for (const family of families) {
          figures.push(figure(`${label}: ${family} within ${duration(scenario.targets[family])}`, 100 * keeper.byFamily[family].summary.withinTarget, "% of time", { text: "≥ 99", check: (value) => value >= 99 }))
        }
      } else {
        const promises = keeper.run.feasibility?.promises ?? {}
        for (const family of families) {
          const promised = promises[family] ?? Infinity
          const achieved = keeper.byFamily[family].summary.maxAge
          figures.push(figure(
            `${label}: ${family} promised ${duration(promised)}, achieved max age ${duration(achieved)}`,
            (100 * Math.abs(achieved - promised)) / promised,
            "% apart",
            { text: "≤ 10", check: (value) => value <= 10 }
          ))
        }
      }
    }
  }
  return {
    name: "11. keeper",
    setup: `discrete-event run of the shared planning rules against the simulator's change process, default catalog sizes, ${days} days (${round(measuredDays)} measured after a ${duration(warm)} warm-up), seeds ${seeds.join(", ")}; the account's windows and 10,000 units a day, the keeper's share 90 %`,
    seconds: (performance.now() - started) / 1000,
    figures,
    detail: details.join("\n\n")
  }
}
