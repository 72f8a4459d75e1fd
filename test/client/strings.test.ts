/**
 * Strings a caller passes and URLs as they are sent, against a stub server
 * that records the request line of every request: a string with a lone
 * surrogate (no UTF-8 form) in a path parameter, a filter, a cursor, a URL to
 * follow or the base URL is refused with a typed error that names it, before
 * anything is sent; well-formed text outside the BMP is sent exactly; a
 * fragment of a followed URL or of a `links.next` never reaches the request
 * line, and a link that differs from the page's own only in its fragment is
 * the same page, for the client and for `catalog get <api_url>`. Every test
 * runs on the real clock with its own stub.
 */
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Either, Stream } from "effect"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import * as CatalogConfig from "../../common/src/client/CatalogConfig.js"
import type * as Errors from "../../common/src/client/Errors.js"
import { catalog, keepSecret } from "../support/CatalogProcess.js"
import { stubWithClient } from "../support/Client.js"
import { segmentsOf, wireModel } from "../support/Fixtures.js"
import * as Stub from "../support/Stub.js"

const key = "cat_test_strings_0123456789abcdef"
keepSecret(key)

/** A client of the stub in context, a stub, and an HTTP client; nothing is retried and every request gives up after 5 seconds. */
const env = stubWithClient(key, { timeout: "5 seconds" })

const page = (items: ReadonlyArray<unknown>, next: string | null) => ({
  data: items,
  pagination: { limit: 100, has_more: next !== null, next_cursor: null },
  links: { next },
  meta: { observed_at: null, stale: null }
})

/** Strings that hold a lone surrogate, and where its first one is. */
const loneSurrogates: ReadonlyArray<readonly [text: string, unit: string, index: number]> = [
  ["a\ud800b", "D800", 1],
  ["\udc00", "DC00", 0],
  ["kestrel\udbff", "DBFF", 7],
  ["\udfff\ud800", "DFFF", 0],
  ["😀\ud83d", "D83D", 2],
  ["x\ud800\ud800\udc00", "D800", 1]
]

/** The error an effect fails with, or the test fails. */
const failureOf = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.flatMap(Effect.either(effect), Either.match({ onLeft: Effect.succeed, onRight: () => Effect.dieMessage("expected a failure") }))

/** An `InvalidRequest` made by the client that names `name` and the lone surrogate, without the key. */
const expectRefused = (error: Errors.CatalogError, name: string, unit: string, index: number) => {
  expect(error._tag).toBe("InvalidRequest")
  if (error._tag !== "InvalidRequest") return
  expect(error.code).toBe("local_validation")
  expect(error.requestId).toBeNull()
  expect(error.detail).toBe(`${name}: holds a lone surrogate (U+${unit}) at index ${index}, which has no UTF-8 form and cannot be sent`)
  expect(`${error.message} ${JSON.stringify(error)}`).not.toContain(key)
}

