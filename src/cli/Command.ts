/**
 * The `catalog` command: reads the Catalog Service from the command line.
 *
 * ```sh
 * catalog scan <operationId> [path parameters…] [--<filter> value…] [--page-size N] [--max N] [--out FILE]
 * catalog get <operationId> [path parameters…]
 * catalog get <api_url>
 * catalog search <type> <q> [--page-size N] [--max N] [--out FILE]
 * catalog stats
 * catalog usage
 * catalog plan [collections…] [--db FILE | --db postgres://…] [--format table|json]
 * catalog mirror [collections…] [--db FILE | --db postgres://…] [--changes] [--allow-partial]
 * catalog simulator [--port N] […]
 * ```
 *
 * The key and base URL come from `CATALOG_API_KEY` and `CATALOG_BASE_URL`
 * (`--api-key`, `--base-url` override them); the key is never printed.
 * Resources are written in their wire form: lists as NDJSON, one resource as
 * one line of JSON. Exit codes are in `ExitCodes`.
 *
 * @example
 * ```ts
 * import { NodeContext, NodeRuntime } from "@effect/platform-node"
 * import { Effect } from "effect"
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * CatalogCommand.main(process.argv).pipe(
 *   Effect.tap((code) => Effect.sync(() => (process.exitCode = code))),
 *   Effect.provide(NodeContext.layer),
 *   NodeRuntime.runMain({ disableErrorReporting: true })
 * )
 * ```
 * @since 0.1.0
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as ValidationError from "@effect/cli/ValidationError"
import type { FileSystem, HttpServerError } from "@effect/platform"
import {
  Cause,
  Chunk,
  Clock,
  Duration,
  Effect,
  Layer,
  Logger,
  Metric,
  Option,
  Ref,
  Stream
} from "effect"
import * as Admission from "../client/Admission.js"
import * as Budget from "../client/Budget.js"
import * as CatalogClient from "../client/CatalogClient.js"
import type * as Errors from "../client/Errors.js"
import * as Operations from "../contract/Operations.js"
import { version } from "../internal/version.js"
import { command as simulatorCommand } from "../simulator/Command.js"
import * as Connection from "./Connection.js"
import { AllowanceShort, OutputError, UsageError } from "./CliError.js"
import * as Dispatch from "./Dispatch.js"
import * as MirrorCommand from "./MirrorCommand.js"
import * as ExitCodes from "./ExitCodes.js"
import * as Output from "./Output.js"

export {
  /**
   * A sync of the mirror would not fit in what is left of today's allowance (exit code 5).
   *
   * @example
   * ```ts
   * import { CatalogCommand } from "effect-catalog/cli"
   *
   * new CatalogCommand.AllowanceShort({ detail: "the sync needs 250 units; 120 are left today" })
   * ```
   * @since 0.3.0
   */
  AllowanceShort,
  /**
   * The output could not be written.
   *
   * @example
   * ```ts
   * import { CatalogCommand } from "effect-catalog/cli"
   *
   * new CatalogCommand.OutputError({ detail: "disk full", closed: false })
   * ```
   * @since 0.1.0
   */
  OutputError,
  /**
   * Bad usage or configuration (exit code 2).
   *
   * @example
   * ```ts
   * import { CatalogCommand } from "effect-catalog/cli"
   *
   * new CatalogCommand.UsageError({ detail: "unknown operation \"nope\"" })
   * ```
   * @since 0.1.0
   */
  UsageError
}
/** @since 0.3.0 */
export * as Connection from "./Connection.js"
/** @since 0.1.0 */
export * as Dispatch from "./Dispatch.js"
/** @since 0.2.0 */
export * as AccountAdmission from "./AccountAdmission.js"
/** @since 0.1.0 */
export * as ExitCodes from "./ExitCodes.js"
/** @since 0.1.0 */
export * as Output from "./Output.js"

const counted = (counter: typeof CatalogClient.metrics.requests) => Effect.map(Metric.value(counter), (state) => state.count)

/**
 * Writes every line of a list to stdout or a file, page by page, with the
 * progress line while it runs (on a terminal) and the summary line at the
 * end; gives the number of items written.
 *
 * @example
 * ```ts
 * import { Either, Option } from "effect"
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * const prepared = CatalogCommand.Dispatch.prepareList("models", [], { limit: "100" })
 * const program = Either.map(prepared, ({ operation, run }) =>
 *   CatalogCommand.scanTo("scan models", operation.id, run, Option.none(), Option.none()))
 * ```
 * @since 0.1.0
 */
