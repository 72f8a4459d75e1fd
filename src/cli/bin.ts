#!/usr/bin/env node
/**
 * `catalog …` (the package's `bin`) and `npm run --silent catalog -- …`: the
 * `catalog` command as a process. Its title hides the secrets of its
 * command line before anything else loads (`ProcessTitle`). The exit code
 * is set before the program ends; an interrupted scan exits with 130, an
 * interrupted simulator with 0.
 *
 * @example
 * ```sh
 * CATALOG_API_KEY=… CATALOG_BASE_URL=http://127.0.0.1:8080/api/v1 npx tsx src/cli/bin.ts stats
 * ```
 * @since 0.1.0
 */
import * as ProcessTitle from "./internal/ProcessTitle.js"

// First of all, before the rest of the command loads: a secret given as a flag value leaves the process list.
ProcessTitle.hideSecrets(process.argv)

const [NodeContext, NodeRuntime, Cause, Effect, Exit, { main }, ExitCodes] = await Promise.all([
  import("@effect/platform-node/NodeContext"),
  import("@effect/platform-node/NodeRuntime"),
  import("effect/Cause"),
  import("effect/Effect"),
  import("effect/Exit"),
  import("./Command.js"),
  import("./ExitCodes.js")
])

// A reader that goes away (`catalog scan models | head`) makes writes fail;
// the failed write reports it, and the stream's error event must not crash the process.
process.stdout.on("error", () => {})

main(process.argv).pipe(
  Effect.tap((code) => Effect.sync(() => (process.exitCode = code))),
  Effect.provide(NodeContext.layer),
  NodeRuntime.runMain({
    disableErrorReporting: true,
    disablePrettyLogger: true,
    // The code the command chose (`process.exitCode`), and a code other than 0 ends the process at once: a driver
    // that failed can leave a connection open (node-postgres, when the server asks a role given no password for
    // one), which would keep it running.
    teardown: (exit, onExit) =>
      onExit(
        Exit.isSuccess(exit) || Cause.isInterruptedOnly(exit.cause)
          ? (typeof process.exitCode === "number" ? process.exitCode : ExitCodes.success)
          : ExitCodes.failure
      )
  })
)
