/**
 * Whole scans of a list (`Scan` over `OperationReader.page` over the request path),
 * against `HttpClient.make` stubs that answer from an in-memory catalog of
 * models, at once and with no network, on the TestClock: every item once
 * across pages; halving on 422 and recording the page size that fits;
 * restarts on 409 without repeating an item; a listing that loops or goes
 * back failing with `UnexpectedResponse` and emitting nothing twice; a
 * foreign `links.next` failing with `UnsafeLink`; `parametersOf`.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Logger, Option, Redacted, References, Result, Stream } from "effect"
import { HttpClient, HttpClientResponse } from "effect/http"
import * as Admission from "../../common/src/client/Admission.js"
import { noLimits } from "../src/client/AdmissionWindows.js"
import * as Budget from "../../common/src/client/Budget.js"
import * as CatalogConfig from "../../common/src/client/CatalogConfig.js"
import * as OperationReader from "../../common/src/client/internal/OperationReader.js"
import * as Scan from "../../common/src/client/internal/Scan.js"
import * as Send from "../../common/src/client/internal/Send.js"
import * as LiveAllowance from "../../common/src/client/LiveAllowance.js"
import { errorKindOf } from "../../common/src/client/OperationErrors.js"
import * as PageSizes from "../../common/src/client/PageSizes.js"
import * as ResponseCache from "../../common/src/client/ResponseCache.js"
import * as Retry from "../../common/src/client/Retry.js"
import * as Operations from "../../common/src/contract/Operations.js"

// The in-memory catalog -----------------------------------------------------------

const base = "https://catalog.test/api/v1"
const baseUrl = new URL(base)

/** The id of the `n`th model, in the service's (code-unit) order. */
const idOf = (n: number) => `o0000-falcon/m${String(n).padStart(7, "0")}-kestrel`

const wireModel = (id: string) => ({
  id,
  name: "Kestrel 8B",
  family_id: null,
  organization_catalog_id: "o0000-falcon",
  organization_slug: null,
  released_on: "2026-01-02",
  context_tokens: "1048576",
  open_weights: null,
  reasoning: true,
  offer_count: 1,
  provider_count: 1,
  updated_at: null,
  url: `https://catalog.example/models/${id}`,
  api_url: `${base}/models/${id}/`,
  specifications: {}
})

/** What a stub answers. */
interface Reply {
  readonly status: number
  readonly body: unknown
}

/** The page of `ids` at `offset`, `limit` long, whose `links.next` is `next` (by default, the next offset). */
const listPage = (ids: ReadonlyArray<string>, offset: number, limit: number, next?: string | null): Reply => {
  const hasMore = offset + limit < ids.length
  const link = next !== undefined ? next : hasMore ? `${base}/models/?limit=${limit}&cursor=${offset + limit}` : null
  return {
    status: 200,
    body: {
      data: ids.slice(offset, offset + limit).map(wireModel),
      pagination: { limit, has_more: link !== null, next_cursor: link === null ? null : String(offset + limit) },
      links: { next: link },
      meta: { observed_at: null, stale: null }
    }
  }
}

const problem = (status: number, code: string): Reply => ({
  status,
  body: { type: "about:blank", title: code, status, code, detail: code, request_id: `req_${status}` }
})

/** A request the stub received: its limit and cursor. */
interface Asked {
  readonly limit: number
  readonly cursor: number
}

const askedOf = (url: URL): Asked => ({ limit: Number(url.searchParams.get("limit") ?? 100), cursor: Number(url.searchParams.get("cursor") ?? 0) })

/** An HTTP client that answers each list request with `serve`, and the requests it received. */
const catalogStub = (serve: (asked: Asked, index: number) => Reply) => {
  const received: Array<Asked> = []
  // Effect 4 keeps a request's query apart from its URL (`urlParams`): the stub reads the URL as sent.
  const client = HttpClient.make((request, url) =>
    Effect.sync(() => {
      const asked = askedOf(url)
      received.push(asked)
      const { body, status } = serve(asked, received.length - 1)
      return HttpClientResponse.fromWeb(request, new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } }))
    })
  )
  return { client, received }
}

