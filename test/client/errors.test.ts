/**
 * Every tagged error of the CatalogClient, produced for real: by the
 * simulator (keys, scopes, missing resources, bad parameters, expired cursors,
 * large pages, limits and faults), by the client itself before anything is
 * sent, by the network, and by a stub server that answers outside the
 * contract.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it, layer } from "@effect/vitest"
import { Chunk, Duration, Effect, Either, Layer, Logger, LogLevel, Option, Redacted, Stream } from "effect"
import { createServer as createTcpServer, type Server as TcpServer } from "node:net"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import type * as CatalogConfig from "../../common/src/client/CatalogConfig.js"
import * as Simulator from "../../common/src/simulator/Simulator.js"
import * as Client from "../support/Client.js"
import * as Stub from "../support/Stub.js"
import { segmentsOf } from "../support/Fixtures.js"

// Helpers -----------------------------------------------------------------------

type Tagged = { readonly _tag: string }

const hasTag = <E extends Tagged, T extends E["_tag"]>(error: E, tag: T): error is Extract<E, { readonly _tag: T }> =>
  error._tag === tag

/** Asserts the error's tag and narrows to it. */
const expectTag = <E extends Tagged, T extends E["_tag"]>(error: E, tag: T): Extract<E, { readonly _tag: T }> => {
  expect(error._tag).toBe(tag)
  if (!hasTag(error, tag)) throw new Error(`expected ${tag}, got ${error._tag}`)
  return error
}

const requestIdPattern = /^req_/

/** The error of a stream, once it has emitted what it could. */
const streamError = <A, E>(stream: Stream.Stream<A, E>) => Effect.flip(Stream.runDrain(stream))

const answeredCount = Effect.flatMap(Simulator.Simulator, (simulator) => Effect.map(simulator.answered, (answered) => answered.length))


const firstOf = <A, E>(stream: Stream.Stream<A, E>) =>
  Stream.runHead(stream).pipe(Effect.flatMap(Option.match({ onNone: () => Effect.dieMessage("empty list"), onSome: Effect.succeed })))

/** A client of the simulator in context, with another key. */
const asKey = (key: Simulator.KeyName) => <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provide(effect, Client.client(key))

const testKey = "cat_test_key_0123456789"

/** A client of a fresh stub server. */
const stubClient = (options: Partial<CatalogConfig.Options> = {}) => Client.stubWithClient(testKey, options)

/** A client of a base URL with nothing behind it. */
const clientOf = (baseUrl: string) =>
  CatalogClient.layer({ ...Client.direct, baseUrl, apiKey: Redacted.make(testKey) }).pipe(Layer.provide(NodeHttpClient.layerUndici))

const listen = (server: TcpServer) =>
  Effect.async<number>((resume) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

const close = (server: TcpServer) => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))

/** A port on loopback that was free a moment ago and has nothing listening on it. */
const closedPort = Effect.gen(function*() {
  const server = createTcpServer()
  const port = yield* listen(server)
  yield* close(server)
  return port
})

/** A raw server that sends a 200 with headers and part of the promised body, then cuts the connection. */
const truncatingServer = Effect.acquireRelease(
  Effect.gen(function*() {
    const server = createTcpServer((socket) => {
      socket.once("data", () => {
        socket.write("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 5000\r\nx-request-id: req_cut\r\n\r\n{\"data\":{\"id\":")
        setTimeout(() => socket.destroy(), 20)
      })
    })
    const port = yield* listen(server)
    return { server, port }
  }),
  ({ server }) => close(server)
)

const settings: Simulator.Settings = { sizes: { models: 300, skills: 200, mcps: 50, organizations: 40, articles: 30 }, enforceLimits: false }

// From the simulator --------------------------------------------------------------

