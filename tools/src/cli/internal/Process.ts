/**
 * The `catalog` command as a process: its command line run on Node's
 * runtime, the exit code set before the program ends. A run a signal
 * interrupts exits with that signal's code (130 for SIGINT, 143 for
 * SIGTERM: `ExitCodes.ofSignal`), an interrupted simulator with 0, and a
 * code other than 0 ends the process at once: a driver that failed can
 * leave a connection open (node-postgres, when the server asks a role given
 * no password for one), which would keep it running.
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Effect, Exit } from "effect"
import { main } from "../Command.js"
import * as ExitCodes from "../ExitCodes.js"
import * as Signal from "./Signal.js"

/** Runs a command line (`process.argv`) to its end. */
export const run = (argv: ReadonlyArray<string>): void => {
  // A reader that goes away (`catalog scan models | head`) makes writes fail;
  // the failed write reports it, and the stream's error event must not crash the process.
  process.stdout.on("error", () => {})
  const stopListening = Signal.listen()

  main(argv).pipe(
    Effect.tap((code) => Effect.sync(() => (process.exitCode = code))),
    Effect.provide(NodeContext.layer),
    NodeRuntime.runMain({
      disableErrorReporting: true,
      disablePrettyLogger: true,
      teardown: (exit, onExit) => {
        stopListening()
        onExit(
          Exit.isSuccess(exit) || Cause.isInterruptedOnly(exit.cause)
            ? (typeof process.exitCode === "number" ? process.exitCode : ExitCodes.success)
            : ExitCodes.failure
        )
      }
    })
  )
}
