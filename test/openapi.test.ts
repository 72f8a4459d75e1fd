import { FileSystem, Path } from "@effect/platform"
import { NodeContext } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import * as OpenApi from "../common/src/contract/OpenApi.js"

/** The operation table of the contract (catalog-api.md), written out independently of Operations.ts. */
/** access: a scope, "any key" (stats, usage) or "by type" (search). */
const contract: ReadonlyArray<readonly [id: string, path: string, access: string, kind: "list" | "detail"]> = [
  ["models", "/models/", "models:read", "list"],
  ["model", "/models/{organization}/{model}/", "models:read", "detail"],
  ["modelOffers", "/models/{organization}/{model}/offers/", "models:read", "list"],
  ["modelBenchmarks", "/models/{organization}/{model}/benchmarks/", "models:read", "list"],
  ["modelPerformance", "/models/{organization}/{model}/performance/", "models:read", "list"],
  ["modelActivity", "/models/{organization}/{model}/activity/", "models:read", "list"],
  ["modelApplications", "/models/{organization}/{model}/applications/", "models:read", "list"],
  ["offer", "/offers/{id}/", "models:read", "detail"],
  ["families", "/families/", "families:read", "list"],
  ["family", "/families/{id}/", "families:read", "detail"],
  ["familyModels", "/families/{id}/models/", "models:read", "list"],
  ["providers", "/providers/", "providers:read", "list"],
  ["provider", "/providers/{id}/", "providers:read", "detail"],
  ["providerModels", "/providers/{id}/models/", "models:read", "list"],
  ["providerOffers", "/providers/{id}/offers/", "models:read", "list"],
  ["organizations", "/organizations/", "organizations:read", "list"],
  ["organization", "/organizations/{slug}/", "organizations:read", "detail"],
  ["organizationModels", "/organizations/{slug}/models/", "models:read", "list"],
  ["organizationResources", "/organizations/{slug}/resources/", "organizations:read", "list"],
  ["organizationResource", "/organizations/{slug}/resources/{id}/", "organizations:read", "detail"],
  ["skills", "/skills/", "skills:read", "list"],
  ["skill", "/skills/{sourceType}/{owner}/{repository}/{skill}/", "skills:read", "detail"],
  ["skillAudits", "/skills/{sourceType}/{owner}/{repository}/{skill}/audits/", "skills:read", "detail"],
  ["skillDocument", "/skills/{sourceType}/{owner}/{repository}/{skill}/document/", "skill_content:read", "detail"],
  ["publishers", "/publishers/", "skills:read", "list"],
  ["mcps", "/mcps/", "mcps:read", "list"],
  ["mcp", "/mcps/{namespace}/{name}/", "mcps:read", "detail"],
  ["mcpConnection", "/mcps/{namespace}/{name}/connection/", "mcps:read", "detail"],
  ["topics", "/topics/", "topics:read", "list"],
  ["topicSkills", "/topics/{slug}/skills/", "skills:read", "list"],
  ["articles", "/articles/", "articles:read", "list"],
  ["article", "/articles/{slug}/", "articles:read", "detail"],
  ["search", "/search/", "by type", "list"],
  ["stats", "/stats/", "any key", "detail"],
  ["usage", "/usage/", "any key", "detail"]
]

const fiveUnits = ["search", "skillDocument", "mcpConnection", "modelBenchmarks", "modelActivity", "modelApplications"]
const readScopes = ["models:read", "skills:read", "mcps:read", "organizations:read", "providers:read", "families:read"]

const doc = OpenApi.make()

const operationAt = (path: string): OpenApi.OperationObject => {
  const operation = doc.paths[path]?.get
  if (operation === undefined) {
    throw new Error(`no GET operation at ${path}`)
  }
  return operation
}

