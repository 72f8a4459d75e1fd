/**
 * The simulator's catalog: every list and detail operation of the contract
 * answered from generated records, in ascending id order, with filters and
 * churn. Lists are lazy, so a page costs the same whatever the catalog size.
 *
 * @since 0.1.0
 */
import type { DetailId, ListId, ListOperation } from "../../../../common/src/contract/Operations.js"
import { Schema } from "effect"
import { articleListWindow } from "../../../../common/src/contract/Limits.js"
import { SearchType } from "../../../../common/src/contract/Parameters.js"
import type { Stats } from "../../../../common/src/contract/Resources.js"
import { ChangeProcess, familyNumbers, siblingFamily } from "./Changes.js"
import * as Collation from "./Collation.js"
import { Seeded } from "./Random.js"
import * as Records from "./Records.js"
import type { ChangePattern, ChangingFamily, Sizes } from "../../../../rules/src/simulator/Settings.js"
import { type Churn, firstAbove, firstIndex, type Lifetime, Slots, type Timeline } from "./Slots.js"


/**
 * One record's history under the change process, in seconds of the
 * simulator's clock since its start (`Simulator.Service.truth` gives it in
 * the clock's milliseconds).
 *
 * @since 0.7.3
 */
export interface History {
  readonly perSecond: number
  readonly changes: ReadonlyArray<number>
  readonly born: number | null
  readonly died: number | null
}

/**
 * A record in wire form; every record has an `id`.
 *
 * @since 0.1.0
 */
export type Wire = { readonly id: string }

/**
 * Decoded path parameters and query filters of one request.
 *
 * @since 0.1.0
 */
export interface Request {
  readonly path: Readonly<Record<string, string>>
  readonly query: Readonly<Record<string, unknown>>
}

/**
 * What a list answers: the items above the cursor's position in id order, or
 * `undefined` when the parent resource does not exist.
 *
 * @since 0.1.0
 */
export type ListAnswer<Item extends Wire = Wire> = Iterable<Item> | undefined

/**
 * The items of each list operation in their wire form: the encoded side of
 * the operation's item (`typeof Model.Encoded` for `models`).
 */
export type WireItems = { readonly [Id in ListId]: Schema.Schema.Encoded<Extract<ListOperation, { readonly id: Id }>["item"]> }

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined)
const flag = (value: unknown): boolean | undefined => (typeof value === "boolean" ? value : undefined)
const contains = (haystack: string, needle: string | undefined) =>
  needle === undefined || haystack.toLowerCase().includes(needle.toLowerCase())
/** Whether the text filter `q` (when given) is found in one of the fields. */
const matches = (q: unknown, ...fields: ReadonlyArray<string>) => fields.some((field) => contains(field, text(q)))


function* filter<A>(items: Iterable<A>, keep: (item: A) => boolean): Generator<A> {
  for (const item of items) if (keep(item)) yield item
}

function* range<A>(from: number, to: number, make: (index: number) => A): Generator<A> {
  for (let index = from; index < to; index++) yield make(index)
}

/**
 * The catalog of one simulator.
 *
 * @since 0.1.0
 */
export class Catalog {
  readonly records: Records.Records
  readonly models: Slots<Records.ModelWire>
  readonly skills: Slots<Records.SkillWire>
  readonly mcps: Slots<Records.McpWire>
  /** The order of ids in every list. */
  readonly compare: Collation.Compare
  private readonly familyCounts: Int32Array
  private readonly providerCounts: Int32Array
  private readonly topicSlugs: ReadonlyArray<string>
  /** The count of list pages served: the clock of churn. */
  epoch = 0
  churn: Churn
  /** The simulator's present, seconds since its start: the clock of the change process (set before each answer). */
  seconds = 0
  /** How records change over time, unless they do not. */
  readonly changes: ChangeProcess | undefined

