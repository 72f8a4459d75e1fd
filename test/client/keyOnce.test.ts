/**
 * One read of the key per attempt: a key effect that gives a new key on
 * every read (a rotation at its most hurried) is read exactly once for each
 * request sent, and that request's `Authorization` header and every
 * scrubbing of its answer (a refused answer's problem, its request id, a
 * body that does not decode) use that same key, on every attempt of a
 * retried request too. A stub server echoes the key it received wherever an
 * answer can carry it.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Context, Duration, Effect, Exit, Layer, Option, Redacted, Ref, Stream } from "effect"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import { direct } from "../support/Client.js"
import { wireModel } from "../support/Fixtures.js"
import * as Stub from "../support/Stub.js"

/** The key of the `n`th read: header-safe, and no key a prefix of another. */
const keyOf = (n: number) => `cat_live_rotating_${String(n).padStart(4, "0")}_key`

/** The key a request carried, as a malicious server echoes it. */
const echoedKey = (request: Stub.Received) => (request.headers["authorization"] ?? "").replace(/^Bearer /, "")

/** An RFC 9457 problem that echoes the key in its detail, its title and its request id. */
const echoingProblem = (status: number, code: string) => (request: Stub.Received): Stub.Reply =>
  Stub.json(status, {
    type: "about:blank",
    title: echoedKey(request),
    status,
    code,
    detail: `The key ${echoedKey(request)} cannot do this`,
    request_id: `req_${echoedKey(request)}`
  }, { "x-request-id": `req_${echoedKey(request)}` })

/**
 * A stub, a client of it whose key effect gives a new key on each read, and
 * the count of reads since the client was built (building checks the key),
 * so that the key of the `n`th request is `keyOf(n)`. `retries` are sent
 * almost at once.
 */
const rotating = (retries: number) =>
  Effect.gen(function*() {
    const reads = yield* Ref.make(0)
    const apiKey = Effect.map(Ref.getAndUpdate(reads, (n) => n + 1), (n) => Redacted.make(keyOf(n)))
    const stub = yield* Stub.Stub
    const context = yield* Layer.build(
      CatalogClient.layer({ ...direct, retry: { retries, base: Duration.millis(1) }, baseUrl: stub.baseUrl, apiKey }).pipe(
        Layer.provide(NodeHttpClient.layerUndici)
      )
    )
    // The keys of requests count from the reads made while building: the `n`th request's is `keyOf(n)`.
    yield* Ref.set(reads, 0)
    return { stub, catalog: Context.get(context, CatalogClient.CatalogClient), reads: Ref.get(reads) }
  })

/** The typed error of a failed effect, with the whole failure as text (message, fields, cause). */
const failureOf = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.exit(effect), (exit) => {
    if (Exit.isSuccess(exit)) return expect.fail("expected a failure, got a success")
    const error = Cause.failureOption(exit.cause)
    if (Option.isNone(error)) return expect.fail(`expected a typed failure, got: ${Cause.pretty(exit.cause)}`)
    return { error: error.value, text: `${Cause.pretty(exit.cause)} ${JSON.stringify(error.value)}` }
  })

describe("one read of the key per attempt", () => {
  it.scopedLive("a refused answer echoing the key: one read, the header's key is the one scrubbed from the error", () =>
    Effect.gen(function*() {
      const { catalog, reads, stub } = yield* rotating(0)
      yield* stub.answer(echoingProblem(401, "invalid_api_key"))
      const first = yield* failureOf(catalog.stats())
      const second = yield* failureOf(catalog.stats())
      const received = yield* stub.received
      expect(received.map((request) => request.headers["authorization"])).toEqual([`Bearer ${keyOf(0)}`, `Bearer ${keyOf(1)}`])
      expect(yield* reads).toBe(2)
      expect(first.error._tag).toBe("InvalidApiKey")
      expect(first.text).toContain("[redacted]")
      expect(first.text).not.toContain(keyOf(0))
      expect(second.text).not.toContain(keyOf(1))
    }).pipe(Effect.provide(Stub.layer)))

  it.scopedLive("a 200 echoing the key in a body that does not decode: one read, the detail and request id scrubbed of that key", () =>
    Effect.gen(function*() {
      const { catalog, reads, stub } = yield* rotating(0)
      yield* stub.answer((request) =>
        Stub.json(200, { data: { id: echoedKey(request), models: "many" } }, { "x-request-id": `req_${echoedKey(request)}` })
      )
      const failure = yield* failureOf(catalog.stats())
      expect(failure.error._tag).toBe("UnexpectedResponse")
      expect(failure.text).toContain("[redacted]")
      expect(failure.text).not.toContain(keyOf(0))
      expect(yield* reads).toBe(1)
      expect((yield* stub.received).map((request) => request.headers["authorization"])).toEqual([`Bearer ${keyOf(0)}`])
    }).pipe(Effect.provide(Stub.layer)))

  it.scopedLive("a retried request: one read per attempt, each attempt sent with its own key and the last answer scrubbed of the last", () =>
    Effect.gen(function*() {
      const { catalog, reads, stub } = yield* rotating(2)
      yield* stub.answer(echoingProblem(503, "service_unavailable"))
      const failure = yield* failureOf(catalog.stats())
      const received = yield* stub.received
      expect(received.map((request) => request.headers["authorization"])).toEqual([0, 1, 2].map((n) => `Bearer ${keyOf(n)}`))
      expect(yield* reads).toBe(3)
      expect(failure.error._tag).toBe("ServiceUnavailable")
      expect(failure.text).toContain("[redacted]")
      for (const n of [0, 1, 2]) expect(failure.text).not.toContain(keyOf(n))
    }).pipe(Effect.provide(Stub.layer)))

  it.scopedLive("a scan of two pages: one read per page, each page sent with the next key", () =>
    Effect.gen(function*() {
      const { catalog, reads, stub } = yield* rotating(0)
      yield* stub.answer((request) => {
        const last = request.url.includes("cursor=")
        return Stub.json(200, {
          data: [wireModel(stub.baseUrl, "o0000-falcon", last ? "m0000001-heron" : "m0000000-kestrel-8b")],
          pagination: { limit: 25, has_more: !last, next_cursor: last ? null : "c2" },
          links: { next: last ? null : `${stub.baseUrl}/models/?cursor=c2` },
          meta: { observed_at: null, stale: null }
        }, { "x-request-id": `req_${echoedKey(request)}` })
      })
      const items = yield* Stream.runCollect(catalog.models())
      expect(items.length).toBe(2)
      expect((yield* stub.received).map((request) => request.headers["authorization"])).toEqual([`Bearer ${keyOf(0)}`, `Bearer ${keyOf(1)}`])
      expect(yield* reads).toBe(2)
    }).pipe(Effect.provide(Stub.layer)))
})
