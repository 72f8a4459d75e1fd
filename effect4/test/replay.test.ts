/**
 * Never an item twice, whatever the service does, through the public
 * client's typed stream and its wire stream, over real HTTP. A stub server
 * serves a list in pages and, at random (seeded), serves an earlier page
 * again instead of the next one, gives a `links.next` that points back,
 * moves the cursor back, puts ids of other pages into a page, or lets the
 * cursor expire: a scan emits no id twice, not even before it fails, and
 * either gives every item exactly once or fails with `UnexpectedResponse`;
 * with only expiries it gives every item once. Then the A → B → A cycle of
 * links, by hand, through both streams.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, References, Result, Stream } from "effect"
import { CatalogClient, type Errors } from "effect-catalog"
import { stubWithClient } from "./support/Client.js"
import * as Stub from "./support/Stub.js"

const organization = "acme"

const wireModel = (baseUrl: string, model: string) => ({
  id: `${organization}/${model}`,
  name: model,
  family_id: null,
  organization_catalog_id: organization,
  organization_slug: null,
  released_on: null,
  context_tokens: null,
  open_weights: null,
  reasoning: false,
  offer_count: 0,
  provider_count: 0,
  updated_at: null,
  url: `https://catalog.example/models/${organization}/${model}`,
  api_url: `${baseUrl}/models/${organization}/${model}/`,
  specifications: {}
})

/** A list page: `next` is the cursor of the page after it, null on the last. */
const listPage = (baseUrl: string, models: ReadonlyArray<string>, limit: number, next: string | null, requestId: string) =>
  Stub.json(200, {
    data: models.map((model) => wireModel(baseUrl, model)),
    pagination: { limit, has_more: next !== null, next_cursor: next },
    links: { next: next === null ? null : `${baseUrl}/models/?limit=${limit}&cursor=${next}` },
    meta: { observed_at: null, stale: null }
  }, { "x-request-id": requestId })

const expired = Stub.json(409, { type: "about:blank", title: "Gone", status: 409, code: "cursor_expired", detail: "expired", request_id: "req_409" })

/** The two ways to scan a list: typed items, and items in their wire form. */
type Path = "models" | "wire"

/** Every id a scan emitted, in order, and the error it failed with, or null. */
const scanThrough = (path: Path, limit: number) =>
  Effect.gen(function*() {
    const catalog = yield* CatalogClient.CatalogClient
    const stream: Stream.Stream<{ readonly id: string }, Errors.CatalogError> = path === "models" ? catalog.models({ limit }) : catalog.wire("models", { limit })
    const emitted = yield* Stream.runCollect(Stream.result(stream)).pipe(Effect.provideService(References.MinimumLogLevel, "None"))
    const last = emitted.at(-1)
    return {
      ids: emitted.flatMap((item) => Result.isSuccess(item) ? [item.success.id.slice(organization.length + 1)] : []),
      error: last !== undefined && Result.isFailure(last) ? last.failure : null
    }
  })

// A server that goes back ----------------------------------------------------------

/** Numbers in [0, 1) from a seed (mulberry32). */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
}

type Misstep = "behave" | "expire" | "serveEarlier" | "linkBack" | "jumpBack" | "repeatIds"

const missteps: ReadonlyArray<Misstep> = ["behave", "behave", "behave", "expire", "serveEarlier", "linkBack", "jumpBack", "repeatIds"]

/** The ids of a listing of `size` models, ascending. */
const modelsOf = (size: number) => Array.from({ length: size }, (_, n) => `m${String(n).padStart(4, "0")}`)

