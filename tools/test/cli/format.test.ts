/**
 * The output formats of the `catalog` command (its `Format` module), on
 * real wire items read from a simulator over HTTP: NDJSON, a JSON array, CSV
 * and tables for lists, written chunk by chunk; JSON and a field table for a
 * single resource; the columns of each resource and `--fields`.
 */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Either, Option, Schema, Stream } from "effect"
import * as CatalogClient from "../../../common/src/client/CatalogClient.js"
import * as Format from "../../src/cli/internal/Format.js"
import * as Operations from "../../../common/src/contract/Operations.js"
import * as Resources from "../../../common/src/contract/Resources.js"
import * as Client from "../../../test/support/Client.js"
import { formulas } from "../../../test/support/HostileText.js"
import * as Csv from "../../../test/support/Csv.js"

// Helpers -----------------------------------------------------------------------

/** Everything a writer writes for these chunks, as the command does: header, chunks, the last writer's footer. */
const written = (writer: Format.ListWriter, chunks: ReadonlyArray<ReadonlyArray<unknown>>): string => {
  let current = writer
  let text = writer.header
  for (const items of chunks) {
    const next = current.chunk(items)
    text += next.text
    current = next.next
  }
  return text + current.footer
}

/** Items in chunks of `size` (the last one shorter). */
const chunked = <A>(items: ReadonlyArray<A>, size: number): ReadonlyArray<ReadonlyArray<A>> =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, (index + 1) * size))

/** What a cell holds, as stated by the contract of the formats. */
const expectedCell = (value: unknown): string =>
  value === null || value === undefined
    ? ""
    : typeof value === "string"
    ? value
    : Array.isArray(value) && value.every((member) => typeof member !== "object" || member === null)
    ? value.map(expectedCell).join(", ")
    : typeof value === "object"
    ? JSON.stringify(value)
    : String(value)

const field = (item: unknown, name: string): unknown =>
  typeof item === "object" && item !== null && Object.hasOwn(item, name) ? Object.getOwnPropertyDescriptor(item, name)?.value : undefined

const columns = (operation: Format.OperationLike, format: Format.ListFormat, fields: Option.Option<string | ReadonlyArray<string>> = Option.none()) =>
  Either.getOrThrowWith(Format.columnsOf(operation, format, fields), (error) => new Error(error.detail))

const refusal = (operation: Format.OperationLike, fields: string) =>
  Either.match(Format.columnsOf(operation, "table", Option.some(fields)), {
    onLeft: (error) => `${error._tag}: ${error.detail}`,
    onRight: (names) => `accepted ${names.join(",")}`
  })

const noWidth = Option.none<number>()

// Real wire items ----------------------------------------------------------------

interface Wire {
  readonly models: ReadonlyArray<unknown>
  readonly skills: ReadonlyArray<unknown>
  readonly mcps: ReadonlyArray<unknown>
  readonly offers: ReadonlyArray<unknown>
  readonly activity: ReadonlyArray<unknown>
  readonly organizations: ReadonlyArray<unknown>
}

const wireItems = Effect.gen(function*() {
  const catalog = yield* CatalogClient.CatalogClient
  const all = (id: Operations.ListId, parameters: Readonly<Record<string, unknown>> = {}) =>
    Effect.map(Stream.runCollect(catalog.wire(id, parameters)), (items): ReadonlyArray<unknown> => Chunk.toReadonlyArray(items))
  const models = yield* all("models")
  const offered = models.find((model) => Number(field(model, "offer_count")) > 0)
  const [organization = "", model = ""] = String(field(offered, "id")).split("/")
  const wire: Wire = {
    models,
    skills: yield* all("skills"),
    mcps: yield* all("mcps"),
    offers: yield* all("modelOffers", { organization, model }),
    activity: yield* all("modelActivity", { organization, model }),
    organizations: yield* all("organizations")
  }
  return wire
})

let wire: Wire

