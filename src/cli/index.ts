/**
 * effect-catalog/cli: the `catalog` command, to run or to embed in another
 * `@effect/cli` application. It is its own entry point so that loading the
 * client does not load `@effect/cli`. Its public face is the command
 * (`CatalogCommand.command`, `CatalogCommand.main`), its errors and
 * `CatalogCommand.ExitCodes`.
 *
 * @example
 * ```ts
 * import { Command } from "@effect/cli"
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * // `tools catalog scan models …` in an application of your own
 * const tools = Command.make("tools").pipe(Command.withSubcommands([CatalogCommand.command]))
 * ```
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as CatalogCommand from "../../tools/src/cli/Command.js"
