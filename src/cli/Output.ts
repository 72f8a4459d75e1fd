/**
 * What the `catalog` command writes: resources in their wire form (NDJSON
 * for lists, one JSON document for a resource) on stdout or to a file, and
 * on stderr a progress line (on a terminal only), a one-line summary and a
 * one-line error. Nothing it writes ever holds the API key: the client's
 * errors are scrubbed of it, and the configuration is never printed.
 *
 * @example
 * ```ts
 * import { Duration } from "effect"
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * CatalogCommand.Output.summaryLine("scan models", {
 *   items: 300, pages: 3, units: 3, waiting: 0, retries: 0, notModified: 0, elapsed: Duration.millis(1234)
 * }) // "catalog: scan models: 300 items, 3 pages, 3 units, 0 not modified (304), 0 retries, 1.2 s"
 * ```
 * @since 0.1.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import { type Console, Duration, Effect, Logger, Schedule, Schema, type Scope } from "effect"
import { OutputError } from "./CliError.js"
import type { Failure } from "./ExitCodes.js"

/**
 * A value in its wire form, as one line of JSON: encoded back with its
 * schema, so exact integers, prices and dates come out as the strings the
 * service sent.
 *
 * @example
 * ```ts
 * import { Effect, Schema } from "effect"
 * import { CatalogCommand } from "effect-catalog/cli"
 * import { Primitives } from "effect-catalog"
 *
 * const line = CatalogCommand.Output.wireJson(Schema.Struct({ tokens: Primitives.DecimalInteger }))
 * Effect.runSync(line({ tokens: 9007199254740993n })) // '{"tokens":"9007199254740993"}'
 * ```
 * @since 0.1.0
 */
export const wireJson = <A, I>(schema: Schema.Schema<A, I>) => {
  const encode = Schema.encode(schema)
  return (value: A): Effect.Effect<string> =>
    encode(value).pipe(
      Effect.map((wire) => JSON.stringify(wire)),
      // A decoded value always encodes back; a failure here is a bug, not an answer.
      Effect.orDie
    )
}

/**
 * Like `wireJson`, for a value whose type is only known at run time (a
 * followed `api_url`): it is checked against the schema, then encoded.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { CatalogCommand } from "effect-catalog/cli"
 * import { Operations } from "effect-catalog"
 *
 * const line = (value: unknown) => CatalogCommand.Output.wireJsonUnknown(Operations.stats.item, value)
 * ```
 * @since 0.1.0
 */
export const wireJsonUnknown = (schema: Schema.Schema.AnyNoContext, value: unknown): Effect.Effect<string> =>
  Schema.encodeUnknown(schema)(value).pipe(
    Effect.map((wire): string => JSON.stringify(wire)),
    Effect.orDie
  )

/**
 * Where lines go: stdout, or a file.
 *
 * @example
 * ```ts
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * const hello = (sink: CatalogCommand.Output.Sink) => sink.write("{}\n")
 * ```
 * @since 0.1.0
 */
export interface Sink {
  readonly write: (text: string) => Effect.Effect<void, OutputError>
}

const outputError = (error: unknown): OutputError => {
  const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined
  const detail = error instanceof Error ? error.message : String(error)
  return new OutputError({ detail: detail.split("\n").join(" "), closed: code === "EPIPE" || code === "ERR_STREAM_DESTROYED" })
}

/**
 * Writes to stdout, waiting until each text is handed to the system (so a
 * slow reader slows the scan instead of filling memory).
 *
 * @example
 * ```ts
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * const program = CatalogCommand.Output.stdout.write("{\"id\":\"catalog\"}\n")
 * ```
 * @since 0.1.0
 */
export const stdout: Sink = {
  write: (text) =>
    Effect.async<void, OutputError>((resume) => {
      try {
        process.stdout.write(text, (error) => resume(error === null || error === undefined ? Effect.void : Effect.fail(outputError(error))))
      } catch (error) {
        resume(Effect.fail(outputError(error)))
      }
    })
}

/**
 * A file opened (created or truncated) for writing, closed with the scope.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * const program = Effect.scoped(
 *   Effect.flatMap(CatalogCommand.Output.file("models.ndjson"), (sink) => sink.write("{}\n"))
 * )
 * ```
 * @since 0.1.0
 */
export const file = (path: string): Effect.Effect<Sink, OutputError, FileSystem.FileSystem | Scope.Scope> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const opened = yield* fs.open(path, { flag: "w" }).pipe(Effect.mapError(outputError))
    const encoder = new TextEncoder()
    return { write: (text) => opened.writeAll(encoder.encode(text)).pipe(Effect.mapError(outputError)) }
  })