  constructor(options: {
    readonly seed: number
    readonly sizes: Sizes
    readonly baseUrl: string
    readonly churn?: Churn | undefined
    readonly collation?: Collation.Collation | undefined
    readonly changes?: ChangePattern | undefined
  }) {
    const collation = options.collation ?? "code-unit"
    const compare = Collation.compare[collation]
    const records = new Records.Records(options.seed, options.sizes, options.baseUrl, collation)
    const random = new Seeded(options.seed)
    this.records = records
    this.compare = compare
    this.churn = options.churn ?? { rate: 0, horizon: 40 }
    const churn = () => this.churn
    const pattern = options.changes ?? "none"
    this.changes = pattern === "none" ? undefined : new ChangeProcess(options.seed, pattern)
    const timeline = (family: ChangingFamily) => this.timeline(family)
    this.models = new Slots(random, 101, options.sizes.models, (i) => records.modelId(i), "-preview", (i, id, v) => records.model(i, id, v), churn, compare, timeline("models"))
    this.skills = new Slots(random, 102, options.sizes.skills, (i) => records.skillId(i), "-next", (i, id, v) => records.skill(i, id, v), churn, compare, timeline("skills"))
    this.mcps = new Slots(random, 103, options.sizes.mcps, (i) => records.mcpId(i), "-beta", (i, id, v) => records.mcp(i, id, v), churn, compare, timeline("mcps"))
    this.familyCounts = new Int32Array(options.sizes.families)
    this.providerCounts = new Int32Array(options.sizes.providers)
    for (let i = 0; i < options.sizes.models; i++) {
      const family = records.modelFamily(i)
      if (family !== null) this.familyCounts[family] = (this.familyCounts[family] ?? 0) + 1
      for (const provider of records.modelProviders(i)) {
        this.providerCounts[provider] = (this.providerCounts[provider] ?? 0) + 1
      }
    }
    this.topicSlugs = Array.from({ length: options.sizes.topics }, (_, t) => records.topicSlug(t)).sort(compare)
  }

  /** What the change process says of a family's slots now, if records change over time. */
  private timeline(family: ChangingFamily): Timeline | undefined {
    const changes = this.changes
    if (changes === undefined) return undefined
    const f = familyNumbers[family]
    return {
      edits: (index, sibling) => changes.versionAt(sibling ? f + siblingFamily : f, index, this.seconds),
      exists: (index, sibling) => sibling ? changes.bornAt(f, index) <= this.seconds : changes.diedAt(f, index) > this.seconds
    }
  }

  /** The edits of model `i`'s offers by now. */
  private offerEdits(i: number): number {
    return this.changes?.versionAt(familyNumbers.modelOffers, i, this.seconds) ?? 0
  }

  /**
   * The history up to now of the record with this id (a model's, for its
   * offers), if records change over time and the id names a slot's record.
   */
  historyOf(family: ChangingFamily, id: string): History | undefined {
    const changes = this.changes
    const slot = (family === "modelOffers" ? this.models : this[family]).locate(id)
    if (changes === undefined || slot === undefined) return undefined
    const f = familyNumbers[family]
    const edited = slot.sibling && family !== "modelOffers" ? f + siblingFamily : f
    // A model's offers come and go with the model.
    const lived = family === "modelOffers" ? familyNumbers.models : f
    const born = slot.sibling ? changes.bornAt(lived, slot.index) : null
    const died = slot.sibling ? null : changes.diedAt(lived, slot.index)
    if (born !== null && born > this.seconds) return undefined
    // A model without offers has an empty list that no edit changes.
    if (family === "modelOffers" && this.records.offerCount(slot.index) === 0) return { perSecond: 0, changes: [], born, died: null }
    return {
      perSecond: changes.rateOf(edited, slot.index),
      changes: changes.history(edited, slot.index, this.seconds),
      born,
      died: died !== null && died <= this.seconds ? died : null
    }
  }

  /** When a model, Skill or MCP server exists, by id (for tests of churn). */
  lifetimeOf(collection: "models" | "skills" | "mcps", id: string): Lifetime | undefined {
    return this[collection].lifetimeOf(id)
  }

  // Lookups -----------------------------------------------------------------

  private modelIndex(path: Request["path"]): number | undefined {
    const id = `${path.organization}/${path.model}`
    const slot = this.models.locate(id)
    return slot && this.models.find(id, this.epoch) ? slot.index : undefined
  }

  private skillId(path: Request["path"]): string | undefined {
    const { owner, repository, skill, sourceType } = path
    if (sourceType === "github") return `${owner}/${repository}/${skill}`
    if (sourceType === "well-known" && repository === "_") return `${owner}/${skill}`
    return undefined
  }