describe("strings a caller passes", () => {
  it.live("a lone surrogate in a path parameter is InvalidRequest naming it, and nothing is sent", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const stub = yield* Stub.Stub
      for (const [text, unit, index] of loneSurrogates) {
        expectRefused(yield* failureOf(catalog.model({ organization: "acme", model: text })), "model", unit, index)
        expectRefused(yield* failureOf(catalog.model({ organization: text, model: "ok" })), "organization", unit, index)
        expectRefused(yield* failureOf(catalog.read("offer", { id: text })), "id", unit, index)
        expectRefused(yield* failureOf(Stream.runDrain(catalog.modelOffers({ organization: "acme", model: text }))), "model", unit, index)
        expectRefused(yield* failureOf(catalog.topicSkillsPage({ slug: text })), "slug", unit, index)
      }
      expect(yield* stub.received).toEqual([])
    }).pipe(Effect.provide(env)))

  it.live("a lone surrogate in a filter or a cursor is InvalidRequest naming it, and nothing is sent", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const stub = yield* Stub.Stub
      for (const [text, unit, index] of loneSurrogates) {
        expectRefused(yield* failureOf(catalog.modelsPage({ q: text })), "q", unit, index)
        expectRefused(yield* failureOf(Stream.runDrain(catalog.models({ family: text, reasoning: true }))), "family", unit, index)
        expectRefused(yield* failureOf(catalog.searchPage({ q: `ab${text}`, type: "models" })), "q", unit, index + 2)
        expectRefused(yield* failureOf(catalog.mcpsPage({ namespace: text })), "namespace", unit, index)
        expectRefused(yield* failureOf(catalog.skillsPage({ topic: text })), "topic", unit, index)
        expectRefused(yield* failureOf(catalog.modelsPage({ cursor: text })), "cursor", unit, index)
        expectRefused(yield* failureOf(Stream.runDrain(catalog.wire("providers", { q: text }))), "q", unit, index)
        expectRefused(yield* failureOf(Stream.runDrain(catalog.wirePages("families", {}, text))), "cursor", unit, index)
      }
      // A limit that is not a page size is refused, not replaced by the largest page.
      for (const limit of ["", "100", 0, 101, 2.5]) {
        const refused = yield* failureOf(Stream.runDrain(catalog.wire("models", { limit })))
        expect(refused._tag).toBe("InvalidRequest")
        expect((yield* failureOf(catalog.modelsPage({ limit: Number(limit) === 100 ? 101 : 0 })))._tag).toBe("InvalidRequest")
      }
      expect(yield* stub.received).toEqual([])
    }).pipe(Effect.provide(env)))

  it.live("a lone surrogate in a URL to follow is InvalidRequest naming it, and nothing is sent", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const stub = yield* Stub.Stub
      for (const [text, unit, index] of loneSurrogates) {
        const prefix = `${stub.baseUrl}/models/acme/`
        expectRefused(yield* failureOf(catalog.follow(`${prefix}${text}/`)), "apiUrl", unit, prefix.length + index)
        expectRefused(yield* failureOf(catalog.follow(`${prefix}ok/#${text}`)), "apiUrl", unit, prefix.length + 4 + index)
      }
      expect(yield* stub.received).toEqual([])
    }).pipe(Effect.provide(env)))

  it("a base URL with a lone surrogate is a ConfigError naming where it is", () => {
    for (const [text, unit, index] of loneSurrogates) {
      const base = "https://catalog.example/api/"
      const parsed = CatalogConfig.parseBaseUrl(`${base}${text}`)
      expect(Either.isLeft(parsed)).toBe(true)
      if (Either.isLeft(parsed)) {
        expect(String(parsed.left)).toContain(`The base URL holds a lone surrogate (U+${unit}) at index ${base.length + index}`)
      }
    }
  })

  it.live("well-formed text outside the BMP, and characters that mean something in a URL, are sent exactly", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const stub = yield* Stub.Stub
      const organization = "😀 ../?#&=%2F\u0000\ud83d\ude00"
      const model = "\ud800\udc00/x"
      yield* stub.answer(() => Stub.json(200, { data: wireModel(stub.baseUrl, "acme", "ok") }))
      yield* catalog.model({ organization, model })
      yield* stub.answer(() => Stub.json(200, page([], null)))
      const q = "𝔘nicode & ?x=1#y"
      yield* catalog.modelsPage({ q, family: "\u{10ffff}" })
      const [detail, list] = yield* stub.received
      if (detail === undefined || list === undefined) return expect.fail("two requests")
      expect(segmentsOf(stub.baseUrl, `${stub.origin}${detail.url}`)).toEqual(["models", organization, model])
      expect(detail.url).not.toContain("#")
      const query = new URL(list.url, stub.origin).searchParams
      expect([...query.keys()].sort()).toEqual(["family", "limit", "q"])
      expect(query.get("q")).toBe(q)
      expect(query.get("family")).toBe("\u{10ffff}")
      expect(list.url).not.toContain("#")
    }).pipe(Effect.provide(env)))
})

