/**
 * What the `catalog` command writes: resources in their wire form (NDJSON
 * for lists, one JSON document for a resource) on stdout or to a file, and
 * on stderr one-line errors and log lines (the progress and summary lines
 * are `Progress`). Nothing it writes ever holds the API key: the client's
 * errors are scrubbed of it, and the configuration is never printed.
 *
 * Text from the service is untrusted. Where it shows on a terminal
 * (`isTerminal`) it is made inert: no control character, escape sequence or
 * bidirectional override reaches the terminal; each shows as U+FFFD (�),
 * or in JSON as its JSON escape. Written to a pipe or a file it is exact.
 * Every line on stderr is made inert, terminal or not: a log of stderr is
 * read on a terminal too, and gains nothing from raw escapes.
 */
import * as FileSystem from "@effect/platform/FileSystem"
import { Cause, type Console, Effect, Logger, LogLevel, Option, type Scope } from "effect"
import { closeSync, constants, openSync, statSync } from "node:fs"
import { isatty } from "node:tty"
import { type Failure, OutputError } from "../CliError.js"
import * as TerminalText from "../../../../rules/src/TerminalText.js"

/**
 * Where lines go: stdout, or a file.
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
 * Each text is written after the last, so a file that cannot seek (a
 * terminal, a pipe such as `/dev/stdout`) takes them too.
 */
export const file = (path: string): Effect.Effect<Sink, OutputError, FileSystem.FileSystem | Scope.Scope> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    // Opened to append, then truncated when it is a regular file: writing at a position fails on a terminal or a pipe (ESPIPE).
    const opened = yield* fs.open(path, { flag: "a" }).pipe(
      Effect.tap((opened) => Effect.flatMap(opened.stat, (info) => info.type === "File" ? opened.truncate() : Effect.void)),
      Effect.mapError((error) =>
        new OutputError({ detail: `cannot write to ${path}: ${error._tag === "SystemError" ? error.description ?? error.reason : error.message}`, closed: false })
      )
    )
    const encoder = new TextEncoder()
    // Writing nothing is not a write: the platform reports zero bytes written as an error.
    return { write: (text) => text === "" ? Effect.void : opened.writeAll(encoder.encode(text)).pipe(Effect.mapError(outputError)) }
  })

/**
 * Where the lines of a list go: stdout when no path is given or it is `-`,
 * else the file at the path (created or truncated; any writable path,
 * `/dev/null` included), closed with the scope.
 */
export const sink = (path: Option.Option<string>): Effect.Effect<Sink, OutputError, FileSystem.FileSystem | Scope.Scope> =>
  Option.match(fileOf(path), { onNone: () => Effect.succeed(stdout), onSome: file })

/** The file a list is written to: none for stdout (no path, or `-`). */
const fileOf = (path: Option.Option<string>): Option.Option<string> => Option.filter(path, (named) => named !== "-")

/** Whether the file at `path` is a terminal (`/dev/tty`, `/dev/stdout` on one). */
const isTerminalFile = (path: string): boolean => {
  try {
    // Only a character device can be a terminal; opening anything else (a FIFO) could wait for a reader.
    if (!statSync(path).isCharacterDevice()) return false
    const fd = openSync(path, constants.O_WRONLY | constants.O_NOCTTY | constants.O_NONBLOCK)
    try {
      return isatty(fd)
    } finally {
      closeSync(fd)
    }
  } catch {
    // A path that cannot be opened is no terminal; writing to it fails with its own error.
    return false
  }
}

/**
 * Whether what is written to `path` (stdout when none or `-`, as `sink`
 * reads it) shows on a terminal: the one test by which the command makes
 * text from the service inert before writing it (`Format.ListOptions`,
 * `Format.DetailOptions`). On a pipe or in a file the text is exact.
 */
export const isTerminal = (path: Option.Option<string>): boolean =>
  Option.match(fileOf(path), { onNone: () => isatty(1), onSome: isTerminalFile })

/**
 * The width tables are cut to: the terminal's when stdout is one, else
 * `COLUMNS` when set, else none.
 */
export const terminalWidth: Option.Option<number> = process.stdout.isTTY === true && (process.stdout.columns ?? 0) > 0
  ? Option.some(process.stdout.columns)
  : Option.filter(Option.fromNullable(Number(process.env["COLUMNS"] ?? "")), (columns) => Number.isInteger(columns) && columns > 0)

/**
 * Erases the current terminal line.
 */
export const clearLine = "\r\x1b[2K"

/**
 * Writes one line to stderr (erasing a progress line first on a terminal),
 * inert (line feeds kept).
 */
export const stderrLine = (line: string): Effect.Effect<void> => Effect.sync(() => writeStderrLine(line))

/** Writes one line to stderr now, inert, over a progress line on a terminal. */
const writeStderrLine = (line: string) => {
  process.stderr.write(`${process.stderr.isTTY === true ? clearLine : ""}${TerminalText.lines(line)}\n`)
}

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
    case "ScopeMissing": {
      const detail = error.detail ?? "the key lacks a scope the operation needs"
      return error.requiredScope === null || detail.includes(error.requiredScope) ? detail : `${detail} (scope ${error.requiredScope})`
    }
    case "TransportError":
      return `${error.reason}: ${error.detail}`
    case "BudgetExceeded":
    case "UnsafeLink":
    case "DatabaseUnavailable":
    case "DatabaseFailed":
    case "SchemaTooNew":
    case "SyncLocked":
    case "TargetsInfeasible":
      return error.message
    default:
      return error.detail ?? error.message
  }
}

/**
 * The one line on stderr that explains a failure: the error's tag, its
 * detail, and the request id to quote in a report (for errors of the
 * client; `none` when no answer carried one).
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
 */
export const stderrLogger: Logger.Logger<unknown, void> = Logger.make(({ logLevel, message }) => {
  // Debug and trace lines are the full detail asked for with --log-level: kept on as many lines as they need.
  const text = LogLevel.lessThanEqual(logLevel, LogLevel.Debug) ? formatMessage(message) : oneLine(formatMessage(message))
  writeStderrLine(`catalog: ${logLevel.label.toLowerCase()}: ${text}`)
})

/**
 * Logs the full detail of a failure at debug level (every field of the
 * error, and where it came from), for `--log-level debug`; the command's
 * one error line stays as it is.
 */
export const withDebugDetail = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.tapErrorCause(effect, (cause) =>
    Effect.logDebug(
      Cause.failureOption(cause).pipe(Option.match({ onNone: () => "", onSome: (error) => `${JSON.stringify(error)}\n` })) + Cause.pretty(cause)
    ))

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
