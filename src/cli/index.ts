/**
 * effect-catalog/cli: the `catalog` command, to run or to embed in another
 * `@effect/cli` application. It is its own entry point so that loading the
 * client does not load `@effect/cli`.
 *
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as CatalogCommand from "./Command.js"
