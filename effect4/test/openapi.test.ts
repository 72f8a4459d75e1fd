/**
 * The OpenAPI document of the Effect 4 edition: a valid OpenAPI 3.1
 * document (its structure decoded with a schema of the parts of OpenAPI 3.1
 * it uses, its path templates, operation ids, security schemes and `$ref`s
 * checked), the same as the Effect 3 edition's (which a child process
 * writes with `npm run openapi`'s program under the root's tsx) in its
 * paths, operations, parameters, security and responses, and whose schemas
 * accept what the simulator answers to every operation.
 *
 * The JSON Schemas are compared by what they accept, with a small JSON
 * Schema 2020-12 validator below that knows every keyword of both documents
 * and refuses any other. Schema 4 writes some schemas in another form than
 * Effect 3 with the same meaning: no `title`/`description` of its own for a
 * check (Effect 3's `"title": "maxLength(160)"`), `Int` inline as an integer
 * rather than a component of its own, an optional nullable member as
 * `anyOf` with `null` twice, an object without `"required": []`, the keys of
 * an object schema in another order. Where the meaning differs, the
 * difference is named by a rule and asserted below (`ruleOf`): a rule of the
 * contract's decoders that Schema 4 writes and Effect 3 did not, the JSON
 * form Schema 4 gives an optional member, or how it bounds a string's length
 * in code points.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { isDeepStrictEqual, promisify } from "node:util"
import { Context, Effect, Layer, Redacted, Result, Schema } from "effect"
import { FetchHttpClient, HttpClient } from "effect/http"
import { Simulator } from "effect-catalog/simulator"
import * as OpenApi from "../../common/src/contract/OpenApi.js"
import * as Operations from "../../common/src/contract/Operations.js"

/** The repository root, home of the Effect 3 edition. */
const root = new URL("../../", import.meta.url)
/** Node's flags that run the Effect 3 edition's TypeScript as it is. */
const withTsx = ["--import", new URL("node_modules/tsx/dist/loader.mjs", root).href]

// ---------------------------------------------------------------------------
// OpenAPI 3.1, the parts the documents use
// ---------------------------------------------------------------------------

const JsonSchemaObject = Schema.Record(Schema.String, Schema.Unknown)

const Parameter = Schema.Struct({
  name: Schema.String,
  in: Schema.Literals(["path", "query", "header", "cookie"]),
  required: Schema.Boolean,
  description: Schema.optionalKey(Schema.String),
  schema: JsonSchemaObject
})

const Header = Schema.Struct({ description: Schema.String, schema: JsonSchemaObject })

const Response = Schema.Struct({
  description: Schema.String,
  headers: Schema.optionalKey(Schema.Record(Schema.String, Header)),
  content: Schema.optionalKey(Schema.Record(Schema.String, Schema.Struct({ schema: JsonSchemaObject })))
})

const Operation = Schema.Struct({
  operationId: Schema.String,
  summary: Schema.String,
  description: Schema.optionalKey(Schema.String),
  tags: Schema.Array(Schema.String),
  parameters: Schema.Array(Parameter),
  security: Schema.Array(Schema.Record(Schema.String, Schema.Array(Schema.String))),
  responses: Schema.Record(Schema.String.check(Schema.isPattern(/^[1-5]\d\d$/u)), Response),
  "x-units": Schema.Literals([0, 1, 5]),
  "x-scopes-by-type": Schema.optionalKey(Schema.Record(Schema.String, Schema.String))
})

/** An OpenAPI 3.1 document with GET operations, JSON Schemas in its components and HTTP security schemes. */
const Document = Schema.Struct({
  openapi: Schema.String.check(Schema.isPattern(/^3\.1\.\d+$/u)),
  info: Schema.Struct({
    title: Schema.String,
    version: Schema.String,
    summary: Schema.optionalKey(Schema.String),
    description: Schema.optionalKey(Schema.String)
  }),
  servers: Schema.Array(Schema.Struct({
    url: Schema.String,
    description: Schema.String,
    variables: Schema.Record(Schema.String, Schema.Struct({ default: Schema.String, description: Schema.String }))
  })),
  tags: Schema.Array(Schema.Struct({ name: Schema.String })),
  paths: Schema.Record(Schema.String.check(Schema.isStartingWith("/")), Schema.Struct({ get: Operation })),
  components: Schema.Struct({
    schemas: Schema.Record(Schema.String, JsonSchemaObject),
    securitySchemes: Schema.Record(
      Schema.String,
      Schema.Struct({ type: Schema.Literal("http"), scheme: Schema.String, description: Schema.String })
    )
  })
})
type Document = typeof Document.Type

