/**
 * Nothing is lost under any order: a purpose-built server lists models
 * sorted by a collation of its own (code unit, case-insensitive, or a
 * locale's, numeric-aware), with keyset cursors, while ids are inserted and
 * deleted between pages and cursors expire. Whatever the ids (case, digits,
 * accents, `-`, `_`, `.`, `/`), a scan yields every model that existed
 * throughout exactly once and nothing that never existed, or fails with a
 * typed error (only when, between a restart and its return, every id of the
 * two pages the scan had reached was deleted).
 */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Either, Layer, Logger, LogLevel, Redacted, Runtime, Stream } from "effect"
import fc from "fast-check"
import * as CatalogClient from "../../src/client/CatalogClient.js"
import * as Client from "../support/Client.js"
import { wireModel } from "../support/Fixtures.js"
import * as Stub from "../support/Stub.js"

type Compare = (a: string, b: string) => number

const codeUnits: Compare = (a, b) => (a < b ? -1 : a > b ? 1 : 0)
const locale = new Intl.Collator("en-US", { numeric: true, sensitivity: "base" })

/** Total orders: ties of a collation are broken by code units, as a database's unique index would need. */
const collations: Readonly<Record<string, Compare>> = {
  "code unit": codeUnits,
  "case-insensitive": (a, b) => codeUnits(a.toLowerCase(), b.toLowerCase()) || codeUnits(a, b),
  "en-US, numeric": (a, b) => locale.compare(a, b) || codeUnits(a, b)
}

const organization = "acme"

/** What happens before the server answers its n-th request. */
interface Event {
  readonly insert: ReadonlyArray<string>
  readonly remove: ReadonlyArray<number>
  readonly expire: boolean
}

interface Case {
  readonly collation: string
  readonly initial: ReadonlyArray<string>
  readonly pageSize: number
  readonly events: ReadonlyArray<Event>
}

const name = fc.array(fc.constantFrom(..."aAbBcCzZ09éÉèÈ-_./"), { minLength: 1, maxLength: 6 }).map((chars) => chars.join(""))

const arbitraryCase: fc.Arbitrary<Case> = fc.record({
  collation: fc.constantFrom(...Object.keys(collations)),
  initial: fc.uniqueArray(name, { minLength: 0, maxLength: 40 }),
  pageSize: fc.integer({ min: 1, max: 5 }),
  events: fc.array(
    fc.record({
      insert: fc.array(name, { maxLength: 2 }),
      remove: fc.array(fc.nat(), { maxLength: 2 }),
      expire: fc.boolean()
    }),
    { maxLength: 30 }
  )
})

/** Serves `models` of the case on the stub; gives what existed throughout and what ever existed. */
const serve = (stub: Stub.Service, test: Case) => {
  const compare = collations[test.collation] ?? codeUnits
  const live = [...test.initial].sort(compare)
  const ever = new Set(live)
  const removed = new Set<string>()
  let requests = 0
  const wire = (model: string) => ({
    ...wireModel(stub.baseUrl, organization, model),
    api_url: `${stub.baseUrl}/models/${organization}/${encodeURIComponent(model)}/`
  })
  const answer = stub.answer((request) => {
    const event = test.events[requests++]
    const url = new URL(request.url, stub.origin)
    const cursor = url.searchParams.get("cursor")
    if (event !== undefined) {
      for (const index of event.remove) {
        const [gone] = live.length === 0 ? [] : live.splice(index % live.length, 1)
        if (gone !== undefined) removed.add(gone)
      }
      for (const model of event.insert) {
        if (!live.includes(model)) {
          live.push(model)
          ever.add(model)
        }
      }
      live.sort(compare)
      if (event.expire && cursor !== null) return Stub.json(409, { code: "cursor_expired", detail: "The cursor expired" })
    }
    const after = cursor === null ? null : Buffer.from(cursor, "base64url").toString("utf8")
    const rest = after === null ? live : live.filter((model) => compare(model, after) > 0)
    const page = rest.slice(0, test.pageSize)
    const last = page.at(-1)
    const next = rest.length > page.length && last !== undefined ? Buffer.from(last).toString("base64url") : null
    return Stub.json(200, {
      data: page.map(wire),
      pagination: { limit: test.pageSize, has_more: next !== null, next_cursor: next },
      links: { next: next === null ? null : `${stub.baseUrl}/models/?limit=${test.pageSize}&cursor=${next}` },
      meta: { observed_at: null, stale: null }
    })
  })
  return Effect.as(answer, {
    throughout: () => test.initial.filter((model) => !removed.has(model)),
    ever: () => ever,
    removed: () => removed.size
  })
}

