/**
 * The CatalogClient against the simulator over HTTP with the `full` key: all
 * 35 operations through their methods, whole scans, exact decoding of large
 * integers, prices, unknowns and dates, tolerance of extra fields and unknown
 * open values (through a stub server), and `follow` of every kind of
 * `api_url`.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, layer } from "@effect/vitest"
import { Chunk, Effect, Layer, Option, Redacted, Schema, Stream } from "effect"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import type * as Errors from "../../common/src/client/Errors.js"
import { Operations, Primitives } from "../../src/index.js"
import * as Simulator from "../../common/src/simulator/Simulator.js"
import * as Client from "../support/Client.js"
import * as Http from "../support/Http.js"
import * as Stub from "../support/Stub.js"
import { segmentsOf } from "../support/Fixtures.js"

// Helpers -----------------------------------------------------------------------


const isAscending = (ids: ReadonlyArray<string>) => ids.every((id, index) => index === 0 || (ids[index - 1] ?? "") < id)

/** The first item of a stream that satisfies `predicate`, or a failure naming what was missing. */
const firstWhere = <A, E>(stream: Stream.Stream<A, E>, predicate: (item: A) => boolean, what: string) =>
  stream.pipe(
    Stream.filter(predicate),
    Stream.runHead,
    Effect.flatMap(Option.match({
      onNone: () => Effect.dieMessage(`no ${what} found`),
      onSome: Effect.succeed
    }))
  )

const collect = <A, E>(stream: Stream.Stream<A, E>) => Effect.map(Stream.runCollect(stream), Chunk.toReadonlyArray)

/** The raw `data` member of a GET through plain HTTP, decoded loosely with `schema`. */
const rawData = <A, I>(url: string, schema: Schema.Schema<A, I>) =>
  Http.get(url).pipe(Effect.flatMap((reply) => Schema.decodeUnknown(Schema.Struct({ data: schema }))(reply.json)), Effect.map((body) => body.data))

const answeredCount = Effect.flatMap(Simulator.Simulator, (simulator) => Effect.map(simulator.answered, (answered) => answered.length))

const sizes = { models: 950, skills: 300, mcps: 90, organizations: 40, articles: 40 }

/** Real data to name resources with: one of each kind. */
const fixtures = Effect.gen(function*() {
  const catalog = yield* CatalogClient.CatalogClient
  const simulator = yield* Simulator.Simulator
  const base = simulator.baseUrl
  const model = yield* firstWhere(catalog.models({ limit: 100 }), (model) => model.offer_count > 0, "model with offers")
  const [, organization = "", modelSlug = ""] = segmentsOf(base, model.api_url)
  const modelParameters = { organization, model: modelSlug }
  const offer = yield* firstWhere(catalog.modelOffers(modelParameters), () => true, "offer")
  const family = yield* firstWhere(catalog.families({ limit: 100 }), (family) => family.model_count > 0, "family with models")
  const provider = yield* firstWhere(catalog.providers({ limit: 100 }), (provider) => provider.model_count > 0, "provider with models")
  const organizations = yield* collect(catalog.organizations({ limit: 100 }))
  let resource: { readonly slug: string; readonly id: string } | undefined
  for (const candidate of organizations) {
    const first = yield* Stream.runHead(catalog.organizationResources({ slug: candidate.slug, limit: 1 }))
    if (Option.isSome(first)) {
      resource = { slug: candidate.slug, id: first.value.id }
      break
    }
  }
  if (resource === undefined) return yield* Effect.dieMessage("no organization with resources")
  const catalogOrganization = organizations.find((candidate) => candidate.catalog_id !== null)
  if (catalogOrganization === undefined) return yield* Effect.dieMessage("no catalog organization")
  const skills = yield* collect(catalog.skills({ limit: 50 }))
  const githubSkill = skills.find((skill) => skill.source_type === "github")
  const wellKnownSkill = skills.find((skill) => skill.source_type === "well-known")
  if (githubSkill === undefined || wellKnownSkill === undefined) return yield* Effect.dieMessage("no github or well-known skill")
  const skillParameters = (apiUrl: string) => {
    const [, sourceType = "", owner = "", repository = "", skill = ""] = segmentsOf(base, apiUrl)
    return { sourceType, owner, repository, skill }
  }
  const mcp = yield* firstWhere(catalog.mcps({ limit: 10 }), () => true, "mcp")
  const [, namespace = "", name = ""] = segmentsOf(base, mcp.api_url)
  const topic = yield* firstWhere(
    catalog.topics(),
    () => true,
    "topic"
  )
  const article = yield* firstWhere(catalog.articles(), () => true, "article")
  return {
    base,
    model,
    modelParameters,
    offer,
    family,
    provider,
    organization: catalogOrganization,
    resource,
    githubSkill,
    githubParameters: skillParameters(githubSkill.api_url),
    wellKnownSkill,
    wellKnownParameters: skillParameters(wellKnownSkill.api_url),
    mcp,
    mcpParameters: { namespace, name },
    topic,
    article
  }
})

