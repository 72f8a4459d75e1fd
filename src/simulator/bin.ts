/**
 * `npm run simulator -- [options]`: the simulator as a process.
 *
 * @since 0.1.0
 */
import { Command } from "@effect/cli"
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Effect } from "effect"
import { command } from "./Command.js"

const cli = Command.run(command, { name: "simulator", version: "0.1.0" })

cli(process.argv.slice(2)).pipe(Effect.provide(NodeContext.layer), NodeRuntime.runMain({ disableErrorReporting: false }))