  private skill(path: Request["path"]): { readonly index: number; readonly wire: Records.SkillWire } | undefined {
    const id = this.skillId(path)
    const wire = id === undefined ? undefined : this.skills.find(id, this.epoch)
    const slot = id === undefined ? undefined : this.skills.locate(id)
    if (wire === undefined || slot === undefined) return undefined
    const expected = this.records.sourceIsGithub(this.records.skillSource(slot.index)) ? "github" : "well-known"
    return path.sourceType === expected ? { index: slot.index, wire } : undefined
  }

  private mcp(path: Request["path"]): { readonly index: number; readonly wire: Records.McpWire } | undefined {
    const id = `${path.namespace}/${path.name}`
    const wire = this.mcps.find(id, this.epoch)
    const slot = this.mcps.locate(id)
    return wire && slot ? { index: slot.index, wire } : undefined
  }

  private indexOf(count: number, idAt: (index: number) => string, id: string | undefined): number | undefined {
    if (id === undefined) return undefined
    const index = firstAbove(count, idAt, id, this.compare) - 1
    return index >= 0 && idAt(index) === id ? index : undefined
  }

  private family(id: string | undefined) {
    return this.indexOf(this.records.sizes.families, (f) => this.records.familyId(f), id)
  }

  private provider(id: string | undefined) {
    return this.indexOf(this.records.sizes.providers, (p) => this.records.providerId(p), id)
  }

  private organizationIndex(slug: string | undefined) {
    return slug === undefined ? undefined : this.records.organizationBySlug(slug)
  }

  // Detail operations -------------------------------------------------------

  /**
   * The resource each detail operation names, or `undefined` (a 404). Keyed
   * by the table's ids, so an operation added to the table and not answered
   * here is a type error. (`/usage/` is the account's, not the catalog's.)
   */
  readonly details: { readonly [Id in Exclude<DetailId, "usage">]: (path: Request["path"]) => Wire | undefined } = {
    model: (path) => this.models.find(`${path.organization}/${path.model}`, this.epoch),
    offer: (path) => {
      const r = this.records
      const at = r.offerIndex(path.id ?? "")
      return at && at[0] < r.sizes.models && at[1] < r.offerCount(at[0]) && this.models.find(r.modelId(at[0]), this.epoch)
        ? r.offer(at[0], at[1], this.offerEdits(at[0]))
        : undefined
    },
    family: (path) => {
      const f = this.family(path.id)
      return f === undefined ? undefined : this.records.family(f, this.familyCounts[f] ?? 0)
    },
    provider: (path) => {
      const index = this.provider(path.id)
      return index === undefined ? undefined : this.records.provider(index, this.providerCounts[index] ?? 0)
    },
    organization: (path) => {
      const o = this.organizationIndex(path.slug)
      return o === undefined ? undefined : this.records.organization(o, true)
    },
    organizationResource: (path) => {
      const r = this.records
      const o = this.organizationIndex(path.slug)
      if (o === undefined) return undefined
      for (let k = 0; k < r.resourceCount(o); k++) if (r.resourceId(o, k) === path.id) return r.resource(o, k)
      return undefined
    },
    skill: (path) => this.skill(path)?.wire,
    skillAudits: (path) => {
      const found = this.skill(path)
      return found && this.records.audits(found.wire.id, found.index)
    },
    skillDocument: (path) => {
      const found = this.skill(path)
      return found && this.records.document(found.wire.id, found.index)
    },
    mcp: (path) => this.mcp(path)?.wire,
    mcpConnection: (path) => {
      const found = this.mcp(path)
      return found && this.records.connection(found.wire.id, found.index)
    },
    article: (path) => {
      const a = this.records.articleBySlug(path.slug ?? "")
      return a === undefined ? undefined : this.records.article(a, true)
    },
    stats: () => {
      const s = this.records.sizes
      const stats: typeof Stats.Encoded = {
        id: "catalog", models: s.models, skills: s.skills, mcps: s.mcps,
        organizations: s.organizations, providers: s.providers, families: s.families
      }
      return stats
    }
  }

  // List operations ---------------------------------------------------------

