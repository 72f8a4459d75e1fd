/**
 * The `catalog` command: reads the Catalog Service from the command line.
 *
 * ```sh
 * catalog scan <operationId> [path parameters…] [--<filter> value…] [--format ndjson|json|table|csv] [--fields a,b] [--max N] [--out FILE]
 * catalog get <operationId> [path parameters…] [--format json|table] [--fields a,b]
 * catalog get <api_url>
 * catalog search <type> <q> [--format …] [--max N] [--out FILE]
 * catalog stats [--format json|table]
 * catalog usage [--format json|table]
 * catalog help [subcommand]
 * catalog plan [collections…] [--db FILE | --db postgres://…] [--format table|json]
 * catalog mirror [collections…] [--db FILE | --db postgres://…] [--changes] [--allow-partial]
 * catalog changes [collections…] [--db FILE | --db postgres://…] [--after N] [--subscriber NAME] [--follow]
 * catalog simulator [--port N] […]
 * ```
 *
 * The key and base URL come from `CATALOG_API_KEY` and `CATALOG_BASE_URL`
 * (`--api-key-file`, `--api-key`, `--base-url` override them); the key is
 * never printed, and a secret given as a flag is masked in the process title.
 * Text from the service is inert on a terminal and exact in a pipe or file.
 * Resources are written in their wire form: lists as NDJSON by default (or
 * one JSON array, a table, CSV), one resource as JSON (pretty on a
 * terminal) or a table. Exit codes are in `ExitCodes`.
 *
 * @example
 * ```ts
 * import { NodeContext, NodeRuntime } from "@effect/platform-node"
 * import { Effect } from "effect"
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * CatalogCommand.main(process.argv).pipe(
 *   Effect.tap((code) => Effect.sync(() => (process.exitCode = code))),
 *   Effect.provide(NodeContext.layer),
 *   NodeRuntime.runMain({ disableErrorReporting: true })
 * )
 * ```
 * @since 0.1.0
 */
import * as Main from "./internal/Main.js"
import * as Subcommands from "./internal/Subcommands.js"

/** @since 0.1.0 */
export * from "./CliError.js"

/** @since 0.1.0 */
export * as ExitCodes from "./ExitCodes.js"

/**
 * The `catalog` command and its subcommands: `scan`, `get`, `search`,
 * `stats`, `usage`, `mirror`, `changes`, `plan` and `simulator`.
 *
 * @example
 * ```ts
 * import { Command } from "@effect/cli"
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * const cli = Command.run(CatalogCommand.command, { name: "catalog", version: "0.5.0" })
 * ```
 * @since 0.1.0
 * @category commands
 */
export const command = Subcommands.command

/**
 * Runs the command line (`process.argv`, with the node and script paths):
 * any failure is one line on stderr (a command line the parser cannot read
 * adds the usage line of its subcommand). Gives the exit code (`ExitCodes`).
 *
 * @example
 * ```ts
 * import { NodeContext } from "@effect/platform-node"
 * import { Effect } from "effect"
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * const code = CatalogCommand.main(["node", "catalog", "stats"]).pipe(Effect.provide(NodeContext.layer))
 * ```
 * @since 0.1.0
 * @category commands
 */
export const main = Main.main
