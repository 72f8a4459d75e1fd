import { describe, expect, it } from "@effect/vitest"
import { BigDecimal, Either, Schema } from "effect"
import { Envelopes, Operations, Parameters, Primitives, Resources } from "../src/index.js"
import { Records } from "../tools/src/simulator/data/Records.js"

const decode = <A, I>(schema: Schema.Schema<A, I>) => Schema.decodeUnknownEither(schema)
const roundTrip = <A, I>(schema: Schema.Schema<A, I>, wire: I) =>
  Schema.encodeSync(schema)(Schema.decodeUnknownSync(schema)(wire))

describe("primitives", () => {
  it("keeps integers above 2^53 exact", () => {
    const value = Schema.decodeSync(Primitives.DecimalInteger)("9007199254740993")
    expect(value).toBe(9007199254740993n)
    expect(Schema.encodeSync(Primitives.DecimalInteger)(value)).toBe("9007199254740993")
  })

  it("refuses what is not a decimal integer", () => {
    for (const input of ["1e3", " 12", "12.0", "", "0x10"]) {
      expect(Either.isLeft(decode(Primitives.DecimalInteger)(input))).toBe(true)
    }
  })

  it("keeps every digit of a price", () => {
    const price = Schema.decodeSync(Primitives.Price)("0.000001234567891234")
    expect(Primitives.plainDecimal(price)).toBe("0.000001234567891234")
    expect(BigDecimal.equals(price, BigDecimal.make(1234567891234n, 18))).toBe(true)
    expect(Schema.encodeSync(Primitives.Price)(price)).toBe("0.000001234567891234")
    expect(Either.isLeft(decode(Primitives.Price)("1e-7"))).toBe(true)
  })

  it("decodes calendar dates and refuses impossible days", () => {
    const date = Schema.decodeSync(Primitives.CalendarDateFromString)("2024-02-29")
    expect([date.year, date.month, date.day]).toEqual([2024, 2, 29])
    expect(String(date)).toBe("2024-02-29")
    expect(date.toDate().toISOString()).toBe("2024-02-29T00:00:00.000Z")
    for (const input of ["2026-02-29", "1900-02-29", "2026-04-31", "2026-13-01", "2026-00-10", "2026-01-00", "2026-1-01", "20260101"]) {
      expect(Either.isLeft(decode(Primitives.CalendarDateFromString)(input))).toBe(true)
    }
    for (const input of ["2000-02-29", "0000-02-29", "0004-02-29", "9999-12-31"]) {
      expect(String(Schema.decodeSync(Primitives.CalendarDateFromString)(input))).toBe(input)
    }
  })

  it("types known values of open lists and accepts unknown ones", () => {
    expect(Schema.decodeSync(Resources.SourceType)("github")).toBe("github")
    expect(Schema.decodeSync(Resources.SourceType)("gitlab")).toBe("gitlab")
    expect(Schema.decodeSync(Resources.McpStatus)("retired")).toBe("retired")
    expect(Schema.decodeSync(Resources.ResourceKind)("Playlist")).toBe("Playlist")
    expect(Schema.decodeSync(Resources.DocumentFormat)("mdx")).toBe("mdx")
  })

  it("enforces the closed lists on input", () => {
    expect(Either.isLeft(decode(Parameters.KindFilter)("startup"))).toBe(true)
    expect(Either.isLeft(decode(Parameters.SearchType)("users"))).toBe(true)
    expect(Either.isRight(decode(Parameters.KindFilter)("university"))).toBe(true)
  })
})