const stubClient = Layer.unwrapEffect(
  Effect.map(Stub.Stub, (stub) =>
    CatalogClient.layerWith({ ...Client.direct, baseUrl: stub.baseUrl, apiKey: Redacted.make("cat_test_key_0123456789"), retry: { retries: 0, restarts: 1_000 } }))
).pipe(Layer.provideMerge(Layer.merge(Stub.layer, NodeHttpClient.layerUndici)))

describe("scans under any collation", () => {
  it.live("every model that existed throughout exactly once, nothing that never existed, or a typed failure", () =>
    Effect.gen(function*() {
      const stub = yield* Stub.Stub
      const catalog = yield* CatalogClient.CatalogClient
      const runtime = yield* Effect.runtime<never>()
      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(arbitraryCase, (test) =>
            Runtime.runPromise(
              runtime,
              Effect.gen(function*() {
                const served = yield* serve(stub, test)
                const result = yield* Stream.runCollect(catalog.models({ limit: test.pageSize })).pipe(
                  Effect.map((items) => Chunk.toReadonlyArray(items).map((item) => item.id.slice(organization.length + 1))),
                  Effect.either
                )
                if (Either.isLeft(result)) {
                  // The one failure allowed: a restart that cannot find its place, outside code-unit order.
                  expect(result.left._tag).toBe("UnexpectedResponse")
                  expect(result.left.message).toContain("after a restart")
                  // Only deletions can take every id of the pages a scan had reached.
                  expect(served.removed()).toBeGreaterThan(0)
                  return
                }
                const ids = result.right
                expect(new Set(ids).size, `repeats in ${JSON.stringify(ids)}`).toBe(ids.length)
                for (const model of served.throughout()) expect(ids, `${model} existed throughout`).toContain(model)
                for (const model of ids) expect(served.ever().has(model), `${model} never existed`).toBe(true)
              }).pipe(Logger.withMinimumLogLevel(LogLevel.None))
            )
          ),
          { numRuns: 300 }
        )
      )
    }).pipe(Effect.provide(stubClient)), 120_000)

  it.live("the example of a case-insensitive service: all six models, once each, in its order", () =>
    Effect.gen(function*() {
      const stub = yield* Stub.Stub
      const catalog = yield* CatalogClient.CatalogClient
      yield* serve(stub, {
        collation: "case-insensitive",
        initial: ["alpha", "beta", "Charlie", "delta", "Echo", "foxtrot"],
        pageSize: 2,
        events: []
      })
      const ids = yield* Stream.runCollect(catalog.models({ limit: 2 })).pipe(Logger.withMinimumLogLevel(LogLevel.None))
      expect(Chunk.toReadonlyArray(ids).map((item) => item.id)).toEqual(
        ["alpha", "beta", "Charlie", "delta", "Echo", "foxtrot"].map((model) => `${organization}/${model}`)
      )
    }).pipe(Effect.provide(stubClient)))

  it.live("a restart in the middle of a case-insensitive listing gives the rest once, and nothing before again", () =>
    Effect.gen(function*() {
      const stub = yield* Stub.Stub
      const catalog = yield* CatalogClient.CatalogClient
      const noEvent = { insert: [], remove: [], expire: false }
      yield* serve(stub, {
        collation: "case-insensitive",
        initial: ["alpha", "beta", "Charlie", "delta", "Echo", "foxtrot"],
        pageSize: 2,
        events: [noEvent, noEvent, { ...noEvent, expire: true }]
      })
      const ids = yield* Stream.runCollect(catalog.models({ limit: 2 })).pipe(Logger.withMinimumLogLevel(LogLevel.None))
      expect(Chunk.toReadonlyArray(ids).map((item) => item.id)).toEqual(
        ["alpha", "beta", "Charlie", "delta", "Echo", "foxtrot"].map((model) => `${organization}/${model}`)
      )
    }).pipe(Effect.provide(stubClient)))
})