/** Decodes a document, refusing any member OpenAPI 3.1 does not have where the schema above lists them all. */
const decodeDocument = Schema.decodeUnknownSync(Document, { onExcessProperty: "error" })

// ---------------------------------------------------------------------------
// JSON Schema 2020-12, the keywords the documents use
// ---------------------------------------------------------------------------

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

/** The JSON types of a value (an integer is also a number). */
const typesOf = (value: unknown): ReadonlyArray<string> =>
  value === null
    ? ["null"]
    : Array.isArray(value)
    ? ["array"]
    : typeof value === "number"
    ? Number.isInteger(value) ? ["integer", "number"] : ["number"]
    : [typeof value]

/** Checks a value against one schema; failures as `path: reason`. */
type Check = (schema: unknown, value: unknown, at: string) => ReadonlyArray<string>

const numberOf = (argument: unknown): number => {
  if (typeof argument !== "number") throw new Error(`a bound must be a number, not ${JSON.stringify(argument)}`)
  return argument
}

const failIf = (failed: boolean, at: string, reason: string): ReadonlyArray<string> => failed ? [`${at}: ${reason}`] : []

/** What the keywords of the documents require of a value; `$ref` is followed by {@link validator}. */
const keywords: Readonly<
  Record<string, (argument: unknown, value: unknown, at: string, check: Check, schema: Readonly<Record<string, unknown>>) => ReadonlyArray<string>>
> = {
  type: (type, value, at) => failIf(!typesOf(value).includes(String(type)), at, `not ${String(type)}`),
  enum: (list, value, at) => failIf(!(Array.isArray(list) && list.some((item) => isDeepStrictEqual(item, value))), at, "not in enum"),
  pattern: (pattern, value, at) => failIf(typeof value === "string" && !new RegExp(String(pattern), "u").test(value), at, `not ${String(pattern)}`),
  minLength: (n, value, at) => failIf(typeof value === "string" && [...value].length < numberOf(n), at, `shorter than ${String(n)}`),
  maxLength: (n, value, at) => failIf(typeof value === "string" && [...value].length > numberOf(n), at, `longer than ${String(n)}`),
  minimum: (n, value, at) => failIf(typeof value === "number" && value < numberOf(n), at, `below ${String(n)}`),
  maximum: (n, value, at) => failIf(typeof value === "number" && value > numberOf(n), at, `above ${String(n)}`),
  required: (names, value, at) =>
    isRecord(value) && Array.isArray(names) ? names.flatMap((name) => failIf(!Object.hasOwn(value, String(name)), at, `no ${String(name)}`)) : [],
  properties: (properties, value, at, check) =>
    isRecord(value) && isRecord(properties)
      ? Object.entries(properties).flatMap(([name, schema]) => Object.hasOwn(value, name) ? check(schema, value[name], `${at}.${name}`) : [])
      : [],
  additionalProperties: (extra, value, at, check, schema) =>
    isRecord(value)
      ? Object.keys(value)
        .filter((name) => !(isRecord(schema.properties) && Object.hasOwn(schema.properties, name)))
        .flatMap((name) => check(extra, value[name], `${at}.${name}`))
      : [],
  items: (items, value, at, check) => Array.isArray(value) ? value.flatMap((item, index) => check(items, item, `${at}[${index}]`)) : [],
  anyOf: (branches, value, at, check) =>
    failIf(!(Array.isArray(branches) && branches.some((branch) => check(branch, value, at).length === 0)), at, "no branch of anyOf")
}

/** Keywords that only describe: `title`, `description`, `default`. */
const annotations = new Set(["title", "description", "default"])