export const scanTo = (
  label: string,
  operationId: string,
  run: Dispatch.ListRun,
  out: Option.Option<string>,
  max: Option.Option<number>
): Effect.Effect<number, Errors.CatalogError | OutputError, Connection.Services | FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const catalog = yield* CatalogClient.CatalogClient
    const budget = yield* Budget.Budget
    const admission = yield* Admission.Admission
    const started = yield* Clock.currentTimeMillis
    const retriesBefore = yield* counted(CatalogClient.metrics.retries)
    const notModifiedBefore = yield* counted(CatalogClient.metrics.notModified)
    const items = yield* Ref.make(0)
    const progress: Effect.Effect<Output.Progress> = Effect.gen(function*() {
      const spent = yield* budget.spent
      const retries = (yield* counted(CatalogClient.metrics.retries)) - retriesBefore
      const requests = spent.byOperation.get(operationId)?.requests ?? 0
      return {
        items: yield* Ref.get(items),
        pages: Math.max(0, requests - retries),
        units: spent.units,
        waiting: yield* admission.waiting,
        retries,
        notModified: (yield* counted(CatalogClient.metrics.notModified)) - notModifiedBefore,
        elapsed: Duration.millis((yield* Clock.currentTimeMillis) - started)
      }
    })
    const items$ = Option.isSome(max) ? Stream.take(run(catalog), max.value) : run(catalog)
    // The file is closed and the progress line erased before the summary is written.
    yield* Effect.scoped(
      Effect.gen(function*() {
        const sink = Option.isSome(out) ? yield* Output.file(out.value) : Output.stdout
        yield* Output.showProgress(Effect.map(progress, (now) => Output.progressLine(label, now)))
        yield* items$.pipe(
          Stream.chunks,
          Stream.runForEach((lines) =>
            Effect.zipRight(
              sink.write(`${Chunk.join(lines, "\n")}\n`),
              Ref.update(items, (count) => count + Chunk.size(lines))
            )
          )
        )
      })
    )
    const done = yield* progress
    yield* Output.stderrLine(Output.summaryLine(label, done))
    return done.items
  })

const pageSize = Connection.optional(Options.integer("page-size"), "Items per request (the operation's maximum at most: 100, 25 for search)")
const maxItems = Connection.optional(Options.integer("max"), "Stop after this many items")
const out = Connection.optional(Options.file("out"), "Write the NDJSON to this file instead of stdout")

const limitOf = (size: Option.Option<number>): Readonly<Record<string, string>> =>
  Option.match(size, { onNone: () => ({}), onSome: (limit) => ({ limit: String(limit) }) })

const checkMax = (max: Option.Option<number>): Effect.Effect<void, UsageError> =>
  Option.isSome(max) && max.value < 1 ? Effect.fail(Connection.usageError("--max must be 1 or more")) : Effect.void

const listHelp = Operations.all
  .filter((operation) => operation.kind === "list" && operation.id !== "search")
  .map(Dispatch.usageOf)
  .join("; ")

const detailHelp = Operations.all.filter((operation) => operation.kind === "detail").map(Dispatch.usageOf).join("; ")

const scan = Command.make(
  "scan",
  {
    operationId: Args.text({ name: "operationId" }).pipe(Args.withDescription("A list operation of the contract (models, skills, …)")),
    rest: Args.text({ name: "parameter" }).pipe(
      Args.withDescription("The path parameters of the operation, in order, and its filters as --name value"),
      Args.repeated
    ),
    pageSize,
    max: maxItems,
    out,
    ...Connection.options
  },
  (parsed) =>
    Effect.gen(function*() {
      yield* checkMax(parsed.max)
      const { operation, run } = yield* Dispatch.prepareList(parsed.operationId, parsed.rest, limitOf(parsed.pageSize))
      yield* Connection.withClient(parsed, scanTo(`scan ${operation.id}`, operation.id, run, parsed.out, parsed.max))
    }).pipe(ExitCodes.exitWhenInterrupted)
).pipe(Command.withDescription(`Write every item of a list as NDJSON. Operations: ${listHelp}`))

