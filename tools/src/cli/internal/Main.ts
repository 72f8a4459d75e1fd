/**
 * How the `catalog` command runs a command line: help and the names it does
 * not know answered before `@effect/cli` parses it, every failure one line
 * on stderr, and the exit code of the run.
 */
import * as Command from "@effect/cli/Command"
import * as ValidationError from "@effect/cli/ValidationError"
import type { FileSystem, HttpServerError } from "@effect/platform"
import { Cause, Effect, Layer, Logger, Option } from "effect"
import { didYouMean } from "../../internal/Suggest.js"
import { version } from "../../internal/version.js"
import type { Failure, OutputError, UsageError } from "../CliError.js"
import * as ExitCodes from "../ExitCodes.js"
import * as Connection from "./Connection.js"
import * as Handler from "./Handler.js"
import * as Help from "./Help.js"
import * as Output from "./Output.js"
import * as Subcommands from "./Subcommands.js"
import { withArticle } from "../../../../rules/src/Words.js"

/** Writes the help of the command, or of one subcommand; an unknown one is a usage error with the nearest names. */
const showHelp = (words: ReadonlyArray<string>): Effect.Effect<void, UsageError | OutputError> => {
  const [name] = words
  if (name === undefined) return Output.stdout.write(Help.ofCommand(Subcommands.command.descriptor, Subcommands.entries, version))
  const entry = Help.entryOf(Subcommands.entries, words)
  return entry === undefined ? unknownSubcommand(name) : Output.stdout.write(Help.ofSubcommand(entry))
}

const unknownSubcommand = (name: string) =>
  Effect.fail(Connection.usageError(`unknown subcommand ${JSON.stringify(name)}${didYouMean(name, Subcommands.names)} (catalog --help lists them)`))

/**
 * What a command line asks for before `@effect/cli` parses it: help
 * (`catalog help [subcommand]`, `--help` or `-h` anywhere before `--`), a
 * subcommand that does not exist, an option a subcommand does not take
 * (scan and get check theirs against the operation's filters); none for a
 * run.
 */
const route = (tokens: ReadonlyArray<string>): Option.Option<Effect.Effect<void, UsageError | OutputError>> => {
  const [first] = tokens
  const separator = tokens.indexOf("--")
  const options = separator < 0 ? tokens : tokens.slice(0, separator)
  if (first === "help") return Option.some(showHelp(tokens.slice(1, 3)))
  const entry = Help.entryOf(Subcommands.entries, tokens)
  if (options.includes("--help") || options.includes("-h")) {
    return Option.some(showHelp(entry === undefined ? [] : Help.entryName(entry).split(" ")))
  }
  if (first !== undefined && !first.startsWith("-") && entry === undefined) return Option.some(unknownSubcommand(first))
  return entry === undefined ? Option.none() : Option.map(unknownOption(entry, options), Effect.fail)
}

/** Options every subcommand takes from `@effect/cli`. */
const builtInOptions = ["help", "version", "log-level", "completions", "wizard"]

/**
 * The first `--name` a subcommand does not take, or the first value outside
 * an option's choices, as a usage error with the nearest names.
 */
const unknownOption = (entry: Help.Entry, tokens: ReadonlyArray<string>): Option.Option<UsageError> => {
  const name = Help.entryName(entry)
  const known = Help.optionNames(entry.command)
  const choices = Help.choicesOf(entry.command)
  for (const [index, token] of tokens.entries()) {
    const [, option, inline] = /^--([^=]+)(?:=(.*))?$/.exec(token) ?? []
    if (option === undefined || builtInOptions.includes(option)) continue
    // Scan and get check the options of their arguments (an operation's filters) themselves.
    if (!known.includes(option) && entry.argumentOptions !== true) {
      return Option.some(
        Connection.usageError(
          `unknown option --${option} for ${name}${didYouMean(option, known, (candidate) => `--${candidate}`)} (catalog help ${name} lists them)`
        )
      )
    }
    const allowed = choices.get(option)
    const value = inline ?? tokens[index + 1]
    if (allowed !== undefined && value !== undefined && !allowed.includes(value)) {
      return Option.some(
        Connection.usageError(`--${option} ${JSON.stringify(value)} is not one of ${allowed.join(", ")}${didYouMean(value, allowed)}`)
      )
    }
  }
  return Option.none()
}