type Identified = { readonly id: string }

// Against the simulator ---------------------------------------------------------

describe("CatalogClient against the simulator", () => {
  layer(Client.simulatorWithClient({ sizes, enforceLimits: false }), { excludeTestServices: true })((it) => {
    it.effect("answers all 35 operations through their methods", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const f = yield* fixtures
        const few = <A extends Identified, E>(stream: Stream.Stream<A, E>) => collect(Stream.take(stream, 3))

        // Details: each names the resource it was asked for.
        const model = yield* catalog.model(f.modelParameters)
        expect(model.id).toBe(f.model.id)
        expect(model).toEqual(f.model)
        const offer = yield* catalog.offer({ id: f.offer.id })
        expect(offer.id).toBe(f.offer.id)
        expect(offer.model_id).toBe(f.model.id)
        const family = yield* catalog.family({ id: f.family.id })
        expect(family).toEqual(f.family)
        const provider = yield* catalog.provider({ id: f.provider.id })
        expect(provider).toEqual(f.provider)
        const organization = yield* catalog.organization({ slug: f.organization.slug })
        expect(organization.id).toBe(f.organization.id)
        expect(typeof organization.about).toBe("string")
        const resource = yield* catalog.organizationResource(f.resource)
        expect(resource.id).toBe(f.resource.id)
        expect(resource.items.length).toBeLessThanOrEqual(100)
        for (const [listed, parameters] of [[f.githubSkill, f.githubParameters], [f.wellKnownSkill, f.wellKnownParameters]] as const) {
          const skill = yield* catalog.skill(parameters)
          expect(skill).toEqual(listed)
          const audits = yield* catalog.skillAudits(parameters)
          expect(audits.id).toBe(listed.id)
          expect(typeof audits.notice).toBe("string")
          const document = yield* catalog.skillDocument(parameters)
          expect(document.id).toBe(listed.id)
          expect(document.content.length).toBeGreaterThan(0)
        }
        expect(f.wellKnownParameters.repository).toBe("_")
        const mcp = yield* catalog.mcp(f.mcpParameters)
        expect(mcp).toEqual(f.mcp)
        const connection = yield* catalog.mcpConnection(f.mcpParameters)
        expect(connection.id).toBe(f.mcp.id)
        const article = yield* catalog.article({ slug: f.article.slug })
        expect(article.id).toBe(f.article.id)
        const stats = yield* catalog.stats()
        expect(stats).toEqual({ id: "catalog", models: 950, skills: 300, mcps: 90, organizations: 40, providers: 40, families: 120 })
        const usage = yield* catalog.usage()
        expect(usage.daily_limit).toBe(10_000)
        expect(usage.daily_units).toBeGreaterThan(0)

        // Lists as streams: a few items, or whole small lists.
        const details = ["model", "offer", "family", "provider", "organization", "organizationResource", "skill", "skillAudits", "skillDocument", "mcp", "mcpConnection", "article", "stats", "usage"] as const
        const lists: Record<Exclude<Operations.OperationId, typeof details[number]>, Effect.Effect<ReadonlyArray<Identified>, Errors.CatalogError>> = {
          models: few(catalog.models({ limit: 2 })),
          modelOffers: collect(catalog.modelOffers(f.modelParameters)),
          modelBenchmarks: collect(catalog.modelBenchmarks(f.modelParameters)),
          modelPerformance: collect(catalog.modelPerformance(f.modelParameters)),
          modelActivity: few(catalog.modelActivity(f.modelParameters)),
          modelApplications: collect(catalog.modelApplications(f.modelParameters)),
          families: few(catalog.families({ limit: 2 })),
          familyModels: few(catalog.familyModels({ id: f.family.id, limit: 2 })),
          providers: few(catalog.providers()),
          providerModels: few(catalog.providerModels({ id: f.provider.id })),
          providerOffers: few(catalog.providerOffers({ id: f.provider.id, limit: 2 })),
          organizations: few(catalog.organizations({ limit: 2 })),
          organizationModels: few(catalog.organizationModels({ slug: f.organization.slug, limit: 2 })),
          organizationResources: collect(catalog.organizationResources({ slug: f.resource.slug })),
          skills: few(catalog.skills({ limit: 2 })),
          publishers: collect(catalog.publishers({ limit: 100 })),
          mcps: few(catalog.mcps({ limit: 2 })),
          topics: collect(catalog.topics({ limit: 7 })),
          topicSkills: few(catalog.topicSkills({ slug: f.topic.id, limit: 2 })),
          articles: collect(catalog.articles({ limit: 10 })),
          search: few(catalog.search({ q: "at", type: "models", limit: 2 }))
        }
        expect([...Object.keys(lists), ...details].sort()).toEqual(Operations.all.map((operation) => operation.id).sort())
        const maySeeNone = new Set(["modelBenchmarks", "modelApplications"])
        for (const [id, run] of Object.entries(lists)) {
          const items = yield* run
          if (!maySeeNone.has(id)) expect(items.length, id).toBeGreaterThan(0)
          expect(isAscending(items.map((item) => item.id)), id).toBe(true)
        }
        expect((yield* lists.modelOffers).map((item) => item.id)).toContain(f.offer.id)
        expect(yield* lists.modelOffers).toHaveLength(f.model.offer_count)
        expect(yield* lists.articles).toHaveLength(24)
        expect(yield* lists.topics).toHaveLength(24)
      }))

    it.effect("gives one page through every <id>Page method, with its cursor, next link, meta and request id", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const f = yield* fixtures
        const pages: Record<string, Effect.Effect<CatalogClient.Page<Identified>, Errors.CatalogError>> = {
          modelsPage: catalog.modelsPage({ limit: 2 }),
          modelOffersPage: catalog.modelOffersPage({ ...f.modelParameters, limit: 2 }),
          modelBenchmarksPage: catalog.modelBenchmarksPage({ ...f.modelParameters, limit: 2 }),
          modelPerformancePage: catalog.modelPerformancePage({ ...f.modelParameters, limit: 2 }),
          modelActivityPage: catalog.modelActivityPage({ ...f.modelParameters, limit: 2 }),
          modelApplicationsPage: catalog.modelApplicationsPage({ ...f.modelParameters, limit: 2 }),
          familiesPage: catalog.familiesPage({ limit: 2 }),
          familyModelsPage: catalog.familyModelsPage({ id: f.family.id, limit: 2 }),
          providersPage: catalog.providersPage({ limit: 2 }),
          providerModelsPage: catalog.providerModelsPage({ id: f.provider.id, limit: 2 }),
          providerOffersPage: catalog.providerOffersPage({ id: f.provider.id, limit: 2 }),
          organizationsPage: catalog.organizationsPage({ limit: 2 }),
          organizationModelsPage: catalog.organizationModelsPage({ slug: f.organization.slug, limit: 2 }),
          organizationResourcesPage: catalog.organizationResourcesPage({ slug: f.resource.slug, limit: 2 }),
          skillsPage: catalog.skillsPage({ limit: 2 }),
          publishersPage: catalog.publishersPage({ limit: 2 }),
          mcpsPage: catalog.mcpsPage({ limit: 2 }),
          topicsPage: catalog.topicsPage({ limit: 2 }),
          topicSkillsPage: catalog.topicSkillsPage({ slug: f.topic.id, limit: 2 }),
          articlesPage: catalog.articlesPage({ limit: 2 }),
          searchPage: catalog.searchPage({ q: "at", type: "models", limit: 2 })
        }
        const listIds = Operations.all.filter((operation) => operation.kind === "list").map((operation) => `${operation.id}Page`)
        expect(Object.keys(pages).sort()).toEqual(listIds.sort())
        for (const [name, run] of Object.entries(pages)) {
          const page = yield* run
          expect(page.items.length, name).toBeLessThanOrEqual(2)
          expect(isAscending(page.items.map((item) => item.id)), name).toBe(true)
          expect(page.requestId, name).toMatch(/^req_/)
          if (page.nextCursor === null) {
            expect(page.next, name).toBeNull()
          } else {
            expect(page.items, name).toHaveLength(2)
            expect(page.next, name).not.toBeNull()
            const next = new URL(page.next ?? "")
            expect(next.searchParams.get("cursor"), name).toBe(page.nextCursor)
            expect(next.searchParams.get("limit"), name).toBe("2")
            expect(`${next.origin}${next.pathname}`.startsWith(`${f.base}/`), name).toBe(true)
          }
          if (name === "topicsPage" || name === "articlesPage") {
            expect(page.observedAt, name).toBeNull()
            expect(page.stale, name).toBeNull()
          } else {
            expect(typeof page.observedAt, name).toBe("string")
            expect(page.stale, name).toBe(false)
          }
        }
        // Pages that must continue, and a continuation by cursor.
        const first = yield* catalog.modelsPage({ limit: 2 })
        expect(first.nextCursor).not.toBeNull()
        const second = yield* catalog.modelsPage({ limit: 2, cursor: first.nextCursor ?? "" })
        expect(second.items).toHaveLength(2)
        expect((first.items[1]?.id ?? "") < (second.items[0]?.id ?? "")).toBe(true)
        // The same page as plain HTTP sees it.
        const raw = yield* Http.get("/models/?limit=2")
        const rawIds = yield* Schema.decodeUnknown(Schema.Struct({ data: Schema.Array(Schema.Struct({ id: Schema.String })) }))(raw.json)
        expect(first.items.map((item) => item.id)).toEqual(rawIds.data.map((item) => item.id))
        const last = yield* catalog.articlesPage({ limit: 100 })
        expect(last.items).toHaveLength(24)
        expect(last.nextCursor).toBeNull()
        expect(last.next).toBeNull()
      }))

    it.effect("streams every model of a catalog of 950 once, in ascending id order, at limit 100", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const simulator = yield* Simulator.Simulator
        const before = (yield* simulator.answered).filter((entry) => entry.operation === "models").length
        const models = yield* collect(catalog.models({ limit: 100 }))
        const after = (yield* simulator.answered).filter((entry) => entry.operation === "models").length
        expect(after - before).toBe(10)
        const stats = yield* catalog.stats()
        expect(models).toHaveLength(stats.models)
        const ids = models.map((model) => model.id)
        expect(new Set(ids).size).toBe(ids.length)
        expect(isAscending(ids)).toBe(true)
      }))

    it.effect("streams with filters yield only matching items", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const all = yield* collect(catalog.models({ limit: 100 }))
        const reasoning = yield* collect(catalog.models({ reasoning: true, limit: 100 }))
        expect(reasoning.length).toBeGreaterThan(0)
        expect(reasoning.every((model) => model.reasoning === true)).toBe(true)
        expect(reasoning.map((model) => model.id)).toEqual(all.filter((model) => model.reasoning === true).map((model) => model.id))
        const closed = yield* collect(catalog.models({ open_weights: false, reasoning: false, limit: 37 }))
        expect(closed.length).toBeGreaterThan(0)
        expect(closed.map((model) => model.id)).toEqual(
          all.filter((model) => model.open_weights === false && model.reasoning === false).map((model) => model.id)
        )
        const deprecated = yield* collect(catalog.mcps({ status: "deprecated", limit: 100 }))
        expect(deprecated.length).toBeGreaterThan(0)
        expect(deprecated.every((mcp) => mcp.status === "deprecated")).toBe(true)
        const official = yield* collect(catalog.skills({ official: true, limit: 50 }))
        expect(official.length).toBeGreaterThan(0)
        expect(official.every((skill) => skill.official === true)).toBe(true)
        const skills = yield* collect(catalog.search({ q: "at", type: "skills" }).pipe(Stream.take(30)))
        expect(skills.length).toBeGreaterThan(0)
      }))

    it.effect("decodes exactly: big integers, prices, unknowns, calendar dates, installs, open formats", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const RawModel = Schema.Struct({
          context_tokens: Schema.NullOr(Schema.String),
          reasoning: Schema.NullOr(Schema.Boolean),
          released_on: Schema.NullOr(Schema.String)
        })
        // A context size above 2^53 (model index 1).
        const big = yield* firstWhere(
          catalog.models({ limit: 100 }),
          (model) => model.context_tokens !== null && model.context_tokens > BigInt(Number.MAX_SAFE_INTEGER),
          "model with context_tokens above 2^53"
        )
        const rawBig = yield* rawData(big.api_url, RawModel)
        expect(typeof big.context_tokens).toBe("bigint")
        expect(String(big.context_tokens)).toBe(rawBig.context_tokens)
        expect(big.context_tokens).toBe(BigInt(rawBig.context_tokens ?? "0"))
        const detail = yield* catalog.model({ organization: big.organization_catalog_id, model: big.id.slice(big.id.indexOf("/") + 1) })
        expect(detail.context_tokens).toBe(big.context_tokens)

        // Prices keep every digit.
        const offers = yield* collect(catalog.modelOffers({ organization: big.organization_catalog_id, model: big.id.slice(big.id.indexOf("/") + 1) }))
        const someOffers = offers.length > 0 ? offers : yield* collect(catalog.providerOffers({ id: (yield* fixtures).provider.id, limit: 5 }).pipe(Stream.take(5)))
        expect(someOffers.length).toBeGreaterThan(0)
        const RawOffer = Schema.Struct({ id: Schema.String, pricing: Schema.Struct({ input: Schema.NullOr(Schema.String), output: Schema.NullOr(Schema.String) }) })
        for (const offer of someOffers) {
          const raw = yield* rawData(`/offers/${offer.id}/`, RawOffer)
          const input = offer.pricing.input
          const output = offer.pricing.output
          expect(input === undefined || input === null ? null : Primitives.plainDecimal(input)).toBe(raw.pricing.input)
          expect(output === undefined || output === null ? null : Primitives.plainDecimal(output)).toBe(raw.pricing.output)
        }
        const fractions = someOffers.flatMap((offer) => offer.pricing.input === undefined || offer.pricing.input === null ? [] : [Primitives.plainDecimal(offer.pricing.input)])
        expect(fractions.some((price) => /\.\d{5,}$/.test(price))).toBe(true)

        // Unknown stays null.
        const unknown = yield* firstWhere(catalog.models({ limit: 100 }), (model) => model.reasoning === null, "model with unknown reasoning")
        const rawUnknown = yield* rawData(unknown.api_url, RawModel)
        expect(rawUnknown.reasoning).toBeNull()
        expect(unknown.reasoning).toBeNull()
        const raw = yield* Http.get(unknown.api_url)
        expect(raw.text).toContain(`"reasoning":null`)

        // A calendar date.
        const dated = yield* firstWhere(catalog.models({ limit: 100 }), (model) => model.released_on !== null, "model with a release date")
        expect(dated.released_on).toBeInstanceOf(Primitives.CalendarDate)
        const rawDated = yield* rawData(dated.api_url, RawModel)
        expect(String(dated.released_on)).toBe(rawDated.released_on)
        expect(dated.released_on?.toDate().toISOString().slice(0, 10)).toBe(rawDated.released_on)

        // Skill installs as bigint, also above 2^53 (skill index 7).
        const skills = yield* collect(catalog.skills({ limit: 50 }))
        expect(skills.every((skill) => typeof skill.installs === "bigint")).toBe(true)
        const many = skills.find((skill) => skill.installs > BigInt(Number.MAX_SAFE_INTEGER))
        expect(many).toBeDefined()
        if (many !== undefined) {
          const rawMany = yield* rawData(many.api_url, Schema.Struct({ installs: Schema.String }))
          expect(String(many.installs)).toBe(rawMany.installs)
        }

        // A document format outside the known list ("mdx", skill index 5).
        const fifth = skills.find((skill) => skill.slug.startsWith("k0000005-"))
        expect(fifth).toBeDefined()
        if (fifth !== undefined) {
          const simulator = yield* Simulator.Simulator
          const [, sourceType = "", owner = "", repository = "", skill = ""] = segmentsOf(simulator.baseUrl, fifth.api_url)
          const document = yield* catalog.skillDocument({ sourceType, owner, repository, skill })
          expect(document.format).toBe("mdx")
          expect(document.id).toBe(fifth.id)
        }
      }))

    it.effect("follows every kind of api_url the service returns", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const f = yield* fixtures
        const idOf = (followed: CatalogClient.Followed) => followed.operation === "usage" ? null : followed.value.id
        const returned: ReadonlyArray<readonly [string, Operations.OperationId, string]> = [
          [f.model.api_url, "model", f.model.id],
          [f.githubSkill.api_url, "skill", f.githubSkill.id],
          [f.wellKnownSkill.api_url, "skill", f.wellKnownSkill.id],
          [f.mcp.api_url, "mcp", f.mcp.id]
        ]
        for (const [url, operation, id] of returned) {
          const followed = yield* catalog.follow(url)
          expect(followed.operation, url).toBe(operation)
          expect(idOf(followed), url).toBe(id)
        }
        const followedModel = yield* catalog.follow(f.model.api_url)
        expect(followedModel).toEqual({ operation: "model", value: f.model })

        const constructed: ReadonlyArray<readonly [string, Operations.OperationId, string | null]> = [
          [`${f.base}/offers/${f.offer.id}/`, "offer", f.offer.id],
          [`${f.base}/families/${f.family.id}/`, "family", f.family.id],
          [`${f.base}/providers/${f.provider.id}/`, "provider", f.provider.id],
          [`${f.base}/organizations/${f.organization.slug}/`, "organization", f.organization.id],
          [`${f.base}/organizations/${f.resource.slug}/resources/${f.resource.id}/`, "organizationResource", f.resource.id],
          [`${f.githubSkill.api_url}audits/`, "skillAudits", f.githubSkill.id],
          [`${f.wellKnownSkill.api_url}document/`, "skillDocument", f.wellKnownSkill.id],
          [`${f.mcp.api_url}connection/`, "mcpConnection", f.mcp.id],
          [`${f.base}/articles/${f.article.slug}/`, "article", f.article.id],
          [`${f.base}/stats/`, "stats", "catalog"],
          [`${f.base}/usage/`, "usage", null]
        ]
        for (const [url, operation, id] of constructed) {
          const followed = yield* catalog.follow(url)
          expect(followed.operation, url).toBe(operation)
          expect(idOf(followed), url).toBe(id)
        }
      }))

    it.effect("refuses to follow another origin (nothing is sent) and a URL that names no resource", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const simulator = yield* Simulator.Simulator
        const base = new URL(simulator.baseUrl)
        const before = yield* answeredCount
        for (
          const foreign of [
            `https://evil.example/api/v1/stats/`,
            `http://127.0.0.2:${base.port}/api/v1/stats/`,
            `http://localhost:${base.port}/api/v1/stats/`,
            `${base.origin}/api/v10/stats/`,
            `${base.origin}/stats/`
          ]
        ) {
          const error = yield* Effect.flip(catalog.follow(foreign))
          expect(error._tag, foreign).toBe("UnsafeLink")
        }
        expect(yield* answeredCount).toBe(before)
        for (const nowhere of [`${simulator.baseUrl}/nothing/`, `${simulator.baseUrl}/models/`, `${simulator.baseUrl}/`]) {
          const error = yield* Effect.flip(catalog.follow(nowhere))
          expect(error._tag, nowhere).toBe("InvalidRequest")
          if (error._tag === "InvalidRequest") {
            expect(error.requestId).toBeNull()
            expect(error.code).toBe("local_validation")
          }
        }
        expect(yield* answeredCount).toBe(before)
      }))
  })
})