describe("errors the simulator gives", () => {
  layer(Client.simulatorWithClient(settings), { excludeTestServices: true })((it) => {
    it.effect("InvalidApiKey for a revoked key, on details, pages and streams", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const errors = [
          yield* Effect.flip(catalog.stats()),
          yield* Effect.flip(catalog.usage()),
          yield* Effect.flip(catalog.modelsPage({ limit: 5 })),
          yield* streamError(catalog.models())
        ]
        for (const error of errors) {
          const invalid = expectTag(error, "InvalidApiKey")
          expect(invalid.code).toBe("invalid_api_key")
          expect(invalid.requestId).toMatch(requestIdPattern)
          expect(invalid.detail).toBe("This key has been revoked.")
          expect(JSON.stringify(invalid)).not.toContain(testKey)
        }
      }).pipe(asKey("revoked")))

    it.effect("ScopeMissing with the required scope, for models_only and no_content keys", () =>
      Effect.gen(function*() {
        const full = yield* CatalogClient.CatalogClient
        const simulator = yield* Simulator.Simulator
        const family = yield* firstOf(full.families())
        const skill = yield* firstOf(full.skills({ limit: 10 }))
        const [, sourceType = "", owner = "", repository = "", name = ""] = segmentsOf(simulator.baseUrl, skill.api_url)
        const skillParameters = { sourceType, owner, repository, skill: name }

        const modelsOnly = Effect.gen(function*() {
          const catalog = yield* CatalogClient.CatalogClient
          // What the key may read still answers.
          expect((yield* catalog.modelsPage({ limit: 1 })).items).toHaveLength(1)
          const skills = expectTag(yield* streamError(catalog.skills()), "ScopeMissing")
          const skillsPage = expectTag(yield* Effect.flip(catalog.skillsPage({ limit: 5 })), "ScopeMissing")
          const familyError = expectTag(yield* Effect.flip(catalog.family({ id: family.id })), "ScopeMissing")
          const skillError = expectTag(yield* Effect.flip(catalog.skill(skillParameters)), "ScopeMissing")
          const search = expectTag(yield* Effect.flip(catalog.searchPage({ q: "at", type: "skills" })), "ScopeMissing")
          const searchStream = expectTag(yield* streamError(catalog.search({ q: "at", type: "mcps" })), "ScopeMissing")
          return [
            [skills, "skills:read"],
            [skillsPage, "skills:read"],
            [familyError, "families:read"],
            [skillError, "skills:read"],
            [search, "skills:read"],
            [searchStream, "mcps:read"]
          ] as const
        }).pipe(asKey("models_only"))

        const noContent = Effect.gen(function*() {
          const catalog = yield* CatalogClient.CatalogClient
          expect((yield* catalog.skill(skillParameters)).id).toBe(skill.id)
          const document = expectTag(yield* Effect.flip(catalog.skillDocument(skillParameters)), "ScopeMissing")
          return [[document, "skill_content:read"]] as const
        }).pipe(asKey("no_content"))

        for (const [error, scope] of [...(yield* modelsOnly), ...(yield* noContent)]) {
          expect(error.requiredScope).toBe(scope)
          expect(error.code).toBe("insufficient_scope")
          expect(error.requestId).toMatch(requestIdPattern)
          expect(error.detail).toContain(scope)
        }
      }))

    it.effect("NotFound for a missing model and for a list below a missing parent", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const missing = { organization: "nobody", model: "nothing" }
        const errors = [
          yield* Effect.flip(catalog.model(missing)),
          yield* streamError(catalog.modelOffers(missing)),
          yield* Effect.flip(catalog.modelOffersPage({ ...missing, limit: 5 })),
          yield* Effect.flip(catalog.family({ id: "no-such-family" })),
          yield* streamError(catalog.topicSkills({ slug: "no-such-topic" }))
        ]
        for (const error of errors) {
          const notFound = expectTag(error, "NotFound")
          expect(notFound.code).toBe("not_found")
          expect(notFound.requestId).toMatch(requestIdPattern)
          expect(notFound.detail).toContain("No such resource")
        }
        const follow = expectTag(yield* Effect.flip(catalog.follow(`${(yield* Simulator.Simulator).baseUrl}/models/nobody/nothing/`)), "NotFound")
        expect(follow.code).toBe("not_found")
      }))

    it.effect("InvalidRequest from the server: a cursor it never issued, a cursor of another listing", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const malformed = expectTag(yield* Effect.flip(catalog.modelsPage({ cursor: "not-a-cursor" })), "InvalidRequest")
        expect(malformed.code).toBe("invalid_cursor")
        expect(malformed.requestId).toMatch(requestIdPattern)
        expect(malformed.detail).toBe("The cursor is not one this service issued.")
        const first = yield* catalog.modelsPage({ limit: 5 })
        const foreign = expectTag(
          yield* Effect.flip(catalog.modelsPage({ reasoning: true, limit: 5, cursor: first.nextCursor ?? "" })),
          "InvalidRequest"
        )
        expect(foreign.code).toBe("invalid_cursor")
        expect(foreign.requestId).toMatch(requestIdPattern)
      }))

    it.effect("InvalidRequest caught locally, with no request sent", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const before = yield* answeredCount
        const errors = [
          ["limit 101", yield* Effect.flip(catalog.modelsPage({ limit: 101 }))],
          ["limit 0", yield* Effect.flip(catalog.modelsPage({ limit: 0 }))],
          ["limit 2.5", yield* Effect.flip(catalog.familiesPage({ limit: 2.5 }))],
          ["stream limit 101", yield* streamError(catalog.models({ limit: 101 }))],
          ["search limit 26", yield* Effect.flip(catalog.searchPage({ q: "at", type: "models", limit: 26 }))],
          ["filter of 161", yield* Effect.flip(catalog.modelsPage({ q: "x".repeat(161) }))],
          ["stream filter of 161", yield* streamError(catalog.skills({ source: "s".repeat(161) }))],
          ["empty filter", yield* Effect.flip(catalog.mcpsPage({ namespace: "" }))],
          ["search q of 1", yield* Effect.flip(catalog.searchPage({ q: "a", type: "models" }))],
          ["search stream q of 1", yield* streamError(catalog.search({ q: "a", type: "skills" }))],
          ["cursor of 1601", yield* Effect.flip(catalog.modelsPage({ cursor: "c".repeat(1601) }))],
          ["path of 201", yield* Effect.flip(catalog.model({ organization: "o".repeat(201), model: "m" }))],
          ["list path of 201", yield* streamError(catalog.familyModels({ id: "f".repeat(201) }))],
          ["empty path", yield* Effect.flip(catalog.offer({ id: "" }))],
          ["..", yield* Effect.flip(catalog.model({ organization: "..", model: "usage" }))],
          [". ", yield* Effect.flip(catalog.family({ id: "." }))],
          [".. in a list", yield* Effect.flip(catalog.providerModelsPage({ id: ".." }))]
        ] as const
        for (const [what, error] of errors) {
          const invalid = expectTag(error, "InvalidRequest")
          expect(invalid.requestId, what).toBeNull()
          expect(invalid.code, what).toBe("local_validation")
          expect(typeof invalid.detail, what).toBe("string")
        }
        expect(yield* answeredCount).toBe(before)
      }))

    it.effect("ResponseTooLarge for a page of 100 Skills", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const tooLarge = expectTag(yield* Effect.flip(catalog.skillsPage({ limit: 100 })), "ResponseTooLarge")
        expect(tooLarge.code).toBe("response_too_large")
        expect(tooLarge.requestId).toMatch(requestIdPattern)
        expect(tooLarge.detail).toContain("smaller page")
        expect((yield* catalog.skillsPage({ limit: 20 })).items).toHaveLength(20)
      }))
  })

  it.live("on the real clock: RateLimited from the real limits: the 11th quick call within 10 (scaled) seconds", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      // Calls until the first refusal: the 11th when 11 fit in the scaled 10 s (1 s), a little later on a slow machine.
      let succeeded = 0
      let refusal: CatalogClient.FollowError | undefined
      while (refusal === undefined && succeeded < 70) {
        const result = yield* Effect.either(catalog.stats())
        if (Either.isLeft(result)) refusal = result.left
        else succeeded++
      }
      expect(succeeded).toBeGreaterThanOrEqual(10)
      expect(refusal).toBeDefined()
      if (refusal !== undefined) {
        const limited = expectTag(refusal, "RateLimited")
        expect(limited.code).toBe("rate_limited")
        expect(limited.requestId).toMatch(requestIdPattern)
        expect(limited.detail).toContain("per 10 seconds")
        expect(Duration.toMillis(limited.retryAfter)).toBeGreaterThan(0)
        expect(Duration.toMillis(limited.retryAfter)).toBeLessThanOrEqual(1000)
      }
      // A client that does not pace itself, so that the account's limit is reached; a window of 1 s, which eleven
      // calls fill on a busy machine too (at 0.01, calls slowed past 10 ms each let the window's first ones age out).
    }).pipe(Effect.provide(Client.simulatorWithClient({ sizes: { models: 50 }, timeScale: 0.1 }, "full", Client.direct))))

  it.live("ServiceUnavailable with Retry-After", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const errors = [yield* Effect.flip(catalog.stats()), yield* Effect.flip(catalog.modelsPage()), yield* streamError(catalog.skills())]
      for (const error of errors) {
        const unavailable = expectTag(error, "ServiceUnavailable")
        expect(unavailable.code).toBe("service_unavailable")
        expect(unavailable.requestId).toMatch(requestIdPattern)
        expect(Duration.toMillis(unavailable.retryAfter)).toBeGreaterThanOrEqual(1_000)
        expect(Duration.toMillis(unavailable.retryAfter)).toBeLessThanOrEqual(3_000)
      }
    }).pipe(Effect.provide(Client.simulatorWithClient({ sizes: { models: 50 }, enforceLimits: false, faults: { unavailable: 1 } }))))

  it.live("TransportError (Connection) when the connection is dropped without an answer", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const simulator = yield* Simulator.Simulator
      const errors = [yield* Effect.flip(catalog.stats()), yield* Effect.flip(catalog.modelsPage({ limit: 3 })), yield* streamError(catalog.models())]
      for (const error of errors) {
        const transport = expectTag(error, "TransportError")
        expect(transport.reason).toBe("Connection")
        expect(transport.detail).not.toContain(Redacted.value(simulator.keys.full))
      }
    }).pipe(Effect.provide(Client.simulatorWithClient({ sizes: { models: 50 }, enforceLimits: false, faults: { drop: 1 } }))))

})