/** Erases the current terminal line. */
const clearLine = "\r\x1b[2K"

/**
 * Writes one line to stderr (erasing a progress line first on a terminal).
 *
 * @example
 * ```ts
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * const program = CatalogCommand.Output.stderrLine("catalog: done")
 * ```
 * @since 0.1.0
 */
export const stderrLine = (line: string): Effect.Effect<void> =>
  Effect.sync(() => {
    process.stderr.write(`${process.stderr.isTTY === true ? clearLine : ""}${line}\n`)
  })

/**
 * Where a scan stands.
 *
 * @example
 * ```ts
 * import { Duration } from "effect"
 * import type { CatalogCommand } from "effect-catalog/cli"
 *
 * const start: CatalogCommand.Output.Progress = {
 *   items: 0, pages: 0, units: 0, waiting: 0, retries: 0, notModified: 0, elapsed: Duration.zero
 * }
 * ```
 * @since 0.1.0
 */
export interface Progress {
  /** Items written. */
  readonly items: number
  /** Pages received (list requests answered, retries not counted). */
  readonly pages: number
  /** Units spent. */
  readonly units: number
  /** Requests waiting for a permit of the account's limits. */
  readonly waiting: number
  /** Retryable errors met (each was retried, unless it ended the scan). */
  readonly retries: number
  /** Answers served from the ETag cache (304). */
  readonly notModified: number
  readonly elapsed: Duration.Duration
}

const seconds = (elapsed: Duration.Duration) => `${(Duration.toMillis(elapsed) / 1000).toFixed(1)} s`

/**
 * A count with its noun: `plural(1, "unit", "units")` is "1 unit".
 *
 * @example
 * ```ts
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * CatalogCommand.Output.plural(3, "page", "pages") // "3 pages"
 * ```
 * @since 0.3.0
 */