/** An HTTP client that answers each request (its URL as sent, and its index) with `serve`, each answer with its request id. */
const rawStub = (serve: (url: URL, index: number) => Reply) => {
  const received: Array<URL> = []
  const client = HttpClient.make((request, url) =>
    Effect.sync(() => {
      received.push(url)
      const { body, status } = serve(url, received.length - 1)
      const headers = { "content-type": "application/json", "x-request-id": `req-${received.length - 1}` }
      return HttpClientResponse.fromWeb(request, new Response(JSON.stringify(body), { status, headers }))
    })
  )
  return { client, received }
}

/** A page of exactly these `items`, which says `next` is the cursor after it (none on the last page). */
const pageOf = (items: ReadonlyArray<string>, limit: number, next: string | null): Reply => ({
  status: 200,
  body: {
    data: items.map(wireModel),
    pagination: { limit, has_more: next !== null, next_cursor: next },
    links: { next: next === null ? null : `${base}/models/?limit=${limit}&cursor=${encodeURIComponent(next)}` },
    meta: { observed_at: null, stale: null }
  }
})

/** The catalog of `size` models, served as the contract says. */
const ids = (size: number) => Array.from({ length: size }, (_, n) => idOf(n))

const serving = (catalog: ReadonlyArray<string>) => ({ cursor, limit }: Asked): Reply => listPage(catalog, cursor, limit)

// The scan over a stub --------------------------------------------------------------

/** The items of a scan, and its pages. */
const both = <A extends { readonly id: string }, E extends { readonly _tag: string }>(options: Scan.Options<A, E>) => ({
  scan: Scan.scan(options),
  pages: Scan.scanPages(options)
})

/** A scan of models over `client`, on a request path without limits or retries, with the page sizes it records. */
const scanOver = (client: HttpClient.HttpClient) =>
  Effect.gen(function*() {
    const config = yield* CatalogConfig.make({ baseUrl: base, apiKey: Redacted.make("cat_live_scan_test_key") })
    const admission = yield* Effect.flatMap(Admission.memoryStore({ ...noLimits, live: false }), Admission.make)
    const budget = yield* Budget.Budget
    const cache = yield* ResponseCache.ResponseCache
    const pageSizes = yield* PageSizes.PageSizes
    const allowance = yield* LiveAllowance.make.pipe(
      Effect.provideService(CatalogConfig.CatalogConfig, config),
      Effect.provideService(HttpClient.HttpClient, client),
      Effect.provideService(Admission.Admission, admission)
    )
    const policy: Retry.Policy = { ...Retry.defaultPolicy, retries: 0 }
    const path = yield* Send.requestPath({ config, client, admission, allowance, budget, cache, policy, middleware: [] })
    const read = OperationReader.page({ baseUrl, path }, Operations.models, Operations.models.item, errorKindOf(Operations.models))
    const scans = both({
      operation: Operations.models,
      baseUrl,
      restarts: policy.restarts,
      pageSizes,
      read: (parameters, url, options) => read(parameters, url, { ...options, pageOfScan: true })
    })
    return { ...scans, pageSizes }
  }).pipe(Effect.provide([Budget.layer(), ResponseCache.layerMemory(), PageSizes.layerMemory]))

/** The ids a scan of `parameters` gave before it ended, and how it ended. */
const run = (client: HttpClient.HttpClient, parameters: Readonly<Record<string, unknown>> = {}) =>
  Effect.gen(function*() {
    const { pageSizes, scan } = yield* scanOver(client)
    const emitted: Array<string> = []
    const exit = yield* Effect.exit(Stream.runForEach(scan(parameters), (model) => Effect.sync(() => emitted.push(model.id))))
    return { emitted, exit, fitted: yield* pageSizes.get("models") }
  })

/** The ids a scan of `limit` a page over `client` gave, and how it ended, its log kept quiet. */
const scanned = (client: HttpClient.HttpClient, limit: number) => run(client, { limit }).pipe(Effect.provideService(References.MinimumLogLevel, "Warn"))

const failureTag = (exit: Exit.Exit<unknown, { readonly _tag: string }>) =>
  Exit.isFailure(exit) ? Option.getOrNull(Option.map(Exit.findErrorOption(exit), (error) => error._tag)) : null

const expectNoRepeat = (emitted: ReadonlyArray<string>) => expect(new Set(emitted).size).toBe(emitted.length)

// Tests ------------------------------------------------------------------------------

