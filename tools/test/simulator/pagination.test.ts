import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import * as Collation from "../../src/simulator/data/Collation.js"
import * as Http from "../../../test/support/Http.js"

const Page = Schema.Struct({
  data: Schema.Array(Schema.Struct({ id: Schema.String })),
  pagination: Schema.Struct({ limit: Schema.Number, has_more: Schema.Boolean, next_cursor: Schema.NullOr(Schema.String) }),
  links: Schema.Struct({ next: Schema.NullOr(Schema.String) })
})

const page = (path: string) => Http.get(path).pipe(Effect.flatMap((reply) => Schema.decodeUnknown(Page)(reply.json)))

const scan = (path: string) =>
  Effect.gen(function*() {
    const ids: Array<string> = []
    let pages = 0
    let next: string | null = path
    while (next !== null) {
      const body: typeof Page.Type = yield* page(next)
      ids.push(...body.data.map((item) => item.id))
      pages++
      next = body.links.next
    }
    return { ids, pages }
  })

const unitsSpent = Http.get("/usage/").pipe(
  Effect.flatMap((reply) => Schema.decodeUnknown(Schema.Struct({ data: Schema.Struct({ daily_units: Schema.Number }) }))(reply.json)),
  Effect.map((body) => body.data.daily_units)
)

const nextOf = (body: typeof Page.Type) => Effect.fromNullable(body.links.next)

describe("cursors", () => {
  it.layer(Http.simulator({ sizes: { models: 950 }, enforceLimits: false }))((it) => {
    it.effect("a scan following links.next yields every item once, in ascending order", () =>
      Effect.gen(function*() {
        const { ids, pages } = yield* scan("/models/?limit=100")
        expect(ids).toHaveLength(950)
        expect(new Set(ids).size).toBe(950)
        expect([...ids].sort()).toEqual(ids)
        expect(pages).toBe(10)
      }))

    it.effect("links.next keeps the filters and the page size, and carries next_cursor", () =>
      Effect.gen(function*() {
        const first = yield* page("/models/?reasoning=true&limit=7")
        expect(first.pagination).toMatchObject({ limit: 7, has_more: true })
        const next = new URL(yield* nextOf(first))
        expect(next.searchParams.get("reasoning")).toBe("true")
        expect(next.searchParams.get("limit")).toBe("7")
        expect(next.searchParams.get("cursor")).toBe(first.pagination.next_cursor)
        const second = yield* page(next.href)
        expect((second.data[0]?.id ?? "") > (first.data[6]?.id ?? "")).toBe(true)
      }))

    it.effect("the default page size is 25, and the last page says there is no more", () =>
      Effect.gen(function*() {
        const first = yield* page("/families/")
        expect(first.data).toHaveLength(25)
        const { ids } = yield* scan("/families/?limit=100")
        expect(ids).toHaveLength(120)
        const last = yield* page("/families/?limit=100&q=f0119")
        expect(last.pagination).toEqual({ limit: 100, has_more: false, next_cursor: null })
        expect(last.links.next).toBeNull()
      }))

    it.effect("a cursor may continue with a smaller page", () =>
      Effect.gen(function*() {
        const first = yield* page("/models/?limit=50")
        const next = new URL(yield* nextOf(first))
        next.searchParams.set("limit", "10")
        const second = yield* page(next.href)
        expect(second.data).toHaveLength(10)
        expect((second.data[0]?.id ?? "") > (first.data[49]?.id ?? "")).toBe(true)
      }))

    it.effect("a cursor is refused with other filters, on another list, or tampered with", () =>
      Effect.gen(function*() {
        const first = yield* page("/models/?reasoning=true&limit=5")
        const cursor = first.pagination.next_cursor ?? ""
        const refusals = [
          `/models/?reasoning=false&limit=5&cursor=${cursor}`,
          `/models/?limit=5&cursor=${cursor}`,
          `/skills/?limit=5&cursor=${cursor}`,
          `/models/?reasoning=true&limit=5&cursor=${cursor.slice(0, -2)}xx`,
          `/models/?reasoning=true&limit=5&cursor=not-a-cursor`
        ]
        for (const path of refusals) {
          const reply = yield* Http.get(path)
          expect(reply.status, path).toBe(400)
          expect(reply.json).toMatchObject({ code: "invalid_cursor" })
        }
      }))
  })

  layer(Http.simulator({ sizes: { models: 300 }, timeScale: 0.0005, enforceLimits: false }), { excludeTestServices: true })((it) => {
    it.effect("a cursor older than the (scaled) hour answers 409 cursor_expired", () =>
      Effect.gen(function*() {
        const first = yield* page("/models/?limit=10")
        const next = yield* nextOf(first)
        expect((yield* Http.get(next)).status).toBe(200)
        yield* Effect.sleep("1900 millis")
        const expired = yield* Http.get(next)
        expect(expired.status).toBe(409)
        expect(expired.headers["content-type"]).toBe("application/problem+json")
        expect(expired.json).toMatchObject({ status: 409, code: "cursor_expired", request_id: expired.headers["x-request-id"] })
        expect((yield* Http.get("/models/?limit=10")).status).toBe(200)
      }))
  })
})

