/**
 * The subcommands of `catalog` (`scan`, `get`, `search`, `stats`, `usage`,
 * with `mirror`, `plan` and `simulator` from their own modules), their
 * options and the examples and sections of their help; and the `catalog`
 * command that holds them.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Effect, Option } from "effect"
import * as CatalogClient from "../../../../common/src/client/CatalogClient.js"
import * as Operations from "../../../../common/src/contract/Operations.js"
import * as Parameters from "../../../../common/src/contract/Parameters.js"
import { alternatives } from "../../internal/Suggest.js"
import { command as simulatorCommand } from "../../simulator/Command.js"
import type { UsageError } from "../CliError.js"
import * as Connection from "./Connection.js"
import * as Dispatch from "./Dispatch.js"
import * as Format from "./Format.js"
import * as Handler from "./Handler.js"
import * as Help from "./Help.js"
import * as Listing from "./Listing.js"
import * as MirrorCommand from "./MirrorCommand.js"
import * as Output from "./Output.js"

const pageSize = Connection.optional(
  Options.integer("page-size"),
  `Items per request (the operation's maximum at most: ${Operations.models.maxLimit}, ${Operations.search.maxLimit} for search)`
)
const maxItems = Connection.optional(Options.integer("max"), "Stop after this many items")
const out = Connection.optional(Options.text("out"), "Write to this file instead of stdout (- is stdout)")
const fields = Connection.optional(
  Options.text("fields"),
  "The fields to write, in this order, comma-separated, nested ones with dots (pricing.input): the columns of a table or CSV, the fields of each JSON object"
)

/** The options of a list: what `scan` and `search` take besides their arguments. */
const listOptions = {
  format: Options.choice("format", Format.listFormats).pipe(
    Options.withDescription("ndjson (one JSON line per item, the default), json (one array), table or csv"),
    Options.withDefault("ndjson")
  ),
  fields,
  csvRaw: Options.boolean("csv-raw").pipe(
    Options.withDescription(
      "Write CSV cells that begin with = + - @, a tab or a CR as they are; by default a ' goes before them, so that no spreadsheet runs them as formulas"
    )
  ),
  pageSize,
  max: maxItems,
  out,
  quiet: Options.boolean("quiet").pipe(Options.withDescription("No progress line and no summary line on stderr")),
  noTotal: Options.boolean("no-total").pipe(
    Options.withDescription("Do not read the total for the progress line from /stats/ (1 unit; read only when stderr is a terminal)")
  ),
  ...Connection.options
}

/** The options of a single resource. */
const detailOptions = {
  format: Options.choice("format", Format.detailFormats).pipe(
    Options.withDescription("json (the default; pretty on a terminal) or table"),
    Options.withDefault("json")
  ),
  fields,
  ...Connection.options
}

/** Every `--name` a list takes besides its filters, for the suggestions of a mistyped one. */
const listOptionNames = Help.optionNames(Command.make("list", listOptions).descriptor)

/** Every `--name` a detail read takes. */
const detailOptionNames = Help.optionNames(Command.make("detail", detailOptions).descriptor)

const checkMax = (max: Option.Option<number>): Effect.Effect<void, UsageError> =>
  Option.isSome(max) && max.value < 1 ? Effect.fail(Connection.usageError("--max must be 1 or more")) : Effect.void

/** The parsed options of a list. */
type ListParsed = Command.Command.ParseConfig<typeof listOptions>

/**
 * Items per request: `--page-size`, or else `--max` when it is fewer than
 * the operation's largest page (a few items are one small request, never a
 * page too large to send); none leaves the client its own.
 */
const pageSizeOf = (parsed: ListParsed, maxLimit: number): Option.Option<number> =>
  Option.orElse(parsed.pageSize, () => Option.filter(parsed.max, (max) => max >= 1 && max < maxLimit))

/** Writes warnings on stderr, through the command's logger, before anything is sent. */
const warnAll = (warnings: ReadonlyArray<string>): Effect.Effect<void> =>
  Effect.forEach(warnings, (warning) => Effect.logWarning(warning), { discard: true })

/** Runs a prepared list with the options every list takes. */
const runList = (parsed: ListParsed, label: string, operation: Operations.ListOperation, run: Dispatch.ListRun, plain: boolean) =>
  Effect.gen(function*() {
    yield* checkMax(parsed.max)
    const columns = yield* Format.columnsOf(operation, parsed.format, parsed.fields)
    const limits = yield* Connection.limitsOf(parsed)
    // On a terminal shared with the items, a progress line would mix with them.
    const toTerminal = Output.isTerminal(parsed.out)
    const showsProgress = process.stderr.isTTY === true && !parsed.quiet && !toTerminal
    yield* Connection.withClient(
      parsed,
      Listing.scanTo({
        label,
        operation,
        run,
        out: parsed.out,
        max: parsed.max,
        writer: Format.listWriter(parsed.format, columns, {
          width: Output.terminalWidth,
          terminal: toTerminal,
          csvRaw: parsed.csvRaw,
          fields: Option.as(parsed.fields, columns)
        }),
        pageSize: Option.getOrElse(pageSizeOf(parsed, operation.maxLimit), () => operation.maxLimit),
        limits,
        progress: showsProgress,
        readTotal: showsProgress && plain && !parsed.noTotal && Operations.isCollectionId(operation.id),
        quiet: parsed.quiet
      })
    )
  })