describe("Scan", () => {
  it.effect("gives every item once across pages, following links.next at the page size asked for", () =>
    Effect.gen(function*() {
      const catalog = ids(25)
      const { client, received } = catalogStub(serving(catalog))
      const { emitted, exit } = yield* run(client, { limit: 10 })
      expect(Exit.isSuccess(exit)).toBe(true)
      expect(emitted).toEqual(catalog)
      expect(received.map((asked) => asked.cursor)).toEqual([0, 10, 20])
      expect(received.every((asked) => asked.limit === 10)).toBe(true)
    }))

  it.effect("without a limit asks for the largest page", () =>
    Effect.gen(function*() {
      const { client, received } = catalogStub(serving(ids(3)))
      const { emitted } = yield* run(client)
      expect(emitted).toHaveLength(3)
      expect(received.map((asked) => asked.limit)).toEqual([Operations.models.maxLimit])
    }))

  it.effect("halves the page size on a 422 and records the size that fits", () =>
    Effect.gen(function*() {
      const catalog = ids(30)
      const { client, received } = catalogStub((asked) => asked.limit > 10 ? problem(422, "response_too_large") : listPage(catalog, asked.cursor, asked.limit))
      const { emitted, exit, fitted } = yield* run(client, { limit: 40 })
      expect(Exit.isSuccess(exit)).toBe(true)
      expect(emitted).toEqual(catalog)
      expect(received.map((asked) => asked.limit)).toEqual([40, 20, 10, 10, 10])
      expect(fitted).toEqual(Option.some(10))
    }))

  it.effect("restarts on a 409 without repeating an item", () =>
    Effect.gen(function*() {
      const catalog = ids(25)
      let expired = false
      const { client, received } = catalogStub((asked) => {
        if (asked.cursor === 20 && !expired) {
          expired = true
          return problem(409, "cursor_expired")
        }
        return listPage(catalog, asked.cursor, asked.limit)
      })
      const { emitted, exit } = yield* run(client, { limit: 10 })
      expect(Exit.isSuccess(exit)).toBe(true)
      expect(emitted).toEqual(catalog)
      expect(received.map((asked) => asked.cursor)).toEqual([0, 10, 20, 0, 10, 20])
    }))

  it.effect("a listing that loops fails with UnexpectedResponse and emits nothing twice", () =>
    Effect.gen(function*() {
      const catalog = ids(30)
      // The third page links back to the first.
      const { client } = catalogStub(({ cursor, limit }) => listPage(catalog, cursor, limit, cursor === 20 ? `${base}/models/?limit=${limit}` : undefined))
      const { emitted, exit } = yield* run(client, { limit: 10 })
      expect(failureTag(exit)).toBe("UnexpectedResponse")
      expect(emitted).toEqual(catalog)
      expectNoRepeat(emitted)
    }))

  it.effect("a listing that goes back fails with UnexpectedResponse before a repeat", () =>
    Effect.gen(function*() {
      const catalog = ids(40)
      // The third page's link leads back to the second page's items.
      const { client } = catalogStub(({ cursor, limit }) =>
        listPage(catalog, cursor, limit, cursor === 20 ? `${base}/models/?limit=${limit}&cursor=5` : undefined))
      const { emitted, exit } = yield* run(client, { limit: 10 })
      expect(failureTag(exit)).toBe("UnexpectedResponse")
      expect(emitted).toEqual(catalog.slice(0, 30))
      expectNoRepeat(emitted)
    }))

  it.effect("a link to the page itself fails with UnexpectedResponse", () =>
    Effect.gen(function*() {
      const catalog = ids(20)
      const { client, received } = catalogStub(({ cursor, limit }) => listPage(catalog, cursor, limit, `${base}/models/?limit=${limit}&cursor=10`))
      const { emitted, exit } = yield* run(client, { limit: 10 })
      expect(failureTag(exit)).toBe("UnexpectedResponse")
      expectNoRepeat(emitted)
      expect(received.length).toBeLessThanOrEqual(3)
    }))

  it.effect("a foreign links.next fails with UnsafeLink after the items of its page, and is not followed", () =>
    Effect.gen(function*() {
      const catalog = ids(20)
      const { client, received } = catalogStub(({ cursor, limit }) => listPage(catalog, cursor, limit, "https://elsewhere.test/api/v1/models/?cursor=10"))
      const { emitted, exit } = yield* run(client, { limit: 10 })
      expect(failureTag(exit)).toBe("UnsafeLink")
      expect(emitted).toEqual(catalog.slice(0, 10))
      expect(received).toHaveLength(1)
    }))

  it.effect("scanPages gives each page's cursor and the cursor after it, and starts from a cursor given", () =>
    Effect.gen(function*() {
      const { client } = catalogStub(serving(ids(25)))
      const { pages, pageSizes } = yield* scanOver(client)
      const read = yield* Stream.runCollect(pages({ limit: 10 }))
      expect(Array.from(read, (page) => [page.cursor, page.nextCursor, page.items.length])).toEqual([[null, "10", 10], ["10", "20", 10], ["20", null, 5]])
      const later = yield* Stream.runCollect(pages({ limit: 10 }, "20"))
      expect(Array.from(later, (page) => page.items.length)).toEqual([5])
      expect(Option.isNone(yield* pageSizes.get("models"))).toBe(true)
      expect(Scan.pageSizeOf(Operations.models, { limit: 7 })).toBe(7)
      expect(Scan.pageSizeOf(Operations.models)).toBe(Operations.models.maxLimit)
    }))
})

