/**
 * The contract in Effect 4's Schema, against real answers of the service:
 * the repository's simulator (the Effect 3 edition's program) runs as a child
 * process, its answers are decoded here and, in a second child process, by
 * the Effect 3 edition's own schemas, and the two decodings must be the same
 * values: `bigint`s, `BigDecimal`s and `CalendarDate`s included. The second
 * process also checks the same queries with the Effect 3 edition's
 * parameters, which must give the same values and the same messages.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { type ChildProcess, type ChildProcessByStdio, spawn } from "node:child_process"
import { createInterface } from "node:readline"
import type { Readable } from "node:stream"
import { BigDecimal, type Brand, Context, Duration, Effect, Exit, Layer, Option, Result, Schema } from "effect"
import { expectTypeOf } from "vitest"
import * as Envelopes from "../../common/src/contract/Envelopes.js"
import * as Limits from "../../common/src/contract/Limits.js"
import * as Parameters from "../../common/src/contract/Parameters.js"
import * as Primitives from "../src/contract/Primitives.js"
import * as Resources from "../../common/src/contract/Resources.js"

/** The repository root, home of the Effect 3 edition. */
const root = new URL("../../", import.meta.url)
/** Node's flags that run the Effect 3 edition's TypeScript as it is. */
const withTsx = ["--import", new URL("node_modules/tsx/dist/loader.mjs", root).href]

// ---------------------------------------------------------------------------
// The simulator, a child process for the tests of this file
// ---------------------------------------------------------------------------

type Simulator = ChildProcessByStdio<null, Readable, null>

/** Stops a child process and waits until it has ended. */
const stop = (child: ChildProcess) =>
  Effect.callback<void>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.void)
    child.once("exit", () => resume(Effect.void))
    child.kill("SIGTERM")
  })

/** The line the simulator prints once it listens. */
const firstLine = (child: Simulator) =>
  Effect.callback<string, Error>((resume) => {
    createInterface({ input: child.stdout }).once("line", (line) => resume(Effect.succeed(line)))
    child.once("exit", (code) => resume(Effect.fail(new Error(`the simulator ended (${code}) before it listened`))))
  })

const Startup = Schema.fromJsonString(Schema.Struct({ base_url: Schema.String, keys: Schema.Struct({ full: Schema.String }) }))

/** An answer of the service: its status and its JSON body. */
interface Reply {
  readonly status: number
  readonly body: unknown
}

class Service extends Context.Service<Service, { readonly get: (path: string) => Effect.Effect<Reply> }>()(
  "effect-catalog/test/contract/Service"
) {
  /** The simulator with 50 models and no account limits, stopped when the layer ends. */
  static readonly layer = Layer.effect(
    Service,
    Effect.gen(function*() {
      const child = yield* Effect.acquireRelease(
        Effect.sync(() =>
          spawn(process.execPath, [...withTsx, new URL("tools/src/simulator/bin.ts", root).pathname, "--port", "0", "--no-limits", "--models", "50"], {
            cwd: root,
            stdio: ["ignore", "pipe", "inherit"]
          })
        ),
        stop
      )
      const startup = yield* Schema.decodeUnknownEffect(Startup)(yield* firstLine(child))
      const get = (path: string) =>
        Effect.promise(async (): Promise<Reply> => {
          const url = path.startsWith("http") ? path : startup.base_url + path
          const response = await fetch(url, { headers: { authorization: `Bearer ${startup.keys.full}` } })
          return { status: response.status, body: await response.json() }
        })
      return { get }
    }).pipe(Effect.orDie)
  )
}

// ---------------------------------------------------------------------------
// The answers: a walk through every operation of the contract
// ---------------------------------------------------------------------------

const resources = {
  Model: Resources.Model,
  Offer: Resources.Offer,
  Family: Resources.Family,
  Provider: Resources.Provider,
  Organization: Resources.Organization,
  Skill: Resources.Skill,
  Publisher: Resources.Publisher,
  Mcp: Resources.Mcp,
  Resource: Resources.Resource,
  Observation: Resources.Observation,
  Activity: Resources.Activity,
  Topic: Resources.Topic,
  Article: Resources.Article,
  Audits: Resources.Audits,
  Document: Resources.Document,
  Connection: Resources.Connection,
  Stats: Resources.Stats,
  Usage: Resources.Usage
}
type Name = keyof typeof resources