beforeAll(async () => {
  wire = await Effect.runPromise(
    wireItems.pipe(
      Effect.provide(Client.simulatorWithClient({ sizes: { models: 230, skills: 40, mcps: 40, organizations: 20 }, enforceLimits: false }))
    )
  )
  expect(wire.models.length).toBe(230)
  expect(wire.offers.length).toBeGreaterThan(0)
}, 30_000)

// Formats --------------------------------------------------------------------------

describe("formats", () => {
  it("lists have four formats, single resources two", () => {
    expect(Format.listFormats).toEqual(["ndjson", "json", "table", "csv"])
    expect(Format.detailFormats).toEqual(["json", "table"])
  })
})

describe("ndjson", () => {
  it("one compact line per item, each parsing back to the item, in pages", () => {
    const text = written(Format.listWriter("ndjson", []), chunked(wire.models, 100))
    const lines = text.split("\n")
    expect(lines.pop()).toBe("")
    expect(lines.map((line) => JSON.parse(line))).toEqual(wire.models)
    expect(lines[0]).toBe(JSON.stringify(wire.models[0]))
  })

  it("nothing for an empty list", () => {
    expect(written(Format.listWriter("ndjson", []), [])).toBe("")
  })

  it("on a terminal, the controls JSON.stringify leaves raw are JSON escapes: the same items, inert", () => {
    const items = [{ id: "a\u009b2J\u001b]0;t\u0007", name: "\u0085\u007f\u202eevil\u2066", n: -1.5 }, ...wire.models.slice(0, 5)]
    const exact = written(Format.listWriter("ndjson", []), [items])
    expect(exact).toBe(items.map((item) => `${JSON.stringify(item)}\n`).join(""))
    const shown = written(Format.listWriter("ndjson", [], { terminal: true }), [items])
    expect(shown.split("\n")[0]).toBe(
      '{"id":"a\\u009b2J\\u001b]0;t\\u0007","name":"\\u0085\\u007f\\u202eevil\\u2066","n":-1.5}'
    )
    expect(shown).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/)
    expect(shown.split("\n").slice(0, -1).map((line) => JSON.parse(line))).toEqual(items)
    expect(shown.split("\n").slice(1).join("\n")).toBe(exact.split("\n").slice(1).join("\n"))
  })
})

describe("json", () => {
  it("one array, streamed: items separated by a comma and a line break", () => {
    expect(written(Format.listWriter("json", []), [[{ a: 1 }, { a: "x" }], [], [{ a: null }]])).toBe('[\n{"a":1},\n{"a":"x"},\n{"a":null}\n]\n')
  })

  it("parses to the array, in one chunk or in several (empty ones too)", () => {
    expect(JSON.parse(written(Format.listWriter("json", []), [wire.models]))).toEqual(wire.models)
    const pages = [[], ...chunked(wire.models, 100), []]
    expect(pages.length).toBe(5)
    expect(JSON.parse(written(Format.listWriter("json", []), pages))).toEqual(wire.models)
    expect(JSON.parse(written(Format.listWriter("json", []), chunked(wire.skills, 7)))).toEqual(wire.skills)
  })

  it("on a terminal, inert and the same array", () => {
    const items = [{ a: "x\u009by" }, { a: "\u202e" }]
    const shown = written(Format.listWriter("json", [], { terminal: true }), [items.slice(0, 1), [], items.slice(1)])
    expect(shown).toBe('[\n{"a":"x\\u009by"},\n{"a":"\\u202e"}\n]\n')
    expect(JSON.parse(shown)).toEqual(items)
  })

  it("an empty list is []", () => {
    expect(written(Format.listWriter("json", []), [])).toBe("[]\n")
    expect(written(Format.listWriter("json", []), [[], []])).toBe("[]\n")
    expect(JSON.parse(written(Format.listWriter("json", []), []))).toEqual([])
  })
})