// From the network ----------------------------------------------------------------

describe("errors of the network", () => {
  it.live("TransportError (Connection) for a refused connection", () =>
    Effect.gen(function*() {
      const port = yield* closedPort
      const error = yield* Effect.flip(
        Effect.flatMap(CatalogClient.CatalogClient, (catalog) => catalog.stats()).pipe(Effect.provide(clientOf(`http://127.0.0.1:${port}/api/v1`)))
      )
      const transport = expectTag(error, "TransportError")
      expect(transport.reason).toBe("Connection")
      expect(transport.detail).not.toContain(testKey)
    }))

  it.live("TransportError (Body) when the body is cut off", () =>
    Effect.gen(function*() {
      const { port } = yield* truncatingServer
      const error = yield* Effect.flip(
        Effect.flatMap(CatalogClient.CatalogClient, (catalog) => catalog.stats()).pipe(Effect.provide(clientOf(`http://127.0.0.1:${port}/api/v1`)))
      )
      const transport = expectTag(error, "TransportError")
      expect(transport.reason).toBe("Body")
    }).pipe(Effect.scoped))
})

// From a stub: answers outside the contract ---------------------------------------

const statsBody = { data: { id: "catalog", models: 1, skills: 2, mcps: 3, organizations: 4, providers: 5, families: 6 } }