/** A server of `size` models, `limit` a page, that makes `steps` in turn; a cursor is the position of its page's first item. */
const goingBack = (baseUrl: string, size: number, limit: number, steps: ReadonlyArray<Misstep>, next: () => number) => {
  const models = modelsOf(size)
  const served: Array<number> = []
  let index = 0
  return (request: Stub.Received): Stub.Reply => {
    const step = steps[index] ?? "behave"
    const requestId = `req-${index++}`
    const cursor = new URL(request.url, "http://stub.invalid").searchParams.get("cursor")
    if (step === "expire" && cursor !== null) return expired
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
    return listPage(baseUrl, [...models.slice(start, end), ...repeated], limit, after === null ? null : String(after), requestId)
  }
}

const stubClient = stubWithClient("cat_test_key_0123456789", { retry: { retries: 0, restarts: 1_000 } })

describe("a scan of a server that goes back", () => {
  for (const path of ["models", "wire"] as const) {
    it.effect(`${path}: emits no id twice, and gives every item once or fails with UnexpectedResponse`, () =>
      Effect.gen(function*() {
        const stub = yield* Stub.Stub
        const next = random(path === "models" ? 20_261_126 : 20_261_127)
        let failures = 0
        for (let run = 0; run < 60; run++) {
          const size = Math.floor(next() * 30)
          const limit = 1 + Math.floor(next() * 5)
          const steps = Array.from({ length: Math.floor(next() * 15) }, () => missteps[Math.floor(next() * missteps.length)] ?? "behave")
          yield* stub.answer(goingBack(stub.baseUrl, size, limit, steps, next))
          const { error, ids } = yield* scanThrough(path, limit)
          const context = JSON.stringify({ size, limit, steps })
          expect(new Set(ids).size, `emitted twice, ${context}`).toBe(ids.length)
          if (error === null) {
            expect([...ids].sort(), context).toEqual(modelsOf(size))
          } else {
            failures++
            expect(error._tag, context).toBe("UnexpectedResponse")
            expect(steps.every((step) => step === "behave" || step === "expire"), `a server that keeps its order, ${context}`).toBe(false)
          }
        }
        // The generator does make servers that the scan must refuse.
        expect(failures).toBeGreaterThan(3)
      }).pipe(Effect.provide(stubClient)), 100_000)
  }

  it.effect("only expiries: every item once, through both streams", () =>
    Effect.gen(function*() {
      const stub = yield* Stub.Stub
      for (const path of ["models", "wire"] as const) {
        yield* stub.answer(goingBack(stub.baseUrl, 23, 4, ["behave", "behave", "expire", "behave", "behave", "behave", "expire"], random(7)))
        const { error, ids } = yield* scanThrough(path, 4)
        expect(error).toBeNull()
        expect(ids).toEqual(modelsOf(23))
      }
    }).pipe(Effect.provide(stubClient)))
})

describe("the cycle A → B → A", () => {
  const cycleRefusal =
    "models: links.next leads back to items already given, beyond a repeat of the page just before; the scan stops rather than give an item twice"

  for (const path of ["models", "wire"] as const) {
    it.effect(`${path}: A and B once, then UnexpectedResponse naming the operation and the request`, () =>
      Effect.gen(function*() {
        const stub = yield* Stub.Stub
        let requests = 0
        yield* stub.answer((request) => {
          const requestId = `req-${requests++}`
          return new URL(request.url, stub.origin).searchParams.get("cursor") === "b"
            ? listPage(stub.baseUrl, ["m3", "m4"], 2, "a", requestId)
            : listPage(stub.baseUrl, ["m1", "m2"], 2, "b", requestId)
        })
        const { error, ids } = yield* scanThrough(path, 2)
        expect(ids).toEqual(["m1", "m2", "m3", "m4"])
        expect(error?._tag).toBe("UnexpectedResponse")
        if (error?._tag === "UnexpectedResponse") {
          expect(error.detail).toBe(cycleRefusal)
          expect(error.status).toBe(200)
          // The request of page A read again.
          expect(error.requestId).toBe("req-2")
        }
        expect(yield* stub.received).toHaveLength(3)
      }).pipe(Effect.provide(stubClient)))
  }
})