const scan = Command.make(
  "scan",
  {
    operationId: Args.text({ name: "operationId" }).pipe(Args.withDescription("A list operation (catalog help scan lists them)")),
    rest: Args.text({ name: "parameter" }).pipe(
      Args.withDescription("The path parameters of the operation, in order (or the resource's id as scan prints it), and its filters as --name value"),
      Args.repeated
    ),
    ...listOptions
  },
  (parsed) =>
    Handler.handled(Effect.gen(function*() {
      const named = Operations.all.find((operation): operation is Operations.ListOperation =>
        operation.kind === "list" && operation.id === parsed.operationId
      )
      const pageSize = named === undefined ? parsed.pageSize : pageSizeOf(parsed, named.maxLimit)
      const { operation, run, warnings } = yield* Dispatch.prepareList(parsed.operationId, parsed.rest, pageSize, listOptionNames)
      yield* warnAll(warnings)
      const plain = parsed.rest.length === 0
      yield* runList(parsed, `scan ${operation.id}`, operation, run, plain)
    }))
).pipe(Command.withDescription(
  "Write every item of a list operation, page by page: NDJSON by default, or a JSON array, a table or CSV. The progress line (on a terminal) shows the total when the list is a whole collection."
))

const scanGuide: Help.Guide = {
  sections: [{
    title: "List operations (path parameters, then filters)",
    lines: Operations.all.filter((operation) => operation.kind === "list" && operation.id !== "search").map(Dispatch.usageOf)
  }, {
    title: "Untrusted text",
    lines: [
      "On a terminal, control characters and escape sequences in what the service sent show as U+FFFD (\uFFFD); to a pipe or a file, NDJSON and JSON are exact.",
      "CSV cells that begin with = + - @, a tab or a CR get a ' before them, so that no spreadsheet runs them (--csv-raw: as they are)."
    ]
  }],
  examples: [
    "catalog scan models --reasoning true --max 5 --format table",
    "catalog scan models --out models.ndjson",
    "catalog scan modelOffers o0000-falcon m0000001-atlas-70b --format csv",
    "catalog scan modelOffers o0000-falcon/m0000001-atlas-70b",
    "catalog scan skills --format csv --csv-raw --max 20 --out skills.csv",
    "catalog scan skills --fields id,name,installs --format table --max 10"
  ]
}