// A server that goes back -------------------------------------------------------------

/** A deterministic generator of numbers in [0, 1) (mulberry32), so that every run meets the same servers. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
}

/** What a server does at one request: behave, let the cursor expire, serve an earlier page, link back, or repeat ids. */
type Misstep = "behave" | "expire" | "serveEarlier" | "linkBack" | "jumpBack" | "repeatIds"

const missteps: ReadonlyArray<Misstep> = ["behave", "behave", "behave", "expire", "serveEarlier", "linkBack", "jumpBack", "repeatIds"]

/** A server of `size` models, `limit` a page, that makes `steps` in turn; the cursor is the position of the page's first item. */
const goingBack = (size: number, limit: number, steps: ReadonlyArray<Misstep>, next: () => number) => {
  const models = ids(size)
  const served: Array<number> = []
  return (url: URL, index: number): Reply => {
    const step = steps[index] ?? "behave"
    const cursor = url.searchParams.get("cursor")
    if (step === "expire" && cursor !== null) return problem(409, "cursor_expired")
    const asked = cursor === null ? 0 : Number(cursor)
    const start = step === "serveEarlier" ? served[Math.floor(next() * served.length)] ?? asked : asked
    served.push(start)
    const end = Math.min(start + limit, models.length)
    const after = end >= models.length
      ? null
      : step === "linkBack"
      ? Math.max(0, start - limit * (1 + Math.floor(next() * 3)))
      : step === "jumpBack"
      ? Math.max(0, end - 1 - Math.floor(next() * limit * 2))
      : end
    const repeated = step === "repeatIds" && models.length > 0 ? [models[Math.floor(next() * models.length)] ?? ""] : []
    return pageOf([...models.slice(start, end), ...repeated], limit, after === null ? null : String(after))
  }
}

describe("a scan of a server that goes back", () => {
  it.effect("emits no id twice, and gives every item once or fails with UnexpectedResponse before a repeat", () =>
    Effect.gen(function*() {
      const next = random(20_260_101)
      let failures = 0
      for (let run = 0; run < 150; run++) {
        const size = Math.floor(next() * 40)
        const limit = 1 + Math.floor(next() * 6)
        const steps = Array.from({ length: Math.floor(next() * 20) }, () => missteps[Math.floor(next() * missteps.length)] ?? "behave")
        const { client } = rawStub(goingBack(size, limit, steps, next))
        const { emitted, exit } = yield* scanned(client, limit)
        const context = JSON.stringify({ size, limit, steps })
        expect(new Set(emitted).size, `emitted twice, ${context}`).toBe(emitted.length)
        if (Exit.isFailure(exit)) {
          failures++
          expect(failureTag(exit), context).toBe("UnexpectedResponse")
          expect(steps.every((step) => step === "behave" || step === "expire"), `a server that keeps its order, ${context}`).toBe(false)
        } else {
          expect([...emitted].sort(), context).toEqual(ids(size))
        }
      }
      // The generator does make servers that the scan must refuse.
      expect(failures).toBeGreaterThan(10)
    }))

  it.effect("the cycle A → B → A: A and B once, then UnexpectedResponse naming the operation and the request", () =>
    Effect.gen(function*() {
      const [m1, m2, m3, m4] = ids(4).map((id) => id)
      const { client, received } = rawStub((url) =>
        url.searchParams.get("cursor") === "b" ? pageOf([m3 ?? "", m4 ?? ""], 2, "a") : pageOf([m1 ?? "", m2 ?? ""], 2, "b"))
      const { emitted, exit } = yield* scanned(client, 2)
      expect(emitted).toEqual(ids(4))
      const error = Exit.isFailure(exit) ? Option.getOrUndefined(Exit.findErrorOption(exit)) : undefined
      expect(error?._tag).toBe("UnexpectedResponse")
      if (error?._tag === "UnexpectedResponse") {
        expect(error.detail).toBe(
          "models: links.next leads back to items already given, beyond a repeat of the page just before; the scan stops rather than give an item twice"
        )
        expect(error.status).toBe(200)
        // The request of page A read again.
        expect(error.requestId).toBe("req-2")
      }
      expect(received).toHaveLength(3)
    }))
})

