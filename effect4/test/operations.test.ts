/**
 * The table of operations in Effect 4, against the Effect 3 edition's: a
 * child process loads the Effect 3 table under tsx and sums up every
 * operation's facts (id, kind, path, units, scope rule, item, query keys,
 * page sizes, list window, path parameters, key, summary, required scopes),
 * how its key parses valid and invalid ids, and how its query checks a table
 * of inputs; the Effect 4 table must give the same sums. Type tests pin the
 * literal types of a few operations.
 */
import { describe, expect, expectTypeOf, it, layer } from "@effect/vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { isDeepStrictEqual } from "node:util"
import { Context, Effect, Layer, Result, Schema } from "effect"
import * as Envelopes from "../../common/src/contract/Envelopes.js"
import * as Operations from "../../common/src/contract/Operations.js"
import * as Parameters from "../../common/src/contract/Parameters.js"
import * as Resources from "../../common/src/contract/Resources.js"

/** The repository root, home of the Effect 3 edition. */
const root = new URL("../../", import.meta.url)
/** Node's flags that run the Effect 3 edition's TypeScript as it is. */
const withTsx = ["--import", new URL("node_modules/tsx/dist/loader.mjs", root).href]

// ---------------------------------------------------------------------------
// What both editions sum up alike (the child process the same way)
// ---------------------------------------------------------------------------

/** Ids for the keys: valid forms of every key, and broken ones. */
const ids = [
  "o0000-falcon/m0000000-kestrel-8b",
  "s00000-raven/toolkit/k0000001-lark",
  "s0001-nimbus.example/k0000007-wren",
  "n0000-heron/mcp-search",
  "f0000-kestrel",
  "organization-slug",
  "",
  "/",
  "a/",
  "/b",
  "a//c",
  "a/b/c/d",
  "a/b/c/d/e",
  "a b/c"
]

/** Queries as they come from a URL, tried on every operation (`{max}` is its largest page, `{over}` one more). */
const queryInputs: ReadonlyArray<Readonly<Record<string, string>>> = [
  {},
  { limit: "{max}" },
  { limit: "{over}" },
  { limit: "0" },
  { limit: "1", cursor: "c2" },
  { cursor: "" },
  { q: "kestrel" },
  { q: "k" },
  { q: "kestrel", type: "skills", limit: "{max}" },
  { q: "kestrel", type: "articles" },
  { reasoning: "true", open_weights: "false", family: "f0000-kestrel" },
  { reasoning: "yes" },
  { kind: "university" },
  { kind: "startup" },
  { official: "TRUE" },
  { namespace: "n0000-heron", status: "active" }
]

const searchTypes = ["models", "skills", "mcps", "organizations", "providers", "families", "articles", undefined]

/** The name the Resources module (or this one) gives an item schema. */
const itemNames = new Map<unknown, string>([
  ...Object.entries(Resources).map(([name, value]): [unknown, string] => [value, name]),
  [Operations.SearchResult, "SearchResult"]
])

const outcome = <A>(result: Result.Result<A, string>) =>
  Result.match(result, { onFailure: (error) => ({ error }), onSuccess: (ok) => ({ ok }) })

const fill = (input: Readonly<Record<string, string>>, maxLimit: number) =>
  Object.fromEntries(Object.entries(input).map(([name, value]) => [name, value.replace("{max}", String(maxLimit)).replace("{over}", String(maxLimit + 1))]))

/** What the table says of one operation, and what its key and query make of the inputs. */
const factsOf = (operation: Operations.AnyOperation) => {
  const key: Operations.AnyKey | null = operation.key
  const query: Schema.Codec<unknown, unknown> = operation.query
  const item: Schema.Codec<unknown, unknown> = operation.item
  return {
    id: operation.id,
    kind: operation.kind,
    path: operation.path,
    units: operation.units,
    scope: operation.scope,
    item: itemNames.get(operation.item) ?? null,
    query: Object.keys(operation.query.fields),
    maxLimit: operation.maxLimit,
    defaultLimit: operation.kind === "list" ? Parameters.defaultLimit(operation.maxLimit) : null,
    listWindow: operation.listWindow,
    pathParameters: operation.pathParameters,
    summary: operation.summary,
    collection: Operations.isCollectionId(operation.id),
    envelope: Object.keys(Operations.responseSchema({ kind: operation.kind, item }).fields),
    requiredScopes: searchTypes.map((type) => Operations.requiredScope(operation, type === undefined ? {} : { type }) ?? null),
    key: key === null ? null : { by: key.by, form: key.form, parsed: ids.map((id) => outcome(key.parse(id))) },
    checked: queryInputs.map((input) => {
      const result = Schema.decodeUnknownResult(query)(fill(input, operation.maxLimit))
      return Result.isFailure(result) ? { error: Parameters.describeError(result.failure) } : { ok: result.success }
    })
  }
}