const isUrl = (target: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(target)

type DetailParsed = Command.Command.ParseConfig<typeof detailOptions>

/** Writes one resource read, in the format asked for. */
const writeOne = (parsed: DetailParsed, { operation, wire }: Dispatch.Read) =>
  Effect.gen(function*() {
    const columns = yield* Format.columnsOf(operation, "table", parsed.fields)
    const terminal = Output.isTerminal(Option.none())
    yield* Output.stdout.write(
      Format.renderDetail(parsed.format, wire, { columns, terminal, width: Output.terminalWidth, fields: Option.as(parsed.fields, columns) })
    )
  })

/** Writes one resource in the format asked for; the columns are checked before the request. */
const printOne = (parsed: DetailParsed, operation: Operations.AnyOperation, run: Dispatch.DetailRun) =>
  Effect.gen(function*() {
    yield* Format.columnsOf(operation, "table", parsed.fields)
    const read = Effect.flatMap(CatalogClient.CatalogClient, (catalog) => run(catalog))
    yield* writeOne(parsed, yield* Connection.withClient(parsed, read))
  })

/**
 * Writes what an `api_url` names: a resource as `printOne` does, or a list
 * (a resource's `api_url` and its sub-list) scanned whole, as NDJSON (a
 * table with `--format table`).
 */
const printUrl = (parsed: DetailParsed, apiUrl: string) =>
  Effect.gen(function*() {
    const limits = yield* Connection.limitsOf(parsed)
    const written = Effect.gen(function*() {
      const target = yield* Dispatch.followUrl(apiUrl)(yield* CatalogClient.CatalogClient)
      if (target._tag === "Resource") return yield* writeOne(parsed, target.read)
      const format = parsed.format === "table" ? "table" : "ndjson"
      const columns = yield* Format.columnsOf(target.operation, format, parsed.fields)
      yield* warnAll(target.warnings)
      yield* Listing.scanTo({
        label: `get ${target.operation.id}`,
        operation: target.operation,
        run: target.run,
        out: Option.none(),
        max: Option.none(),
        writer: Format.listWriter(format, columns, { width: Output.terminalWidth, terminal: Output.isTerminal(Option.none()), csvRaw: false }),
        pageSize: target.operation.maxLimit,
        limits,
        progress: false,
        readTotal: false,
        quiet: true
      })
    }).pipe(
      // An api_url of another service was typed in: the mistake is the command line's, not the service's.
      Effect.catchTag("UnsafeLink", (refused): Effect.Effect<never, UsageError> =>
        Effect.fail(Connection.usageError(
          `a link to ${refused.link} is not below the base URL ${refused.baseUrl}: give an api_url the service returned, or an operation (catalog help get)`
        )))
    )
    yield* Connection.withClient(parsed, written)
  })

const get = Command.make(
  "get",
  {
    target: Args.text({ name: "operationId | api_url" }).pipe(
      Args.withDescription("A detail operation (catalog help get lists them), or an api_url the service returned")
    ),
    rest: Args.text({ name: "parameter" }).pipe(Args.withDescription("The path parameters of the operation, in order, or the resource's id as scan prints it"), Args.repeated),
    ...detailOptions
  },
  (parsed) =>
    Handler.handled(Effect.gen(function*() {
      if (isUrl(parsed.target) && parsed.rest.length > 0) {
        return yield* Connection.usageError(`an api_url takes no path parameters; got ${parsed.rest.join(" ")}`)
      }
      if (isUrl(parsed.target)) return yield* printUrl(parsed, parsed.target)
      const { operation, run } = yield* Dispatch.prepareDetail(parsed.target, parsed.rest, detailOptionNames)
      yield* printOne(parsed, operation, run)
    }))
).pipe(Command.withDescription("Write one resource: JSON (pretty on a terminal) or a table of its fields."))

const getGuide: Help.Guide = {
  sections: [{
    title: "Detail operations (path parameters)",
    lines: Operations.all.filter((operation) => operation.kind === "detail").map(Dispatch.usageOf)
  }, {
    title: "Ids and api_urls",
    lines: [
      "Where a resource's id holds its path parameters, the id alone takes their place, as scan prints it: model, skill, mcp and their sub-resources.",
      "An api_url of a list (a resource's api_url and its sub-list, …/offers/) is scanned: NDJSON, or a table with --format table."
    ]
  }],
  examples: [
    "catalog get model o0000-falcon m0000001-atlas-70b",
    "catalog get model o0000-falcon/m0000001-atlas-70b",
    "catalog get model o0000-falcon m0000001-atlas-70b --format table",
    "catalog get organization falcon-tundra-0 --fields slug,name,kind --format table"
  ]
}

const search = Command.make(
  "search",
  {
    type: Args.text({ name: "type" }).pipe(Args.withDescription(alternatives(Parameters.SearchType.literals))),
    q: Args.text({ name: "q" }).pipe(Args.withDescription("The search text (2 to 120 characters)")),
    ...listOptions
  },
  (parsed) =>
    Handler.handled(Effect.gen(function*() {
      const run = yield* Dispatch.listRun(Operations.search, {
        path: [],
        query: { type: parsed.type, q: parsed.q },
        labels: { type: "<type>", q: "<q>" },
        pageSize: pageSizeOf(parsed, Operations.search.maxLimit)
      })
      yield* runList(parsed, `search ${parsed.type}`, Operations.search, run, false)
    }))
).pipe(Command.withDescription("Write the items a search finds (5 units a page), in the formats of scan."))

const searchGuide: Help.Guide = {
  sections: [],
  examples: ["catalog search models kestrel --max 3", "catalog search skills healthcare --format table"]
}

const account = (operation: typeof Operations.stats | typeof Operations.usage, description: string) =>
  Command.make(operation.id, detailOptions, (parsed) =>
    Handler.handled(Effect.flatMap(Dispatch.detailRun(operation, []), (run) => printOne(parsed, operation, run))))
    .pipe(Command.withDescription(description))

const stats = account(Operations.stats, "Write the counts of the catalog's collections (1 unit).")
const usage = account(Operations.usage, "Write the account's live usage and allowances (no units).")

/** Every subcommand of `catalog`, with the examples and sections of its help. */
export const entries: ReadonlyArray<Help.Entry> = [
  { command: scan.descriptor, guide: scanGuide, argumentOptions: true },
  { command: get.descriptor, guide: getGuide, argumentOptions: true },
  { command: search.descriptor, guide: searchGuide },
  { command: stats.descriptor, guide: { sections: [], examples: ["catalog stats --format table"] } },
  { command: usage.descriptor, guide: { sections: [], examples: ["catalog usage"] } },
  ...MirrorCommand.subcommands,
  { command: simulatorCommand.descriptor, guide: { sections: [], examples: ["catalog simulator --port 0 --models 500"] } }
]

/** The names of the subcommands, in the order of the help. */
export const names = entries.map(Help.entryName)

/** The `catalog` command and its subcommands; without one, a usage error that lists them. */
export const command = Command.make("catalog", {}, () =>
  Effect.fail(Connection.usageError(`missing subcommand: ${alternatives(names)} (catalog --help)`))).pipe(
    Command.withDescription("Read the Catalog Service from the command line: lists and resources in their wire form, as NDJSON, JSON, tables or CSV."),
    Command.withSubcommands([scan, get, search, stats, usage, ...MirrorCommand.commands, simulatorCommand])
  )