  /**
   * The items of each list operation above `after`, in ascending id order,
   * or `undefined` when the parent resource does not exist. Keyed by the
   * table's ids, as `details` is.
   */
  readonly lists: { readonly [Id in ListId]: (request: Request, after: string | null) => ListAnswer<WireItems[Id]> } = {
    models: ({ query }, after) => this.modelList(query, after),
    modelOffers: ({ path }, after) => this.offersOf(path, after),
    modelPerformance: ({ path }, after) => this.offersOf(path, after),
    modelBenchmarks: ({ path }, after) => {
      const i = this.modelIndex(path)
      return i === undefined ? undefined : this.above(this.records.benchmarks(i).sort((a, b) => this.compare(a.id, b.id)), after)
    },
    modelApplications: ({ path }, after) => {
      const i = this.modelIndex(path)
      return i === undefined ? undefined : this.above(this.records.applications(i).sort((a, b) => this.compare(a.id, b.id)), after)
    },
    modelActivity: ({ path }, after) => {
      const i = this.modelIndex(path)
      return i === undefined ? undefined : this.above(this.records.activity(i), after)
    },
    families: ({ query }, after) =>
      filter(
        this.indexed(this.records.sizes.families, (f) => this.records.familyId(f), after, (f) => this.records.family(f, this.familyCounts[f] ?? 0)),
        (family) => matches(query.q, family.name, family.id)
      ),
    familyModels: ({ path }, after) => {
      const f = this.family(path.id)
      return f === undefined ? undefined : this.models.scan(after, this.epoch, (i) => this.records.modelFamily(i) === f)
    },
    providers: ({ query }, after) =>
      filter(
        this.indexed(this.records.sizes.providers, (p) => this.records.providerId(p), after, (p) => this.records.provider(p, this.providerCounts[p] ?? 0)),
        (provider) => matches(query.q, provider.name, provider.id)
      ),
    providerModels: ({ path }, after) => {
      const index = this.provider(path.id)
      return index === undefined ? undefined : this.models.scan(after, this.epoch, (i) => this.records.modelProviders(i).has(index))
    },
    providerOffers: ({ path }, after) => {
      const r = this.records
      const index = this.provider(path.id)
      if (index === undefined) return undefined
      const offers = function*(catalog: Catalog) {
        for (const model of catalog.models.scan(null, catalog.epoch)) {
          const slot = catalog.models.locate(model.id)
          if (slot === undefined || slot.sibling) continue
          for (let j = 0; j < r.offerCount(slot.index); j++) {
            if (r.offerProvider(slot.index, j) === index) yield r.offer(slot.index, j, catalog.offerEdits(slot.index))
          }
        }
      }
      return this.above(offers(this), after)
    },
    organizations: ({ query }, after) =>
      filter(
        this.indexed(this.records.sizes.organizations, (o) => this.records.organizationId(o), after, (o) => this.records.organization(o, false)),
        (org) =>
          matches(query.q, org.name, org.slug) &&
          (text(query.kind) === undefined || org.kind === query.kind)
      ),
    organizationModels: ({ path }, after) => {
      const r = this.records
      const o = this.organizationIndex(path.slug)
      if (o === undefined) return undefined
      if (o >= r.catalogOrganizations) return []
      const from = firstIndex(r.sizes.models, (i) => r.modelOrganization(i) >= o)
      const to = firstIndex(r.sizes.models, (i) => r.modelOrganization(i) > o)
      return this.models.scan(after, this.epoch, () => true, from, to)
    },
    organizationResources: ({ path }, after) => {
      const o = this.organizationIndex(path.slug)
      return o === undefined ? undefined : this.above(range(0, this.records.resourceCount(o), (k) => this.records.resource(o, k)), after)
    },
    skills: ({ query }, after) => this.skillList(query, after),
    publishers: (_, after) =>
      filter(
        this.indexed(this.records.sources, (s) => this.records.source(s), after, (s) => this.records.publisher(s, this.officialSkills(s))),
        (publisher) => publisher.skill_count > 0
      ),
    mcps: ({ query }, after) => this.mcpList(query, after),
    topics: (_, after) => this.above(this.topicSlugs.map((slug) => this.records.topic(this.records.topicSlugIndex(slug))), after),
    topicSkills: ({ path }, after) => {
      const t = path.slug === undefined ? -1 : this.records.topicSlugIndex(path.slug)
      return t < 0 ? undefined : this.skills.scan(after, this.epoch, (i) => this.records.skillTopic(i) === t)
    },
    articles: (_, after) => {
      const from = Math.max(0, this.records.sizes.articles - articleListWindow)
      return this.above(range(from, this.records.sizes.articles, (a) => this.records.article(a, false)), after)
    },
    search: ({ query }, after) => this.search(query.type, query, after)
  }