/**
 * A validator over the components of a document: `errors(schema, value)`
 * lists where `value` fails `schema` (none when it is accepted); `visited`
 * holds the components a `$ref` led to. An unknown keyword is an error of
 * the test, not a pass.
 */
const validator = (components: Readonly<Record<string, unknown>>) => {
  const visited = new Set<string>()
  const errors: Check = (schema, value, at) => {
    if (schema === true) return []
    if (schema === false) return [`${at}: nothing is accepted`]
    if (!isRecord(schema)) throw new Error(`not a schema at ${at}: ${JSON.stringify(schema)}`)
    return Object.entries(schema).flatMap(([keyword, argument]) => {
      if (annotations.has(keyword)) return []
      if (keyword === "$ref") {
        const name = String(argument).replace("#/components/schemas/", "")
        if (!Object.hasOwn(components, name)) throw new Error(`${at}: no component ${name}`)
        visited.add(name)
        return errors(components[name], value, at)
      }
      const rule = keywords[keyword]
      if (rule === undefined) throw new Error(`${at}: the keyword ${keyword} is not known to this validator`)
      return rule(argument, value, at, errors, schema)
    })
  }
  return { errors: (schema: unknown, value: unknown) => errors(schema, value, "$"), visited }
}

/** Whether a schema of a document accepts a value. */
const accepts = (document: Document) => {
  const { errors } = validator(document.components.schemas)
  return (schema: unknown, value: unknown) => errors(schema, value).length === 0
}

// ---------------------------------------------------------------------------
// The two documents
// ---------------------------------------------------------------------------

const effect4 = decodeDocument(OpenApi.make())

/** The Effect 3 edition's document, as `npm run openapi -` writes it. */
class Effect3 extends Context.Service<Effect3, Document>()("effect-catalog/test/openapi/Effect3") {
  static readonly layer = Layer.effect(
    Effect3,
    Effect.tryPromise(() =>
      promisify(execFile)(process.execPath, [...withTsx, "src/contract/bin/openapi.ts", "-"], {
        cwd: fileURLToPath(root),
        maxBuffer: 16 * 1024 * 1024
      })
    ).pipe(
      Effect.map(({ stdout }): unknown => JSON.parse(stdout)),
      Effect.map(decodeDocument),
      Effect.orDie
    )
  )
}

const operationsOf = (document: Document) => Object.values(document.paths).map((item) => item.get)

/** An operation without the JSON Schemas of its parameters, which are compared by what they accept. */
const withoutParameterSchemas = ({ parameters, ...operation }: Document["paths"][string]["get"]) => ({
  ...operation,
  parameters: parameters.map(({ schema: _schema, ...parameter }) => parameter)
})

// ---------------------------------------------------------------------------
// What the simulator answers to every operation
// ---------------------------------------------------------------------------

/** An answer of the simulator: the operation asked, its status and its JSON body. */
interface Answer {
  readonly operationId: string
  readonly path: string
  readonly status: number
  readonly body: unknown
}

/** The first item of a page, or the resource of a detail; `{}` when there is none. */
const firstOf = (body: unknown): Readonly<Record<string, unknown>> => {
  const data = isRecord(body) ? body.data : undefined
  const first: unknown = Array.isArray(data) ? data[0] : data
  return isRecord(first) ? first : {}
}

/** A text member of an item. */
const text = (item: Readonly<Record<string, unknown>>, name: string): string => String(item[name])