/** What an answer holds: a page of a resource, one resource, or a problem. */
type Shape = readonly ["list" | "detail", Name] | readonly ["problem"]

interface Answer extends Reply {
  readonly path: string
  readonly shape: Shape
}

const schemaOf = (shape: Shape): Schema.Codec<unknown, unknown> =>
  shape[0] === "problem"
    ? Resources.Problem
    : shape[0] === "list"
    ? Envelopes.ListEnvelope(resources[shape[1]])
    : Envelopes.DetailEnvelope(resources[shape[1]])

class Answers extends Context.Service<Answers, ReadonlyArray<Answer>>()("effect-catalog/test/contract/Answers") {
  static readonly layer = Layer.effect(
    Answers,
    Effect.gen(function*() {
      const service = yield* Service
      const answers: Array<Answer> = []
      const read = Effect.fnUntraced(function*(path: string, shape: Shape) {
        const reply = yield* service.get(path)
        answers.push({ path, shape, ...reply })
        return reply.body
      })
      const list = <N extends Name>(name: N, path: string) =>
        read(path, ["list", name]).pipe(
          Effect.flatMap(Schema.decodeUnknownEffect(Envelopes.ListEnvelope(resources[name]))),
          Effect.map((page) => page.data)
        )
      const detail = (name: Name, path: string) => read(path, ["detail", name])

      const models = yield* list("Model", "/models/?limit=100")
      for (const model of models.slice(0, 3)) {
        yield* detail("Model", model.api_url)
        const offers = yield* list("Offer", `${model.api_url}offers/`)
        yield* list("Observation", `${model.api_url}benchmarks/`)
        yield* list("Offer", `${model.api_url}performance/`)
        yield* list("Activity", `${model.api_url}activity/`)
        yield* list("Observation", `${model.api_url}applications/`)
        for (const offer of offers.slice(0, 1)) yield* detail("Offer", `/offers/${offer.id}/`)
      }
      for (const family of (yield* list("Family", "/families/?limit=5")).slice(0, 1)) {
        yield* detail("Family", `/families/${family.id}/`)
        yield* list("Model", `/families/${family.id}/models/`)
      }
      for (const provider of (yield* list("Provider", "/providers/?limit=5")).slice(0, 1)) {
        yield* detail("Provider", `/providers/${provider.id}/`)
        yield* list("Model", `/providers/${provider.id}/models/`)
        yield* list("Offer", `/providers/${provider.id}/offers/`)
      }
      for (const organization of (yield* list("Organization", "/organizations/?limit=5")).slice(0, 2)) {
        yield* detail("Organization", `/organizations/${organization.slug}/`)
        yield* list("Model", `/organizations/${organization.slug}/models/`)
        const items = yield* list("Resource", `/organizations/${organization.slug}/resources/`)
        for (const item of items.slice(0, 1)) yield* detail("Resource", `/organizations/${organization.slug}/resources/${item.id}/`)
      }
      for (const skill of (yield* list("Skill", "/skills/?limit=10")).slice(0, 2)) {
        yield* detail("Skill", skill.api_url)
        yield* detail("Audits", `${skill.api_url}audits/`)
        yield* detail("Document", `${skill.api_url}document/`)
      }
      yield* list("Publisher", "/publishers/?limit=10")
      for (const mcp of (yield* list("Mcp", "/mcps/?limit=10")).slice(0, 2)) {
        yield* detail("Mcp", mcp.api_url)
        yield* detail("Connection", `${mcp.api_url}connection/`)
      }
      for (const topic of (yield* list("Topic", "/topics/?limit=5")).slice(0, 1)) {
        yield* list("Skill", `/topics/${topic.id}/skills/`)
      }
      for (const article of (yield* list("Article", "/articles/")).slice(0, 1)) {
        yield* detail("Article", `/articles/${article.slug}/`)
      }
      yield* list("Model", `/search/?q=${encodeURIComponent(models[0]?.name.split(" ")[0] ?? "a")}&type=models`)
      yield* detail("Stats", "/stats/")
      yield* detail("Usage", "/usage/")
      yield* read("/models/nobody/nothing/", ["problem"])
      return answers
    }).pipe(Effect.orDie)
  ).pipe(Layer.provide(Service.layer))
}