export const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`

/**
 * The progress line of a scan (shown on a terminal only).
 *
 * @example
 * ```ts
 * import { Duration } from "effect"
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * CatalogCommand.Output.progressLine("scan models", {
 *   items: 1200, pages: 12, units: 12, waiting: 1, retries: 0, notModified: 0, elapsed: Duration.seconds(12)
 * }) // "scan models: 1200 items, 12 pages, 12 units, 1 waiting for a permit, 0 retries, 12.0 s"
 * ```
 * @since 0.1.0
 */
export const progressLine = (label: string, progress: Progress): string =>
  `${label}: ${plural(progress.items, "item", "items")}, ${plural(progress.pages, "page", "pages")}, ${
    plural(progress.units, "unit", "units")
  }, ${progress.waiting} waiting for a permit, ${plural(progress.retries, "retry", "retries")}, ${seconds(progress.elapsed)}`

/**
 * The summary line of a finished scan.
 *
 * @example
 * ```ts
 * import { Duration } from "effect"
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * CatalogCommand.Output.summaryLine("scan skills", {
 *   items: 1, pages: 1, units: 1, waiting: 0, retries: 2, notModified: 0, elapsed: Duration.millis(50)
 * }) // "catalog: scan skills: 1 item, 1 page, 1 unit, 0 not modified (304), 2 retries, 0.1 s"
 * ```
 * @since 0.1.0
 */
export const summaryLine = (label: string, progress: Progress): string =>
  `catalog: ${label}: ${plural(progress.items, "item", "items")}, ${plural(progress.pages, "page", "pages")}, ${
    plural(progress.units, "unit", "units")
  }, ${progress.notModified} not modified (304), ${plural(progress.retries, "retry", "retries")}, ${seconds(progress.elapsed)}`

/**
 * Shows the progress line on stderr, refreshed every `every`, for the life
 * of the scope, when stderr is a terminal; erases it when the scope closes.
 * Elsewhere it does nothing.
 *
 * @example
 * ```ts
 * import { Duration, Effect } from "effect"
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * const shown = CatalogCommand.Output.showProgress(Effect.succeed(CatalogCommand.Output.progressLine("scan models", {
 *   items: 0, pages: 0, units: 0, waiting: 0, retries: 0, notModified: 0, elapsed: Duration.zero
 * })))
 * ```
 * @since 0.1.0
 */
export const showProgress = (
  line: Effect.Effect<string>,
  every: Duration.DurationInput = "200 millis"
): Effect.Effect<void, never, Scope.Scope> =>
  process.stderr.isTTY !== true ? Effect.void : Effect.gen(function*() {
    const render = Effect.flatMap(line, (text) =>
      Effect.sync(() => {
        const columns = process.stderr.columns ?? 0
        const width = columns > 0 ? columns : 120
        process.stderr.write(`${clearLine}${text.slice(0, Math.max(20, width - 1))}`)
      }))
    yield* Effect.addFinalizer(() => Effect.sync(() => process.stderr.write(clearLine)))
    yield* Effect.forkScoped(Effect.repeat(render, Schedule.spaced(every)))
  })

const oneLine = (text: string) => text.replace(/\s*[\r\n]+\s*/g, " ").trim()

const detailOf = (error: Failure): string => {
  switch (error._tag) {
    case "UsageError":
    case "OutputError":
    case "AllowanceShort":
      return error.detail
    case "QuotaExhausted":
      return `${error.detail ?? "the account's allowance is used up"}; resets at ${error.resetsAt.toISOString()}`
    case "UnexpectedResponse":
      return `status ${error.status}: ${error.detail ?? "(no detail)"}`
    case "ScopeMissing":
      return error.detail ?? error.message
    case "TransportError":
      return `${error.reason}: ${error.detail}`
    case "BudgetExceeded":
    case "UnsafeLink":
    case "DatabaseUnavailable":
    case "DatabaseFailed":
    case "SchemaTooNew":
    case "SyncLocked":
      return error.message
    default:
      return error.detail ?? error.message
  }
}

/**
 * The one line on stderr that explains a failure: the error's tag, its
 * detail, and the request id to quote in a report (for errors of the
 * client; `none` when no answer carried one).
 *
 * @example
 * ```ts
 * import { CatalogCommand } from "effect-catalog/cli"
 * import { Errors } from "effect-catalog"
 *
 * CatalogCommand.Output.errorLine(new Errors.NotFound({ requestId: "req_1", code: "not_found", detail: "No such model" }))
 * // "catalog: NotFound: No such model (code not_found, request req_1)"
 * ```
 * @since 0.1.0
 */
export const errorLine = (error: Failure): string => {
  const detail = oneLine(detailOf(error))
  // Errors of the command and of the mirror's database carry no answer of the service.
  if (!("requestId" in error)) return `catalog: ${error._tag}: ${detail}`
  const code = "code" in error && error.code !== null ? `code ${error.code}, ` : ""
  const requestId = error.requestId ?? "none"
  return `catalog: ${error._tag}: ${detail} (${code}request ${requestId})`
}

const formatMessage = (message: unknown): string =>
  Array.isArray(message) ? message.map(formatMessage).join(" ") : typeof message === "string" ? message : String(message)

/**
 * A logger that writes one line per message to stderr, so that log lines
 * (a page halved, a scan restarted) never mix with the NDJSON on stdout.
 *
 * @example
 * ```ts
 * import { Effect, Logger } from "effect"
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * const quietStdout = <A, E, R>(program: Effect.Effect<A, E, R>) =>
 *   Effect.provide(program, Logger.replace(Logger.defaultLogger, CatalogCommand.Output.stderrLogger))
 * ```
 * @since 0.1.0
 */
export const stderrLogger: Logger.Logger<unknown, void> = Logger.make(({ logLevel, message }) => {
  process.stderr.write(
    `${process.stderr.isTTY === true ? clearLine : ""}catalog: ${logLevel.label.toLowerCase()}: ${oneLine(formatMessage(message))}\n`
  )
})

/** An ANSI escape sequence (colours, bold). */
const ansiEscape = /\u001b\[[0-9;]*[A-Za-z]/g

/** Text without its ANSI escape sequences. */
const plain = (arg: unknown): unknown => typeof arg === "string" ? arg.replace(ansiEscape, "") : arg

/** Whether a stream may show colours: a terminal, with `NO_COLOR` unset or empty (no-color.org). */
const colourful = (stream: NodeJS.WriteStream) => stream.isTTY === true && (process.env["NO_COLOR"] ?? "") === ""

/**
 * Runs an effect whose console output (such as the help and the usage
 * errors of `@effect/cli`, which are written in colour) loses its colours
 * where they do not belong: on a stream that is not a terminal, or with
 * `NO_COLOR` set.
 *
 * @example
 * ```ts
 * import { Console } from "effect"
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * const help = CatalogCommand.Output.withColoursWhereShown(Console.log("\u001b[1mUSAGE\u001b[0m")) // "USAGE" when piped
 * ```
 * @since 0.3.0
 */
export const withColoursWhereShown = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  colourful(process.stdout) && colourful(process.stderr)
    ? effect
    : Effect.consoleWith((console) => {
      const shown: Console.Console = {
        ...console,
        log: (...args) => console.log(...(colourful(process.stdout) ? args : args.map(plain))),
        error: (...args) => console.error(...(colourful(process.stderr) ? args : args.map(plain)))
      }
      return Effect.withConsole(effect, shown)
    })