describe("resources", () => {
  const records = new Records(7, { models: 2000, skills: 1200, mcps: 300, organizations: 50, providers: 20, families: 30, topics: 24, articles: 30 }, "http://127.0.0.1:1/api/v1")

  it("decodes and encodes back every generated record to the same wire form", () => {
    for (let i = 0; i < 1200; i += 7) {
      expect(roundTrip(Resources.Model, records.model(i, records.modelId(i), 0))).toEqual(records.model(i, records.modelId(i), 0))
      expect(roundTrip(Resources.Skill, records.skill(i, records.skillId(i), 0))).toEqual(records.skill(i, records.skillId(i), 0))
      for (let j = 0; j < records.offerCount(i); j++) expect(roundTrip(Resources.Offer, records.offer(i, j))).toEqual(records.offer(i, j))
      for (const activity of records.activity(i)) expect(roundTrip(Resources.Activity, activity)).toEqual(activity)
      for (const observation of records.benchmarks(i)) expect(roundTrip(Resources.Observation, observation)).toEqual(observation)
    }
    for (let i = 0; i < 300; i += 11) {
      expect(roundTrip(Resources.Mcp, records.mcp(i, records.mcpId(i), 0))).toEqual(records.mcp(i, records.mcpId(i), 0))
      expect(roundTrip(Resources.Connection, records.connection(records.mcpId(i), i))).toEqual(records.connection(records.mcpId(i), i))
    }
    for (let o = 0; o < 50; o++) {
      expect(roundTrip(Resources.Organization, records.organization(o, true))).toEqual(records.organization(o, true))
      for (let k = 0; k < records.resourceCount(o); k++) expect(roundTrip(Resources.Resource, records.resource(o, k))).toEqual(records.resource(o, k))
    }
    expect(roundTrip(Resources.Document, records.document(records.skillId(3), 3))).toEqual(records.document(records.skillId(3), 3))
    expect(roundTrip(Resources.Audits, records.audits(records.skillId(3), 3))).toEqual(records.audits(records.skillId(3), 3))
    expect(roundTrip(Resources.Article, records.article(4, true))).toEqual(records.article(4, true))
  })

  it("decodes exact values from the wire", () => {
    const model = Schema.decodeUnknownSync(Resources.Model)(records.model(1, records.modelId(1), 0))
    expect(model.context_tokens).toBeTypeOf("bigint")
    expect(model.context_tokens !== null && model.context_tokens > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true)
    const offer = Schema.decodeUnknownSync(Resources.Offer)(records.offer(1, 0))
    expect(offer.pricing.input === undefined || offer.pricing.input === null ? null : Primitives.plainDecimal(offer.pricing.input)).toBe(records.offer(1, 0).pricing.input)
  })

  it("keeps unknown values null, never zero", () => {
    const wire = { ...records.model(5, records.modelId(5), 0), context_tokens: null, reasoning: null, released_on: null }
    const model = Schema.decodeUnknownSync(Resources.Model)(wire)
    expect([model.context_tokens, model.reasoning, model.released_on]).toEqual([null, null, null])
  })

  it("tolerates fields the contract does not list", () => {
    const wire = { ...records.model(5, records.modelId(5), 0), benchmark_rank: 3, new_section: { a: 1 } }
    expect(Either.isRight(decode(Resources.Model)(wire))).toBe(true)
    const page = { data: [wire], pagination: { limit: 1, has_more: false, next_cursor: null, total_hint: 9 }, links: { next: null, prev: null }, meta: { observed_at: null, stale: null, region: "eu" }, extra: true }
    expect(Either.isRight(decode(Envelopes.ListEnvelope(Resources.Model))(page))).toBe(true)
  })

  it("refuses a record that breaks the contract", () => {
    const wire = { ...records.model(5, records.modelId(5), 0), offer_count: "3" }
    expect(Either.isLeft(decode(Resources.Model)(wire))).toBe(true)
    const { id: _id, ...withoutId } = records.model(5, records.modelId(5), 0)
    expect(Either.isLeft(decode(Resources.Model)(withoutId))).toBe(true)
  })
})

