/**
 * Keys and scopes, over raw HTTP against the simulator: authentication (401),
 * scopes (403), keys in the query string (400), and the shape every response
 * shares (X-Request-Id, content types, problem bodies).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import * as Simulator from "../../src/simulator/Simulator.js"
import * as Http from "../../../test/support/Http.js"

// Loose decoding ---------------------------------------------------------------

type Json = Readonly<Record<string, unknown>>

const isRecord = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

interface Problem {
  readonly type: string
  readonly title: string
  readonly status: number
  readonly code: string
  readonly detail: string
  readonly request_id: string
}

const isProblem = (value: unknown): value is Problem =>
  isRecord(value) &&
  typeof value.type === "string" &&
  typeof value.title === "string" &&
  typeof value.status === "number" &&
  typeof value.code === "string" &&
  typeof value.detail === "string" &&
  typeof value.request_id === "string"

const stringOf = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined)

/** Asserts a problem+json answer with this status and code, and returns its body. */
const expectProblem = (reply: Http.Reply, status: number, code: string): Problem => {
  expect(reply.status).toBe(status)
  expect(reply.headers["content-type"]).toMatch(/^application\/problem\+json\b/)
  const body = reply.json
  if (!isProblem(body)) throw new Error(`not a problem body: ${reply.text}`)
  expect(body.status).toBe(status)
  expect(body.code).toBe(code)
  expect(body.request_id).toBe(reply.headers["x-request-id"])
  return body
}

/** Asserts a 200 application/json answer and returns its `data`. */
const expectOk = (reply: Http.Reply): unknown => {
  expect(reply.status, reply.text).toBe(200)
  expect(reply.headers["content-type"]).toMatch(/^application\/json\b/)
  expect(reply.headers["x-request-id"]).toBeTruthy()
  return Http.data(reply)
}

/** Asserts a 403 naming the scope the operation requires. */
const expectScopeRefused = (reply: Http.Reply, scope: string) => {
  const problem = expectProblem(reply, 403, "insufficient_scope")
  expect(problem.detail).toContain(scope)
  expect(isRecord(reply.json) ? reply.json.required_scope : undefined).toBe(scope)
}

// Fixtures ---------------------------------------------------------------------

const settings: Simulator.Settings = {
  sizes: { models: 300, skills: 200, mcps: 120, organizations: 60 },
  enforceLimits: false
}

/** The raw value of a simulator key. */
const rawKey = (name: Simulator.KeyName) => Effect.map(Simulator.Simulator, (simulator) => Redacted.value(simulator.keys[name]))

/** The `api_url` of the first item of a list (fetched with the full key). */
const firstApiUrl = (path: string) =>
  Effect.gen(function*() {
    const data = expectOk(yield* Http.get(path))
    const first: unknown = Array.isArray(data) ? data[0] : undefined
    const url = isRecord(first) ? stringOf(first.api_url) : undefined
    if (url === undefined) throw new Error(`no api_url in the first item of ${path}`)
    return url
  })

/** One representative operation for each scope of the contract. */
const perScope = (skillUrl: string): ReadonlyArray<readonly [scope: string, url: string]> => [
  ["models:read", "/models/?limit=1"],
  ["families:read", "/families/?limit=1"],
  ["providers:read", "/providers/?limit=1"],
  ["organizations:read", "/organizations/?limit=1"],
  ["skills:read", "/skills/?limit=1"],
  ["skill_content:read", `${skillUrl}document/`],
  ["mcps:read", "/mcps/?limit=1"],
  ["topics:read", "/topics/?limit=1"],
  ["articles:read", "/articles/?limit=1"]
]

const unknownKey = Redacted.make(`cat_live_${"0".repeat(32)}`)