/** Reads every operation once with the full key (the first item of each list leads on), then three failures (404, 400, 401). */
const answers = Effect.gen(function*() {
  const simulator = yield* Simulator.Simulator
  const client = yield* HttpClient.HttpClient
  const answers: Array<Answer> = []
  const get = Effect.fnUntraced(function*(operationId: string, path: string, key: Simulator.KeyName = "full") {
    const response = yield* client.get(`${simulator.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${Redacted.value(simulator.keys[key])}` }
    })
    const body: unknown = yield* response.json
    answers.push({ operationId, path, status: response.status, body })
    return firstOf(body)
  })
  const model = yield* get("models", "/models/")
  const m = `/models/${text(model, "id")}/`
  yield* get("model", m)
  const offer = yield* get("modelOffers", `${m}offers/`)
  for (const list of ["benchmarks", "performance", "activity", "applications"]) {
    yield* get(`model${list[0]?.toUpperCase()}${list.slice(1)}`, `${m}${list}/`)
  }
  yield* get("offer", `/offers/${text(offer, "id")}/`)
  const family = yield* get("families", "/families/")
  yield* get("family", `/families/${text(family, "id")}/`)
  yield* get("familyModels", `/families/${text(family, "id")}/models/`)
  const provider = yield* get("providers", "/providers/")
  yield* get("provider", `/providers/${text(provider, "id")}/`)
  yield* get("providerModels", `/providers/${text(provider, "id")}/models/`)
  yield* get("providerOffers", `/providers/${text(provider, "id")}/offers/`)
  const organization = `/organizations/${text(yield* get("organizations", "/organizations/"), "slug")}/`
  yield* get("organization", organization)
  yield* get("organizationModels", `${organization}models/`)
  const resource = yield* get("organizationResources", `${organization}resources/`)
  yield* get("organizationResource", `${organization}resources/${text(resource, "id")}/`)
  const skill = Operations.skill.key?.parse(text(yield* get("skills", "/skills/"), "id"))
  const parameters = skill !== undefined && Result.isSuccess(skill) ? skill.success : undefined
  const s = `/skills/${Operations.skill.pathParameters.map((name) => parameters?.[name] ?? "-").join("/")}/`
  yield* get("skill", s)
  yield* get("skillAudits", `${s}audits/`)
  yield* get("skillDocument", `${s}document/`)
  yield* get("publishers", "/publishers/")
  const mcp = `/mcps/${text(yield* get("mcps", "/mcps/"), "id")}/`
  yield* get("mcp", mcp)
  yield* get("mcpConnection", `${mcp}connection/`)
  yield* get("topicSkills", `/topics/${text(yield* get("topics", "/topics/"), "id")}/skills/`)
  yield* get("article", `/articles/${text(yield* get("articles", "/articles/"), "slug")}/`)
  yield* get("search", `/search/?q=${encodeURIComponent(text(model, "name").split(" ")[0] ?? "")}&type=models`)
  yield* get("stats", "/stats/")
  yield* get("usage", "/usage/")
  yield* get("model", "/models/nobody/nothing/")
  yield* get("models", "/models/?limit=0")
  yield* get("models", "/models/", "revoked")
  return answers
}).pipe(Effect.provide(FetchHttpClient.layer))

/** The simulator's answers, read once for the tests that need them. */
class Answers extends Context.Service<Answers, ReadonlyArray<Answer>>()("effect-catalog/test/openapi/Answers") {
  static readonly layer = Layer.effect(Answers, Effect.orDie(answers)).pipe(
    Layer.provide(Layer.orDie(Simulator.layer({ sizes: { models: 20 }, enforceLimits: false })))
  )
}

/** The schema a document gives the body of an answer: its operation's response of that status. */
const bodySchemaOf = (document: Document, answer: Answer): unknown => {
  const operation = operationsOf(document).find(({ operationId }) => operationId === answer.operationId)
  return Object.values(operation?.responses[String(answer.status)]?.content ?? {})[0]?.schema
}

// ---------------------------------------------------------------------------
// What the schemas of both documents accept: samples and their variations
// ---------------------------------------------------------------------------

/** Values put in place of a member of a resource. */
const memberProbes: ReadonlyArray<unknown> = [
  null, true, 0, 3, -1, 1.5, 2 ** 53, "", "x", "12.5", "-3", "2024-02-30", "2024-1-1", {}, { a: 1 }, [], [1]
]

/** Values of a parameter: around every bound of the contract, the literal lists, and a character outside the BMP. */
const parameterProbes: ReadonlyArray<unknown> = [
  ...[0, 1, 2, 119, 120, 121, 159, 160, 161, 199, 200, 201, 1599, 1600, 1601].map((length) => "x".repeat(length)),
  "\u{1F600}", "true", "false", "TRUE", "university", "startup", "models", "articles", "github",
  0, 1, 25, 26, 100, 101, 1.5
]

