/**
 * How the `catalog` command shows what it reads: a list as NDJSON, one JSON
 * array, a table or CSV, written page by page as it comes; a single resource
 * as JSON or as a table of its fields. Everything here is pure and works on
 * wire items, the JSON values the service sent; the command writes the text.
 */
import { Either, Option, Predicate, type Schema, SchemaAST as AST } from "effect"
import * as Operations from "../../../../common/src/contract/Operations.js"
import * as Resources from "../../../../common/src/contract/Resources.js"
import { didYouMean } from "../../internal/Suggest.js"
import { UsageError } from "../CliError.js"
import * as TerminalText from "../../../../rules/src/TerminalText.js"

/**
 * How a list is written: NDJSON (one item a line), one JSON array, a table
 * for people, or CSV.
 */
export type ListFormat = "ndjson" | "json" | "table" | "csv"

/**
 * Every list format, for `Options.choice`.
 */
export const listFormats: ReadonlyArray<ListFormat> = ["ndjson", "json", "table", "csv"]

/**
 * How a single resource is written: JSON, or a table of its fields.
 */
export type DetailFormat = "json" | "table"

/**
 * Every detail format, for `Options.choice`.
 */
export const detailFormats: ReadonlyArray<DetailFormat> = ["json", "table"]

// Fields of a schema ---------------------------------------------------------

/** How deep dotted paths go (so that a recursive schema ends). */
const maxDepth = 4

/** The widest column of a table, in characters. */
const maxColumnWidth = 40

/** What an AST is made of: a union's members, or the schema under a suspension or a refinement. */
const inner = (ast: AST.AST): ReadonlyArray<AST.AST> =>
  AST.isUnion(ast) ? ast.types : AST.isSuspend(ast) ? [ast.f()] : AST.isRefinement(ast) ? [ast.from] : []

/** The property signatures of an encoded AST: a struct's, or those of what it is made of (every member of a union). */
const propertiesOf = (ast: AST.AST): ReadonlyArray<AST.PropertySignature> =>
  AST.isTypeLiteral(ast) ? ast.propertySignatures : inner(ast).flatMap(propertiesOf)

/** The named fields of an encoded AST, in schema order. */
const fieldsOf = (ast: AST.AST): ReadonlyArray<{ readonly name: string; readonly type: AST.AST }> =>
  propertiesOf(ast).flatMap(({ name, type }) => typeof name === "string" ? [{ name, type }] : [])

/** The field paths of an encoded AST, `parent.child` for nested structs, in schema order. */
const pathsOf = (ast: AST.AST, depth: number): ReadonlyArray<string> =>
  depth === 0 ? [] : [
    ...new Set(fieldsOf(ast).flatMap(({ name, type }) => [name, ...pathsOf(type, depth - 1).map((path) => `${name}.${path}`)]))
  ]

const scalars: ReadonlySet<AST.AST["_tag"]> = new Set([
  "StringKeyword", "NumberKeyword", "BooleanKeyword", "Literal", "Enums", "TemplateLiteral", "UndefinedKeyword"
])

/** Whether an encoded value of this AST is a string, number, boolean or null. */
const isScalar = (ast: AST.AST): boolean => {
  const parts = inner(ast)
  return scalars.has(ast._tag) || (parts.length > 0 && parts.every(isScalar))
}

/** A top-level field of a schema's wire form, or a path under one. */
type Column<S extends Schema.Schema.AnyNoContext> =
  | Extract<keyof Schema.Schema.Encoded<S>, string>
  | `${Extract<keyof Schema.Schema.Encoded<S>, string>}.${string}`

const columnsFor = <S extends Schema.Schema.AnyNoContext>(
  schema: S,
  ...columns: ReadonlyArray<Column<S>>
): readonly [Schema.Schema.AnyNoContext, ReadonlyArray<string>] => [schema, columns]

/**
 * The columns a table of a list shows by default, once per item schema.
 * Other schemas (families, publishers) show their first scalar fields.
 */