describe("csv", () => {
  it("a header row, then rows; cells with quotes, commas or line breaks quoted, quotes doubled", () => {
    const items = [
      { id: "a", name: "plain", tags: ["x", "y"], pricing: { input: "0.15" } },
      { id: "b", name: "say \"hi\", then\nleave", tags: [], pricing: null },
      { id: "c", name: null, tags: [1, true], pricing: { input: null } }
    ]
    expect(written(Format.listWriter("csv", ["id", "name", "tags", "pricing.input"]), [items.slice(0, 1), items.slice(1)])).toBe(
      "id,name,tags,pricing.input\n" +
        "a,plain,\"x, y\",0.15\n" +
        "b,\"say \"\"hi\"\", then\nleave\",,\n" +
        "c,,\"1, true\",\n"
    )
  })

  it("the header alone for an empty list", () => {
    expect(written(Format.listWriter("csv", ["id", "name"]), [])).toBe("id,name\n")
  })

  it("cells that begin like a formula (= + - @, a tab, a CR) get a single quote before them, and are quoted", () => {
    const items = formulas.map((name, index) => ({ id: `i${index}`, name }))
    const text = written(Format.listWriter("csv", ["id", "name"]), [items])
    expect(text).toBe(
      "id,name\n" +
        "i0,\"'=HYPERLINK(\"\"http://x\"\",\"\"click\"\")\"\n" +
        "i1,\"'+1+cmd|' /C calc'!A0\"\n" +
        "i2,\"'@SUM(1)\"\n" +
        "i3,\"'-2+3\"\n" +
        "i4,\"'\tx\"\n" +
        "i5,\"'\rx\"\n"
    )
    expect(Csv.rows(text).slice(1).map(([, name]) => name)).toEqual(formulas.map((formula) => `'${formula}`))
  })

  it("a cell that is exactly a number is no formula: -1.5 and \"-0.25\" stay as they are; --csv-raw writes every cell as it is", () => {
    const items = [{ a: -1.5, b: "-0.25", c: -3e-7, d: "-12", e: "-", f: "=1", g: " =1", h: "1-2" }]
    const names = ["a", "b", "c", "d", "e", "f", "g", "h"]
    expect(written(Format.listWriter("csv", names), [items]).split("\n")[1]).toBe("-1.5,-0.25,-3e-7,-12,\"'-\",\"'=1\", =1,1-2")
    const raw = written(Format.listWriter("csv", ["name"], { csvRaw: true }), [formulas.map((name) => ({ name }))])
    expect(Csv.rows(raw).slice(1).map(([name]) => name)).toEqual(formulas)
  })

  it("on a terminal, control characters show as U+FFFD, line feeds kept; in a file, as they were", () => {
    const items = [{ id: "a", name: "\u001b]0;pwned\u0007\u001b[2J\u001b[31mred", note: "bare\rCR, DEL\u007f, NEL\u0085, CSI\u009b2J\nnext" }]
    const names = ["id", "name", "note"]
    expect(written(Format.listWriter("csv", names, { terminal: true }), [items])).toBe(
      "id,name,note\na,\uFFFD]0;pwned\uFFFD\uFFFD[2J\uFFFD[31mred,\"bare\uFFFDCR, DEL\uFFFD, NEL\uFFFD, CSI\uFFFD2J\nnext\"\n"
    )
    expect(Csv.rows(written(Format.listWriter("csv", names), [items]))[1]).toEqual(["a", items[0]?.name, items[0]?.note])
  })

  it("parses back to the cells of real models, skills, MCP servers and offers, by default all top-level fields", () => {
    const cases: ReadonlyArray<readonly [Format.OperationLike, ReadonlyArray<unknown>, { readonly fields: object }]> = [
      [Operations.models, wire.models, Resources.Model],
      [Operations.skills, wire.skills, Resources.Skill],
      [Operations.mcps, wire.mcps, Resources.Mcp],
      [Operations.modelOffers, wire.offers, Resources.Offer]
    ]
    for (const [operation, items, schema] of cases) {
      const names = columns(operation, "csv")
      expect(names).toEqual(Object.keys(schema.fields))
      const [header, ...rows] = Csv.rows(written(Format.listWriter("csv", names), chunked(items, 10)))
      expect(header).toEqual(names)
      expect(rows).toEqual(items.map((item) => names.map((name) => expectedCell(field(item, name)))))
    }
    // Real cells that need quoting: JSON objects, lists of values.
    expect(columns(Operations.models, "csv")).toContain("specifications")
    expect(written(Format.listWriter("csv", ["specifications"]), [wire.models.slice(0, 1)])).toMatch(/^specifications\n"\{""/)
  })
})

describe("table", () => {
  it("a header and a separator, columns two spaces apart, widths from the first chunk, longer cells cut with …", () => {
    const writer = Format.listWriter("table", ["id", "name", "tokens"])
    const text = written(writer, [
      [{ id: "a", name: "Kestrel", tokens: "1048576" }, { id: "bb", name: null, tokens: null }],
      [{ id: "ccc", name: "A longer name", tokens: "9007199254740993" }, { id: "d", name: "Atlas", tokens: 7 }]
    ])
    expect(text).toBe(
      "id  name      tokens\n" +
        "--  -------  -------\n" +
        "a   Kestrel  1048576\n" +
        "bb\n" +
        "c…  A long…  900719…\n" +
        "d   Atlas          7\n"
    )
  })

  it("cells are at most 40 characters; line breaks and tabs become spaces", () => {
    const long = "x".repeat(50)
    const text = written(Format.listWriter("table", ["id", "note"]), [[{ id: long, note: "one\ntwo\tthree\r\n" }]])
    expect(text).toBe(
      `id${" ".repeat(38)}  note\n` +
        `${"-".repeat(40)}  ---------------\n` +
        `${"x".repeat(39)}…  one two three\n`
    )
  })

  it("control characters, escape sequences and bidirectional overrides show as U+FFFD, wherever the table is written", () => {
    const text = written(Format.listWriter("table", ["id", "note"]), [[{ id: "a", note: "\u001b[31mred\u007f\u0085\u009b2J\u202eabc\u2069" }]])
    expect(text).toBe("id  note\n--  ------------------\na   \uFFFD[31mred\uFFFD\uFFFD\uFFFD2J\uFFFDabc\uFFFD\n")
  })

  it("the header alone for an empty list", () => {
    expect(written(Format.listWriter("table", ["id", "name"]), [])).toBe("id  name\n--  ----\n")
    expect(written(Format.listWriter("table", ["id", "name"]), [[]])).toBe("id  name\n--  ----\n")
  })

  it("real resources: no line longer than the terminal, no trailing spaces, widths kept across pages", () => {
    const cases: ReadonlyArray<readonly [Format.OperationLike, ReadonlyArray<unknown>]> = [
      [Operations.models, wire.models],
      [Operations.skills, wire.skills],
      [Operations.mcps, wire.mcps],
      [Operations.modelOffers, wire.offers],
      [Operations.organizations, wire.organizations]
    ]
    for (const [operation, items] of cases) {
      for (const width of [Option.some(60), Option.some(100), noWidth]) {
        const names = columns(operation, "table")
        const text = written(Format.listWriter("table", names, { width }), chunked(items, 100))
        const lines = text.split("\n")
        expect(lines.pop()).toBe("")
        expect(lines.length).toBe(items.length + 2)
        for (const line of lines) {
          expect(line).toBe(line.trimEnd())
          if (Option.isSome(width)) expect(Array.from(line).length).toBeLessThanOrEqual(width.value)
        }
        expect(lines[0]?.startsWith(names[0] ?? "")).toBe(true)
        // Every line cut to the width ends with an ellipsis.
        if (Option.isSome(width)) expect(lines.filter((line) => Array.from(line).length === width.value).every((line) => line.endsWith("…"))).toBe(true)
      }
    }
  })

  it("real models: the usual columns, with exact integers right-aligned", () => {
    const names = columns(Operations.models, "table")
    const text = written(Format.listWriter("table", names), chunked(wire.models, 100))
    const [header = "", separator = "", ...rows] = text.split("\n")
    expect(header).toMatch(/^id +name +organization_slug +context_tokens +released_on +reasoning +provider_count$/)
    // Each column's separator spans its width; the context column is right-aligned under its header.
    const spans = [...separator.matchAll(/-+/g)].map((match) => ({ start: match.index ?? 0, end: (match.index ?? 0) + match[0].length }))
    expect(spans.length).toBe(names.length)
    const context = spans[3] ?? { start: 0, end: 0 }
    expect(header.slice(context.start, context.end)).toBe("context_tokens".padStart(context.end - context.start))
    const index = wire.models.findIndex((model) => typeof field(model, "context_tokens") === "string")
    const model = wire.models[index]
    const tokens = String(field(model, "context_tokens"))
    expect(tokens.length).toBeLessThan(context.end - context.start)
    expect(rows[index]?.slice(context.start, context.end)).toBe(tokens.padStart(context.end - context.start))
    expect(rows[index]?.startsWith(`${String(field(model, "id"))} `)).toBe(true)
  })

  it("a long real description is cut at 40 characters with …", () => {
    const text = written(Format.listWriter("table", columns(Operations.skills, "table", Option.some("slug,description"))), [wire.skills])
    const [, separator = "", ...rows] = text.split("\n").slice(0, -1)
    const slugWidth = separator.indexOf(" ")
    expect(rows).toEqual(wire.skills.map((skill) => {
      const description = expectedCell(field(skill, "description"))
      const cell = description.length > 40 ? `${description.slice(0, 39)}…` : description
      return `${String(field(skill, "slug")).padEnd(slugWidth)}  ${cell}`.trimEnd()
    }))
    expect(rows.filter((row) => row.endsWith("…")).length).toBeGreaterThan(0)
  })
})

describe("columns", () => {
  it("each resource has its usual table columns, shared by every operation of its schema", () => {
    const models = ["id", "name", "organization_slug", "context_tokens", "released_on", "reasoning", "provider_count"]
    for (const operation of [Operations.models, Operations.familyModels, Operations.providerModels, Operations.organizationModels]) {
      expect(columns(operation, "table")).toEqual(models)
    }
    const offers = ["id", "provider_id", "channel", "context_tokens", "pricing.input", "pricing.output", "quantization"]
    for (const operation of [Operations.modelOffers, Operations.modelPerformance, Operations.providerOffers]) {
      expect(columns(operation, "table")).toEqual(offers)
    }
    for (const operation of [Operations.skills, Operations.topicSkills]) {
      expect(columns(operation, "table")).toEqual(["id", "name", "source_type", "official", "installs", "license"])
    }
    expect(columns(Operations.mcps, "table")).toEqual(["id", "title", "version", "status", "remote_transport_types"])
    expect(columns(Operations.organizations, "table")).toEqual(["slug", "name", "kind", "followers", "catalog_id"])
    expect(columns(Operations.modelActivity, "table")).toEqual(["day", "tokens", "routes", "observed_at"])
    expect(columns(Operations.search, "table")).toEqual(["id", "name"])
  })

  it("a schema without usual columns shows its first five scalar fields", () => {
    expect(columns(Operations.families, "table")).toEqual(["id", "name", "model_count", "updated_at"])
    expect(columns(Operations.publishers, "table")).toEqual(["id", "source_type", "skill_count"])
    const Wide = Schema.Struct({
      id: Schema.String,
      tags: Schema.Array(Schema.String),
      meta: Schema.Struct({ a: Schema.String }),
      a: Schema.NullOr(Schema.Number),
      b: Schema.Boolean,
      c: Schema.Literal("x", "y"),
      d: Schema.optional(Schema.String),
      e: Schema.String
    })
    expect(columns({ id: "wide", kind: "list", item: Wide }, "table")).toEqual(["id", "a", "b", "c", "d"])
  })

  it("every usual column is a field of its schema", () => {
    for (const operation of Operations.all.filter((operation) => operation.kind === "list")) {
      const names = columns(operation, "table")
      expect(columns(operation, "table", Option.some(names.join(",")))).toEqual(names)
    }
  })

  it("a detail table, JSON and CSV show every top-level field, in schema order", () => {
    expect(columns(Operations.model, "table")).toEqual(Object.keys(Operations.model.item.fields))
    expect(columns(Operations.offer, "json")).toEqual(Object.keys(Operations.offer.item.fields))
    expect(columns(Operations.stats, "table")).toEqual(["id", "models", "skills", "mcps", "organizations", "providers", "families"])
    expect(columns(Operations.families, "csv")).toEqual(["id", "name", "model_count", "updated_at"])
    // A search's items are of several schemas: every field of each, once.
    const search = columns(Operations.search, "csv")
    expect(search.slice(0, 3)).toEqual(["id", "name", "family_id"])
    expect(search).toContain("installs")
    expect(new Set(search).size).toBe(search.length)
  })

  it("fields come from the wire form of classes, transformations and suspended schemas", () => {
    class Thing extends Schema.Class<Thing>("Thing")({
      id: Schema.NumberFromString,
      when: Schema.Date,
      inner: Schema.suspend(() => Schema.Struct({ deep: Schema.String }))
    }) {}
    const thing: Format.OperationLike = { id: "thing", kind: "detail", item: Thing }
    expect(columns(thing, "table")).toEqual(["id", "when", "inner"])
    expect(columns(thing, "table", Option.some("inner.deep"))).toEqual(["inner.deep"])
    const suspended: Format.OperationLike = { id: "suspended", kind: "list", item: Schema.suspend(() => Thing) }
    expect(columns(suspended, "csv")).toEqual(["id", "when", "inner"])
    expect(columns(suspended, "table")).toEqual(["id", "when"])
    // A value sent as a JSON string is one string on the wire: it has no fields.
    const parsed: Format.OperationLike = { id: "parsed", kind: "list", item: Schema.parseJson(Thing) }
    expect(columns(parsed, "csv")).toEqual([])
  })
})

describe("--fields", () => {
  it("overrides the columns: comma-separated, spaces trimmed, dotted paths into nested objects", () => {
    expect(columns(Operations.modelOffers, "table", Option.some("id, pricing.input,pricing.cache_read"))).toEqual(["id", "pricing.input", "pricing.cache_read"])
    expect(columns(Operations.models, "csv", Option.some(["id,name", "reasoning"]))).toEqual(["id", "name", "reasoning"])
    const names = columns(Operations.modelOffers, "table", Option.some("id,pricing.input,pricing"))
    const rows = Csv.rows(written(Format.listWriter("csv", names), [wire.offers])).slice(1)
    expect(rows).toEqual(wire.offers.map((offer) => {
      const pricing = field(offer, "pricing")
      return [String(field(offer, "id")), expectedCell(field(pricing, "input")), JSON.stringify(pricing)]
    }))
  })

  it("an unknown field is a usage error naming it, with the nearest field and the list of fields", () => {
    expect(refusal(Operations.models, "id,nmae")).toBe(
      "UsageError: --fields: unknown field \"nmae\" of models; did you mean `name`? (fields: id, name, family_id, organization_catalog_id, " +
        "organization_slug, released_on, context_tokens, open_weights, reasoning, offer_count, provider_count, updated_at, url, api_url, specifications)"
    )
    expect(refusal(Operations.modelOffers, "pricing.inptu")).toMatch(/^UsageError: --fields: unknown field "pricing.inptu" of modelOffers; did you mean `pricing.input`\? \(fields: id, .*pricing, pricing.input, pricing.output,/)
    expect(refusal(Operations.families, "zzzzzz")).toBe("UsageError: --fields: unknown field \"zzzzzz\" of families (fields: id, name, model_count, updated_at)")
    // The members of an open object are not known to the contract.
    expect(refusal(Operations.models, "specifications.max_output_tokens")).toMatch(/^UsageError: --fields: unknown field "specifications.max_output_tokens" of models/)
    // Too many fields to list: the suggestion alone.
    expect(refusal(Operations.search, "nme")).toBe("UsageError: --fields: unknown field \"nme\" of search; did you mean `name`?")
  })

  it("an empty field name is refused", () => {
    expect(refusal(Operations.models, "id,,name")).toBe("UsageError: --fields: a field name is empty in \"id,,name\"")
    expect(refusal(Operations.models, "id,")).toBe("UsageError: --fields: a field name is empty in \"id,\"")
    expect(refusal(Operations.models, "")).toBe("UsageError: --fields: a field name is empty in \"\"")
  })
})

describe("a single resource", () => {
  const family = { id: "f0000-yarrow", name: "Yarrow 0", model_count: 1, updated_at: null, tags: ["a", "b"] }

  it("json: one compact line, or indented by two spaces on a terminal", () => {
    const options = { columns: [], width: noWidth }
    expect(Format.renderDetail("json", family, { ...options, terminal: false })).toBe(
      "{\"id\":\"f0000-yarrow\",\"name\":\"Yarrow 0\",\"model_count\":1,\"updated_at\":null,\"tags\":[\"a\",\"b\"]}\n"
    )
    expect(Format.renderDetail("json", family, { ...options, terminal: true })).toBe(
      "{\n  \"id\": \"f0000-yarrow\",\n  \"name\": \"Yarrow 0\",\n  \"model_count\": 1,\n  \"updated_at\": null,\n  \"tags\": [\n    \"a\",\n    \"b\"\n  ]\n}\n"
    )
    const model = wire.models[0]
    expect(JSON.parse(Format.renderDetail("json", model, { ...options, terminal: true }))).toEqual(model)
  })

  it("json on a terminal: the controls JSON.stringify leaves raw are JSON escapes, and it parses back to the resource", () => {
    const hostile = { ...family, name: "\u009b2J\u001b[31m\u202e" }
    const shown = Format.renderDetail("json", hostile, { columns: [], width: noWidth, terminal: true })
    expect(shown).toContain('"name": "\\u009b2J\\u001b[31m\\u202e"')
    expect(JSON.parse(shown)).toEqual(hostile)
    expect(Format.renderDetail("json", hostile, { columns: [], width: noWidth, terminal: false })).toBe(`${JSON.stringify(hostile)}\n`)
    const table = Format.renderDetail("table", hostile, { columns: ["name"], width: noWidth, terminal: true })
    expect(table).toBe("field  value\n-----  ---------\nname   \uFFFD2J\uFFFD[31m\uFFFD\n")
  })

  it("table: a row per column, field and value", () => {
    const names = ["id", "name", "model_count", "updated_at", "tags"]
    expect(Format.renderDetail("table", family, { columns: names, terminal: true, width: noWidth })).toBe(
      "field        value\n" +
        "-----------  ------------\n" +
        "id           f0000-yarrow\n" +
        "name         Yarrow 0\n" +
        "model_count  1\n" +
        "updated_at\n" +
        "tags         a, b\n"
    )
    expect(Format.renderDetail("table", family, { columns: ["id", "name"], terminal: false, width: Option.some(16) })).toBe(
      "field  value\n-----  --------…\nid     f0000-ya…\nname   Yarrow 0\n"
    )
  })

  it("table of a real skill: every field once, whole unless the terminal is narrower", () => {
    const skill = wire.skills[0]
    const names = columns(Operations.skill, "table")
    const whole = Format.renderDetail("table", skill, { columns: names, terminal: false, width: noWidth }).split("\n").slice(2, -1)
    expect(whole.map((line) => line.split(" ")[0])).toEqual(names)
    const description = String(field(skill, "description"))
    expect(whole[names.indexOf("description")]).toBe(`description  ${description.replace(/\s+$/, "")}`)
    const narrow = Format.renderDetail("table", skill, { columns: names, terminal: false, width: Option.some(50) }).split("\n").slice(0, -1)
    expect(narrow.every((line) => Array.from(line).length <= 50 && line === line.trimEnd())).toBe(true)
    expect(narrow[names.indexOf("description") + 2]).toBe(`description  ${description.slice(0, 36)}…`)
  })
})