// Against a stub: extra fields and unknown open values ----------------------------

const stubClient = Layer.unwrapEffect(
  Effect.map(Stub.Stub, (stub) => CatalogClient.layer({ ...Client.direct, baseUrl: stub.baseUrl, apiKey: Redacted.make("cat_test_key") }))
).pipe(Layer.provideMerge(Layer.merge(Stub.layer, NodeHttpClient.layerUndici)))

const modelWire = (base: string) => ({
  id: "o0001-acme/m0000001-kestrel-8b",
  name: "Kestrel 8B",
  family_id: null,
  organization_catalog_id: "o0001-acme",
  organization_slug: "acme",
  released_on: "2025-03-04",
  context_tokens: "9007199254740995",
  open_weights: null,
  reasoning: true,
  offer_count: 0,
  provider_count: 0,
  updated_at: "2025-03-05T10:00:00Z",
  url: "https://catalog.example/models/o0001-acme/m0000001-kestrel-8b",
  api_url: `${base}/models/o0001-acme/m0000001-kestrel-8b/`,
  specifications: { parameters: "8000000000", new_member: { nested: [1, 2] } },
  // Members the contract does not list.
  modalities_v2: ["text", "audio"],
  license: "apache-2.0",
  popularity: 0.93
})

const mcpWire = (base: string) => ({
  id: "io.example/retired-server",
  namespace: "io.example",
  name: "retired-server",
  title: null,
  description: "An MCP server with a status the contract does not list.",
  version: "1.2.3",
  status: "retired",
  website_url: null,
  package_registry_types: ["npm", "cargo"],
  remote_transport_types: ["streamable-http"],
  has_packages: true,
  has_remotes: true,
  observed_at: null,
  url: "https://catalog.example/mcps/io.example/retired-server",
  api_url: `${base}/mcps/io.example/retired-server/`,
  retired_at: "2025-01-01"
})