const tableColumns = new Map([
  columnsFor(Resources.Model, "id", "name", "organization_slug", "context_tokens", "released_on", "reasoning", "provider_count"),
  columnsFor(Resources.Offer, "id", "provider_id", "channel", "context_tokens", "pricing.input", "pricing.output", "quantization"),
  columnsFor(Resources.Provider, "id", "name", "model_count", "api_url"),
  columnsFor(Resources.Organization, "slug", "name", "kind", "followers", "catalog_id"),
  columnsFor(Resources.Resource, "id", "kind", "title", "items_truncated", "updated_at"),
  columnsFor(Resources.Skill, "id", "name", "source_type", "official", "installs", "license"),
  columnsFor(Resources.Mcp, "id", "title", "version", "status", "remote_transport_types"),
  columnsFor(Resources.Observation, "id", "dataset", "route_id", "observed_at", "observation"),
  columnsFor(Resources.Activity, "day", "tokens", "routes", "observed_at"),
  columnsFor(Resources.Topic, "id", "name", "description"),
  columnsFor(Resources.Article, "slug", "title", "published_at", "updated_at"),
  columnsFor(Operations.SearchResult, "id", "name")
])

/**
 * What `columnsOf` needs of an operation: its id (for messages), its kind
 * and its item schema. Every `Operations.AnyOperation` is one.
 */
export interface OperationLike {
  readonly id: string
  readonly kind: "list" | "detail"
  readonly item: Schema.Schema.AnyNoContext
}

/** A list's table: its schema's usual columns, or its first five scalar fields; else every top-level field. */
const defaultColumns = (operation: OperationLike, format: ListFormat, encoded: AST.AST): ReadonlyArray<string> =>
  format === "table" && operation.kind === "list"
    ? tableColumns.get(operation.item) ??
      [...new Set(fieldsOf(encoded).filter(({ type }) => isScalar(type)).map(({ name }) => name))].slice(0, 5)
    : pathsOf(encoded, 1)

/** The refusal of an unknown field, with the nearest ones and, when it is short, the list of fields. */
const unknownField = (id: string, name: string, valid: ReadonlyArray<string>): UsageError => {
  const listed = valid.join(", ")
  return new UsageError({
    detail: `--fields: unknown field ${JSON.stringify(name)} of ${id}${didYouMean(name, valid)}${
      listed.length <= 400 ? ` (fields: ${listed})` : ""
    }`
  })
}

const checked = (id: string, encoded: AST.AST, given: ReadonlyArray<string>): Either.Either<ReadonlyArray<string>, UsageError> => {
  const names = given.flatMap((text) => text.split(",")).map((name) => name.trim())
  if (names.includes("")) {
    return Either.left(new UsageError({ detail: `--fields: a field name is empty in ${JSON.stringify(given.join(","))}` }))
  }
  const valid = pathsOf(encoded, maxDepth)
  const unknown = names.find((name) => !valid.includes(name))
  return unknown === undefined ? Either.right(names) : Either.left(unknownField(id, unknown, valid))
}

/**
 * The columns to show of an operation's items: `--fields` (comma-separated,
 * dotted paths for nested objects) checked against the item schema's wire
 * form, or by default the resource's usual columns for a list table, and all
 * top-level fields otherwise (CSV, a detail table). NDJSON and JSON keep
 * the fields of `--fields` alone (`ListOptions.fields`), and without it
 * write the items whole.
 */
export const columnsOf = (
  operation: OperationLike,
  format: ListFormat,
  fields: Option.Option<string | ReadonlyArray<string>>
): Either.Either<ReadonlyArray<string>, UsageError> => {
  const encoded = AST.encodedAST(operation.item.ast)
  return Option.match(fields, {
    onNone: () => Either.right(defaultColumns(operation, format, encoded)),
    onSome: (given) => checked(operation.id, encoded, typeof given === "string" ? [given] : given)
  })
}

// Cells ----------------------------------------------------------------------

const valueAt = (item: unknown, column: string): unknown =>
  column.split(".").reduce<unknown>(
    (value, key) => Predicate.isRecord(value) && Object.hasOwn(value, key) ? value[key] : undefined,
    item
  )

const isScalarValue = (value: unknown): boolean =>
  value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean"

/** A value as text: scalars as they are, null as nothing, a list of scalars joined, anything else as JSON. */
const cellText = (value: unknown): string => {
  if (value === null || value === undefined) return ""
  if (typeof value === "string") return value
  if (typeof value === "number" || typeof value === "boolean") return String(value)
  if (Array.isArray(value) && value.every(isScalarValue)) return value.map(cellText).join(", ")
  return JSON.stringify(value)
}