const modelWire = (base: string, n: number) => ({
  id: `o0001-acme/m000000${n}-kestrel`,
  name: `Kestrel ${n}`,
  family_id: null,
  organization_catalog_id: "o0001-acme",
  organization_slug: null,
  released_on: null,
  context_tokens: null,
  open_weights: null,
  reasoning: null,
  offer_count: 0,
  provider_count: 0,
  updated_at: null,
  url: `https://catalog.example/models/o0001-acme/m000000${n}-kestrel`,
  api_url: `${base}/models/o0001-acme/m000000${n}-kestrel/`,
  specifications: {}
})

describe("errors of answers outside the contract (stub)", () => {
  it.live("UnexpectedResponse for statuses and bodies the contract does not have", () =>
    Effect.gen(function*() {
      const stub = yield* Stub.Stub
      const catalog = yield* CatalogClient.CatalogClient
      const cases: ReadonlyArray<readonly [string, Stub.Reply, number]> = [
        ["500", Stub.json(500, { code: "internal_error", detail: "Something broke." }, { "x-request-id": "req_stub_500" }), 500],
        ["418", { status: 418, headers: { "content-type": "text/plain", "x-request-id": "req_stub_418" }, body: "I'm a teapot" }, 418],
        ["200 not JSON", { status: 200, headers: { "content-type": "application/json", "x-request-id": "req_stub_200" }, body: "<html>hello</html>" }, 200],
        ["200 missing fields", Stub.json(200, { data: { id: "catalog", models: 1 } }, { "x-request-id": "req_stub_200" }), 200],
        ["200 wrong types", Stub.json(200, { data: { ...statsBody.data, models: "many" } }, { "x-request-id": "req_stub_200" }), 200],
        ["304 unasked", { status: 304, headers: { etag: "\"abc\"", "x-request-id": "req_stub_304" } }, 304],
        ["404 for stats", Stub.json(404, { code: "not_found", detail: "No stats here.", request_id: "req_stub_404" }, { "x-request-id": "req_stub_404" }), 404]
      ]
      for (const [what, reply, status] of cases) {
        yield* stub.answer(() => reply)
        const unexpected = expectTag(yield* Effect.flip(catalog.stats()), "UnexpectedResponse")
        expect(unexpected.status, what).toBe(status)
        expect(unexpected.requestId, what).toBe(reply.headers?.["x-request-id"])
        if (reply.body !== undefined && reply.body !== "") expect(unexpected.detail, what).not.toBeNull()
        expect(unexpected.detail ?? "", what).not.toContain(testKey)
      }
      // Redirects are not followed: the key goes nowhere else.
      for (const status of [301, 302, 307]) {
        const before = (yield* stub.received).length
        yield* stub.answer((request) =>
          request.url.startsWith("/api/v1/")
            ? { status, headers: { location: `${stub.origin}/elsewhere/stats/`, "x-request-id": `req_stub_${status}` } }
            : Stub.json(200, statsBody)
        )
        const redirected = expectTag(yield* Effect.flip(catalog.stats()), "UnexpectedResponse")
        expect(redirected.status).toBe(status)
        expect(redirected.requestId).toBe(`req_stub_${status}`)
        expect((yield* stub.received).length - before).toBe(1)
      }
      // The kept detail of what the service said.
      yield* stub.answer(() => Stub.json(500, { code: "internal_error", detail: "Something broke." }, { "x-request-id": "req_a" }))
      const internal = expectTag(yield* Effect.flip(catalog.stats()), "UnexpectedResponse")
      expect(internal.code).toBe("internal_error")
      expect(internal.detail).toBe("Something broke.")
      yield* stub.answer(() => ({ status: 418, headers: { "content-type": "text/plain" }, body: "I'm a teapot" }))
      const teapot = expectTag(yield* Effect.flip(catalog.stats()), "UnexpectedResponse")
      expect(teapot.detail).toBe("I'm a teapot")
      expect(teapot.code).toBeNull()
      expect(teapot.requestId).toBeNull()
      yield* stub.answer(() => Stub.json(404, { code: "not_found", detail: "No stats here." }))
      const statsNotFound = expectTag(yield* Effect.flip(catalog.stats()), "UnexpectedResponse")
      expect(statsNotFound.status).toBe(404)
      expect(statsNotFound.code).toBe("not_found")
      // A 409 or 422 on a detail read is outside the contract too.
      yield* stub.answer(() => Stub.json(409, { code: "cursor_expired", detail: "?" }))
      expect(expectTag(yield* Effect.flip(catalog.model({ organization: "a", model: "b" })), "UnexpectedResponse").status).toBe(409)
      yield* stub.answer(() => Stub.json(422, { code: "response_too_large", detail: "?" }))
      expect(expectTag(yield* Effect.flip(catalog.usage()), "UnexpectedResponse").status).toBe(422)
    }).pipe(Effect.provide(stubClient())))

  it.live("UnexpectedResponse for a malformed 200 says in one line which field is wrong, or that the body is not JSON", () =>
    Effect.gen(function*() {
      const stub = yield* Stub.Stub
      const catalog = yield* CatalogClient.CatalogClient
      const page = (data: ReadonlyArray<unknown>) =>
        Stub.json(200, { data, pagination: { limit: 3, has_more: false, next_cursor: null }, links: { next: null }, meta: { observed_at: null, stale: null } }, {
          "x-request-id": "req_stub_malformed"
        })
      const cases: ReadonlyArray<readonly [Stub.Reply, string]> = [
        [
          page([modelWire(stub.baseUrl, 1), modelWire(stub.baseUrl, 2), { ...modelWire(stub.baseUrl, 3), id: 12 }]),
          "data[2].id: Expected string, actual 12"
        ],
        [
          page([modelWire(stub.baseUrl, 1), modelWire(stub.baseUrl, 2), { ...modelWire(stub.baseUrl, 3), id: 12, name: 5 }]),
          "data[2].id: Expected string, actual 12 (and 1 more)"
        ],
        [
          { status: 200, headers: { "content-type": "text/html", "x-request-id": "req_stub_malformed" }, body: "<html>" },
          "the body is not JSON: Unexpected token '<', \"<html>\" is not valid JSON"
        ]
      ]
      for (const [reply, detail] of cases) {
        yield* stub.answer(() => reply)
        const unexpected = expectTag(yield* Effect.flip(catalog.modelsPage({ limit: 3 })), "UnexpectedResponse")
        expect(unexpected.detail).toBe(detail)
        expect(unexpected.status).toBe(200)
        expect(unexpected.code).toBeNull()
        expect(unexpected.requestId).toBe("req_stub_malformed")
      }
    }).pipe(Effect.provide(stubClient())))

  it.live("maps problems tolerantly: missing or extra members, unknown codes, bodies that are not JSON", () =>
    Effect.gen(function*() {
      const stub = yield* Stub.Stub
      const catalog = yield* CatalogClient.CatalogClient
      const base = stub.baseUrl

      // Missing members: the tag of the status, nothing invented.
      yield* stub.answer(() => Stub.json(404, {}))
      const bare = expectTag(yield* Effect.flip(catalog.model({ organization: "a", model: "b" })), "NotFound")
      expect(bare.code).toBeNull()
      expect(bare.requestId).toBeNull()
      expect(bare.detail).toBeNull()

      // Extra members and an unknown code; the header's request id wins over the body's.
      yield* stub.answer(() =>
        Stub.json(400, {
          type: "https://catalog.example/problems/brand_new_rule",
          title: "Bad Request",
          status: 400,
          code: "brand_new_rule",
          detail: "A rule the client has never heard of.",
          request_id: "req_from_body",
          errors: [{ parameter: "q" }],
          docs: "https://catalog.example/docs"
        }, { "x-request-id": "req_from_header" })
      )
      const unknownCode = expectTag(yield* Effect.flip(catalog.modelsPage({ q: "x" })), "InvalidRequest")
      expect(unknownCode.code).toBe("brand_new_rule")
      expect(unknownCode.detail).toBe("A rule the client has never heard of.")
      expect(unknownCode.requestId).toBe("req_from_header")

      // Only the body's request id.
      yield* stub.answer(() => Stub.json(401, { code: "invalid_api_key", detail: "Nope.", request_id: "req_only_body" }))
      const bodyId = expectTag(yield* Effect.flip(catalog.stats()), "InvalidApiKey")
      expect(bodyId.requestId).toBe("req_only_body")
      expect(bodyId.code).toBe("invalid_api_key")

      // A problem with members of unexpected types.
      yield* stub.answer(() => Stub.json(409, { code: 409, detail: ["no"], title: "Conflict", request_id: 7 }, { "x-request-id": "req_typed" }))
      const oddTypes = expectTag(yield* Effect.flip(catalog.modelsPage({ cursor: "c" })), "CursorExpired")
      expect(oddTypes.code).toBeNull()
      expect(oddTypes.detail).toBe("Conflict")
      expect(oddTypes.requestId).toBe("req_typed")

      // A body that is not JSON keeps its raw text as detail.
      yield* stub.answer(() => ({ status: 503, headers: { "content-type": "text/html", "x-request-id": "req_gateway" }, body: "<html>Bad gateway</html>" }))
      const gateway = expectTag(yield* Effect.flip(catalog.stats()), "ServiceUnavailable")
      expect(gateway.detail).toBe("<html>Bad gateway</html>")
      expect(gateway.code).toBeNull()
      expect(gateway.requestId).toBe("req_gateway")
      expect(Duration.toMillis(gateway.retryAfter)).toBe(1_000)
      yield* stub.answer(() => ({ status: 422, headers: { "content-type": "text/plain" }, body: "too big" }))
      const tooBig = expectTag(yield* Effect.flip(catalog.skillsPage({ limit: 100 })), "ResponseTooLarge")
      expect(tooBig.detail).toBe("too big")
      yield* stub.answer(() => ({ status: 429, headers: { "content-type": "text/plain", "retry-after": "0.250" }, body: "slow down" }))
      const decimal = expectTag(yield* Effect.flip(catalog.stats()), "RateLimited")
      expect(decimal.detail).toBe("slow down")
      expect(Duration.toMillis(decimal.retryAfter)).toBe(250)

      // Retry-After as an HTTP date, about 3 seconds ahead.
      yield* stub.answer(() => Stub.json(429, { code: "rate_limited" }, { "retry-after": new Date(Date.now() + 3_000).toUTCString() }))
      const dated = expectTag(yield* Effect.flip(catalog.stats()), "RateLimited")
      expect(dated.code).toBe("rate_limited")
      expect(Duration.toMillis(dated.retryAfter)).toBeGreaterThanOrEqual(1_900)
      expect(Duration.toMillis(dated.retryAfter)).toBeLessThanOrEqual(3_100)
      yield* stub.answer(() => Stub.json(503, { code: "service_unavailable" }, { "retry-after": new Date(Date.now() + 3_000).toUTCString() }))
      const datedUnavailable = expectTag(yield* Effect.flip(catalog.stats()), "ServiceUnavailable")
      expect(Duration.toMillis(datedUnavailable.retryAfter)).toBeGreaterThanOrEqual(1_900)
      expect(Duration.toMillis(datedUnavailable.retryAfter)).toBeLessThanOrEqual(3_100)

      // 403 without required_scope: the scope of the operation.
      yield* stub.answer(() => Stub.json(403, { code: "insufficient_scope" }))
      const scope = expectTag(yield* Effect.flip(catalog.skillsPage()), "ScopeMissing")
      expect(scope.requiredScope).toBe("skills:read")
      const searchScope = expectTag(yield* Effect.flip(catalog.searchPage({ q: "at", type: "mcps" })), "ScopeMissing")
      expect(searchScope.requiredScope).toBe("mcps:read")
      yield* stub.answer(() => Stub.json(403, { code: "insufficient_scope", required_scope: "skill_content:read" }))
      const named = expectTag(yield* Effect.flip(catalog.skillDocument({ sourceType: "github", owner: "o", repository: "r", skill: "s" })), "ScopeMissing")
      expect(named.requiredScope).toBe("skill_content:read")

      // A problem body that echoes the key does not carry it into the error.
      yield* stub.answer(() => Stub.json(401, { code: "invalid_api_key", detail: `Unknown key ${testKey}` }))
      const echoed = expectTag(yield* Effect.flip(catalog.stats()), "InvalidApiKey")
      expect(echoed.detail).not.toContain(testKey)
      expect(base).toBe(stub.baseUrl)
    }).pipe(Effect.provide(stubClient())))

  it.live("UnsafeLink: a models stream emits the first page, then refuses a links.next outside the base URL", () =>
    Effect.gen(function*() {
      const foreignLinks: ReadonlyArray<(stub: Stub.Service) => string> = [
        () => "https://evil.example/api/v1/models/?cursor=x&limit=2",
        (stub) => `http://127.0.0.2:${new URL(stub.origin).port}/api/v1/models/?cursor=x&limit=2`,
        (stub) => `http://user:secret@127.0.0.1:${new URL(stub.origin).port}/api/v1/models/?cursor=x&limit=2`,
        (stub) => `${stub.origin}/api/v2/models/?cursor=x&limit=2`
      ]
      for (const linkOf of foreignLinks) {
        yield* Effect.gen(function*() {
          const stub = yield* Stub.Stub
          const catalog = yield* CatalogClient.CatalogClient
          const next = linkOf(stub)
          yield* stub.answer(() =>
            Stub.json(200, {
              data: [modelWire(stub.baseUrl, 1), modelWire(stub.baseUrl, 2)],
              pagination: { limit: 2, has_more: true, next_cursor: "x" },
              links: { next },
              meta: { observed_at: null, stale: null }
            })
          )
          const emitted = Chunk.toReadonlyArray(yield* Stream.runCollect(Stream.either(catalog.models({ limit: 2 }))))
          expect(emitted, next).toHaveLength(3)
          expect(emitted.slice(0, 2).map((item) => Either.isRight(item) ? item.right.id : null)).toEqual([
            "o0001-acme/m0000001-kestrel",
            "o0001-acme/m0000002-kestrel"
          ])
          const last = emitted[2]
          expect(last !== undefined && Either.isLeft(last), next).toBe(true)
          if (last !== undefined && Either.isLeft(last)) {
            const unsafe = expectTag(last.left, "UnsafeLink")
            expect(unsafe.baseUrl).toBe(stub.baseUrl)
            expect(unsafe.link).not.toContain("secret")
          }
          expect(yield* stub.received, next).toHaveLength(1)
          // The page itself is fine on its own.
          const page = yield* catalog.modelsPage({ limit: 2 })
          expect(page.next).toBe(next)
        }).pipe(Effect.provide(stubClient()))
      }
    }))

  it.live("UnexpectedResponse: a listing whose links.next brings nothing new ends with an error, not an endless scan", () =>
    Effect.gen(function*() {
      const stub = yield* Stub.Stub
      const catalog = yield* CatalogClient.CatalogClient
      const listPage = (data: ReadonlyArray<unknown>, next: string | null) =>
        Stub.json(200, { data, pagination: { limit: 2, has_more: next !== null, next_cursor: next === null ? null : "c" }, links: { next }, meta: { observed_at: null, stale: null } })
      // A server that repeats itself also leaves code-unit order; that log line is expected here.
      const scan = Effect.gen(function*() {
        const emitted = Chunk.toReadonlyArray(
          yield* Stream.runCollect(Stream.either(catalog.models({ limit: 2 }))).pipe(Logger.withMinimumLogLevel(LogLevel.None))
        )
        const last = emitted.at(-1)
        return {
          ids: emitted.flatMap((item) => Either.isRight(item) ? [item.right.id] : []),
          error: last !== undefined && Either.isLeft(last) ? expectTag(last.left, "UnexpectedResponse") : null
        }
      })

      // A server that ignores the cursor: the same items under a new cursor each time.
      let served = 0
      yield* stub.answer(() => listPage([modelWire(stub.baseUrl, 1), modelWire(stub.baseUrl, 2)], `${stub.baseUrl}/models/?limit=2&cursor=c${++served}`))
      const ignoring = yield* scan
      expect(ignoring.ids).toEqual(["o0001-acme/m0000001-kestrel", "o0001-acme/m0000002-kestrel"])
      expect(ignoring.error?.detail).toContain("no item beyond those already read")
      expect(ignoring.error?.status).toBe(200)
      // The first page, then two that bring nothing beyond it.
      expect(served).toBe(3)

      // Empty pages that always say has_more, each with a new link: two in a row end the scan.
      let empty = 0
      yield* stub.answer(() => listPage([], `${stub.baseUrl}/models/?limit=2&cursor=e${++empty}`))
      const emptied = yield* scan
      expect(emptied.ids).toEqual([])
      expect(emptied.error?.detail).toContain("no item beyond those already read")
      expect(empty).toBe(2)

      // An empty page that links to itself.
      const before = (yield* stub.received).length
      yield* stub.answer(() => listPage([], `${stub.baseUrl}/models/?limit=2`))
      const looping = yield* scan
      expect(looping.ids).toEqual([])
      expect(looping.error?.detail).toContain("would repeat forever")
      expect((yield* stub.received).length - before).toBe(1)

      // has_more with next_cursor but no links.next: the cursor leads on from the page's URL.
      yield* stub.answer((request) =>
        request.url.includes("cursor=k2")
          ? listPage([modelWire(stub.baseUrl, 3)], null)
          : Stub.json(200, {
            data: [modelWire(stub.baseUrl, 1), modelWire(stub.baseUrl, 2)],
            pagination: { limit: 2, has_more: true, next_cursor: "k2" },
            links: { next: null },
            meta: { observed_at: null, stale: null }
          })
      )
      expect((yield* scan).ids).toEqual(["o0001-acme/m0000001-kestrel", "o0001-acme/m0000002-kestrel", "o0001-acme/m0000003-kestrel"])

      // has_more with neither: a typed error after the page's items, not a silent end.
      yield* stub.answer(() =>
        Stub.json(200, {
          data: [modelWire(stub.baseUrl, 1)],
          pagination: { limit: 2, has_more: true, next_cursor: null },
          links: { next: null },
          meta: { observed_at: null, stale: null }
        })
      )
      const stranded = yield* scan
      expect(stranded.ids).toEqual(["o0001-acme/m0000001-kestrel"])
      expect(stranded.error?.detail).toContain("has_more but gives neither links.next nor next_cursor")

      // Pages that go beyond the last id read are followed, an empty last page included.
      yield* stub.answer((request) =>
        request.url.includes("cursor=d") ? listPage([], null)
          : request.url.includes("cursor=c") ? listPage([modelWire(stub.baseUrl, 3)], `${stub.baseUrl}/models/?limit=2&cursor=d`)
          : listPage([modelWire(stub.baseUrl, 1), modelWire(stub.baseUrl, 2)], `${stub.baseUrl}/models/?limit=2&cursor=c`)
      )
      expect(yield* scan).toEqual({ ids: ["o0001-acme/m0000001-kestrel", "o0001-acme/m0000002-kestrel", "o0001-acme/m0000003-kestrel"], error: null })
    }).pipe(Effect.provide(stubClient())))
})

