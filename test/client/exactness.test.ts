/**
 * The wire path (`wire`, `wirePages`, and the mirror through them) passes
 * each item on exactly as the service sent it, or fails with
 * `UnexpectedResponse` naming the field: numbers `JSON.parse` cannot hold
 * exactly (overflow, underflow, integers beyond 2^53, more digits than a
 * double keeps), fields of the wrong wire type (a count sent as a string or
 * a fraction), against a stub server that writes its pages by hand. Nothing
 * of a refused page is emitted or stored. The number scanner itself, shared
 * by both editions, is tested once in rules/test/client/ExactJson.test.ts.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Ref, Stream } from "effect"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import * as Mirror from "../../common/src/mirror/Mirror.js"
import * as MirrorDatabase from "../../src/mirror/MirrorDatabase.js"
import { stubWithClient } from "../support/Client.js"
import { wireModel } from "../support/Fixtures.js"
import * as MirrorStore from "../support/Mirror.js"
import * as Stub from "../support/Stub.js"

// Pages written by hand ---------------------------------------------------------

/** Stands for a value written into an item's text as it is, not as JSON.stringify would write it. */
const raw = "__raw__"

/** The compact text of a model whose fields `changes` replaces; a value `raw` is replaced by `token`, verbatim. */
const modelText = (baseUrl: string, index: number, changes: Readonly<Record<string, unknown>> = {}, token = "") =>
  JSON.stringify({ ...wireModel(baseUrl, `o${index}-falcon`, `m${index}-kestrel`), ...changes }).replace(`"${raw}"`, token)

/** The compact text of a list page of `items` (texts), leading on to `next` (a cursor) or last. */
const pageText = (baseUrl: string, items: ReadonlyArray<string>, next: string | null = null) =>
  `{"data":[${items.join(",")}],"pagination":{"limit":100,"has_more":${next !== null},"next_cursor":${JSON.stringify(next)}},` +
  `"links":{"next":${next === null ? "null" : JSON.stringify(`${baseUrl}/models/?cursor=${next}&limit=100`)}},"meta":{"observed_at":null,"stale":null}}`

const reply = (body: string, requestId: string): Stub.Reply => ({
  status: 200,
  headers: { "content-type": "application/json", "x-request-id": requestId },
  body
})

/** Answers the first page with `first` and the page at cursor `p2` with `second`. */
const twoPages = (first: string, second: string) => (request: Stub.Received) =>
  request.url.includes("cursor=p2") ? reply(second, "req_exact_second") : reply(first, "req_exact_first")

const stubClient = stubWithClient("cat_test_exact_0123456789")

/** What a stream emitted before it failed, and its error. */
const emittedAndError = <A, E>(stream: Stream.Stream<A, E>) =>
  Effect.gen(function*() {
    const emitted = yield* Ref.make<ReadonlyArray<A>>([])
    const error = yield* Effect.flip(Stream.runForEach(stream, (item) => Ref.update(emitted, (all) => [...all, item])))
    return { emitted: yield* Ref.get(emitted), error }
  })

const idsOf = (items: ReadonlyArray<{ readonly id: string }>) => items.map((item) => item.id)

/** A wrong item at index 2 of a page, and what the failure must say. */
interface Case {
  readonly name: string
  readonly changes: Readonly<Record<string, unknown>>
  readonly token?: string
  readonly detail: string
}

const exactness = (token: string) => `${token} cannot be held exactly as a JSON number`

const cases: ReadonlyArray<Case> = [
  { name: "a count that overflows to Infinity", changes: { offer_count: raw }, token: "1e309", detail: `data[2].offer_count: ${exactness("1e309")}` },
  { name: "a count that overflows to -Infinity", changes: { provider_count: raw }, token: "-1e309", detail: `data[2].provider_count: ${exactness("-1e309")}` },
  {
    name: "an integer beyond 2^53 no double holds",
    changes: { specifications: { parameters: raw } },
    token: "9007199254740993",
    detail: `data[2].specifications.parameters: ${exactness("9007199254740993")}`
  },
  {
    name: "a non-zero price that underflows to 0",
    changes: { specifications: { price: raw } },
    token: "1e-400",
    detail: `data[2].specifications.price: ${exactness("1e-400")}`
  },
  {
    name: "more significant digits than a double keeps",
    changes: { specifications: { ratio: raw } },
    token: "0.1000000000000000055511151231257827",
    detail: `data[2].specifications.ratio: ${exactness("0.1000000000000000055511151231257827")}`
  },
  { name: "a count sent as a string", changes: { offer_count: "3" }, detail: "data[2].offer_count: Expected number, actual \"3\"" },
  { name: "a count sent as a fraction", changes: { offer_count: 2.5 }, detail: "data[2].offer_count: Expected an integer, actual 2.5" },
  { name: "a negative count", changes: { provider_count: -1 }, detail: "data[2].provider_count: Expected a non-negative number, actual -1" },
  { name: "an id that is not a string", changes: { id: 12 }, detail: "data[2].id: Expected string, actual 12" },
  { name: "a boolean sent as a string", changes: { reasoning: "yes" }, detail: "data[2].reasoning: Expected boolean, actual \"yes\" (and 1 more)" }
]