const summary = {
  exports: Object.keys(Operations).sort(),
  operations: Operations.all.map(factsOf),
  collections: Operations.collections.map((operation) => operation.id)
}

/** Runs under Effect 3, from the repository root; answers with a structured clone. */
const effect3Program = `
import { Either, Schema } from "effect"
import * as Operations from ${JSON.stringify(new URL("common/src/contract/Operations.ts", root).href)}
import * as Parameters from ${JSON.stringify(new URL("common/src/contract/Parameters.ts", root).href)}
import * as Resources from ${JSON.stringify(new URL("common/src/contract/Resources.ts", root).href)}

const itemNames = new Map([...Object.entries(Resources).map(([name, value]) => [value, name]), [Operations.SearchResult, "SearchResult"]])
const outcome = (either) => Either.match(either, { onLeft: (error) => ({ error }), onRight: (ok) => ({ ok }) })
const fill = (input, maxLimit) =>
  Object.fromEntries(Object.entries(input).map(([name, value]) => [name, value.replace("{max}", String(maxLimit)).replace("{over}", String(maxLimit + 1))]))

process.once("message", ({ ids, queryInputs, searchTypes }) => {
  const factsOf = (operation) => ({
    id: operation.id,
    kind: operation.kind,
    path: operation.path,
    units: operation.units,
    scope: operation.scope,
    item: itemNames.get(operation.item) ?? null,
    query: Object.keys(operation.query.fields),
    maxLimit: operation.maxLimit,
    defaultLimit: operation.kind === "list" ? Parameters.defaultLimit(operation.maxLimit) : null,
    listWindow: operation.listWindow,
    pathParameters: operation.pathParameters,
    summary: operation.summary,
    collection: Operations.isCollectionId(operation.id),
    envelope: Object.keys(Operations.responseSchema(operation).fields),
    requiredScopes: searchTypes.map((type) => Operations.requiredScope(operation, type === undefined ? {} : { type }) ?? null),
    key: operation.key === null ? null : { by: operation.key.by, form: operation.key.form, parsed: ids.map((id) => outcome(operation.key.parse(id))) },
    checked: queryInputs.map((input) =>
      Either.match(Schema.decodeUnknownEither(operation.query)(fill(input, operation.maxLimit)), {
        onLeft: (error) => ({ error: Parameters.describeError(error) }),
        onRight: (ok) => ({ ok })
      })
    )
  })
  const summary = {
    exports: Object.keys(Operations).sort(),
    operations: Operations.all.map(factsOf),
    collections: Operations.collections.map((operation) => operation.id)
  }
  process.send(summary, () => process.disconnect())
})
`

// ---------------------------------------------------------------------------
// The Effect 3 edition, as a child process
// ---------------------------------------------------------------------------

/** Stops a child process and waits until it has ended. */
const stop = (child: ChildProcess) =>
  Effect.callback<void>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.void)
    child.once("exit", () => resume(Effect.void))
    child.kill("SIGTERM")
  })

const Effect3Summary = Schema.Struct({
  exports: Schema.Array(Schema.String),
  operations: Schema.Array(Schema.Unknown),
  collections: Schema.Array(Schema.String)
})

/** The Effect 3 edition's sums of its table. */
class Effect3 extends Context.Service<Effect3, typeof Effect3Summary.Type>()("effect-catalog/test/operations/Effect3") {
  static readonly layer = Layer.effect(
    Effect3,
    Effect.gen(function*() {
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
        child.send({ ids, queryInputs, searchTypes })
      })
      return yield* Schema.decodeUnknownEffect(Effect3Summary)(report)
    }).pipe(Effect.orDie)
  )
}

/** The Effect 3 edition's facts of its operation `index`, and their query checks. */
const Facts3 = Schema.StructWithRest(Schema.Struct({ checked: Schema.Array(Schema.Unknown) }), [Schema.Record(Schema.String, Schema.Unknown)])
const factsOf3 = (effect3: typeof Effect3Summary.Type, index: number) => Schema.decodeUnknownSync(Facts3)(effect3.operations[index])
const checkedOf3 = (effect3: typeof Effect3Summary.Type, index: number) => factsOf3(effect3, index).checked

/** The query checks whose outcome differs between the editions. */
const queryDifferences = (effect3: typeof Effect3Summary.Type) =>
  summary.operations.flatMap((facts, index) =>
    facts.checked.flatMap((mine, input) => {
      const theirs = checkedOf3(effect3, index)[input]
      return isDeepStrictEqual(mine, theirs) ? [] : [{ id: facts.id, input: queryInputs[input], mine, theirs }]
    })
  )

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