const parameter = (path: string, name: string) => operationAt(path).parameters.find((p) => p.name === name)

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Every value of a JSON tree, depth first. */
const walk = function*(value: unknown): Generator<unknown> {
  yield value
  if (Array.isArray(value)) {
    for (const item of value) yield* walk(item)
  } else if (isRecord(value)) {
    for (const item of Object.values(value)) yield* walk(item)
  }
}

const schemas: Readonly<Record<string, unknown>> = doc.components.schemas

/** Follows `$ref`s into components.schemas. */
const resolve = (schema: unknown): unknown => {
  if (isRecord(schema) && typeof schema.$ref === "string") {
    return resolve(schemas[schema.$ref.replace("#/components/schemas/", "")])
  }
  return schema
}

const repoRoot = fileURLToPath(new URL("..", import.meta.url))

describe("OpenApi", () => {
  it.effect("describes an OpenAPI 3.1 document of version 1.0.0", () =>
    Effect.sync(() => {
      expect(doc.openapi).toBe("3.1.0")
      expect(doc.info.title).toBe("Catalog Service")
      expect(doc.info.version).toBe("1.0.0")
      expect(doc.servers[0]?.url).toBe("{base_url}")
      expect(doc.servers[0]?.variables["base_url"]?.default).toBe("https://catalog.example/api/v1")
      expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" })
    }))

  it.effect("has the 35 operations of the contract table, each a GET at its path", () =>
    Effect.sync(() => {
      expect(Object.keys(doc.paths)).toEqual(contract.map(([, path]) => path))
      expect(Object.values(doc.paths).map((item) => item.get.operationId)).toEqual(contract.map(([id]) => id))
      for (const item of Object.values(doc.paths)) {
        expect(Object.keys(item)).toEqual(["get"])
        expect(item.get.summary.length).toBeGreaterThan(0)
      }
    }))

  it.effect("declares every path parameter, required, 1 to 200 characters", () =>
    Effect.sync(() => {
      for (const [, path] of contract) {
        const names = Array.from(path.matchAll(/\{([^}]+)\}/g), (match) => match[1])
        const declared = operationAt(path).parameters.filter((p) => p.in === "path")
        expect(declared.map((p) => p.name)).toEqual(names)
        for (const p of declared) {
          expect(p.required).toBe(true)
          expect(p.schema).toMatchObject({ type: "string", minLength: 1, maxLength: 200 })
        }
      }
    }))

  it.effect("bounds limit by 100 (25 for search) and cursor by 1600 characters on lists only", () =>
    Effect.sync(() => {
      for (const [id, path, , kind] of contract) {
        const limit = parameter(path, "limit")
        const cursor = parameter(path, "cursor")
        if (kind === "detail") {
          expect(limit, id).toBeUndefined()
          expect(cursor, id).toBeUndefined()
          continue
        }
        expect(limit?.required, id).toBe(false)
        expect(limit?.schema, id).toMatchObject({
          type: "integer",
          minimum: 1,
          maximum: id === "search" ? 25 : 100,
          default: 25
        })
        expect(cursor?.required, id).toBe(false)
        expect(cursor?.schema, id).toMatchObject({ type: "string", maxLength: 1600 })
      }
    }))

  it.effect("describes filters on their wire form", () =>
    Effect.sync(() => {
      const filters = operationAt("/models/").parameters.filter((p) => p.in === "query").map((p) => p.name)
      expect(filters).toEqual(["q", "family", "provider", "organization", "reasoning", "open_weights", "limit", "cursor"])
      expect(parameter("/models/", "family")?.schema).toMatchObject({ type: "string", maxLength: 160 })
      // An open list: the known statuses for editors and generators, and any other string of a filter's length.
      expect(parameter("/mcps/", "status")?.schema).toMatchObject({
        anyOf: [{ type: "string", minLength: 1, maxLength: 160 }, { type: "string", enum: ["active", "deprecated"] }]
      })
      const booleans: ReadonlyArray<readonly [string, string]> = [
        ["/models/", "reasoning"],
        ["/models/", "open_weights"],
        ["/skills/", "official"]
      ]
      for (const [path, name] of booleans) {
        expect(parameter(path, name)?.schema).toEqual({ type: "string", enum: ["true", "false"] })
      }
      expect(parameter("/organizations/", "kind")?.schema).toMatchObject({
        type: "string",
        enum: ["company", "university", "classroom", "nonprofit", "government", "community"]
      })
      const q = parameter("/search/", "q")
      const type = parameter("/search/", "type")
      expect(q?.required).toBe(true)
      expect(q?.schema).toMatchObject({ type: "string", minLength: 2, maxLength: 120 })
      expect(type?.required).toBe(true)
      expect(type?.schema).toMatchObject({ type: "string", enum: readScopes.map((scope) => scope.split(":")[0]) })
      expect(parameter("/families/", "q")?.required).toBe(false)
      expect(parameter("/publishers/", "q")).toBeUndefined()
      for (const [, path] of contract) {
        expect(parameter(path, "If-None-Match")).toMatchObject({ in: "header", required: false })
      }
    }))

  it.effect("describes each parameter from its field: filters, page fields and the path parameters that need it", () =>
    Effect.sync(() => {
      expect(parameter("/models/", "family")?.description).toBe("Narrow by family")
      expect(parameter("/models/", "reasoning")?.description).toBe("Boolean filter: exactly `true` or `false`")
      expect(parameter("/search/", "type")?.description).toMatch(/read scope/)
      expect(parameter("/models/", "limit")?.description).toBe("Page size, 1 to 100; 25 when absent")
      expect(parameter("/search/", "limit")?.description).toBe("Page size, 1 to 25; 25 when absent")
      expect(parameter("/models/", "cursor")?.description).toMatch(/one hour/)
      const skill = "/skills/{sourceType}/{owner}/{repository}/{skill}/"
      expect(parameter(skill, "sourceType")?.description).toMatch(/`github` or `well-known`/)
      expect(parameter(skill, "repository")?.description).toMatch(/literal `_`/)
      // A path parameter is not the query filter of the same name.
      expect(parameter("/models/{organization}/{model}/", "organization")?.description).toBeUndefined()
      expect(parameter("/mcps/{namespace}/{name}/", "namespace")?.description).toBeUndefined()
    }))

  it.effect("costs 5 units for the heavy operations, 0 for usage, 1 otherwise", () =>
    Effect.sync(() => {
      for (const [id, path] of contract) {
        const expected = fiveUnits.includes(id) ? 5 : id === "usage" ? 0 : 1
        expect(operationAt(path)["x-units"], id).toBe(expected)
      }
    }))

  it.effect("requires the scope of each operation", () =>
    Effect.sync(() => {
      for (const [id, path, access] of contract) {
        const security = operationAt(path).security
        if (access === "any key") {
          expect(security, id).toEqual([{ bearerAuth: [] }])
        } else if (access === "by type") {
          expect(security.flatMap((requirement) => requirement["bearerAuth"] ?? [])).toEqual(readScopes)
          expect(operationAt(path).description).toMatch(/depends on `type`/)
        } else {
          expect(security, id).toEqual([{ bearerAuth: [access] }])
        }
      }
    }))

  it.effect("answers 409 on lists only, and the other statuses everywhere", () =>
    Effect.sync(() => {
      for (const [id, path, , kind] of contract) {
        const responses = operationAt(path).responses
        const expected = ["200", "304", "400", "401", "403", "404", ...(kind === "list" ? ["409"] : []), "422", "429", "503"]
        expect(Object.keys(responses), id).toEqual(expected)
        expect(Object.keys(responses["200"]?.headers ?? {})).toEqual(["ETag", "X-Request-Id"])
        expect(responses["304"]?.content).toBeUndefined()
        expect(Object.keys(responses["200"]?.content ?? {})).toEqual(["application/json"])
        for (const status of expected.filter((s) => Number(s) >= 400)) {
          expect(responses[status]?.content?.["application/problem+json"]?.schema, `${id} ${status}`).toEqual({
            $ref: "#/components/schemas/Problem"
          })
        }
        expect(responses["429"]?.headers?.["Retry-After"]).toBeDefined()
        expect(responses["503"]?.headers?.["Retry-After"]).toBeDefined()
      }
      expect(resolve({ $ref: "#/components/schemas/Problem" })).toMatchObject({
        required: ["type", "title", "status", "code", "detail", "request_id"]
      })
    }))

  it.effect("wraps items in the list and detail envelopes", () =>
    Effect.sync(() => {
      const page = operationAt("/models/").responses["200"]?.content?.["application/json"]?.schema
      expect(page).toMatchObject({
        type: "object",
        required: ["data", "pagination", "links", "meta"],
        properties: { data: { type: "array", items: { $ref: "#/components/schemas/Model" } } }
      })
      const one = operationAt("/models/{organization}/{model}/").responses["200"]?.content?.["application/json"]?.schema
      expect(one).toMatchObject({ required: ["data"], properties: { data: { $ref: "#/components/schemas/Model" } } })
    }))

  it.effect("survives a JSON round trip unchanged", () =>
    Effect.sync(() => {
      expect(JSON.parse(JSON.stringify(doc))).toStrictEqual(doc)
    }))

  it.effect("resolves every $ref to an entry of components.schemas", () =>
    Effect.sync(() => {
      const refs = Array.from(walk(doc)).flatMap((node) =>
        isRecord(node) && typeof node.$ref === "string" ? [node.$ref] : []
      )
      expect(refs.length).toBeGreaterThan(0)
      for (const ref of refs) {
        expect(ref.startsWith("#/components/schemas/"), ref).toBe(true)
        expect(Object.keys(schemas), ref).toContain(ref.slice("#/components/schemas/".length))
      }
    }))

  it.effect("describes exact integers on the wire: context_tokens is a string with a pattern", () =>
    Effect.sync(() => {
      const model = resolve({ $ref: "#/components/schemas/Model" })
      const property = isRecord(model) && isRecord(model.properties) ? model.properties.context_tokens : undefined
      const branches = isRecord(property) && Array.isArray(property.anyOf) ? property.anyOf.map(resolve) : []
      expect(branches).toContainEqual({ type: "null" })
      const wire = branches.find((branch) => isRecord(branch) && branch.type === "string")
      expect(wire).toMatchObject({ type: "string", pattern: expect.any(String) })
      const pattern = isRecord(wire) && typeof wire.pattern === "string" ? new RegExp(wire.pattern) : /(?!)/
      expect(pattern.test("9007199254740993")).toBe(true)
      expect(pattern.test("12.5")).toBe(false)
    }))
})

describe("npm run openapi", () => {
  const run = (...args: ReadonlyArray<string>) =>
    Effect.tryPromise(() =>
      promisify(execFile)(process.execPath, ["--import", "tsx", "src/contract/bin/openapi.ts", ...args], {
        cwd: repoRoot,
        maxBuffer: 16 * 1024 * 1024
      })
    )

  it.scoped("writes the document to the given path and reports on stderr", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const path = yield* Path.Path
      const directory = yield* fs.makeTempDirectoryScoped()
      const target = path.join(directory, "openapi.json")
      const { stderr } = yield* run(target)
      const written: unknown = JSON.parse(yield* fs.readFileString(target))
      expect(written).toStrictEqual(JSON.parse(JSON.stringify(doc)))
      expect(stderr.trim().split("\n")).toHaveLength(1)
      expect(stderr).toContain(target)
      expect(stderr).toContain("35 operations")
    }).pipe(Effect.provide(NodeContext.layer)))

  it.effect("writes the document to stdout for -", () =>
    Effect.gen(function*() {
      const { stdout, stderr } = yield* run("-")
      expect(JSON.parse(stdout)).toStrictEqual(JSON.parse(JSON.stringify(doc)))
      expect(stderr).toContain("35 operations")
    }))
})