/** A decimal number, as JSON writes one or as the contract sends one in a string (a price, a count of tokens). */
const decimal = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/

const rowsOf = (columns: ReadonlyArray<string>, items: ReadonlyArray<unknown>): ReadonlyArray<ReadonlyArray<string>> =>
  items.map((item) => columns.map((column) => cellText(valueAt(item, column))))

// Tables ---------------------------------------------------------------------

/** Length in code points. */
const lengthOf = (text: string) => Array.from(text).length

/** Text cut to `width` code points, ending with `…` when cut. */
const cut = (text: string, width: number): string => {
  const points = Array.from(text)
  if (points.length <= width) return text
  return width < 1 ? "" : `${points.slice(0, width - 1).join("")}…`
}

interface Layout {
  readonly columns: ReadonlyArray<{ readonly width: number; readonly right: boolean }>
  /** The terminal's width: no line is longer. */
  readonly width: Option.Option<number>
}

const line = (layout: Layout, cells: ReadonlyArray<string>): string => {
  const text = cells.map((cell, index) => {
    const { right = false, width = 0 } = layout.columns[index] ?? {}
    const shown = cut(TerminalText.line(cell), width)
    const fill = " ".repeat(Math.max(0, width - lengthOf(shown)))
    return right ? fill + shown : shown + fill
  }).join("  ").trimEnd()
  return `${Option.match(layout.width, { onNone: () => text, onSome: (width) => cut(text, width) })}\n`
}

const lines = (layout: Layout, rows: ReadonlyArray<ReadonlyArray<string>>) => rows.map((row) => line(layout, row)).join("")

/** A header row, a separator row (at most as wide as a capped column), then the rows. */
const tableText = (layout: Layout, header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>) =>
  line(layout, header) + line(layout, layout.columns.map(({ width }) => "-".repeat(Math.min(width, maxColumnWidth)))) +
  lines(layout, rows)

const isNumeric = (values: ReadonlyArray<unknown>) =>
  values.some((value) => value !== null && value !== undefined) &&
  values.every((value) => value === null || value === undefined || typeof value === "number" || (typeof value === "string" && decimal.test(value)))

/** Column widths from the names and these items (capped), numbers right-aligned. */
const layoutOf = (columns: ReadonlyArray<string>, items: ReadonlyArray<unknown>, width: Option.Option<number>): Layout => ({
  columns: columns.map((column) => {
    const values = items.map((item) => valueAt(item, column))
    const widest = values.reduce<number>((widest, value) => Math.max(widest, lengthOf(cellText(value))), lengthOf(column))
    return { width: Math.min(widest, maxColumnWidth), right: isNumeric(values) }
  }),
  width
})

// Projections ----------------------------------------------------------------

/** What a projection keeps of a value: all of it, or some of its fields, each with what it keeps of that field. */
type Kept = true | Map<string, Kept>

/** Adds a field, as its keys, to what is kept: in the order first named; a field named whole keeps all of itself, whatever else names a part of it. */
const add = (kept: Map<string, Kept>, keys: ReadonlyArray<string>): void => {
  const [key = "", ...rest] = keys
  const below = kept.get(key)
  if (below === true) return
  if (rest.length === 0) return void kept.set(key, true)
  const level = below ?? new Map<string, Kept>()
  kept.set(key, level)
  add(level, rest)
}

/** What is kept of a value; a field the value lacks is null, as is a part of one that is not an object. */
const keep = (value: unknown, kept: Kept): unknown => {
  if (kept === true || !Predicate.isRecord(value)) return value ?? null
  const result: Record<string, unknown> = {}
  for (const [key, below] of kept) result[key] = keep(Object.hasOwn(value, key) ? value[key] : undefined, below)
  return result
}

/**
 * The projection of items on fields (`--fields` of NDJSON, JSON and `get`):
 * each item as a new object of these fields alone, in the order given,
 * dotted paths rebuilt as nested objects (`pricing.input` gives
 * `{"pricing":{"input":…}}`). A field the item lacks is `null`, so that
 * every line has every field named.
 */
export const projection = (fields: ReadonlyArray<string>): (item: unknown) => unknown => {
  const kept = new Map<string, Kept>()
  for (const field of fields) add(kept, field.split("."))
  return (item) => keep(item, kept)
}

/** An item as one line of JSON. */
type Encode = (item: unknown) => string

