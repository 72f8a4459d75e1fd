import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import * as Http from "../support/Http.js"

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