/** A value of a member whose meaning differs between the documents, and the rule that explains it. */
interface Difference {
  readonly where: string
  readonly probe: unknown
  readonly effect3: boolean
  readonly effect4: boolean
}

/**
 * The differences in meaning Schema 4 makes, by rule. Each is looser or
 * stricter than Effect 3's JSON Schema in the direction of the decoders:
 *
 * - `safe integer`: Schema 4 bounds an `Int` to the safe integers, which
 *   Effect 3's `Schema.Int` also requires when it decodes but its JSON
 *   Schema does not say.
 * - `calendar date`: Schema 4 writes the `YYYY-MM-DD` pattern of
 *   `CalendarDateFromString`, which Effect 3's decoder also checks.
 * - `optional null`: Schema 4's JSON form of `Schema.optional` (its JSON
 *   codec decodes `null` to `undefined`) accepts `null` where Effect 3's
 *   JSON Schema only lets the member be absent.
 * - `code points`: JSON Schema counts a string's length in code points,
 *   Effect in UTF-16 code units; Schema 4 writes `isMinLength(2)` as
 *   `minLength: 1` (one code point outside the BMP is two code units), so a
 *   one-character `q` is refused by the client and not by the document.
 */
const ruleOf = (difference: Difference, effect3Schema: unknown, effect4Schema: unknown, optional: boolean): string | undefined => {
  const { effect3, effect4, probe } = difference
  const refs = JSON.stringify(effect3Schema)
  if (probe === 2 ** 53 && effect3 && !effect4 && refs.includes("/Int\"")) return "safe integer"
  if (typeof probe === "string" && effect3 && !effect4 && refs.includes("/CalendarDateFromString\"")) return "calendar date"
  if (probe === null && optional && !effect3 && effect4 && !refs.includes("null")) return "optional null"
  if (
    typeof probe === "string" && !effect3 && effect4 && isRecord(effect3Schema) && isRecord(effect4Schema) &&
    [...probe].length < numberOf(effect3Schema.minLength) && [...probe].length >= numberOf(effect4Schema.minLength)
  ) return "code points"
  return undefined
}

/** The component a 200 body holds in `data` (alone or as the items of a page), if it names one. */
const componentOf = (body: unknown): string | undefined => {
  const data = isRecord(body) && isRecord(body.properties) ? body.properties.data : undefined
  const item = isRecord(data) && isRecord(data.items) ? data.items : data
  return isRecord(item) && typeof item.$ref === "string" ? item.$ref.replace("#/components/schemas/", "") : undefined
}

/** Each resource the simulator answered with (two of each component at most), with its component. */
const samplesOf = (document: Document, answers: ReadonlyArray<Answer>) => {
  const samples = answers.flatMap((answer) => {
    const component = componentOf(bodySchemaOf(document, answer))
    const data = isRecord(answer.body) ? answer.body.data : undefined
    const items = Array.isArray(data) ? data.slice(0, 2) : [data]
    return component === undefined ? [] : items.filter(isRecord).map((item) => ({ component, item }))
  })
  const taken = new Map<string, number>()
  return samples.filter(({ component }) => {
    const count = taken.get(component) ?? 0
    taken.set(component, count + 1)
    return count < 3
  })
}

/** Where the documents' schemas of the members of `samples` accept differently the probes put in their place. */
const memberDifferences = (effect3: Document, samples: ReturnType<typeof samplesOf>) => {
  const accepts3 = accepts(effect3)
  const accepts4 = accepts(effect4)
  return samples.flatMap(({ component, item }) => {
    const schema3 = effect3.components.schemas[component]
    const schema4 = effect4.components.schemas[component]
    const members = isRecord(schema3?.properties) ? schema3.properties : {}
    const required: ReadonlyArray<unknown> = Array.isArray(schema3?.required) ? schema3.required : []
    return Object.keys(members).flatMap((member) =>
      memberProbes.flatMap((probe) => {
        const variant = { ...item, [member]: probe }
        const difference = { where: `${component}.${member}`, probe, effect3: accepts3(schema3, variant), effect4: accepts4(schema4, variant) }
        const properties4 = isRecord(schema4?.properties) ? schema4.properties : {}
        return difference.effect3 === difference.effect4 ? [] : [{ ...difference, rule: ruleOf(difference, members[member], properties4[member], !required.includes(member)) }]
      })
    )
  })
}