/** The answers that hold `name`, each with its wire form and its decoded form. */
const pairs = <N extends Name>(answers: ReadonlyArray<Answer>, name: N) => {
  const schema = resources[name]
  const wire = Schema.decodeUnknownSync(Schema.toEncoded(schema))
  const decode = Schema.decodeUnknownSync(schema)
  return answers.flatMap((answer) => {
    if (answer.shape[0] === "problem" || answer.shape[1] !== name) return []
    const data = Schema.decodeUnknownSync(Schema.Struct({ data: Schema.Unknown }))(answer.body).data
    const items = answer.shape[0] === "list" ? Schema.decodeUnknownSync(Schema.Array(Schema.Unknown))(data) : [data]
    return items.map((item) => ({ wire: wire(item), value: decode(item) }))
  })
}

// ---------------------------------------------------------------------------
// Parameters: queries of the contract, the same in both editions
// ---------------------------------------------------------------------------

const queries = {
  models: Schema.Struct({ ...Parameters.pageFields(100), ...Parameters.filters.models }),
  organizations: Schema.Struct({ ...Parameters.pageFields(100), ...Parameters.filters.organizations }),
  skills: Schema.Struct({ ...Parameters.pageFields(100), ...Parameters.filters.skills }),
  search: Schema.Struct({ ...Parameters.pageFields(25), ...Parameters.filters.search }),
  path: Schema.Struct(Parameters.pathParameters)
}

const everyPathParameter = Object.fromEntries(Object.keys(Parameters.pathParameters).map((name) => [name, "o0000-falcon"]))

/** Queries as they come from a URL: every value a string. */
const queryCases: ReadonlyArray<readonly [keyof typeof queries, Readonly<Record<string, string>>]> = [
  ["models", {}],
  ["models", { limit: "1" }],
  ["models", { limit: "100", cursor: "c2", q: "kestrel", family: "f0000-yarrow", reasoning: "true", open_weights: "false" }],
  ["models", { limit: "101" }],
  ["models", { limit: "0" }],
  ["models", { limit: "025" }],
  ["models", { limit: "2.5" }],
  ["models", { limit: "ten" }],
  ["models", { cursor: "" }],
  ["models", { cursor: "c".repeat(1600) }],
  ["models", { cursor: "c".repeat(1601) }],
  ["models", { q: "" }],
  ["models", { q: "q".repeat(161) }],
  ["models", { reasoning: "yes" }],
  ["models", { open_weights: "TRUE" }],
  ["organizations", { kind: "university" }],
  ["organizations", { kind: "startup" }],
  ["skills", { official: "false", source: "s00000-raven/toolkit", topic: "agents" }],
  ["search", { q: "kestrel", type: "models", limit: "25" }],
  ["search", { q: "kestrel", type: "models", limit: "26" }],
  ["search", { q: "k", type: "skills" }],
  ["search", { q: "q".repeat(121), type: "skills" }],
  ["search", { q: "kestrel", type: "articles" }],
  ["path", everyPathParameter],
  ["path", { ...everyPathParameter, id: "" }],
  ["path", { ...everyPathParameter, skill: "k".repeat(201) }]
]

/** What a query decodes to, or the line that says what broke. */
const checkQuery = ([query, input]: (typeof queryCases)[number]) => {
  const result = Schema.decodeUnknownResult(queries[query])(input)
  return Result.isFailure(result) ? { error: Parameters.describeError(result.failure) } : { ok: result.success }
}

// ---------------------------------------------------------------------------
// The Effect 3 edition, as a child process that decodes the same answers
// ---------------------------------------------------------------------------