describe("URLs as sent", () => {
  it.live("a followed api_url's fragment never reaches the request line", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const stub = yield* Stub.Stub
      yield* stub.answer(() => Stub.json(200, { data: wireModel(stub.baseUrl, "acme", "ok") }))
      for (const fragment of ["#frag", "#", "#/../../usage/", "#?cursor=x", "#%ED%A0%80"]) {
        const followed = yield* catalog.follow(`${stub.baseUrl}/models/acme/ok/${fragment}`)
        expect(followed.operation).toBe("model")
      }
      const lines = (yield* stub.received).map((request) => request.url)
      expect(lines).toEqual(Array.from({ length: 5 }, () => "/api/v1/models/acme/ok/"))
      // A query stays; only the fragment goes.
      yield* catalog.follow(`${stub.baseUrl}/models/acme/ok/?view=full#frag`)
      expect((yield* stub.received).at(-1)?.url).toBe("/api/v1/models/acme/ok/?view=full")
    }).pipe(Effect.provide(env)))

  it.live("catalog get of an api_url with a fragment sends the request line without it", () =>
    Effect.gen(function*() {
      const stub = yield* Stub.Stub
      const model = wireModel(stub.baseUrl, "acme", "ok")
      yield* stub.answer(() => Stub.json(200, { data: model }))
      const result = yield* Effect.promise(() => catalog(["get", `${stub.baseUrl}/models/acme/ok/#frag`, "--retries", "0"], { baseUrl: stub.baseUrl, key }))
      expect(result.code, result.stderr).toBe(0)
      expect(JSON.parse(result.stdout)).toEqual(model)
      expect((yield* stub.received).map((request) => request.url)).toEqual(["/api/v1/models/acme/ok/"])
    }).pipe(Effect.timeout("30 seconds"), Effect.provide(env)), 35_000)

  it.live("a links.next's fragment never reaches the request line", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const stub = yield* Stub.Stub
      yield* stub.answer((request) =>
        request.url.includes("cursor=c2")
          ? Stub.json(200, page([wireModel(stub.baseUrl, "acme", "b")], null))
          : Stub.json(200, page([wireModel(stub.baseUrl, "acme", "a")], `${stub.baseUrl}/models/?cursor=c2#frag`))
      )
      const ids = yield* Stream.runCollect(catalog.models()).pipe(Effect.map((items) => Chunk.toReadonlyArray(items).map((model) => model.id)))
      expect(ids).toEqual(["acme/a", "acme/b"])
      const lines = (yield* stub.received).map((request) => request.url)
      expect(lines).toEqual(["/api/v1/models/?limit=100", "/api/v1/models/?cursor=c2&limit=100"])
    }).pipe(Effect.provide(env)))

  it.live("a links.next that differs from the page's own URL only in its fragment is the same page: the scan stops after one request", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const stub = yield* Stub.Stub
      yield* stub.answer(() => Stub.json(200, page([wireModel(stub.baseUrl, "acme", "a")], `${stub.baseUrl}/models/?limit=100#again`)))
      const error = yield* failureOf(Stream.runDrain(catalog.models()))
      expect(error._tag).toBe("UnexpectedResponse")
      expect((yield* stub.received).map((request) => request.url)).toEqual(["/api/v1/models/?limit=100"])
    }).pipe(Effect.provide(env)))

  it.live("a links.next with a lone surrogate is not followed: UnsafeLink, after the items of its page", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const stub = yield* Stub.Stub
      // JSON can carry a lone surrogate as an escape; JSON.stringify writes it so.
      yield* stub.answer(() => Stub.json(200, page([wireModel(stub.baseUrl, "acme", "a")], `${stub.baseUrl}/models/?cursor=\ud800`)))
      const read: Array<string> = []
      const error = yield* failureOf(Stream.runForEach(catalog.models(), (model) => Effect.sync(() => read.push(model.id))))
      expect(read).toEqual(["acme/a"])
      expect(error._tag).toBe("UnsafeLink")
      if (error._tag === "UnsafeLink") expect(error.link).toBe("(not a well-formed URL)")
      expect(yield* stub.received).toHaveLength(1)
    }).pipe(Effect.provide(env)))

  it.live("a next_cursor with a lone surrogate is not sent back: UnexpectedResponse, after the items of its page", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const stub = yield* Stub.Stub
      yield* stub.answer(() =>
        Stub.json(200, { ...page([wireModel(stub.baseUrl, "acme", "a")], null), pagination: { limit: 100, has_more: true, next_cursor: "c\udc00" } })
      )
      const read: Array<string> = []
      const error = yield* failureOf(Stream.runForEach(catalog.models(), (model) => Effect.sync(() => read.push(model.id))))
      expect(read).toEqual(["acme/a"])
      expect(error._tag).toBe("UnexpectedResponse")
      if (error._tag === "UnexpectedResponse") expect(error.detail).toContain("next_cursor holds a lone surrogate")
      expect(yield* stub.received).toHaveLength(1)
    }).pipe(Effect.provide(env)))
})