layer(Effect3.layer)("the table of operations, against the Effect 3 edition's", (it) => {
  it.effect("has the same public names", () =>
    Effect.gen(function*() {
      expect(summary.exports).toEqual((yield* Effect3).exports)
    }))

  it.effect("has the same 35 operations in the same order", () =>
    Effect.gen(function*() {
      const effect3 = yield* Effect3
      expect(summary.operations).toHaveLength(35)
      expect(effect3.operations).toHaveLength(35)
      expect(summary.collections).toEqual(effect3.collections)
      expect(summary.operations.filter(({ item }) => item === null)).toEqual([])
      expect(summary.operations.flatMap(({ key }) => key?.parsed ?? []).filter((parsed) => "ok" in parsed).length).toBeGreaterThan(20)
      expect(summary.operations.flatMap(({ key }) => key?.parsed ?? []).filter((parsed) => "error" in parsed).length).toBeGreaterThan(100)
    }))

  it.effect("gives each operation the same facts and keys", () =>
    Effect.gen(function*() {
      const effect3 = yield* Effect3
      summary.operations.forEach(({ checked: _mine, ...facts }, index) => {
        const { checked: _theirs, ...theirs } = factsOf3(effect3, index)
        expect(facts, facts.id).toEqual(theirs)
      })
    }))

  it.effect("checks each operation's queries to the same values and messages", () =>
    Effect.gen(function*() {
      const effect3 = yield* Effect3
      expect(summary.operations.flatMap(({ checked }) => checked).filter((result) => "error" in result).length).toBeGreaterThan(50)
      expect(queryDifferences(effect3).map(({ id, mine }) => `${id} ${JSON.stringify(mine)}`)).toEqual([])
    }))
})