/**
 * The command line with `--log-level <level>` moved before the subcommand,
 * where `@effect/cli` reads it wherever it was written (after some options
 * of a subcommand it takes it for an unknown argument).
 */
const withLogLevelFirst = (argv: ReadonlyArray<string>): ReadonlyArray<string> => {
  const [node = "", script = "", ...tokens] = argv
  const at = tokens.findIndex((token) => token === "--log-level" || token.startsWith("--log-level="))
  const separator = tokens.indexOf("--")
  if (at < 0 || (separator >= 0 && at > separator)) return argv
  const taken = tokens[at]?.includes("=") === true ? 1 : 2
  return [node, script, ...tokens.slice(at, at + taken), ...tokens.slice(0, at), ...tokens.slice(at + taken)]
}

/**
 * Runs the parser of `@effect/cli` without its own account of a command
 * line it cannot read (written with `Console.error`, which nothing else
 * under it uses): `main` writes that account itself, as a usage error.
 */
const withoutParserAccount = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.consoleWith((console) => Effect.withConsole(effect, { ...console, error: () => Effect.void }))

/** The kinds of value `@effect/cli` names in its refusals, as people say them. */
const kindNames: Readonly<Record<string, string>> = { integer: "integer", float: "number", date: "date" }

/** The option a value was given to on a command line: `--max` for `--max abc` or `--max=abc`. */
const optionGiven = (tokens: ReadonlyArray<string>, value: string): Option.Option<string> =>
  Option.firstSomeOf(tokens.map((token, index) => {
    const [, inline, inlineValue] = /^(--[^=]+)=(.*)$/s.exec(token) ?? []
    if (inline !== undefined) return inlineValue === value ? Option.some(inline) : Option.none()
    const previous = tokens[index - 1] ?? ""
    return token === value && /^--[^=]+$/.test(previous) ? Option.some(previous) : Option.none()
  }))

/**
 * A value the parser refused, in the command's words, naming the option it
 * was given to: `'abc' is not a integer` for `--max abc` is
 * `--max: 'abc' is not an integer`.
 */
const valueRefusal = (tokens: ReadonlyArray<string>, text: string): string => {
  const [, value, kind = ""] = /^'(.*)' is not a (\w+)$/s.exec(text) ?? []
  if (value === undefined) return text
  const option = Option.match(optionGiven(tokens, value), { onNone: () => "", onSome: (name) => `${name}: ` })
  return `${option}'${value}' is not ${withArticle(kindNames[kind] ?? kind)}`
}

/**
 * A command line the parser cannot read, in the command's words: a value
 * it refused is one line that names its option, as every other usage
 * error; anything else (a missing argument, an option before the
 * subcommand) adds the usage line of the subcommand it names (or of the
 * command).
 */
const parserRefusal = (tokens: ReadonlyArray<string>, error: ValidationError.ValidationError): string => {
  const text = Help.textOf(error.error)
  if (ValidationError.isInvalidValue(error)) return Output.errorLine(Connection.usageError(valueRefusal(tokens, text)))
  const entry = Help.entryOf(Subcommands.entries, tokens)
  const usage = entry === undefined ? Help.commandUsage : Help.usageOf(entry)
  return `${Output.errorLine(Connection.usageError(text))}\n${usage}`
}

/**
 * Runs the command line (`process.argv`, with the node and script paths):
 * any failure is one line on stderr (a command line the parser cannot read
 * adds the usage line of its subcommand). Gives the exit code (`ExitCodes`).
 */
export const main = (argv: ReadonlyArray<string>) =>
  Option.match(route(argv.slice(2)), {
    onNone: () => withoutParserAccount(Command.run(Subcommands.command, { name: "catalog", version })(withLogLevelFirst(argv))),
    onSome: (answered): Effect.Effect<void, Failure | ValidationError.ValidationError | HttpServerError.ServeError, FileSystem.FileSystem> =>
      answered
  }).pipe(
    Effect.locally(Handler.commandLine, Option.some(argv)),
    Output.withColoursWhereShown,
    Connection.withLogLevelFromEnv,
    Effect.as(ExitCodes.success),
    Effect.catchAll((error: Failure | ValidationError.ValidationError | HttpServerError.ServeError) => {
      if (ValidationError.isValidationError(error)) return Effect.as(Output.stderrLine(parserRefusal(argv.slice(2), error)), ExitCodes.usage)
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
