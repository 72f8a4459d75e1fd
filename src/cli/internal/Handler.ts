/**
 * How every subcommand's handler runs: the full detail of a failure logged
 * at debug level (`--log-level debug`), and exit code 130 when it is
 * interrupted (Ctrl-C, SIGTERM).
 */
import { Effect } from "effect"
import * as ExitCodes from "../ExitCodes.js"
import * as Output from "./Output.js"

/** Runs a subcommand's handler with its failure's detail at debug level and its interruption's exit code. */
export const handled = <A, E, R>(handler: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.onInterrupt(Output.withDebugDetail(handler), () => Effect.sync(() => (process.exitCode = ExitCodes.interrupted)))