describe("collations", () => {
  const lists = ["models", "skills", "mcps", "organizations", "providers", "families", "publishers", "topics", "articles"]
  const sizes = { models: 400, skills: 300, mcps: 150, organizations: 40, providers: 20, families: 30, topics: 30 }
  const inversions = (ids: ReadonlyArray<string>) => ids.filter((id, index) => index > 0 && (ids[index - 1] ?? "") > id).length

  for (const collation of Collation.collations) {
    it.layer(Http.simulator({ collation, sizes, enforceLimits: false, churn: 0.2, churnHorizon: 10 }))((it) => {
      it.effect(`${collation}: every list comes in ascending ${collation} order across its pages, each item once`, () =>
        Effect.gen(function*() {
          const compare = Collation.compare[collation]
          for (const list of lists) {
            const { ids, pages } = yield* scan(`/${list}/?limit=7`)
            expect(ids.length, list).toBeGreaterThan(0)
            expect(new Set(ids).size, list).toBe(ids.length)
            expect(ids.every((id, index) => index === 0 || compare(ids[index - 1] ?? "", id) < 0), list).toBe(true)
            if (["models", "skills", "mcps"].includes(list)) {
              expect(pages).toBeGreaterThan(10)
              // Under the others, JavaScript's `<` disagrees with the service's order, across pages too.
              if (collation === "code-unit") expect(inversions(ids), list).toBe(0)
              else expect(inversions(ids), list).toBeGreaterThan(ids.length / 10)
            }
          }
        }))
    })
  }

  it.layer(Http.simulator({ collation: "locale", sizes: { models: 200 }, enforceLimits: false }))((it) => {
    it.effect("locale: ordinals are numeric-aware and case-insensitive (m9 before M10), and a detail is found by its id", () =>
      Effect.gen(function*() {
        const { ids } = yield* scan("/models/?limit=100")
        const slugs = ids.map((id) => id.slice(id.indexOf("/") + 1))
        expect(slugs.findIndex((slug) => /^m9-/i.test(slug))).toBeLessThan(slugs.findIndex((slug) => /^m10-/i.test(slug)))
        expect(slugs.some((slug) => slug.startsWith("M"))).toBe(true)
        const last = ids.at(-1) ?? ""
        expect(Http.data(yield* Http.get(`/models/${last}/`))).toMatchObject({ id: last })
      }))
  })
})

describe("forced cursor expiry", () => {
  it.layer(Http.simulator({ sizes: { models: 300 }, enforceLimits: false, faults: { expire: 0.5 } }))((it) => {
    it.effect("expire 0.5: about half of the requests with a cursor answer 409 cursor_expired, however young; first pages never", () =>
      Effect.gen(function*() {
        const first = yield* page("/models/?limit=10")
        const next = yield* nextOf(first)
        const statuses: Array<number> = []
        for (let n = 0; n < 60; n++) statuses.push((yield* Http.get(next)).status)
        const expired = statuses.filter((status) => status === 409).length
        expect(expired).toBeGreaterThan(15)
        expect(expired).toBeLessThan(45)
        expect(statuses.filter((status) => status !== 409 && status !== 200)).toEqual([])
        for (let n = 0; n < 20; n++) expect((yield* Http.get("/models/?limit=10")).status).toBe(200)
      }))
  })
})

