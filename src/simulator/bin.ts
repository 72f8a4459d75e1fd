/**
 * `npm run simulator -- [options]`: the simulator as a process.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as ValidationError from "@effect/cli/ValidationError"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Console, Effect } from "effect"
import { version } from "../internal/version.js"
import { command } from "./Command.js"

const cli = Command.run(command, { name: "simulator", version })

cli(process.argv).pipe(
  // The command line parser has already explained a usage error.
  Effect.tapError((error) =>
    ValidationError.isValidationError(error)
      ? Effect.void
      : Console.error(`simulator: could not listen: ${error.cause instanceof Error ? error.cause.message : String(error.cause)}`)
  ),
  Effect.provide(NodeContext.layer),
  NodeRuntime.runMain({ disableErrorReporting: true })
)
