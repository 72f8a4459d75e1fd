import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Schema } from "effect"
import { Operations } from "../../../src/index.js"
import { Records } from "../../src/simulator/data/Records.js"
import * as Simulator from "../../src/simulator/Simulator.js"
import * as Http from "../../../test/support/Http.js"

const Item = Schema.Struct({ id: Schema.String })
const ApiItem = Schema.Struct({ id: Schema.String, api_url: Schema.String })
const Page = Schema.Struct({ data: Schema.Array(Item), links: Schema.Struct({ next: Schema.NullOr(Schema.String) }) })
const ApiPage = Schema.Struct({ data: Schema.Array(ApiItem) })

const page = (path: string) =>
  Http.get(path).pipe(Effect.flatMap((reply) => Schema.decodeUnknown(Page)(reply.json)))

const firstOf = <A, I>(path: string, schema: Schema.Schema<A, I>) =>
  Http.get(path).pipe(
    Effect.flatMap((reply) => Schema.decodeUnknown(Schema.Struct({ data: Schema.Array(schema) }))(reply.json)),
    Effect.flatMap((body) => Effect.fromNullable(body.data[0]))
  )

/** Every item of a list, following `links.next`. */
const scan = (path: string) =>
  Effect.gen(function*() {
    const items: Array<{ readonly id: string }> = []
    let next: string | null = path
    while (next !== null) {
      const body: typeof Page.Type = yield* page(next)
      items.push(...body.data)
      next = body.links.next
    }
    return items
  })

/** The path below the base URL of an `api_url`. */
const pathOf = (simulator: Simulator.Service, apiUrl: string) => apiUrl.slice(simulator.baseUrl.length)

const isAscending = (ids: ReadonlyArray<string>) => ids.every((id, index) => index === 0 || (ids[index - 1] ?? "") < id)