describe("conditional requests", () => {
  it.layer(Http.simulator({ sizes: { models: 200 }, enforceLimits: false }))((it) => {
    it.effect("a matching If-None-Match answers 304 with no body and costs nothing", () =>
      Effect.gen(function*() {
        for (const path of ["/models/?limit=5", "/stats/", "/topics/"]) {
          const first = yield* Http.get(path)
          const etag = first.headers["etag"] ?? ""
          expect(etag).toMatch(/^"[^"]+"$/)
          const before = yield* unitsSpent
          const again = yield* Http.get(path, { headers: { "if-none-match": etag } })
          expect(again.status).toBe(304)
          expect(again.text).toBe("")
          expect(again.headers["etag"]).toBe(etag)
          expect(again.headers["x-request-id"]).toMatch(/^req_/)
          expect(yield* unitsSpent).toBe(before)
        }
      }))

    it.effect("weak and listed tags match, others do not", () =>
      Effect.gen(function*() {
        const etag = (yield* Http.get("/stats/")).headers["etag"] ?? ""
        expect((yield* Http.get("/stats/", { headers: { "if-none-match": `W/${etag}` } })).status).toBe(304)
        expect((yield* Http.get("/stats/", { headers: { "if-none-match": `"other", ${etag}` } })).status).toBe(304)
        expect((yield* Http.get("/stats/", { headers: { "if-none-match": "*" } })).status).toBe(304)
        expect((yield* Http.get("/stats/", { headers: { "if-none-match": `"other"` } })).status).toBe(200)
      }))

    it.effect("authentication comes before the tag is evaluated", () =>
      Effect.gen(function*() {
        const etag = (yield* Http.get("/stats/")).headers["etag"] ?? ""
        const reply = yield* Http.get("/stats/", { key: "revoked", headers: { "if-none-match": etag } })
        expect(reply.status).toBe(401)
      }))

    it.effect("different content has different tags", () =>
      Effect.gen(function*() {
        const a = (yield* Http.get("/models/?limit=5")).headers["etag"]
        const b = (yield* Http.get("/models/?limit=6")).headers["etag"]
        expect(a).not.toBe(b)
      }))
  })
})

describe("response size", () => {
  it.layer(Http.simulator({ sizes: { skills: 400 }, enforceLimits: false }))((it) => {
    it.effect("a page of 100 large Skills would pass 512 KiB and answers 422; a smaller page succeeds", () =>
      Effect.gen(function*() {
        const tooLarge = yield* Http.get("/skills/?limit=100")
        expect(tooLarge.status).toBe(422)
        expect(tooLarge.json).toMatchObject({ status: 422, code: "response_too_large" })
        const half = yield* Http.get("/skills/?limit=50")
        expect(half.status).toBe(200)
        expect(Buffer.byteLength(half.text)).toBeLessThanOrEqual(512 * 1024)
      }))

    it.effect("Skill documents stay under the Markdown limit", () =>
      Effect.gen(function*() {
        const skills = yield* Http.get("/skills/?limit=10").pipe(
          Effect.flatMap((reply) => Schema.decodeUnknown(Schema.Struct({ data: Schema.Array(Schema.Struct({ api_url: Schema.String })) }))(reply.json))
        )
        const large = skills.data[3]?.api_url ?? ""
        const document = yield* Http.get(`${large}document/`)
        expect(document.status).toBe(200)
        const content = yield* Schema.decodeUnknown(Schema.Struct({ data: Schema.Struct({ content: Schema.String }) }))(document.json)
        expect(Buffer.byteLength(content.data.content)).toBeGreaterThan(250_000)
        expect(Buffer.byteLength(content.data.content)).toBeLessThanOrEqual(350_000)
      }))
  })
})
