/**
 * Exact values, decoded exactly from the simulator's answers over HTTP:
 * every token count and installation count a `bigint` equal to the decimal
 * string the service sent (values above 2^53 included, which no double
 * holds), every price a `BigDecimal` with every digit of its string, every
 * calendar day a `CalendarDate` that prints as sent; the typed lists, the
 * detail reads, `follow` and the wire form agree item by item. Then, against
 * a stub server that writes its pages by hand, numbers `JSON.parse` cannot
 * hold exactly (overflow, underflow, integers beyond 2^53, more digits than
 * a double keeps) refused with `UnexpectedResponse` naming the field, and
 * nothing of the refused page emitted.
 */
import { describe, expect, it } from "@effect/vitest"
import { BigDecimal, Effect, Ref, Stream } from "effect"
import { CatalogClient, Primitives } from "effect-catalog"
import { Simulator } from "effect-catalog/simulator"
import { stubWithClient } from "./support/Client.js"
import * as Stub from "./support/Stub.js"

const twoTo53 = 2n ** 53n

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** The wire items of a list, by id. */
const byId = (items: ReadonlyArray<CatalogClient.WireItem>): ReadonlyMap<string, CatalogClient.WireItem> =>
  new Map(items.map((item) => [item.id, item]))

/** The wire form of one item, or the test fails. */
const wireOf = (items: ReadonlyMap<string, CatalogClient.WireItem>, id: string): CatalogClient.WireItem => {
  const item = items.get(id)
  if (item === undefined) return expect.fail(`${id} is not in the wire form of the list`)
  return item
}

/** A `bigint` (or null) that is exactly the decimal string (or null) sent. */
const expectExactInteger = (typed: bigint | null, sent: unknown, where: string) => {
  if (sent === null) return expect(typed, where).toBeNull()
  expect(typeof sent, where).toBe("string")
  expect(typeof typed, where).toBe("bigint")
  expect(typed, where).toBe(BigInt(String(sent)))
  expect(String(typed), where).toBe(sent)
}

/** A `BigDecimal` (or null, or missing) with every digit of the decimal string sent. */
const expectExactPrice = (typed: BigDecimal.BigDecimal | null | undefined, sent: unknown, where: string) => {
  if (sent === undefined || sent === null) return expect(typed, where).toBe(sent)
  if (typed === undefined || typed === null) return expect.fail(`${where}: no price decoded for ${String(sent)}`)
  expect(BigDecimal.isBigDecimal(typed), where).toBe(true)
  expect(Primitives.plainDecimal(typed), where).toBe(sent)
  expect(BigDecimal.equals(typed, BigDecimal.fromStringUnsafe(String(sent))), where).toBe(true)
}

/** A `CalendarDate` (or null) that prints as the day sent. */
const expectExactDay = (typed: Primitives.CalendarDate | null, sent: unknown, where: string) => {
  if (sent === null) return expect(typed, where).toBeNull()
  expect(typed, where).toBeInstanceOf(Primitives.CalendarDate)
  expect(String(typed), where).toBe(sent)
  expect(typed?.toDate().toISOString(), where).toBe(`${String(sent)}T00:00:00.000Z`)
}

const priceFields = ["input", "output", "cache_read", "cache_write", "request", "image"] as const

/** Each price of a pricing in plain notation (null or undefined as it is). */
const plainPrices = (pricing: { readonly [F in (typeof priceFields)[number]]?: BigDecimal.BigDecimal | null | undefined }) =>
  priceFields.map((field) => {
    const price = pricing[field]
    return price === undefined || price === null ? price : Primitives.plainDecimal(price)
  })