// The wire path -------------------------------------------------------------------

describe("wire: each item exactly as sent, or UnexpectedResponse naming the field", () => {
  it.live("a valid page passes byte-exact, numbers and strings that look like numbers included", () =>
    Effect.gen(function*() {
      const stub = yield* Stub.Stub
      const catalog = yield* CatalogClient.CatalogClient
      const items = [
        modelText(stub.baseUrl, 0, { name: "1e309", offer_count: 9, specifications: { note: "a\"1e309", big: "9007199254740993" } }),
        modelText(stub.baseUrl, 1, { name: "a\\\"1e-400\\", specifications: { ratio: 0.1, tiny: 5e-324, huge: 1.7976931348623157e308, exact: 9007199254740992 } }),
        modelText(stub.baseUrl, 2, { specifications: { price: 1.5e-7, negative: -12.75, counts: [0, 1, 123456789012345] } })
      ]
      yield* stub.answer(() => reply(pageText(stub.baseUrl, items), "req_exact_valid"))
      const emitted = yield* Stream.runCollect(catalog.wire("models", {}))
      expect([...emitted].map((item) => JSON.stringify(item))).toEqual(items)
    }).pipe(Effect.provide(stubClient)))

  it.live("a number spelled otherwise but held exactly passes, as the same value: 1.0, 1e2, -0, 1E+2", () =>
    Effect.gen(function*() {
      const stub = yield* Stub.Stub
      const catalog = yield* CatalogClient.CatalogClient
      const sent = modelText(stub.baseUrl, 0, { offer_count: raw, specifications: { a: 1.5 } }, "1.0").replace("1.5", "[1e2,-0,1E+2,0.10]")
      yield* stub.answer(() => reply(pageText(stub.baseUrl, [sent]), "req_exact_respelled"))
      const emitted = yield* Stream.runCollect(catalog.wire("models", {}))
      expect([...emitted].map((item) => JSON.stringify(item))).toEqual([
        modelText(stub.baseUrl, 0, { offer_count: 1, specifications: { a: [100, 0, 100, 0.1] } })
      ])
    }).pipe(Effect.provide(stubClient)))

  for (const { changes, detail, name, token } of cases) {
    it.live(`${name}: the page fails naming data[2], and nothing of it is emitted`, () =>
      Effect.gen(function*() {
        const stub = yield* Stub.Stub
        const catalog = yield* CatalogClient.CatalogClient
        const first = pageText(stub.baseUrl, [modelText(stub.baseUrl, 0), modelText(stub.baseUrl, 1)], "p2")
        const second = pageText(stub.baseUrl, [modelText(stub.baseUrl, 2), modelText(stub.baseUrl, 3), modelText(stub.baseUrl, 4, changes, token)])
        yield* stub.answer(twoPages(first, second))
        const { emitted, error } = yield* emittedAndError(catalog.wire("models", {}))
        expect(idsOf(emitted)).toEqual(["o0-falcon/m0-kestrel", "o1-falcon/m1-kestrel"])
        expect(error).toMatchObject({ _tag: "UnexpectedResponse", status: 200, code: null, requestId: "req_exact_second", detail })
        expect(error.message).toBe(`Unexpected response (status 200): ${detail} (request req_exact_second)`)
      }).pipe(Effect.provide(stubClient)))
  }

  it.live("the fields checked are those of each operation's item schema: an organization's followers, an offer's price", () =>
    Effect.gen(function*() {
      const stub = yield* Stub.Stub
      const catalog = yield* CatalogClient.CatalogClient
      const organization = {
        id: "o0-falcon",
        slug: "falcon",
        name: "Falcon",
        summary: "",
        website: "https://falcon.example",
        kind: "company",
        socials: {},
        followers: 2.5,
        catalog_id: null,
        updated_at: null,
        url: "https://catalog.example/organizations/falcon",
        logo_url: null
      }
      yield* stub.answer(() => reply(pageText(stub.baseUrl, [JSON.stringify(organization)]), "req_exact_organizations"))
      const followers = yield* Effect.flip(Stream.runDrain(catalog.wire("organizations", {})))
      expect(followers).toMatchObject({ _tag: "UnexpectedResponse", detail: "data[0].followers: Expected an integer, actual 2.5" })
      yield* stub.answer(() => reply(pageText(stub.baseUrl, [JSON.stringify({ ...organization, followers: 3 })]), "req_exact_organizations"))
      expect(idsOf([...yield* Stream.runCollect(catalog.wire("organizations", {}))])).toEqual(["o0-falcon"])
      const offer = {
        id: "offer-1",
        model_id: "o0-falcon/m0-kestrel",
        provider_id: "p0",
        route_id: "r0",
        channel: "api",
        host_name: null,
        context_tokens: null,
        pricing: { input: 0.15, output: "0.60" },
        observed_at: null,
        capabilities: {},
        quantization: null,
        api_url: null,
        performance: {}
      }
      yield* stub.answer(() => reply(pageText(stub.baseUrl, [JSON.stringify(offer)]), "req_exact_offers"))
      const price = yield* Effect.flip(Stream.runDrain(catalog.wire("modelOffers", { organization: "o0-falcon", model: "m0-kestrel" })))
      expect(price).toMatchObject({ _tag: "UnexpectedResponse", requestId: "req_exact_offers" })
      expect(price._tag === "UnexpectedResponse" ? price.detail : null).toMatch(/^data\[0\]\.pricing\.input: Expected /)
    }).pipe(Effect.provide(stubClient)))
})

