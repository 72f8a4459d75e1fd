/**
 * The signal that stops the `catalog` command as a process: Ctrl-C's
 * SIGINT or SIGTERM. The process listens for them from its start
 * (`listen`), beside the runtime that interrupts the run when one comes;
 * the exit code of an interrupted run is the one `ExitCodes` gives that
 * signal (`exitCode`).
 */
import { Effect, Option } from "effect"
import * as ExitCodes from "../ExitCodes.js"

/** The signals that stop the command. */
const stopping = ["SIGINT", "SIGTERM"] as const

let received: Option.Option<ExitCodes.Signal> = Option.none()

/**
 * Notes the first stopping signal the process receives, from now until the
 * returned function is called.
 */
export const listen = (): (() => void) => {
  const listeners = stopping.map((signal) => {
    const listener = () => {
      received = Option.orElse(received, () => Option.some(signal))
    }
    process.once(signal, listener)
    return () => process.removeListener(signal, listener)
  })
  return () => listeners.forEach((remove) => remove())
}

/**
 * The exit code of a run that was interrupted: the one of the signal that
 * stopped it, and `ExitCodes.interrupted` when no signal did (a run
 * embedded in another program, interrupted by it).
 */
export const exitCode: Effect.Effect<number> = Effect.sync(() =>
  Option.match(received, { onNone: () => ExitCodes.interrupted, onSome: ExitCodes.ofSignal })
)
