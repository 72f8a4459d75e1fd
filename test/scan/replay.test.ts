/**
 * Never an item twice, whatever the service does. A purpose-built server on
 * loopback serves a list in pages and, at random, serves an earlier page
 * again instead of the next one, gives a `links.next` that points back to an
 * earlier page, moves the cursor back by any amount, puts ids of other pages
 * into a page, or lets the cursor expire. Through the typed stream and the
 * wire stream, a scan emits no id twice, not even before it fails, and
 * either gives every item exactly once or fails with `UnexpectedResponse`;
 * with only expiries it gives every item exactly once. Then the A → B → A
 * cycle of links, by hand, through both streams and `catalog scan models`.
 * The table of ids a scan remembers, shared by both editions, is tested
 * once in rules/test/client/SeenIds.test.ts.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Either, Logger, LogLevel, Runtime, Stream } from "effect"
import fc from "fast-check"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import type * as Errors from "../../common/src/client/Errors.js"
import { rmSync } from "node:fs"
import { catalog, keepSecret, lines, stateDirectory } from "../support/CatalogProcess.js"
import { stubWithClient } from "../support/Client.js"
import { wireModel } from "../support/Fixtures.js"
import * as Stub from "../support/Stub.js"

const organization = "acme"

const apiKey = "cat_test_key_0123456789"
keepSecret(apiKey)

afterAll(() => rmSync(stateDirectory, { recursive: true, force: true }))

const stubClient = stubWithClient(apiKey, { retry: { retries: 0, restarts: 1_000 } })

/** A list page of the stub: `next` is the cursor of the page after it, null on the last. */
const listPage = (stub: Stub.Service, models: ReadonlyArray<string>, limit: number, next: string | null, requestId: string) =>
  Stub.json(200, {
    data: models.map((model) => wireModel(stub.baseUrl, organization, model)),
    pagination: { limit, has_more: next !== null, next_cursor: next },
    links: { next: next === null ? null : `${stub.baseUrl}/models/?limit=${limit}&cursor=${next}` },
    meta: { observed_at: null, stale: null }
  }, { "x-request-id": requestId })

/** The two ways to scan a list: typed items, and items in their wire form. */
type Path = "models" | "wire"

/** Every id a scan emitted, in order, and how it ended: the error it failed with, or null. */
const scanThrough = (path: Path, limit: number) =>
  Effect.gen(function*() {
    const catalog = yield* CatalogClient.CatalogClient
    const stream: Stream.Stream<{ readonly id: string }, Errors.CatalogError> = path === "models"
      ? catalog.models({ limit })
      : catalog.wire("models", { limit })
    const emitted = Chunk.toReadonlyArray(
      yield* Stream.runCollect(Stream.either(stream)).pipe(
        Effect.timeoutFail({ duration: "20 seconds", onTimeout: () => new Error(`the ${path} scan did not end`) }),
        Effect.orDie,
        Logger.withMinimumLogLevel(LogLevel.None)
      )
    )
    const last = emitted.at(-1)
    return {
      ids: emitted.flatMap((item) => Either.isRight(item) ? [item.right.id.slice(organization.length + 1)] : []),
      error: last !== undefined && Either.isLeft(last) ? last.left : null
    }
  })

const duplicatesOf = (ids: ReadonlyArray<string>): ReadonlyArray<string> => ids.filter((id, index) => ids.indexOf(id) !== index)

// A server that goes back ----------------------------------------------------------

/** What the server does at one request, instead of serving the page asked for with a link to the next. */
type Misstep =
  | { readonly _tag: "Behave" }
  /** 409 cursor_expired, for a request with a cursor: the scan restarts from the first page. */
  | { readonly _tag: "Expire" }
  /** One of the pages served before, picked by `pick`, with its own links.next. */
  | { readonly _tag: "ServeEarlier"; readonly pick: number }
  /** The page asked for, with a links.next to the page `pages` pages before it (0: to itself). */
  | { readonly _tag: "LinkBack"; readonly pages: number }
  /** The page asked for, with a cursor `by` items before the end of the page. */
  | { readonly _tag: "JumpBack"; readonly by: number }
  /** The page asked for, with the ids of these positions of the list among its own. */
  | { readonly _tag: "RepeatIds"; readonly positions: ReadonlyArray<number> }

interface Case {
  readonly items: number
  readonly limit: number
  readonly missteps: ReadonlyArray<Misstep>
  readonly path: Path
}

const behave: Misstep = { _tag: "Behave" }

const arbitraryMisstep: fc.Arbitrary<Misstep> = fc.oneof(
  { arbitrary: fc.constant(behave), weight: 6 },
  { arbitrary: fc.constant<Misstep>({ _tag: "Expire" }), weight: 1 },
  { arbitrary: fc.nat().map((pick): Misstep => ({ _tag: "ServeEarlier", pick })), weight: 1 },
  { arbitrary: fc.integer({ min: 0, max: 4 }).map((pages): Misstep => ({ _tag: "LinkBack", pages })), weight: 1 },
  { arbitrary: fc.integer({ min: 1, max: 25 }).map((by): Misstep => ({ _tag: "JumpBack", by })), weight: 1 },
  { arbitrary: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }).map((positions): Misstep => ({ _tag: "RepeatIds", positions })), weight: 1 }
)

const arbitraryCase: fc.Arbitrary<Case> = fc.record({
  items: fc.integer({ min: 0, max: 60 }),
  limit: fc.integer({ min: 1, max: 7 }),
  missteps: fc.array(arbitraryMisstep, { maxLength: 25 }),
  path: fc.constantFrom<Path>("models", "wire")
})

