/**
 * How every subcommand's handler runs: the full detail of a failure logged
 * at debug level (`--log-level debug`), and, when a signal interrupts it,
 * the exit code of that signal (`ExitCodes.ofSignal`). The command line it
 * runs, for the messages that say what to run again.
 */
import { Effect, FiberRef, Option } from "effect"
import * as Output from "./Output.js"
import * as ProcessTitle from "./ProcessTitle.js"
import * as Signal from "./Signal.js"

/** Runs a subcommand's handler with its failure's detail at debug level and its interruption's exit code. */
export const handled = <A, E, R>(handler: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.onInterrupt(Output.withDebugDetail(handler), () => Effect.flatMap(Signal.exitCode, (code) => Effect.sync(() => (process.exitCode = code))))

/**
 * The command line `main` runs (`process.argv`, with the node and script
 * paths); none when the command runs within another program's.
 */
export const commandLine = FiberRef.unsafeMake<Option.Option<ReadonlyArray<string>>>(Option.none())

/**
 * The command to run again to go on, as one would type it: the command
 * line being run, its secrets hidden; or, within another program, the
 * subcommand named.
 */
export const again = (subcommand: string): Effect.Effect<string> =>
  Effect.map(
    FiberRef.get(commandLine),
    Option.match({ onNone: () => `the same catalog ${subcommand} command`, onSome: ProcessTitle.commandShown })
  )