describe("access", () => {
  it.layer(Http.simulator(settings))((it) => {
    describe("authentication", () => {
      const paths = ["/models/?limit=1", "/stats/", "/usage/", "/search/?q=ab&type=models"]

      it.effect("refuses a request without an Authorization header", () =>
        Effect.gen(function*() {
          for (const path of paths) expectProblem(yield* Http.get(path, { key: null }), 401, "invalid_api_key")
        }))

      it.effect("refuses an unknown key", () =>
        Effect.gen(function*() {
          for (const path of paths) expectProblem(yield* Http.get(path, { key: unknownKey }), 401, "invalid_api_key")
        }))

      it.effect("refuses malformed Authorization headers", () =>
        Effect.gen(function*() {
          const key = yield* rawKey("full")
          const malformed = ["Basic x", `Basic ${key}`, "Bearer", "Bearer ", key, `Bearer ${key} extra`, `Token ${key}`]
          for (const authorization of malformed) {
            const reply = yield* Http.get("/models/?limit=1", { key: null, headers: { authorization } })
            expectProblem(reply, 401, "invalid_api_key")
          }
        }))

      it.effect("refuses the revoked key on every kind of operation", () =>
        Effect.gen(function*() {
          for (const path of paths) expectProblem(yield* Http.get(path, { key: "revoked" }), 401, "invalid_api_key")
        }))

      it.effect("accepts a valid key", () =>
        Effect.gen(function*() {
          expect(expectOk(yield* Http.get("/models/?limit=1"))).toHaveLength(1)
        }))
    })

    describe("scopes", () => {
      it.effect("full reaches every scope", () =>
        Effect.gen(function*() {
          const skillUrl = yield* firstApiUrl("/skills/?limit=1")
          for (const [, url] of perScope(skillUrl)) expectOk(yield* Http.get(url, { key: "full" }))
        }))

      it.effect("models_only reads models and is refused every other scope, naming it", () =>
        Effect.gen(function*() {
          const skillUrl = yield* firstApiUrl("/skills/?limit=1")
          const modelUrl = yield* firstApiUrl("/models/?limit=1")
          expect(expectOk(yield* Http.get("/models/?limit=2", { key: "models_only" }))).toHaveLength(2)
          expectOk(yield* Http.get(modelUrl, { key: "models_only" }))
          expectOk(yield* Http.get(`${modelUrl}offers/`, { key: "models_only" }))
          for (const [scope, url] of perScope(skillUrl)) {
            if (scope === "models:read") continue
            expectScopeRefused(yield* Http.get(url, { key: "models_only" }), scope)
          }
          // Details follow the scope of their catalog too.
          expectScopeRefused(yield* Http.get(skillUrl, { key: "models_only" }), "skills:read")
        }))

      it.effect("models_only reads the model lists nested under other catalogs (models:read)", () =>
        Effect.gen(function*() {
          const familyUrl = "/families/?limit=1"
          const data = expectOk(yield* Http.get(familyUrl))
          const family: unknown = Array.isArray(data) ? data[0] : undefined
          const id = isRecord(family) ? stringOf(family.id) : undefined
          if (id === undefined) throw new Error("no family")
          expectOk(yield* Http.get(`/families/${id}/models/`, { key: "models_only" }))
          expectScopeRefused(yield* Http.get(`/families/${id}/`, { key: "models_only" }), "families:read")
        }))

      it.effect("no_content is refused skillDocument but reads the Skill and its audits", () =>
        Effect.gen(function*() {
          const skillUrl = yield* firstApiUrl("/skills/?limit=1")
          expectScopeRefused(yield* Http.get(`${skillUrl}document/`, { key: "no_content" }), "skill_content:read")
          expectOk(yield* Http.get(skillUrl, { key: "no_content" }))
          expectOk(yield* Http.get(`${skillUrl}audits/`, { key: "no_content" }))
          expectOk(yield* Http.get(`${skillUrl}document/`, { key: "full" }))
        }))

      it.effect("search needs the read scope of the catalog its type selects", () =>
        Effect.gen(function*() {
          expectOk(yield* Http.get("/search/?q=ab&type=models", { key: "models_only" }))
          expectScopeRefused(yield* Http.get("/search/?q=ab&type=skills", { key: "models_only" }), "skills:read")
          expectScopeRefused(yield* Http.get("/search/?q=ab&type=mcps", { key: "models_only" }), "mcps:read")
          expectScopeRefused(yield* Http.get("/search/?q=ab&type=families", { key: "models_only" }), "families:read")
          expectOk(yield* Http.get("/search/?q=ab&type=skills", { key: "no_content" }))
          for (const type of ["models", "skills", "mcps", "organizations", "providers", "families"]) {
            expectOk(yield* Http.get(`/search/?q=ab&type=${type}`, { key: "full" }))
          }
        }))

      it.effect("/stats/ and /usage/ accept any valid key, but not the revoked one", () =>
        Effect.gen(function*() {
          for (const path of ["/stats/", "/usage/"]) {
            for (const key of ["full", "models_only", "no_content"] as const) {
              const data = expectOk(yield* Http.get(path, { key }))
              expect(isRecord(data)).toBe(true)
            }
            expectProblem(yield* Http.get(path, { key: "revoked" }), 401, "invalid_api_key")
          }
        }))
    })

    describe("keys in the query string", () => {
      it.effect("refuses a key under a credential-like name, with or without an Authorization header", () =>
        Effect.gen(function*() {
          const key = yield* rawKey("full")
          for (const name of ["api_key", "token", "access_token"]) {
            for (const path of [`/models/?${name}=${key}`, `/stats/?${name}=${key}`]) {
              for (const auth of [null, "full"] as const) {
                const reply = yield* Http.get(path, { key: auth })
                expectProblem(reply, 400, "key_in_query")
                expect(reply.text).not.toContain(key)
              }
            }
          }
        }))

      it.effect("refuses a key given as the value of a normal parameter, even with a valid header", () =>
        Effect.gen(function*() {
          for (const name of ["full", "models_only", "no_content", "revoked"] as const) {
            const key = yield* rawKey(name)
            for (const path of [`/models/?q=${key}`, `/skills/?source=${key}&limit=1`, `/search/?type=models&q=${key}`]) {
              const reply = yield* Http.get(path, { key: "full" })
              expectProblem(reply, 400, "key_in_query")
              expect(reply.text).not.toContain(key)
              expect(JSON.stringify(reply.headers)).not.toContain(key)
            }
          }
        }))

      it.effect("refuses a key given as the name of a parameter, without echoing it", () =>
        Effect.gen(function*() {
          const key = yield* rawKey("full")
          const reply = yield* Http.get(`/models/?${key}=1`, { key: "full" })
          expect(reply.text).not.toContain(key)
          expectProblem(reply, 400, "key_in_query")
        }))
    })

    describe("response shape", () => {
      it.effect("every response carries a distinct X-Request-Id, equal to request_id in problems", () =>
        Effect.gen(function*() {
          const key = yield* rawKey("full")
          const modelUrl = yield* firstApiUrl("/models/?limit=1")
          const replies = [
            yield* Http.get("/models/?limit=1"),
            yield* Http.get(modelUrl),
            yield* Http.get("/stats/"),
            yield* Http.get("/models/?limit=1", { key: null }),
            yield* Http.get("/families/", { key: "models_only" }),
            yield* Http.get("/models/?foo=1"),
            yield* Http.get(`/models/?api_key=${key}`),
            yield* Http.get("/models/no-such-org/no-such-model/"),
            yield* Http.get("/no-such-path/")
          ]
          const ids = replies.map((reply) => reply.headers["x-request-id"])
          for (const [index, reply] of replies.entries()) {
            const id = ids[index]
            expect(id, `reply ${index} (${reply.status})`).toMatch(/\S/)
            if (reply.status !== 200) expect(isProblem(reply.json) ? reply.json.request_id : undefined).toBe(id)
          }
          expect(new Set(ids).size).toBe(replies.length)
        }))

      it.effect("success bodies are application/json; error bodies are complete application/problem+json", () =>
        Effect.gen(function*() {
          expectOk(yield* Http.get("/models/?limit=1"))
          expectOk(yield* Http.get("/usage/"))
          const cases: ReadonlyArray<readonly [Http.Reply, number, string]> = [
            [yield* Http.get("/models/", { key: null }), 401, "invalid_api_key"],
            [yield* Http.get("/skills/", { key: "models_only" }), 403, "insufficient_scope"],
            [yield* Http.get("/models/?limit=0"), 400, "invalid_parameter"],
            [yield* Http.get("/models/no-such-org/no-such-model/"), 404, "not_found"]
          ]
          for (const [reply, status, code] of cases) {
            const problem = expectProblem(reply, status, code)
            expect(problem.type).not.toBe("")
            expect(problem.title).not.toBe("")
            expect(problem.detail).not.toBe("")
          }
        }))
    })
  })
})