describe("operations", () => {
  const table: ReadonlyArray<readonly [string, string, string, number]> = [
    ["models", "/models/", "models:read", 1],
    ["model", "/models/{organization}/{model}/", "models:read", 1],
    ["modelOffers", "/models/{organization}/{model}/offers/", "models:read", 1],
    ["modelBenchmarks", "/models/{organization}/{model}/benchmarks/", "models:read", 5],
    ["modelPerformance", "/models/{organization}/{model}/performance/", "models:read", 1],
    ["modelActivity", "/models/{organization}/{model}/activity/", "models:read", 5],
    ["modelApplications", "/models/{organization}/{model}/applications/", "models:read", 5],
    ["offer", "/offers/{id}/", "models:read", 1],
    ["families", "/families/", "families:read", 1],
    ["family", "/families/{id}/", "families:read", 1],
    ["familyModels", "/families/{id}/models/", "models:read", 1],
    ["providers", "/providers/", "providers:read", 1],
    ["provider", "/providers/{id}/", "providers:read", 1],
    ["providerModels", "/providers/{id}/models/", "models:read", 1],
    ["providerOffers", "/providers/{id}/offers/", "models:read", 1],
    ["organizations", "/organizations/", "organizations:read", 1],
    ["organization", "/organizations/{slug}/", "organizations:read", 1],
    ["organizationModels", "/organizations/{slug}/models/", "models:read", 1],
    ["organizationResources", "/organizations/{slug}/resources/", "organizations:read", 1],
    ["organizationResource", "/organizations/{slug}/resources/{id}/", "organizations:read", 1],
    ["skills", "/skills/", "skills:read", 1],
    ["skill", "/skills/{sourceType}/{owner}/{repository}/{skill}/", "skills:read", 1],
    ["skillAudits", "/skills/{sourceType}/{owner}/{repository}/{skill}/audits/", "skills:read", 1],
    ["skillDocument", "/skills/{sourceType}/{owner}/{repository}/{skill}/document/", "skill_content:read", 5],
    ["publishers", "/publishers/", "skills:read", 1],
    ["mcps", "/mcps/", "mcps:read", 1],
    ["mcp", "/mcps/{namespace}/{name}/", "mcps:read", 1],
    ["mcpConnection", "/mcps/{namespace}/{name}/connection/", "mcps:read", 5],
    ["topics", "/topics/", "topics:read", 1],
    ["topicSkills", "/topics/{slug}/skills/", "skills:read", 1],
    ["articles", "/articles/", "articles:read", 1],
    ["article", "/articles/{slug}/", "articles:read", 1],
    ["search", "/search/", "search", 5],
    ["stats", "/stats/", "any", 1],
    ["usage", "/usage/", "any", 0]
  ]

  it("defines the 35 operations of the contract, in its order", () => {
    expect(Operations.all.map((operation) => operation.id)).toEqual(table.map(([id]) => id))
  })

  it.each(table)("%s: path, scope and units", (id, path, scope, units) => {
    const operation = Operations.all.find((candidate) => candidate.id === id)
    expect(operation?.path).toBe(path)
    expect(operation?.units).toBe(units)
    const rule = operation?.scope
    expect(rule?._tag === "Scope" ? rule.scope : rule?._tag === "AnyKey" ? "any" : "search").toBe(scope)
    expect(operation?.pathParameters).toEqual(Array.from(path.matchAll(/\{([^}]+)\}/g), (match) => match[1]))
  })

  it("takes limit and cursor on lists only, with the page-size bounds", () => {
    for (const operation of Operations.all) {
      const names = Object.keys(operation.query.fields)
      expect(names.includes("limit")).toBe(operation.kind === "list")
      expect(names.includes("cursor")).toBe(operation.kind === "list")
      expect(operation.maxLimit).toBe(operation.kind === "list" ? (operation.id === "search" ? 25 : 100) : 0)
    }
  })

  it("has the documented filters", () => {
    const filters = (operation: { readonly query: { readonly fields: object } }) =>
      Object.keys(operation.query.fields).filter((name) => name !== "limit" && name !== "cursor").sort()
    expect(filters(Operations.models)).toEqual(["family", "open_weights", "organization", "provider", "q", "reasoning"])
    expect(filters(Operations.families)).toEqual(["q"])
    expect(filters(Operations.providers)).toEqual(["q"])
    expect(filters(Operations.organizations)).toEqual(["kind", "q"])
    expect(filters(Operations.skills)).toEqual(["official", "q", "source", "topic"])
    expect(filters(Operations.mcps)).toEqual(["namespace", "q", "status"])
    expect(filters(Operations.search)).toEqual(["q", "type"])
    expect(filters(Operations.publishers)).toEqual([])
  })
})