/** What both editions sum up alike (the child process the same way): modules' names, figures and lists. */
const modules = { Envelopes, Limits, Parameters, Primitives, Resources }
const summary = {
  exports: Object.fromEntries(Object.entries(modules).map(([name, module]) => [name, Object.keys(module).sort()])),
  limits: Object.fromEntries(Object.entries(Limits).map(([name, value]) => [name, Duration.isDuration(value) ? Duration.toMillis(value) : value])),
  lists: {
    scopes: Parameters.Scope.literals,
    searchTypes: Parameters.SearchType.literals,
    kinds: Parameters.KindFilter.literals,
    searchScope: Parameters.searchScope,
    filters: Object.fromEntries(Object.entries(Parameters.filters).map(([name, fields]) => [name, Object.keys(fields)])),
    pathParameters: Object.keys(Parameters.pathParameters),
    defaultLimits: [10, 25, 100].map(Parameters.defaultLimit)
  }
}

/** Where the contract's modules are, by the folder of the repository that holds them (the shared ones are compiled against Effect 3 there). */
const effect3Contract = { Envelopes: "common/src", Limits: "common/src", Parameters: "common/src", Primitives: "src", Resources: "common/src" }

/** Runs under Effect 3, from the repository root; answers with a structured clone. */
const effect3Program = `
import { Duration, Either, Schema } from "effect"
${Object.entries(effect3Contract).map(([name, folder]) => `import * as ${name} from ${JSON.stringify(new URL(`${folder}/contract/${name}.ts`, root).href)}`).join("\n")}

const schemaOf = ([kind, name]) =>
  kind === "problem" ? Resources.Problem : kind === "list" ? Envelopes.ListEnvelope(Resources[name]) : Envelopes.DetailEnvelope(Resources[name])

const queries = {
  models: Schema.Struct({ ...Parameters.pageFields(100), ...Parameters.filters.models }),
  organizations: Schema.Struct({ ...Parameters.pageFields(100), ...Parameters.filters.organizations }),
  skills: Schema.Struct({ ...Parameters.pageFields(100), ...Parameters.filters.skills }),
  search: Schema.Struct({ ...Parameters.pageFields(25), ...Parameters.filters.search }),
  path: Schema.Struct(Parameters.pathParameters)
}

process.once("message", ({ answers, queryCases }) => {
  const decoded = answers.map(({ shape, body }) => {
    try {
      return Schema.decodeUnknownSync(schemaOf(shape))(body)
    } catch (error) {
      return { effect3Failure: String(error) }
    }
  })
  const checked = queryCases.map(([query, input]) =>
    Either.match(Schema.decodeUnknownEither(queries[query])(input), { onLeft: (error) => ({ error: Parameters.describeError(error) }), onRight: (ok) => ({ ok }) })
  )
  const summary = {
    exports: Object.fromEntries(Object.entries({ Envelopes, Limits, Parameters, Primitives, Resources }).map(([name, module]) => [name, Object.keys(module).sort()])),
    limits: Object.fromEntries(Object.entries(Limits).map(([name, value]) => [name, Duration.isDuration(value) ? Duration.toMillis(value) : value])),
    lists: {
      scopes: Parameters.Scope.literals,
      searchTypes: Parameters.SearchType.literals,
      kinds: Parameters.KindFilter.literals,
      searchScope: Parameters.searchScope,
      filters: Object.fromEntries(Object.entries(Parameters.filters).map(([name, fields]) => [name, Object.keys(fields)])),
      pathParameters: Object.keys(Parameters.pathParameters),
      defaultLimits: [10, 25, 100].map(Parameters.defaultLimit)
    }
  }
  process.send({ decoded, checked, summary }, () => process.disconnect())
})
`

const Effect3Report = Schema.Struct({
  decoded: Schema.Array(Schema.Unknown),
  checked: Schema.Array(Schema.Unknown),
  summary: Schema.Unknown
})