describe("the table, by hand", () => {
  it("states the figures of a few operations", () => {
    expect(Operations.all.map((operation) => operation.id)).toContain("usage")
    expect(Operations.model.pathParameters).toEqual(["organization", "model"])
    expect(Operations.skill.pathParameters).toEqual(["sourceType", "owner", "repository", "skill"])
    expect(Operations.search.maxLimit).toBe(25)
    expect(Operations.models.maxLimit).toBe(100)
    expect(Operations.stats.maxLimit).toBe(0)
    expect(Operations.articles.listWindow).toBe(24)
    expect(Operations.organizationResource.key).toBeNull()
    expect(Operations.collections.map((operation) => operation.id)).toEqual([
      "models", "families", "providers", "organizations", "skills", "publishers", "mcps", "topics", "articles"
    ])
    expect(Operations.all.filter((operation) => operation.units === 5).map((operation) => operation.id)).toEqual([
      "modelBenchmarks", "modelActivity", "modelApplications", "skillDocument", "mcpConnection", "search"
    ])
  })

  it("parses keys to Results", () => {
    const skill = Operations.skill.key?.parse("s0001-nimbus.example/k0000007-wren")
    expect(skill && Result.isSuccess(skill) ? skill.success : null).toEqual({
      sourceType: "well-known", owner: "s0001-nimbus.example", repository: "_", skill: "k0000007-wren"
    })
    const github = Operations.skillDocument.key?.parse("s00000-raven/toolkit/k0000001-lark")
    expect(github && Result.isSuccess(github) ? github.success : null).toEqual({
      sourceType: "github", owner: "s00000-raven", repository: "toolkit", skill: "k0000001-lark"
    })
    const short = Operations.model.key?.parse("o0000-falcon")
    expect(short && Result.isFailure(short) ? short.failure : null).toBe("must have the form <organization>/<model>; it has 1 part")
    const empty = Operations.mcp.key?.parse("n0000-heron/")
    expect(empty && Result.isFailure(empty) ? empty.failure : null).toBe("must have the form <namespace>/<name>; one of its parts is empty")
  })

  it("decodes queries and answers with the operation's schemas", () => {
    expect(Schema.decodeUnknownSync(Operations.models.query)({ limit: "10", reasoning: "true" })).toEqual({ limit: 10, reasoning: true })
    expect(Schema.is(Operations.search.query)({})).toBe(false)
    const stats = Schema.decodeUnknownSync(Operations.responseSchema(Operations.stats))({
      data: { id: "catalog", models: 3, skills: 2, mcps: 1, organizations: 1, providers: 1, families: 1 }
    })
    expect(stats.data.models).toBe(3)
    expect(Operations.requiredScope(Operations.search, { type: "skills" })).toBe("skills:read")
    expect(Operations.requiredScope(Operations.search, { type: "articles" })).toBeUndefined()
    expect(Operations.requiredScope(Operations.usage, {})).toBeUndefined()
  })

  it("keeps the literal types of the table", () => {
    expectTypeOf(Operations.model.id).toEqualTypeOf<"model">()
    expectTypeOf(Operations.model.kind).toEqualTypeOf<"detail">()
    expectTypeOf(Operations.model.path).toEqualTypeOf<"/models/{organization}/{model}/">()
    expectTypeOf(Operations.model.units).toEqualTypeOf<1>()
    expectTypeOf(Operations.model.pathParameters).toEqualTypeOf<ReadonlyArray<"organization" | "model">>()
    expectTypeOf(Operations.model.item).toEqualTypeOf<typeof Resources.Model>()
    expectTypeOf(Operations.model.key).toEqualTypeOf<Operations.Key<"organization" | "model", "id"> | null>()
    expectTypeOf<ReturnType<Operations.Key<"organization" | "model", "id">["parse"]>>().toEqualTypeOf<
      Result.Result<{ readonly organization: string; readonly model: string }, string>
    >()

    expectTypeOf(Operations.search.id).toEqualTypeOf<"search">()
    expectTypeOf(Operations.search.kind).toEqualTypeOf<"list">()
    expectTypeOf(Operations.search.path).toEqualTypeOf<"/search/">()
    expectTypeOf(Operations.search.units).toEqualTypeOf<5>()
    expectTypeOf(Operations.search.key).toEqualTypeOf<null>()
    expectTypeOf<(typeof Operations.search.query.Type)["type"]>().toEqualTypeOf<Parameters.SearchType>()
    expectTypeOf<(typeof Operations.search.query.Type)["limit"]>().toEqualTypeOf<number | undefined>()
    expectTypeOf<typeof Operations.SearchResult.Type>().toEqualTypeOf<
      Resources.Model | Resources.Skill | Resources.Mcp | Resources.Organization | Resources.Provider | Resources.Family
    >()

    expectTypeOf(Operations.skillDocument.path).toEqualTypeOf<"/skills/{sourceType}/{owner}/{repository}/{skill}/document/">()
    expectTypeOf(Operations.skillDocument.units).toEqualTypeOf<5>()
    expectTypeOf<Operations.PathParameters<typeof Operations.skillDocument.path>>().toEqualTypeOf<
      { readonly sourceType: string; readonly owner: string; readonly repository: string; readonly skill: string }
    >()
    expectTypeOf(Operations.usage.units).toEqualTypeOf<0>()
    expectTypeOf(Operations.usage.path).toEqualTypeOf<"/usage/">()
    expectTypeOf<(typeof Operations.usage.query.Type)>().toEqualTypeOf<{}>()
    expectTypeOf<(typeof Operations.models.query.Type)["reasoning"]>().toEqualTypeOf<boolean | undefined>()
    expectTypeOf<(typeof Operations.organizations.query.Type)["kind"]>().toEqualTypeOf<typeof Resources.OrganizationKind.Type | undefined>()
    expectTypeOf(Operations.topicSkills.key).toEqualTypeOf<Operations.Key<"slug", "id"> | null>()
    expectTypeOf(Operations.organization.key).toEqualTypeOf<Operations.Key<"slug", "slug"> | null>()
  })

  it("types the unions of ids and the response schemas", () => {
    expectTypeOf<Operations.OperationId>().toEqualTypeOf<
      | "models" | "model" | "modelOffers" | "modelBenchmarks" | "modelPerformance" | "modelActivity" | "modelApplications" | "offer"
      | "families" | "family" | "familyModels" | "providers" | "provider" | "providerModels" | "providerOffers"
      | "organizations" | "organization" | "organizationModels" | "organizationResources" | "organizationResource"
      | "skills" | "skill" | "skillAudits" | "skillDocument" | "publishers" | "mcps" | "mcp" | "mcpConnection"
      | "topics" | "topicSkills" | "articles" | "article" | "search" | "stats" | "usage"
    >()
    expectTypeOf<Operations.CollectionId>().toEqualTypeOf<
      "models" | "families" | "providers" | "organizations" | "skills" | "publishers" | "mcps" | "topics" | "articles"
    >()
    expectTypeOf<Operations.DetailId>().toEqualTypeOf<
      | "model" | "offer" | "family" | "provider" | "organization" | "organizationResource" | "skill" | "skillAudits"
      | "skillDocument" | "mcp" | "mcpConnection" | "article" | "stats" | "usage"
    >()
    expectTypeOf<Extract<Operations.ListId, Operations.DetailId>>().toEqualTypeOf<never>()
    const page = Operations.responseSchema(Operations.models)
    expectTypeOf(page).toEqualTypeOf<ReturnType<typeof Envelopes.ListEnvelope<typeof Resources.Model>>>()
    expectTypeOf<(typeof page.Type)["data"]>().toEqualTypeOf<ReadonlyArray<Resources.Model>>()
    const one = Operations.responseSchema(Operations.offer)
    expectTypeOf<(typeof one.Type)["data"]>().toEqualTypeOf<Resources.Offer>()
    expectTypeOf(Operations.requiredScope).returns.toEqualTypeOf<Parameters.Scope | undefined>()
  })
})