const skillWire = (base: string) => ({
  id: "gitlab.example/team/repo/k0000001-writer",
  slug: "k0000001-writer",
  name: "Writer",
  description: null,
  source: "gitlab.example/team/repo",
  source_type: "gitlab",
  official: null,
  installs: "1152921504606846983",
  license: null,
  observed_at: null,
  url: "https://catalog.example/skills/gitlab.example/team/repo/k0000001-writer",
  api_url: `${base}/skills/gitlab/team/repo/k0000001-writer/`,
  stars: 12
})

describe("CatalogClient against a stub", () => {
  layer(stubClient, { excludeTestServices: true })((it) => {
    it.effect("accepts extra members in resources and envelopes, and unknown open values", () =>
      Effect.gen(function*() {
        const stub = yield* Stub.Stub
        const catalog = yield* CatalogClient.CatalogClient
        const base = stub.baseUrl
        yield* stub.answer((request) => {
          const path = new URL(request.url, stub.origin).pathname
          if (path === "/api/v1/models/") {
            return Stub.json(200, {
              data: [modelWire(base)],
              pagination: { limit: 25, has_more: false, next_cursor: null, total_estimate: 1 },
              links: { next: null, self: `${base}/models/`, prev: null },
              meta: { observed_at: "2025-03-05T10:00:00Z", stale: false, region: "eu-west" },
              warnings: []
            })
          }
          if (path === "/api/v1/models/o0001-acme/m0000001-kestrel-8b/") {
            return Stub.json(200, { data: modelWire(base), meta: { observed_at: null }, links: { self: `${base}/models/` } })
          }
          if (path === "/api/v1/mcps/io.example/retired-server/") return Stub.json(200, { data: mcpWire(base) })
          if (path === "/api/v1/mcps/") {
            return Stub.json(200, {
              data: [mcpWire(base)],
              pagination: { limit: 25, has_more: false, next_cursor: null },
              links: { next: null },
              meta: { observed_at: null, stale: null }
            })
          }
          if (path === "/api/v1/skills/gitlab/team/repo/k0000001-writer/") return Stub.json(200, { data: skillWire(base) })
          if (path === "/api/v1/skills/") {
            return Stub.json(200, {
              data: [skillWire(base)],
              pagination: { limit: 25, has_more: false, next_cursor: null },
              links: { next: null },
              meta: { observed_at: null, stale: null }
            })
          }
          return Stub.json(404, { code: "not_found" })
        })

        const page = yield* catalog.modelsPage()
        expect(page.items).toHaveLength(1)
        expect(page.items[0]?.id).toBe("o0001-acme/m0000001-kestrel-8b")
        expect(page.items[0]?.context_tokens).toBe(9007199254740995n)
        expect(page.observedAt).toBe("2025-03-05T10:00:00Z")
        expect(page.stale).toBe(false)
        expect(page.nextCursor).toBeNull()
        expect(page.next).toBeNull()
        const streamed = yield* collect(catalog.models())
        expect(streamed.map((model) => model.id)).toEqual(["o0001-acme/m0000001-kestrel-8b"])

        const model = yield* catalog.model({ organization: "o0001-acme", model: "m0000001-kestrel-8b" })
        expect(model.name).toBe("Kestrel 8B")
        expect(model.reasoning).toBe(true)
        expect(model.open_weights).toBeNull()
        expect(model.specifications).toMatchObject({ parameters: "8000000000" })
        expect(String(model.released_on)).toBe("2025-03-04")

        const mcp = yield* catalog.mcp({ namespace: "io.example", name: "retired-server" })
        expect(mcp.status).toBe("retired")
        const mcps = yield* collect(catalog.mcps())
        expect(mcps.map((item) => item.status)).toEqual(["retired"])
        const followedMcp = yield* catalog.follow(`${base}/mcps/io.example/retired-server/`)
        expect(followedMcp.operation).toBe("mcp")

        const skill = yield* catalog.skill({ sourceType: "gitlab", owner: "team", repository: "repo", skill: "k0000001-writer" })
        expect(skill.source_type).toBe("gitlab")
        expect(skill.installs).toBe(1152921504606846983n)
        const skills = yield* collect(catalog.skills())
        expect(skills.map((item) => item.source_type)).toEqual(["gitlab"])

        const received = yield* stub.received
        expect(received.every((request) => request.headers["authorization"] === "Bearer cat_test_key")).toBe(true)
      }))

    it.effect("a stream yields each id once when pages overlap (list rule 4: clients deduplicate by stable id)", () =>
      Effect.gen(function*() {
        const stub = yield* Stub.Stub
        const catalog = yield* CatalogClient.CatalogClient
        const base = stub.baseUrl
        const model = (slug: string, name: string) => ({ ...modelWire(base), id: `o0001-acme/${slug}`, name, api_url: `${base}/models/o0001-acme/${slug}/` })
        const envelope = (data: ReadonlyArray<unknown>, cursor: string | null) => ({
          data,
          pagination: { limit: 2, has_more: cursor !== null, next_cursor: cursor },
          links: { next: cursor === null ? null : `${base}/models/?limit=2&cursor=${cursor}` },
          meta: { observed_at: null, stale: null }
        })
        yield* stub.answer((request) => {
          const cursor = new URL(request.url, stub.origin).searchParams.get("cursor")
          // The second page starts again at m2, edited between the two requests.
          return cursor === null
            ? Stub.json(200, envelope([model("m1", "One"), model("m2", "Two")], "c1"))
            : Stub.json(200, envelope([model("m2", "Two (edited)"), model("m3", "Three")], null))
        })
        const ids = (yield* collect(catalog.models({ limit: 2 }))).map((item) => item.id)
        expect((yield* stub.received).length).toBeGreaterThanOrEqual(2)
        expect(ids).toEqual(["o0001-acme/m1", "o0001-acme/m2", "o0001-acme/m3"])
      }))
  })
})