/** The Effect 3 edition's decoding of the answers and of the query cases. */
class Effect3 extends Context.Service<Effect3, typeof Effect3Report.Type>()("effect-catalog/test/contract/Effect3") {
  static readonly layer = Layer.effect(
    Effect3,
    Effect.gen(function*() {
      const answers = yield* Answers
      const child = yield* Effect.acquireRelease(
        Effect.sync(() =>
          spawn(process.execPath, [...withTsx, "--input-type=module", "--eval", effect3Program], {
            cwd: root,
            stdio: ["ignore", "inherit", "inherit", "ipc"],
            serialization: "advanced"
          })
        ),
        stop
      )
      const report = yield* Effect.callback<unknown, Error>((resume) => {
        child.once("message", (message) => resume(Effect.succeed(message)))
        child.once("exit", (code) => resume(Effect.fail(new Error(`the Effect 3 edition ended (${code}) without an answer`))))
        child.send({ answers: answers.map(({ body, shape }) => ({ body, shape })), queryCases })
      })
      return yield* Schema.decodeUnknownEffect(Effect3Report)(report)
    }).pipe(Effect.orDie)
  )
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

layer(Effect3.layer.pipe(Layer.provideMerge(Answers.layer)))("answers of the simulator", (it) => {
  it.effect("come from every operation of the contract", () =>
    Effect.gen(function*() {
      const answers = yield* Answers
      const read = new Set(answers.flatMap(({ shape }) => (shape[0] === "problem" ? [] : [shape[1]])))
      expect([...read].sort()).toEqual(Object.keys(resources).sort())
      expect(answers.filter(({ shape }) => shape[0] !== "problem").every(({ status }) => status === 200)).toBe(true)
    }))

  it.effect("decode, and encode back to the same wire form", () =>
    Effect.gen(function*() {
      for (const { body, path, shape } of yield* Answers) {
        const schema = schemaOf(shape)
        const decoded = Schema.decodeUnknownExit(schema)(body)
        expect(Exit.isSuccess(decoded), `${path}: ${String(decoded)}`).toBe(true)
        if (Exit.isSuccess(decoded)) expect(Schema.encodeSync(schema)(decoded.value), path).toEqual(body)
      }
    }))

  it.effect("decode to the values the Effect 3 edition decodes", () =>
    Effect.gen(function*() {
      const answers = yield* Answers
      const effect3 = yield* Effect3
      expect(effect3.decoded).toHaveLength(answers.length)
      answers.forEach(({ body, path, shape }, index) => {
        expect(Schema.decodeUnknownSync(schemaOf(shape))(body), path).toEqual(effect3.decoded[index])
      })
    }))

  it.effect("have the Effect 3 edition's public names, figures and lists", () =>
    Effect.gen(function*() {
      expect(summary).toEqual((yield* Effect3).summary)
    }))

  it.effect("check queries as the Effect 3 edition does: the same values, the same messages", () =>
    Effect.gen(function*() {
      const effect3 = yield* Effect3
      const checked = queryCases.map(checkQuery)
      expect(checked.filter((result) => "error" in result).length).toBeGreaterThan(10)
      checked.forEach((result, index) => expect(result, JSON.stringify(queryCases[index])).toEqual(effect3.checked[index]))
    }))

  it.effect("keep token counts exact, above 2^53 too", () =>
    Effect.gen(function*() {
      const answers = yield* Answers
      const models = pairs(answers, "Model")
      expect(models.map(({ value }) => value.context_tokens)).toEqual(
        models.map(({ wire }) => (wire.context_tokens === null ? null : BigInt(wire.context_tokens)))
      )
      expect(models.some(({ value }) => value.context_tokens !== null && value.context_tokens > BigInt(Number.MAX_SAFE_INTEGER))).toBe(true)
      const days = pairs(answers, "Activity")
      expect(days.length).toBeGreaterThan(0)
      expect(days.map(({ value }) => value.tokens)).toEqual(days.map(({ wire }) => BigInt(wire.tokens)))
      const skills = pairs(answers, "Skill")
      expect(skills.map(({ value }) => value.installs)).toEqual(skills.map(({ wire }) => BigInt(wire.installs)))
    }))

  it.effect("keep every digit of a price", () =>
    Effect.gen(function*() {
      const prices = pairs(yield* Answers, "Offer").flatMap(({ value, wire }) =>
        (["input", "output", "cache_read", "cache_write", "request", "image"] as const).flatMap((member) => {
          const price = value.pricing[member]
          const digits = wire.pricing[member]
          return price === undefined || price === null || typeof digits !== "string" ? [] : [{ price, digits }]
        })
      )
      expect(prices.some(({ digits }) => digits.replace(/\D/g, "").length >= 12)).toBe(true)
      for (const { digits, price } of prices) {
        expect(Primitives.plainDecimal(price)).toBe(digits)
        expect(BigDecimal.equals(price, BigDecimal.fromStringUnsafe(digits))).toBe(true)
      }
    }))

  it.effect("decode calendar days to CalendarDate", () =>
    Effect.gen(function*() {
      const answers = yield* Answers
      const days = [
        ...pairs(answers, "Model").map(({ value, wire }) => [value.released_on, wire.released_on] as const),
        ...pairs(answers, "Activity").map(({ value, wire }) => [value.day, wire.day] as const)
      ]
      expect(days.some(([day]) => day !== null)).toBe(true)
      for (const [day, text] of days) {
        expect(day === null ? null : day instanceof Primitives.CalendarDate && String(day)).toBe(text)
      }
    }))

  it.effect("decode the account's usage, the counts and a problem", () =>
    Effect.gen(function*() {
      const answers = yield* Answers
      const [usage] = pairs(answers, "Usage")
      expect(usage?.value).toEqual(usage?.wire)
      expect(usage?.value.minute_limit).toBe(Limits.requestsPerMinute)
      const [stats] = pairs(answers, "Stats")
      expect(stats?.value.id).toBe("catalog")
      expect(stats && Resources.countOf(stats.value, "models")).toEqual(Option.some(50))
      expect(stats && Resources.countOf(stats.value, "articles")).toEqual(Option.none())
      const problem = answers.find(({ shape }) => shape[0] === "problem")
      expect(problem?.status).toBe(404)
      const decoded = Schema.decodeUnknownSync(Resources.Problem)(problem?.body)
      expect([decoded.status, decoded.code]).toEqual([404, "not_found"])
    }))
})

describe("the contract, by hand", () => {
  const refused = <S extends Schema.Codec<unknown, unknown>>(schema: S, input: unknown) => Exit.isFailure(Schema.decodeUnknownExit(schema)(input))

  it("keeps an integer above 2^53 exact", () => {
    const value = Schema.decodeSync(Primitives.DecimalInteger)("9007199254740993")
    expect(value).toBe(9007199254740993n)
    expect(Schema.encodeSync(Primitives.DecimalInteger)(value)).toBe("9007199254740993")
    for (const input of ["1e3", " 12", "12.0", "", "0x10", "+1", 12]) expect(refused(Primitives.DecimalInteger, input), String(input)).toBe(true)
  })

  it("keeps every digit of a long price, in plain notation", () => {
    const price = Schema.decodeSync(Primitives.Price)("0.000001234567891234")
    expect(BigDecimal.equals(price, BigDecimal.make(1234567891234n, 18))).toBe(true)
    expect(Primitives.plainDecimal(price)).toBe("0.000001234567891234")
    expect(Schema.encodeSync(Primitives.Price)(price)).toBe("0.000001234567891234") // BigDecimal.format: "1.234567891234e-6"
    const long = "123456789012345678901234567890.123456789012345678901234567890"
    expect(Primitives.plainDecimal(Schema.decodeSync(Primitives.Price)(long))).toBe(long.replace(/0+$/, ""))
    for (const input of ["1e-7", "", ".5", "5.", "0,5", " 1"]) expect(refused(Primitives.Price, input), input).toBe(true)
  })

  it("decodes calendar days and refuses impossible or malformed ones", () => {
    const date = Schema.decodeSync(Primitives.CalendarDateFromString)("2024-02-29")
    expect(date).toBeInstanceOf(Primitives.CalendarDate)
    expect([date.year, date.month, date.day]).toEqual([2024, 2, 29])
    expect(date.toDate().toISOString()).toBe("2024-02-29T00:00:00.000Z")
    expect(Schema.encodeSync(Primitives.CalendarDateFromString)(date)).toBe("2024-02-29")
    for (const input of ["2026-02-29", "1900-02-29", "2026-04-31", "2026-13-01", "2026-00-10", "2026-01-00", "2026-1-01", "20260101", "2026-11-21T00:00:00Z"]) {
      expect(refused(Primitives.CalendarDateFromString, input), input).toBe(true)
    }
    for (const input of ["2000-02-29", "0000-02-29", "0004-02-29", "9999-12-31"]) {
      expect(String(Schema.decodeSync(Primitives.CalendarDateFromString)(input))).toBe(input)
    }
    expect(() => new Primitives.CalendarDate({ year: 2026, month: 2, day: 30 })).toThrow()
  })

  it("types the known values of an open list and accepts other ones", () => {
    expect(Schema.decodeSync(Resources.SourceType)("github")).toBe("github")
    expect(Schema.decodeSync(Resources.McpStatus)("retired")).toBe("retired")
    expect(refused(Resources.McpStatus, 3)).toBe(true)
    expect(refused(Resources.OrganizationKind, "startup")).toBe(true)
    expect(Resources.OrganizationKind.literals).toContain("university")
  })

  it("keeps an open object as it came, a __proto__ member as data", () => {
    const input: unknown = JSON.parse('{"__proto__":{"polluted":true},"transport":"stdio"}')
    const output = Schema.decodeUnknownSync(Primitives.OpenObject)(input)
    expect(output).toBe(input)
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype)
    expect(refused(Primitives.OpenObject, [])).toBe(true)
  })

  it("tolerates unlisted fields and refuses a record that breaks the contract", () => {
    const wire = { id: "f0000-kestrel", name: "Kestrel 0", model_count: 3, updated_at: null }
    expect(Schema.decodeUnknownSync(Resources.Family)({ ...wire, rank: 1 })).toEqual(wire)
    expect(refused(Resources.Family, { ...wire, model_count: "3" })).toBe(true)
    expect(refused(Resources.Family, { ...wire, model_count: -1 })).toBe(true)
    const { id: _id, ...withoutId } = wire
    expect(refused(Resources.Family, withoutId)).toBe(true)
  })

  it("checks parameters and says which one broke which rule", () => {
    expect(Schema.decodeSync(Parameters.Limit(100))("25")).toBe(25)
    expect(Schema.encodeSync(Parameters.Limit(100))(25)).toBe("25")
    expect(Schema.decodeSync(Parameters.BooleanFilter)("false")).toBe(false)
    expect(checkQuery(["models", { limit: "101" }])).toEqual({ error: "limit: limit must be a whole number from 1 to 100" })
    expect(checkQuery(["search", { q: "kestrel", type: "articles" }])).toEqual({
      error: "type: type must be one of models, skills, mcps, organizations, providers, families"
    })
  })

  it("decodes to the Effect 3 edition's types", () => {
    expectTypeOf<Resources.Model["context_tokens"]>().toEqualTypeOf<bigint | null>()
    expectTypeOf<Resources.Model["released_on"]>().toEqualTypeOf<Primitives.CalendarDate | null>()
    expectTypeOf<Resources.Pricing["input"]>().toEqualTypeOf<BigDecimal.BigDecimal | null | undefined>()
    expectTypeOf<Resources.Organization["about"]>().toEqualTypeOf<string | undefined>()
    expectTypeOf<Resources.Skill["installs"]>().toEqualTypeOf<bigint>()
    expectTypeOf<Resources.Activity["day"]>().toEqualTypeOf<Primitives.CalendarDate>()
    expectTypeOf<(typeof Resources.Model.Encoded)["context_tokens"]>().toEqualTypeOf<string | null>()
    expectTypeOf<(typeof Resources.McpStatus.Type)>().toEqualTypeOf<"active" | "deprecated" | (string & Brand.Brand<"UnknownValue">)>()
    expectTypeOf(Resources.countOf).returns.toEqualTypeOf<Option.Option<number>>()
    expectTypeOf(Limits.cursorLifetime).toEqualTypeOf<Duration.Duration>()
    expectTypeOf<(typeof queries.models.Type)["limit"]>().toEqualTypeOf<number | undefined>()
    expectTypeOf<(typeof queries.models.Type)["reasoning"]>().toEqualTypeOf<boolean | undefined>()
    expectTypeOf<(typeof queries.search.Type)["type"]>().toEqualTypeOf<Parameters.SearchType>()
    expectTypeOf<Parameters.Scope>().toEqualTypeOf<
      "models:read" | "families:read" | "providers:read" | "organizations:read" | "skills:read" | "skill_content:read" | "mcps:read" | "topics:read" | "articles:read"
    >()
  })
})