describe("every operation over HTTP", () => {
  it.layer(Http.simulator({ sizes: { models: 400, skills: 300, mcps: 90, organizations: 40, articles: 40 }, enforceLimits: false }))((it) => {
    /** A concrete path for each operation, from real data. */
    const concretePaths = Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const model = yield* firstOf("/models/?limit=1", ApiItem)
      const modelPath = pathOf(simulator, model.api_url)
      const offer = yield* firstOf(`${modelPath}offers/`, Item)
      const family = yield* firstOf("/families/?limit=1", Item)
      const provider = yield* firstOf("/providers/?limit=1", Item)
      const skills = yield* Http.get("/skills/?limit=50").pipe(Effect.flatMap((reply) => Schema.decodeUnknown(ApiPage)(reply.json)))
      const skill = yield* Effect.fromNullable(skills.data[0])
      const skillPath = pathOf(simulator, skill.api_url)
      const mcp = yield* firstOf("/mcps/?limit=1", ApiItem)
      const mcpPath = pathOf(simulator, mcp.api_url)
      const topic = yield* firstOf("/topics/?limit=1", Item)
      const organizations = yield* Http.get("/organizations/?limit=100").pipe(
        Effect.flatMap((reply) => Schema.decodeUnknown(Schema.Struct({ data: Schema.Array(Schema.Struct({ slug: Schema.String })) }))(reply.json))
      )
      let resourcePath = ""
      for (const organization of organizations.data) {
        const resource = yield* page(`/organizations/${organization.slug}/resources/`).pipe(Effect.map((body) => body.data[0]))
        if (resource !== undefined) {
          resourcePath = `/organizations/${organization.slug}/resources/${resource.id}/`
          break
        }
      }
      const slug = organizations.data[0]?.slug ?? ""
      const article = yield* Http.get("/articles/?limit=1").pipe(
        Effect.flatMap((reply) => Schema.decodeUnknown(Schema.Struct({ data: Schema.Array(Schema.Struct({ slug: Schema.String })) }))(reply.json)),
        Effect.flatMap((body) => Effect.fromNullable(body.data[0]))
      )
      const paths: Record<Operations.OperationId, string> = {
        models: "/models/",
        model: modelPath,
        modelOffers: `${modelPath}offers/`,
        modelBenchmarks: `${modelPath}benchmarks/`,
        modelPerformance: `${modelPath}performance/`,
        modelActivity: `${modelPath}activity/`,
        modelApplications: `${modelPath}applications/`,
        offer: `/offers/${offer.id}/`,
        families: "/families/",
        family: `/families/${family.id}/`,
        familyModels: `/families/${family.id}/models/`,
        providers: "/providers/",
        provider: `/providers/${provider.id}/`,
        providerModels: `/providers/${provider.id}/models/`,
        providerOffers: `/providers/${provider.id}/offers/`,
        organizations: "/organizations/",
        organization: `/organizations/${slug}/`,
        organizationModels: `/organizations/${slug}/models/`,
        organizationResources: `/organizations/${slug}/resources/`,
        organizationResource: resourcePath,
        skills: "/skills/",
        skill: skillPath,
        skillAudits: `${skillPath}audits/`,
        skillDocument: `${skillPath}document/`,
        publishers: "/publishers/",
        mcps: "/mcps/",
        mcp: mcpPath,
        mcpConnection: `${mcpPath}connection/`,
        topics: "/topics/",
        topicSkills: `/topics/${topic.id}/skills/`,
        articles: "/articles/",
        article: `/articles/${article.slug}/`,
        search: "/search/?q=at&type=models",
        stats: "/stats/",
        usage: "/usage/"
      }
      return paths
    })

    it.effect("answers all 35 operations with bodies that decode with their schemas", () =>
      Effect.gen(function*() {
        const paths = yield* concretePaths
        for (const operation of Operations.all) {
          const reply = yield* Http.get(paths[operation.id])
          expect(reply.status, `${operation.id} ${paths[operation.id]}`).toBe(200)
          expect(reply.headers["content-type"]).toBe("application/json")
          expect(reply.headers["etag"]).toMatch(/^"[^"]+"$/)
          expect(reply.headers["x-request-id"]).toMatch(/^req_/)
          const item: Schema.Schema.AnyNoContext = operation.item
          const schema: Schema.Schema.AnyNoContext = Operations.responseSchema({ kind: operation.kind, item })
          const decoded = Schema.decodeUnknownEither(schema)(reply.json)
          expect(Either.isRight(decoded), `${operation.id}: ${Either.isLeft(decoded) ? decoded.left.message : ""}`).toBe(true)
          if (operation.kind === "list") {
            const body = yield* Schema.decodeUnknown(Page)(reply.json)
            expect(isAscending(body.data.map((item) => item.id)), operation.id).toBe(true)
          }
        }
      }))

    it.effect("gives api_urls that point back into the simulator", () =>
      Effect.gen(function*() {
        const simulator = yield* Simulator.Simulator
        for (const list of ["/models/?limit=20", "/skills/?limit=20", "/mcps/?limit=20"]) {
          const body = yield* Http.get(list).pipe(Effect.flatMap((reply) => Schema.decodeUnknown(ApiPage)(reply.json)))
          for (const item of body.data) {
            expect(item.api_url.startsWith(`${simulator.baseUrl}/`)).toBe(true)
            const detail = yield* Http.get(item.api_url)
            expect(detail.status).toBe(200)
            expect(Http.data(detail)).toMatchObject({ id: item.id })
          }
        }
      }))

    it.effect("serves well-known Skills under the literal _ segment", () =>
      Effect.gen(function*() {
        const skills = yield* scan("/skills/?limit=50")
        const details = yield* Effect.forEach(skills.slice(0, 120), (skill) => Http.get(`/skills/?q=${encodeURIComponent(skill.id)}&limit=1`).pipe(
          Effect.flatMap((reply) => Schema.decodeUnknown(Schema.Struct({ data: Schema.Array(Schema.Struct({ source_type: Schema.String, api_url: Schema.String })) }))(reply.json))
        ))
        const wellKnown = details.flatMap((body) => body.data).filter((skill) => skill.source_type === "well-known")
        expect(wellKnown.length).toBeGreaterThan(0)
        for (const skill of wellKnown) {
          expect(skill.api_url).toMatch(/\/skills\/well-known\/[^/]+\/_\/[^/]+\/$/)
          expect((yield* Http.get(skill.api_url)).status).toBe(200)
          expect((yield* Http.get(skill.api_url.replace("/_/", "/x/"))).status).toBe(404)
          expect((yield* Http.get(skill.api_url.replace("/well-known/", "/github/"))).status).toBe(404)
        }
      }))

    it.effect("lists the latest 24 articles in id order and keeps older ones by slug", () =>
      Effect.gen(function*() {
        const articles = yield* scan("/articles/?limit=10")
        expect(articles).toHaveLength(24)
        expect(isAscending(articles.map((article) => article.id))).toBe(true)
        expect(articles[0]?.id).toBe("a00016")
        const older = yield* Http.get("/articles/?limit=1")
        expect(older.status).toBe(200)
        const simulator = yield* Simulator.Simulator
        const records = new Records(simulator.options.seed, simulator.options.sizes, simulator.baseUrl)
        const detail = yield* Http.get(`/articles/${records.articleSlug(3)}/`)
        expect(detail.status).toBe(200)
        expect(Http.data(detail)).toMatchObject({ id: "a00003" })
        expect(Http.data(detail)).toHaveProperty("updated_at", expect.any(String))
      }))

    it.effect("cuts resource details at 100 items and says so", () =>
      Effect.gen(function*() {
        const Organizations = Schema.Struct({ data: Schema.Array(Schema.Struct({ slug: Schema.String })) })
        const Resources = Schema.Struct({ data: Schema.Array(Schema.Struct({ id: Schema.String, items: Schema.Array(Schema.Unknown), items_truncated: Schema.Boolean })) })
        const organizations = yield* Http.get("/organizations/?limit=100").pipe(Effect.flatMap((reply) => Schema.decodeUnknown(Organizations)(reply.json)))
        let truncated = 0
        let whole = 0
        for (const organization of organizations.data) {
          const resources = yield* Http.get(`/organizations/${organization.slug}/resources/`).pipe(Effect.flatMap((reply) => Schema.decodeUnknown(Resources)(reply.json)))
          for (const resource of resources.data) {
            const detail = yield* Http.get(`/organizations/${organization.slug}/resources/${resource.id}/`).pipe(
              Effect.flatMap((reply) => Schema.decodeUnknown(Schema.Struct({ data: Resources.fields.data.value }))(reply.json))
            )
            expect(detail.data.items.length).toBeLessThanOrEqual(100)
            if (detail.data.items_truncated) {
              truncated++
              expect(detail.data.items).toHaveLength(100)
            } else whole++
          }
        }
        expect(truncated).toBeGreaterThan(0)
        expect(whole).toBeGreaterThan(0)
      }))

    it.effect("answers 404 problem+json for what does not exist", () =>
      Effect.gen(function*() {
        for (const path of ["/models/nobody/nothing/", "/models/nobody/nothing/offers/", "/offers/x9999999-0/", "/families/none/", "/providers/none/models/", "/organizations/none/", "/skills/github/a/b/c/", "/mcps/a/b/connection/", "/topics/none/skills/", "/articles/none/", "/nothing/"]) {
          const reply = yield* Http.get(path)
          expect(reply.status, path).toBe(404)
          expect(reply.headers["content-type"]).toBe("application/problem+json")
          expect(reply.json).toMatchObject({ status: 404, code: "not_found", request_id: reply.headers["x-request-id"] })
        }
      }))

    it.effect("reports the catalog's size in stats", () =>
      Effect.gen(function*() {
        expect(Http.data(yield* Http.get("/stats/"))).toEqual({ id: "catalog", models: 400, skills: 300, mcps: 90, organizations: 40, providers: 40, families: 120 })
        expect(yield* scan("/models/?limit=100")).toHaveLength(400)
      }))
  })
})

describe("a catalog of a million models", () => {
  it.layer(Http.simulator({ sizes: { models: 1_000_000 }, enforceLimits: false }))((it) => {
    it.effect("answers pages anywhere in it", () =>
      Effect.gen(function*() {
        expect(Http.data(yield* Http.get("/stats/"))).toMatchObject({ models: 1_000_000 })
        const simulator = yield* Simulator.Simulator
        const records = new Records(simulator.options.seed, simulator.options.sizes, simulator.baseUrl)
        const lastCatalogOrganization = records.catalogOrganizations - 1
        const models = yield* page(`/organizations/${records.organizationSlug(lastCatalogOrganization)}/models/?limit=100`)
        expect(models.data).toHaveLength(100)
        expect(models.data[0]?.id).toMatch(/^o0159-[a-z]+\/m09937/)
        const last = yield* Http.get(`/models/${records.modelId(999_999)}/`)
        expect(Http.data(last)).toMatchObject({ id: records.modelId(999_999) })
      }))
  })
})