  /** The offers of the model a path names (`modelOffers` and `modelPerformance` list the same records). */
  private offersOf(path: Request["path"], after: string | null): ListAnswer<Records.OfferWire> {
    const i = this.modelIndex(path)
    return i === undefined ? undefined : this.above(range(0, this.records.offerCount(i), (j) => this.records.offer(i, j, this.offerEdits(i))), after)
  }

  /** The items above `after` in the catalog's order. */
  private *above<A extends Wire>(items: Iterable<A>, after: string | null): Generator<A> {
    for (const item of items) if (after === null || this.compare(item.id, after) > 0) yield item
  }

  private indexed<A extends Wire>(count: number, idAt: (index: number) => string, after: string | null, make: (index: number) => A) {
    return range(after === null ? 0 : firstAbove(count, idAt, after, this.compare), count, make)
  }

  private officialSkills(s: number): number {
    let count = 0
    for (let i = this.records.sourceStart(s); i < this.records.sourceStart(s + 1); i++) {
      if (this.records.skillOfficial(i) === true) count++
    }
    return count
  }

  private modelList(q: Request["query"], after: string | null): ListAnswer<Records.ModelWire> {
    const r = this.records
    const family = text(q.family)
    const provider = text(q.provider)
    const organization = text(q.organization)
    const familyIndex = family === undefined ? undefined : this.family(family)
    const providerIndex = provider === undefined ? undefined : this.provider(provider)
    if ((family !== undefined && familyIndex === undefined) || (provider !== undefined && providerIndex === undefined)) return []
    const keep = (i: number) =>
      (familyIndex === undefined || r.modelFamily(i) === familyIndex) &&
      (providerIndex === undefined || r.modelProviders(i).has(providerIndex))
    return filter(this.models.scan(after, this.epoch, keep), (model) =>
      matches(q.q, model.name, model.id) &&
      (organization === undefined || model.organization_catalog_id === organization || model.organization_slug === organization) &&
      (flag(q.reasoning) === undefined || model.reasoning === flag(q.reasoning)) &&
      (flag(q.open_weights) === undefined || model.open_weights === flag(q.open_weights)))
  }

  private skillList(q: Request["query"], after: string | null): ListAnswer<Records.SkillWire> {
    const r = this.records
    const topic = text(q.topic)
    const topicIndex = topic === undefined ? undefined : r.topicSlugIndex(topic)
    const keep = (i: number) =>
      (topicIndex === undefined || r.skillTopic(i) === topicIndex) &&
      (flag(q.official) === undefined || r.skillOfficial(i) === flag(q.official))
    return filter(this.skills.scan(after, this.epoch, keep), (skill) =>
      matches(q.q, skill.name, skill.id) &&
      (text(q.source) === undefined || skill.source === q.source))
  }

  private mcpList(q: Request["query"], after: string | null): ListAnswer<Records.McpWire> {
    return filter(this.mcps.scan(after, this.epoch), (mcp) =>
      matches(q.q, mcp.name, mcp.id, mcp.title ?? "") &&
      (text(q.namespace) === undefined || mcp.namespace === q.namespace) &&
      (text(q.status) === undefined || mcp.status === q.status))
  }

  private search(type: unknown, q: Request["query"], after: string | null): ListAnswer<WireItems["search"]> {
    const textOnly = { q: q.q }
    const lists: Record<SearchType, () => ListAnswer<WireItems["search"]>> = {
      models: () => this.modelList(textOnly, after),
      skills: () => this.skillList(textOnly, after),
      mcps: () => this.mcpList(textOnly, after),
      organizations: () => this.lists.organizations({ path: {}, query: textOnly }, after),
      providers: () => this.lists.providers({ path: {}, query: textOnly }, after),
      families: () => this.lists.families({ path: {}, query: textOnly }, after)
    }
    return Schema.is(SearchType)(type) ? lists[type]() : undefined
  }
}