describe("exact values from the simulator", () => {
  it.layer(Simulator.layerClient({ sizes: { models: 120, skills: 40 } }))("over HTTP", (it) => {
    it.effect("token counts: each model's context_tokens is the bigint of the string sent, 2^53 + 3 among them", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const typed = yield* Stream.runCollect(catalog.models())
        const wire = byId(yield* Stream.runCollect(catalog.wire("models", {})))
        expect(typed).toHaveLength(120)
        for (const model of typed) {
          const sent = wireOf(wire, model.id)
          expectExactInteger(model.context_tokens, sent["context_tokens"], `${model.id} context_tokens`)
          expectExactDay(model.released_on, sent["released_on"], `${model.id} released_on`)
        }
        const beyond = typed.filter((model) => model.context_tokens !== null && model.context_tokens > twoTo53)
        expect(beyond.map((model) => model.context_tokens)).toContain(twoTo53 + 3n)
        // The double nearest is another number: only the bigint keeps it.
        expect(BigInt(Number(twoTo53 + 3n))).not.toBe(twoTo53 + 3n)
        const big = beyond[0]
        if (big === undefined) return expect.fail("no model above 2^53")
        expect((yield* catalog.model(big.id)).context_tokens).toBe(big.context_tokens)
        const followed = yield* catalog.follow(big.api_url)
        expect(followed.operation === "model" ? followed.value.context_tokens : null).toBe(big.context_tokens)
        const page = yield* catalog.modelsPage({ limit: 5 })
        for (const model of page.items) expectExactInteger(model.context_tokens, wireOf(wire, model.id)["context_tokens"], model.id)
      }))

    it.effect("prices: each offer's price is a BigDecimal with every digit sent, in the list, the detail read and follow", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const simulator = yield* Simulator.Simulator
        const models = yield* Stream.runCollect(Stream.take(Stream.filter(catalog.models(), (model) => model.offer_count > 1), 5))
        let prices = 0
        for (const model of models) {
          const [organization = "", name = ""] = model.id.split("/")
          const offers = yield* Stream.runCollect(catalog.modelOffers(model))
          const wire = byId(yield* Stream.runCollect(catalog.wire("modelOffers", { organization, model: name })))
          expect(offers).toHaveLength(model.offer_count)
          for (const offer of offers) {
            const pricing = wireOf(wire, offer.id)["pricing"]
            if (!isRecord(pricing)) return expect.fail(`${offer.id}: pricing is not an object`)
            for (const field of priceFields) {
              expectExactPrice(offer.pricing[field], pricing[field], `${offer.id} pricing.${field}`)
              if (typeof pricing[field] === "string") prices++
            }
            expectExactInteger(offer.context_tokens, wireOf(wire, offer.id)["context_tokens"], `${offer.id} context_tokens`)
          }
          const first = offers[0]
          if (first === undefined) return expect.fail(`${model.id} has no offer`)
          const read = yield* catalog.offer(first.id)
          // An offer's own api_url is the provider's endpoint; the catalog's URL of the offer is below the base URL.
          const followed = yield* catalog.follow(`${simulator.baseUrl}/offers/${encodeURIComponent(first.id)}/`)
          expect(followed.operation).toBe("offer")
          const listed = plainPrices(first.pricing)
          expect(plainPrices(read.pricing)).toEqual(listed)
          expect(followed.operation === "offer" ? plainPrices(followed.value.pricing) : null).toEqual(listed)
        }
        // Twelve decimal places, more than a price in cents would need.
        expect(prices).toBeGreaterThan(10)
      }))

    it.effect("installation counts: each Skill's installs is the bigint of the string sent, 2^60 + 7 among them", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const typed = yield* Stream.runCollect(catalog.skills())
        const wire = byId(yield* Stream.runCollect(catalog.wire("skills", {})))
        expect(typed).toHaveLength(40)
        for (const skill of typed) expectExactInteger(skill.installs, wireOf(wire, skill.id)["installs"], `${skill.id} installs`)
        const big = typed.find((skill) => skill.installs > twoTo53)
        expect(big?.installs).toBe(2n ** 60n + 7n)
        if (big !== undefined) expect((yield* catalog.skill(big)).installs).toBe(2n ** 60n + 7n)
      }))

    it.effect("daily activity: each day a CalendarDate as sent, each day's tokens the bigint of the string sent", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const [model] = (yield* catalog.modelsPage({ limit: 1 })).items
        if (model === undefined) return expect.fail("no model")
        const [organization = "", name = ""] = model.id.split("/")
        const days = yield* Stream.runCollect(catalog.modelActivity(model))
        const wire = byId(yield* Stream.runCollect(catalog.wire("modelActivity", { organization, model: name })))
        expect(days.length).toBeGreaterThan(0)
        for (const day of days) {
          const sent = wireOf(wire, day.id)
          expectExactDay(day.day, sent["day"], `${day.id} day`)
          expectExactInteger(day.tokens, sent["tokens"], `${day.id} tokens`)
        }
        expect(days.some((day) => day.tokens > twoTo53)).toBe(true)
      }))
  })
})

// Pages written by hand ---------------------------------------------------------

const key = "cat_test_exact_0123456789"

/** A model in wire form below `baseUrl`. */
const wireModel = (baseUrl: string, index: number) => ({
  id: `o${index}-falcon/m${index}-kestrel`,
  name: "Kestrel 8B",
  family_id: null,
  organization_catalog_id: `o${index}-falcon`,
  organization_slug: null,
  released_on: "2026-01-02",
  context_tokens: "9007199254740993",
  open_weights: null,
  reasoning: true,
  offer_count: 1,
  provider_count: 1,
  updated_at: null,
  url: `https://catalog.example/models/o${index}-falcon/m${index}-kestrel`,
  api_url: `${baseUrl}/models/o${index}-falcon/m${index}-kestrel/`,
  specifications: {}
})

/** Stands for a value written into an item's text as it is, not as JSON.stringify would write it. */
const raw = "__raw__"