/** Where the documents' schemas of the parameters accept differently the probes. */
const parameterDifferences = (effect3: Document) => {
  const accepts3 = accepts(effect3)
  const accepts4 = accepts(effect4)
  return operationsOf(effect3).flatMap((operation) => {
    const mine = operationsOf(effect4).find(({ operationId }) => operationId === operation.operationId)
    return operation.parameters.flatMap((parameter, index) => {
      const schema4 = mine?.parameters[index]?.schema
      return parameterProbes.flatMap((probe) => {
        const difference = {
          where: `${operation.operationId} ${parameter.name}`,
          probe,
          effect3: accepts3(parameter.schema, probe),
          effect4: accepts4(schema4, probe)
        }
        return difference.effect3 === difference.effect4 ? [] : [{ ...difference, rule: ruleOf(difference, parameter.schema, schema4, false) }]
      })
    })
  })
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

describe("the Effect 4 edition's OpenAPI document", () => {
  it("is an OpenAPI 3.1 document: every path template declared, operation ids unique, schemes and $refs resolved", () => {
    expect(effect4.openapi).toBe("3.1.0")
    const operations = operationsOf(effect4)
    expect(operations).toHaveLength(Operations.all.length)
    expect(new Set(operations.map((operation) => operation.operationId)).size).toBe(operations.length)
    for (const [path, { get }] of Object.entries(effect4.paths)) {
      const names = Array.from(path.matchAll(/\{([^}]+)\}/gu), (match) => match[1])
      const declared = get.parameters.filter((parameter) => parameter.in === "path")
      expect(declared.map((parameter) => parameter.name), path).toEqual(names)
      expect(declared.every((parameter) => parameter.required), path).toBe(true)
      const places = get.parameters.map((parameter) => `${parameter.in} ${parameter.name}`)
      expect(new Set(places).size, path).toBe(places.length)
      for (const requirement of get.security) {
        expect(Object.keys(requirement).every((scheme) => scheme in effect4.components.securitySchemes), path).toBe(true)
      }
    }
    const refs = Array.from(walk(effect4)).flatMap((node) => isRecord(node) && typeof node.$ref === "string" ? [node.$ref] : [])
    expect(refs.length).toBeGreaterThan(0)
    for (const ref of refs) {
      expect(ref, ref).toMatch(/^#\/components\/schemas\//u)
      expect(effect4.components.schemas, ref).toHaveProperty([ref.replace("#/components/schemas/", "")])
    }
  })

  it("is plain JSON, and every JSON Schema in it uses only the keywords this test's validator knows", () => {
    expect(JSON.parse(JSON.stringify(OpenApi.make()))).toStrictEqual(OpenApi.make())
    const { errors } = validator(effect4.components.schemas)
    const schemas = [
      ...Object.values(effect4.components.schemas),
      ...operationsOf(effect4).flatMap((operation) => [
        ...operation.parameters.map((parameter) => parameter.schema),
        ...Object.values(operation.responses).flatMap((response) => [
          ...Object.values(response.headers ?? {}).map((header) => header.schema),
          ...Object.values(response.content ?? {}).map((content) => content.schema)
        ])
      ])
    ]
    // Each schema is checked against a value of every JSON type: an unknown keyword throws.
    for (const schema of schemas) {
      for (const value of [null, true, 1, 1.5, "x", [], {}]) errors(schema, value)
    }
  })

  it("gives the Effect 3 edition's public names", () => {
    expect(Object.keys(OpenApi).sort()).toEqual(["defaultServerUrl", "make"])
    expect(OpenApi.defaultServerUrl).toBe("https://catalog.example/api/v1")
  })
})

layer(Effect3.layer, { timeout: 60_000 })("the document, against the Effect 3 edition's", (it) => {
  it.effect("has the same info, servers, tags and security scheme", () =>
    Effect.gen(function*() {
      const effect3 = yield* Effect3
      expect(effect4.info).toEqual(effect3.info)
      expect(effect4.servers).toEqual(effect3.servers)
      expect(effect4.tags).toEqual(effect3.tags)
      expect(effect4.components.securitySchemes).toEqual(effect3.components.securitySchemes)
    }))

  it.effect("has the same paths and operations: ids, summaries, scopes, units, parameters' places and descriptions, responses", () =>
    Effect.gen(function*() {
      const effect3 = yield* Effect3
      expect(Object.keys(effect4.paths)).toEqual(Object.keys(effect3.paths))
      expect(operationsOf(effect4).map(withoutParameterSchemas)).toEqual(operationsOf(effect3).map(withoutParameterSchemas))
    }))

  it.effect("has the same response bodies (the envelopes, their $refs and the problem), in the same form", () =>
    Effect.gen(function*() {
      const effect3 = yield* Effect3
      const bodies = (document: Document) => operationsOf(document).map((operation) => operation.responses)
      expect(bodies(effect4)).toEqual(bodies(effect3))
    }))

  it.effect("names and describes its components as the Effect 3 edition does, but for Int, which Schema 4 writes inline", () =>
    Effect.gen(function*() {
      const effect3 = yield* Effect3
      const described = (document: Document) =>
        Object.entries(document.components.schemas).flatMap(([name, schema]) => name === "Int" ? [] : [[name, schema.description]])
      expect(described(effect4).map(([name]) => name).sort()).toEqual(described(effect3).map(([name]) => name).sort())
      expect(Object.fromEntries(described(effect4))).toEqual(Object.fromEntries(described(effect3)))
      expect(described(effect4).filter(([, description]) => description !== undefined).length).toBe(3)
    }))

  it.effect("describes each parameter by a schema that accepts the same values, but for the code points of q", () =>
    Effect.gen(function*() {
      const differences = parameterDifferences(yield* Effect3)
      expect(differences.filter(({ rule }) => rule === undefined)).toEqual([])
      expect(differences.map(({ probe, where }) => `${where} ${JSON.stringify(probe)}`)).toEqual([
        "search q \"x\"",
        "search q \"\u{1F600}\""
      ])
    }))
})

layer(Layer.merge(Effect3.layer, Answers.layer), { timeout: 60_000 })("the document, against the simulator's answers", (it) => {
  it.effect("reads every operation of the document from the simulator", () =>
    Effect.gen(function*() {
      const answers = yield* Answers
      const read = new Set(answers.filter(({ status }) => status === 200).map(({ operationId }) => operationId))
      expect(operationsOf(effect4).map(({ operationId }) => operationId).filter((id) => !read.has(id))).toEqual([])
      expect(answers.filter(({ status }) => status !== 200).map(({ status }) => status)).toEqual([404, 400, 401])
    }))

  it.effect("accepts every answer by the schema of its operation's response of its status, visiting every component", () =>
    Effect.gen(function*() {
      const answers = yield* Answers
      for (const document of [effect4, yield* Effect3]) {
        const { errors, visited } = validator(document.components.schemas)
        for (const answer of answers) {
          expect(errors(bodySchemaOf(document, answer), answer.body), answer.path).toEqual([])
        }
        expect([...visited].sort()).toEqual(Object.keys(document.components.schemas).sort())
      }
    }))

  it.effect("accepts and refuses the same variations of the answers' resources as the Effect 3 document, by the rules above", () =>
    Effect.gen(function*() {
      const effect3 = yield* Effect3
      const samples = samplesOf(effect3, yield* Answers)
      expect(new Set(samples.map(({ component }) => component)).size).toBeGreaterThan(15)
      const differences = memberDifferences(effect3, samples)
      expect(differences.filter(({ rule }) => rule === undefined)).toEqual([])
      expect(new Set(differences.map(({ rule }) => rule))).toEqual(new Set(["safe integer", "calendar date", "optional null"]))
      expect(new Set(differences.filter(({ rule }) => rule === "optional null").map(({ where }) => where))).toEqual(
        new Set(["Organization.about"])
      )
    }))
})