const wire: Encode = (item) => JSON.stringify(item)

/** Items as JSON: whole, exactly as sent, or projected on the fields. */
const encoderOf = (fields: Option.Option<ReadonlyArray<string>>): Encode =>
  Option.match(fields, {
    onNone: () => wire,
    onSome: (names) => {
      const keepOf = projection(names)
      return (item) => JSON.stringify(keepOf(item))
    }
  })

// Lists ----------------------------------------------------------------------

/**
 * Writes a list chunk by chunk, in bounded memory: `header`, then the text
 * of each chunk, each given by the writer the previous chunk returned, then
 * the last writer's `footer`. A writer is a value: writing a chunk returns
 * the text and the writer for what follows (a table keeps the widths of its
 * first chunk, a JSON array knows whether it has items).
 */
export interface ListWriter {
  /** Text before the first item. */
  readonly header: string
  /** The text of these items, and the writer of the items after them. */
  readonly chunk: (items: ReadonlyArray<unknown>) => { readonly text: string; readonly next: ListWriter }
  /** Text after the last item. */
  readonly footer: string
}

const repeating = (header: string, text: (items: ReadonlyArray<unknown>) => string): ListWriter => {
  const writer: ListWriter = { header, chunk: (items) => ({ text: text(items), next: writer }), footer: "" }
  return writer
}

const ndjsonOf = (encode: Encode) => repeating("", (items) => items.map((item) => `${encode(item)}\n`).join(""))

const ndjson = ndjsonOf(wire)

const jsonArray = (encode: Encode, started: boolean): ListWriter => ({
  header: "[",
  chunk: (items) =>
    items.length === 0
      ? { text: "", next: jsonArray(encode, started) }
      : { text: `${started ? ",\n" : "\n"}${items.map(encode).join(",\n")}`, next: jsonArray(encode, true) },
  footer: started ? "\n]\n" : "]\n"
})

/** A quoted CSV field (RFC 4180): its quotes doubled. */
const quoted = (text: string) => `"${text.replaceAll("\"", "\"\"")}"`