describe("typed reads: the same numbers are refused", () => {
  it.live("get, follow and a typed page refuse a number inside an open object that JSON.parse cannot hold, naming it", () =>
    Effect.gen(function*() {
      const stub = yield* Stub.Stub
      const catalog = yield* CatalogClient.CatalogClient
      const model = modelText(stub.baseUrl, 0, { specifications: { parameters: raw } }, "9007199254740993")
      yield* stub.answer((request) =>
        request.url.includes("/models/o0-falcon/m0-kestrel/")
          ? reply(`{"data":${model}}`, "req_exact_detail")
          : reply(pageText(stub.baseUrl, [model]), "req_exact_page")
      )
      const detail = `data.specifications.parameters: ${exactness("9007199254740993")}`
      expect(yield* Effect.flip(catalog.model({ organization: "o0-falcon", model: "m0-kestrel" }))).toMatchObject({
        _tag: "UnexpectedResponse",
        requestId: "req_exact_detail",
        detail
      })
      expect(yield* Effect.flip(catalog.follow(`${stub.baseUrl}/models/o0-falcon/m0-kestrel/`))).toMatchObject({ _tag: "UnexpectedResponse", detail })
      expect(yield* Effect.flip(catalog.modelsPage())).toMatchObject({
        _tag: "UnexpectedResponse",
        requestId: "req_exact_page",
        detail: `data[0].specifications.parameters: ${exactness("9007199254740993")}`
      })
    }).pipe(Effect.provide(stubClient)))
})

describe("the mirror: a refused page is not stored", () => {
  it.live("Mirror.sync into SQLite stores the valid page, then fails on the page with 1e309 and stores nothing of it", () =>
    Effect.gen(function*() {
      const stub = yield* Stub.Stub
      const first = pageText(stub.baseUrl, [modelText(stub.baseUrl, 0), modelText(stub.baseUrl, 1)], "p2")
      const second = pageText(stub.baseUrl, [modelText(stub.baseUrl, 2), modelText(stub.baseUrl, 3, { offer_count: raw }, "1e309")])
      yield* stub.answer(twoPages(first, second))
      const error = yield* Effect.flip(Stream.runDrain(Mirror.sync("models")))
      expect(error).toMatchObject({
        _tag: "UnexpectedResponse",
        requestId: "req_exact_second",
        detail: `data[1].offer_count: ${exactness("1e309")}`
      })
      const { sql } = yield* MirrorDatabase.MirrorDatabase
      const rows = yield* sql<{ readonly id: string; readonly data: string }>`SELECT id, data FROM models ORDER BY id`
      expect(rows.map((row) => row.id)).toEqual(["o0-falcon/m0-kestrel", "o1-falcon/m1-kestrel"])
      expect(rows.map((row) => JSON.stringify(JSON.parse(row.data)))).toEqual([modelText(stub.baseUrl, 0), modelText(stub.baseUrl, 1)])
      const [run] = yield* Mirror.runs(["models"], 1)
      expect(run).toMatchObject({ status: "failed", items: 2 })
    }).pipe(Effect.provide(Layer.merge(stubClient, MirrorStore.layer("sqlite")))))
})