/** The compact text of a model whose `specifications` are `specifications`, a value `raw` in them replaced by `token`, verbatim. */
const modelText = (baseUrl: string, index: number, specifications: Readonly<Record<string, unknown>> = {}, token = "") =>
  JSON.stringify({ ...wireModel(baseUrl, index), specifications }).replace(`"${raw}"`, token)

/** The compact text of a list page of `items` (texts), leading on to `next` (a cursor) or last. */
const pageText = (baseUrl: string, items: ReadonlyArray<string>, next: string | null = null) =>
  `{"data":[${items.join(",")}],"pagination":{"limit":100,"has_more":${next !== null},"next_cursor":${JSON.stringify(next)}},` +
  `"links":{"next":${next === null ? "null" : JSON.stringify(`${baseUrl}/models/?cursor=${next}&limit=100`)}},"meta":{"observed_at":null,"stale":null}}`

const reply = (body: string, requestId: string): Stub.Reply => ({
  status: 200,
  headers: { "content-type": "application/json", "x-request-id": requestId },
  body
})

/** What a stream emitted before it failed, and its error. */
const emittedAndError = <A extends { readonly id: string }, E>(stream: Stream.Stream<A, E>) =>
  Effect.gen(function*() {
    const emitted = yield* Ref.make<ReadonlyArray<string>>([])
    const error = yield* Effect.flip(Stream.runForEach(stream, (item) => Ref.update(emitted, (all) => [...all, item.id])))
    return { emitted: yield* Ref.get(emitted), error }
  })

const exactness = (token: string) => `${token} cannot be held exactly as a JSON number`

const inexact: ReadonlyArray<readonly [name: string, token: string]> = [
  ["a number that overflows to Infinity", "1e309"],
  ["an integer beyond 2^53 no double holds", "9007199254740993"],
  ["a non-zero number that underflows to 0", "1e-400"],
  ["more significant digits than a double keeps", "0.1000000000000000055511151231257827"]
]

describe("numbers JSON.parse cannot hold, from a stub server", () => {
  it.effect("a valid page passes: the typed list decodes the exact integer, the wire form keeps it a string", () =>
    Effect.gen(function*() {
      const stub = yield* Stub.Stub
      const catalog = yield* CatalogClient.CatalogClient
      const items = [modelText(stub.baseUrl, 0, { ratio: 0.1, tiny: 5e-324, exact: 9007199254740992 }), modelText(stub.baseUrl, 1)]
      yield* stub.answer(() => reply(pageText(stub.baseUrl, items), "req_exact_valid"))
      const wire = yield* Stream.runCollect(catalog.wire("models", {}))
      expect(wire.map((item) => JSON.stringify(item))).toEqual(items)
      const typed = yield* Stream.runCollect(catalog.models())
      expect(typed.map((model) => model.context_tokens)).toEqual([9007199254740993n, 9007199254740993n])
    }).pipe(Effect.provide(stubWithClient(key))))

  for (const [name, token] of inexact) {
    it.effect(`${name} (${token}): the page fails naming the field, and nothing of it is emitted`, () =>
      Effect.gen(function*() {
        const stub = yield* Stub.Stub
        const catalog = yield* CatalogClient.CatalogClient
        const first = pageText(stub.baseUrl, [modelText(stub.baseUrl, 0), modelText(stub.baseUrl, 1)], "p2")
        const second = pageText(stub.baseUrl, [modelText(stub.baseUrl, 2), modelText(stub.baseUrl, 3, { parameters: raw }, token)])
        yield* stub.answer((request) => request.url.includes("cursor=p2") ? reply(second, "req_exact_second") : reply(first, "req_exact_first"))
        const detail = `data[1].specifications.parameters: ${exactness(token)}`
        const streams: ReadonlyArray<Stream.Stream<{ readonly id: string }, { readonly _tag: string }>> = [catalog.wire("models", {}), catalog.models()]
        for (const stream of streams) {
          const { emitted, error } = yield* emittedAndError(stream)
          expect(emitted).toEqual(["o0-falcon/m0-kestrel", "o1-falcon/m1-kestrel"])
          expect(error).toMatchObject({ _tag: "UnexpectedResponse", status: 200, requestId: "req_exact_second", detail })
        }
        yield* stub.answer(() => reply(`{"data":${modelText(stub.baseUrl, 3, { parameters: raw }, token)}}`, "req_exact_detail"))
        expect(yield* Effect.flip(catalog.model({ organization: "o3-falcon", model: "m3-kestrel" }))).toMatchObject({
          _tag: "UnexpectedResponse",
          requestId: "req_exact_detail",
          detail: `data.specifications.parameters: ${exactness(token)}`
        })
      }).pipe(Effect.provide(stubWithClient(key))))
  }
})