/** A CSV field as it is: quoted when it holds a quote, a comma or a line break. */
const rawField = (text: string) => /[",\r\n]/.test(text) ? quoted(text) : text

/** What begins a formula in a spreadsheet (OWASP, CSV injection): `=`, `+`, `-`, `@`, a tab or a CR. */
const formulaStart = /^[=+\-@\t\r]/

/**
 * A CSV field no spreadsheet runs: a cell that begins like a formula gets a
 * single quote before it, and is quoted (OWASP). A cell that is exactly a
 * number (`-1.5`) is left as it is, though `-` begins it: a spreadsheet
 * reads it as that number and runs nothing, and every negative price or
 * count would otherwise become text.
 */
const inertField = (text: string) => formulaStart.test(text) && !decimal.test(text) ? quoted(`'${text}`) : rawField(text)

const csv = (columns: ReadonlyArray<string>, field: (text: string) => string): ListWriter => {
  const row = (cells: ReadonlyArray<string>) => `${cells.map(field).join(",")}\n`
  return repeating(row(columns), (items) => rowsOf(columns, items).map(row).join(""))
}

const table = (columns: ReadonlyArray<string>, width: Option.Option<number>): ListWriter => {
  const first: ListWriter = {
    header: "",
    chunk: (items) => {
      if (items.length === 0) return { text: "", next: first }
      const layout = layoutOf(columns, items, width)
      const rest = repeating("", (later) => lines(layout, rowsOf(columns, later)))
      return { text: tableText(layout, columns, rowsOf(columns, items)), next: rest }
    },
    // An empty list: the header alone.
    footer: tableText(layoutOf(columns, [], width), columns, [])
  }
  return first
}

/**
 * How a list is written besides its format and its columns.
 */
export interface ListOptions {
  /** The terminal's width: no line of a table is longer. None when absent. */
  readonly width?: Option.Option<number>
  /**
   * Whether the text shows on a terminal: then text from the service is
   * made inert (`Output.isTerminal` tells). Absent or false: JSON and NDJSON
   * are exactly `JSON.stringify` of each item.
   */
  readonly terminal?: boolean
  /** CSV cells that begin like a formula are written as they are (`--csv-raw`); absent or false, they are neutralised. */
  readonly csvRaw?: boolean
  /**
   * The fields NDJSON and JSON keep of each item (`--fields`, checked by
   * `columnsOf`), as `projection` keeps them. None or absent: each item
   * whole, as the service sent it.
   */
  readonly fields?: Option.Option<ReadonlyArray<string>>
}

/** A writer whose every text goes through `shown`. */
const shownWith = (writer: ListWriter, shown: (text: string) => string): ListWriter => ({
  header: shown(writer.header),
  chunk: (items) => {
    const { next, text } = writer.chunk(items)
    return { text: shown(text), next: shownWith(next, shown) }
  },
  footer: shown(writer.footer)
})

/**
 * The writer of a list in a format, with its columns (tables and CSV). CSV
 * cells that begin like a formula (`=`, `+`, `-`, `@`, a tab, a CR) are
 * neutralised, a single quote before them, unless `csvRaw`. On a terminal,
 * JSON and NDJSON escape the control characters `JSON.stringify` leaves raw
 * (`\u009b`), CSV shows them as a placeholder, as a table's cells always
 * do. A table is cut to the terminal's `width`.
 */
export const listWriter = (
  format: ListFormat,
  columns: ReadonlyArray<string>,
  options: ListOptions = {}
): ListWriter => {
  // Written exactly unless it shows on a terminal: the path of NDJSON to a pipe or a file is JSON.stringify alone.
  const terminal = options.terminal === true
  const fields = options.fields ?? Option.none()
  switch (format) {
    case "ndjson": {
      const writer = Option.isSome(fields) ? ndjsonOf(encoderOf(fields)) : ndjson
      return terminal ? shownWith(writer, TerminalText.json) : writer
    }
    case "json": {
      const writer = jsonArray(encoderOf(fields), false)
      return terminal ? shownWith(writer, TerminalText.json) : writer
    }
    case "csv": {
      const writer = csv(columns, options.csvRaw === true ? rawField : inertField)
      return terminal ? shownWith(writer, TerminalText.lines) : writer
    }
    case "table":
      return table(columns, options.width ?? Option.none())
  }
}

// A single resource ----------------------------------------------------------

/**
 * How a single resource is written: its columns (a table's rows), whether
 * it shows on a terminal, and the terminal's width.
 */
export interface DetailOptions {
  readonly columns: ReadonlyArray<string>
  /**
   * Whether the text shows on a terminal (`Output.isTerminal` tells): JSON
   * indented by two spaces, the control characters `JSON.stringify` leaves
   * raw escaped (`\u009b`). Else JSON is one line, exactly `JSON.stringify`.
   */
  readonly terminal: boolean
  readonly width: Option.Option<number>
  /**
   * The fields JSON keeps (`--fields`), as `projection` keeps them. None or
   * absent: the resource whole, as the service sent it.
   */
  readonly fields?: Option.Option<ReadonlyArray<string>>
}

/**
 * A single resource as text: JSON (for a terminal indented by two spaces
 * and inert, else one line), or a table of two columns, `field` and
 * `value`, one row per column, its cells inert.
 */
export const renderDetail = (format: DetailFormat, item: unknown, options: DetailOptions): string => {
  if (format === "json") {
    const shown = Option.match(options.fields ?? Option.none(), { onNone: () => item, onSome: (fields) => projection(fields)(item) })
    return options.terminal ? `${TerminalText.json(JSON.stringify(shown, null, 2))}\n` : `${JSON.stringify(shown)}\n`
  }
  const values = options.columns.map((column) => cellText(valueAt(item, column)))
  const widest = (texts: ReadonlyArray<string>) => texts.reduce((widest, text) => Math.max(widest, lengthOf(text)), 0)
  const layout: Layout = {
    columns: [
      { width: Math.min(widest(["field", ...options.columns]), maxColumnWidth), right: false },
      // The value column is the last: shown whole, unless the terminal is narrower.
      { width: widest(["value", ...values]), right: false }
    ],
    width: options.width
  }
  return tableText(layout, ["field", "value"], options.columns.map((column, index) => [column, values[index] ?? ""]))
}

/**
 * Rows as aligned columns, two spaces apart: the first column to the left,
 * the others to the right; one line each.
 */
export const aligned = (rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const widths = (rows[0] ?? []).map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length)))
  const lines = rows.map((row) => row.map((cell, column) => column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)).join("  "))
  return `${lines.join("\n")}\n`
}