// A service that orders ids otherwise --------------------------------------------------

/** A case-insensitive service's listing of `names`, `limit` a page, whose cursor is a position; `expireAt` requests answer 409. */
const caseInsensitive = (names: ReadonlyArray<string>, limit: number, expireAt: ReadonlySet<number> = new Set()) => {
  const ordered = [...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())).map((name) => `o0000-falcon/${name}`)
  return (url: URL, index: number): Reply => {
    const cursor = url.searchParams.get("cursor")
    if (expireAt.has(index) && cursor !== null) return problem(409, "cursor_expired")
    const start = cursor === null ? 0 : Number(cursor)
    const end = Math.min(start + limit, ordered.length)
    return pageOf(ordered.slice(start, end), limit, end >= ordered.length ? null : String(end))
  }
}

const six = ["alpha", "beta", "Charlie", "delta", "Echo", "foxtrot"]

describe("scans of a service that orders ids otherwise than by code unit", () => {
  it.effect("all six models, once each, in its order, and it says once how it copes", () =>
    Effect.gen(function*() {
      const { client } = rawStub(caseInsensitive(six, 2))
      const lines: Array<string> = []
      const capture = Logger.make((options) => {
        lines.push(Logger.formatLogFmt.log(options))
      })
      const { emitted, exit } = yield* run(client, { limit: 2 }).pipe(Effect.provide(Logger.layer([capture])))
      expect(Exit.isSuccess(exit)).toBe(true)
      expect(emitted).toEqual(six.map((name) => `o0000-falcon/${name}`))
      expect(lines.filter((line) => line.includes("orders ids otherwise than by code unit"))).toHaveLength(1)
    }))

  it.effect("a restart in the middle of a case-insensitive listing gives the rest once, and nothing before again", () =>
    Effect.gen(function*() {
      const { client, received } = rawStub(caseInsensitive(six, 2, new Set([2])))
      const { emitted, exit } = yield* scanned(client, 2)
      expect(Exit.isSuccess(exit)).toBe(true)
      expect(emitted).toEqual(six.map((name) => `o0000-falcon/${name}`))
      expect(received.map((url) => url.searchParams.get("cursor"))).toEqual([null, "2", "4", null, "2", "4"])
    }))
})

describe("OperationReader.parametersOf", () => {
  it("reads a key, or an object of path parameters, or refuses a key that does not parse", () => {
    const model = Operations.model
    expect(OperationReader.parametersOf(model, { organization: "o0000-falcon", model: "m1" }, undefined)).toEqual(
      Result.succeed({ organization: "o0000-falcon", model: "m1" })
    )
    const keyed = OperationReader.parametersOf(Operations.modelOffers, "o0000-falcon/m0000001-kestrel", { limit: 5 })
    expect(Result.isSuccess(keyed) ? keyed.success : null).toEqual({ limit: 5, organization: "o0000-falcon", model: "m0000001-kestrel" })
    const refused = OperationReader.parametersOf(model, "no-slash", undefined)
    expect(Result.isFailure(refused) ? refused.failure._tag : null).toBe("InvalidRequest")
  })
})