/** Whether the server keeps its order throughout: it only lets cursors expire. */
const keepsOrder = (test: Case) => test.missteps.every((misstep) => misstep._tag === "Behave" || misstep._tag === "Expire")

/** The list of the case: `m0000`, `m0001`, … */
const modelsOf = (test: Case) => Array.from({ length: test.items }, (_, i) => `m${String(i).padStart(4, "0")}`)

/** The case's server on the stub; the cursor is the position of the first item of the page. */
const serveCase = (stub: Stub.Service, test: Case) => {
  const models = modelsOf(test)
  const served: Array<number> = []
  let requests = 0
  return stub.answer((request) => {
    const misstep = test.missteps[requests] ?? behave
    const requestId = `req-${requests++}`
    const cursor = new URL(request.url, stub.origin).searchParams.get("cursor")
    if (misstep._tag === "Expire" && cursor !== null) return Stub.json(409, { code: "cursor_expired", detail: "The cursor expired" })
    const asked = cursor === null ? 0 : Number(cursor)
    const start = misstep._tag === "ServeEarlier" ? served[misstep.pick % Math.max(1, served.length)] ?? asked : asked
    served.push(start)
    const end = Math.min(start + test.limit, models.length)
    const next = end >= models.length
      ? null
      : misstep._tag === "LinkBack"
      ? Math.max(0, start - misstep.pages * test.limit)
      : misstep._tag === "JumpBack"
      ? Math.max(0, end - misstep.by)
      : end
    const repeated = misstep._tag === "RepeatIds" && models.length > 0
      ? misstep.positions.flatMap((position) => models[position % models.length] ?? [])
      : []
    return listPage(stub, [...models.slice(start, end), ...repeated], test.limit, next === null ? null : String(next), requestId)
  })
}

describe("a scan of a server that goes back", () => {
  it.live("emits no id twice, and gives every item once or fails with UnexpectedResponse before a repeat", () =>
    Effect.gen(function*() {
      const stub = yield* Stub.Stub
      const runtime = yield* Effect.runtime<CatalogClient.CatalogClient>()
      let failures = 0
      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(arbitraryCase, (test) =>
            Runtime.runPromise(
              runtime,
              Effect.gen(function*() {
                yield* serveCase(stub, test)
                const { ids, error } = yield* scanThrough(test.path, test.limit)
                expect(duplicatesOf(ids), `emitted twice, ${JSON.stringify(test)}`).toEqual([])
                if (error !== null) {
                  failures++
                  expect(error._tag).toBe("UnexpectedResponse")
                  expect(keepsOrder(test), `a server that keeps its order: ${error.message}`).toBe(false)
                  return
                }
                expect([...ids].sort()).toEqual(modelsOf(test))
              })
            )
          ),
          { numRuns: 300 }
        )
      )
      // The generator does make servers that the scan must refuse.
      expect(failures).toBeGreaterThan(20)
    }).pipe(Effect.provide(stubClient)), 120_000)
})

// The cycle A → B → A -------------------------------------------------------------

/** Page A (no cursor) links to B (cursor `b`), which links back to A (cursor `a`). */
const serveCycle = Effect.gen(function*() {
  const stub = yield* Stub.Stub
  let requests = 0
  yield* stub.answer((request) => {
    const requestId = `req-${requests++}`
    return new URL(request.url, stub.origin).searchParams.get("cursor") === "b"
      ? listPage(stub, ["m3", "m4"], 2, "a", requestId)
      : listPage(stub, ["m1", "m2"], 2, "b", requestId)
  })
  return stub
})

/** What a scan of the cycle says when it stops. */
const cycleRefusal =
  "models: links.next leads back to items already given, beyond a repeat of the page just before; the scan stops rather than give an item twice"

const expectCycleRefused = (path: Path) =>
  Effect.gen(function*() {
    const stub = yield* serveCycle
    const { ids, error } = yield* scanThrough(path, 2)
    expect(ids).toEqual(["m1", "m2", "m3", "m4"])
    expect(error?._tag).toBe("UnexpectedResponse")
    if (error?._tag === "UnexpectedResponse") {
      expect(error.detail).toBe(cycleRefusal)
      expect(error.status).toBe(200)
      // The request of page A read again.
      expect(error.requestId).toBe("req-2")
    }
    expect(yield* stub.received).toHaveLength(3)
  }).pipe(Effect.provide(stubClient))

describe("the cycle A → B → A", () => {
  it.live("catalog.models(): A and B once, then UnexpectedResponse naming the operation and the request", () => expectCycleRefused("models"))

  it.live("catalog.wire(\"models\", {}): A and B once, then the same failure", () => expectCycleRefused("wire"))

  it.live("catalog scan models: A's and B's items once each on stdout, the failure on stderr, exit 6", () =>
    Effect.gen(function*() {
      const stub = yield* serveCycle
      const result = yield* Effect.promise(() => catalog(["scan", "models", "--page-size", "2", "--retries", "0", "--no-limits"], { baseUrl: stub.baseUrl, key: apiKey }))
      expect(result.code, result.stderr).toBe(6)
      const ids = lines(result.stdout).map((line) => {
        const item: unknown = JSON.parse(line)
        return typeof item === "object" && item !== null && "id" in item ? item.id : null
      })
      expect(ids).toEqual(["m1", "m2", "m3", "m4"].map((model) => `${organization}/${model}`))
      expect(lines(result.stderr).at(-1)).toBe(`catalog: UnexpectedResponse: status 200: ${cycleRefusal} (request req-2)`)
    }).pipe(Effect.provide(Stub.layer)))
})