const isUrl = (target: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(target)

const printOne = (run: Dispatch.DetailRun) =>
  Effect.flatMap(CatalogClient.CatalogClient, (catalog) =>
    Effect.flatMap(run(catalog), (line) => Output.stdout.write(`${line}\n`)))

const get = Command.make(
  "get",
  {
    target: Args.text({ name: "operationId | api_url" }).pipe(
      Args.withDescription("A detail operation of the contract (model, skill, …), or an api_url the service returned")
    ),
    rest: Args.text({ name: "parameter" }).pipe(Args.withDescription("The path parameters of the operation, in order"), Args.repeated),
    ...Connection.options
  },
  (parsed) =>
    Effect.gen(function*() {
      if (isUrl(parsed.target) && parsed.rest.length > 0) {
        return yield* Connection.usageError(`an api_url takes no path parameters; got ${parsed.rest.join(" ")}`)
      }
      const run = isUrl(parsed.target)
        ? Dispatch.follow(parsed.target)
        : (yield* Dispatch.prepareDetail(parsed.target, parsed.rest)).run
      yield* Connection.withClient(parsed, printOne(run))
    }).pipe(ExitCodes.exitWhenInterrupted)
).pipe(Command.withDescription(`Write one resource as JSON. Operations: ${detailHelp}`))

const search = Command.make(
  "search",
  {
    type: Args.text({ name: "type" }).pipe(Args.withDescription("models, skills, mcps, organizations, providers or families")),
    q: Args.text({ name: "q" }).pipe(Args.withDescription("The search text (2 to 120 characters)")),
    pageSize,
    max: maxItems,
    out,
    ...Connection.options
  },
  (parsed) =>
    Effect.gen(function*() {
      yield* checkMax(parsed.max)
      const run = yield* Dispatch.listRun(Operations.search, {
        path: [],
        query: { type: parsed.type, q: parsed.q, ...limitOf(parsed.pageSize) },
        labels: { type: "<type>", q: "<q>" }
      })
      yield* Connection.withClient(parsed, scanTo(`search ${parsed.type}`, Operations.search.id, run, parsed.out, parsed.max))
    }).pipe(ExitCodes.exitWhenInterrupted)
).pipe(Command.withDescription("Write the items a search finds as NDJSON (5 units a page)"))

const account = (operation: typeof Operations.stats | typeof Operations.usage, description: string) =>
  Command.make(operation.id, Connection.options, (parsed) =>
    Effect.gen(function*() {
      const run = yield* Dispatch.detailRun(operation, [])
      yield* Connection.withClient(parsed, printOne(run))
    }).pipe(ExitCodes.exitWhenInterrupted)).pipe(Command.withDescription(description))

/**
 * The `catalog` command and its subcommands: `scan`, `get`, `search`,
 * `stats`, `usage`, `mirror`, `plan` and `simulator`.
 *
 * @example
 * ```ts
 * import { Command } from "@effect/cli"
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * const cli = Command.run(CatalogCommand.command, { name: "catalog", version: "0.1.0" })
 * ```
 * @since 0.1.0
 */
export const command = Command.make("catalog", {}, () =>
  Effect.fail(Connection.usageError("missing subcommand: scan, get, search, stats, usage, mirror, plan or simulator (catalog --help)"))).pipe(
    Command.withDescription("Read the Catalog Service: lists as NDJSON, resources as JSON, in their wire form"),
    Command.withSubcommands([
      scan,
      get,
      search,
      account(Operations.stats, "Write the counts of the catalog as JSON"),
      account(Operations.usage, "Write the account's live usage and allowances as JSON"),
      ...MirrorCommand.subcommands,
      simulatorCommand
    ])
  )

/**
 * Runs the command line (`process.argv`, with the node and script paths):
 * the command's own parser explains bad syntax, any other failure is one
 * line on stderr. Gives the exit code (`ExitCodes`).
 *
 * @example
 * ```ts
 * import { NodeContext } from "@effect/platform-node"
 * import { Effect } from "effect"
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * const code = CatalogCommand.main(["node", "catalog", "stats"]).pipe(Effect.provide(NodeContext.layer))
 * ```
 * @since 0.1.0
 */
export const main = (argv: ReadonlyArray<string>) =>
  Command.run(command, { name: "catalog", version })(argv).pipe(
    Output.withColoursWhereShown,
    Effect.as(ExitCodes.success),
    Effect.catchAll((error: ExitCodes.Failure | ValidationError.ValidationError | HttpServerError.ServeError) => {
      // The parser has already printed what is wrong with the command line.
      if (ValidationError.isValidationError(error)) return Effect.succeed(ExitCodes.usage)
      if (error._tag === "ServeError") {
        const reason = error.cause instanceof Error ? error.cause.message : String(error.cause)
        return Effect.as(Output.stderrLine(`catalog: ServeError: the simulator could not listen: ${reason}`), ExitCodes.failure)
      }
      if (error._tag === "OutputError" && error.closed) return Effect.succeed(ExitCodes.success)
      return Effect.as(Output.stderrLine(Output.errorLine(error)), ExitCodes.of(error))
    }),
    Effect.catchAllDefect((defect) =>
      Effect.as(
        Output.stderrLine(`catalog: internal error: ${Cause.pretty(Cause.die(defect)).split("\n")[0] ?? "unknown"}`),
        ExitCodes.failure
      )
    ),
    // One logger, on stderr: whatever logger the runtime installed (runMain's pretty one writes to stdout) is replaced too.
    Effect.provide(Layer.merge(Logger.replace(Logger.defaultLogger, Output.stderrLogger), Logger.remove(Logger.prettyLoggerDefault)))
  )
