/**
 * The errors of the `catalog` command itself, next to the client's: a
 * command line that cannot be run as given, and output that cannot be
 * written.
 *
 * @example
 * ```ts
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * const error = new CatalogCommand.UsageError({ detail: "unknown operation \"nope\"" })
 * error.message // "unknown operation \"nope\""
 * ```
 * @since 0.1.0
 */
import { Schema } from "effect"
import type * as Errors from "../../../common/src/client/Errors.js"
import type { MirrorError, TargetsInfeasible } from "../../../common/src/mirror/MirrorError.js"

/**
 * Bad usage: an unknown operation, missing or extra path parameters, an
 * unknown filter or a value its rule refuses, or a missing or malformed
 * configuration. Nothing was sent.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * const refused = Effect.fail(new CatalogCommand.UsageError({ detail: "--page-size must be a whole number from 1 to 100 for models; got 500" }))
 * ```
 * @since 0.1.0
 * @category errors
 */
export class UsageError extends Schema.TaggedError<UsageError>()("UsageError", {
  detail: Schema.String
}) {
  override get message() {
    return this.detail
  }
}

/**
 * The output (stdout or the `--out` file) could not be opened or written.
 *
 * @example
 * ```ts
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * const error = new CatalogCommand.OutputError({ detail: "EACCES: permission denied, open 'items.ndjson'", closed: false })
 * ```
 * @since 0.1.0
 * @category errors
 */
export class OutputError extends Schema.TaggedError<OutputError>()("OutputError", {
  detail: Schema.String,
  /** The reader went away (`EPIPE`, as with `| head`): not worth an error line. */
  closed: Schema.Boolean
}) {
  override get message() {
    return this.detail
  }
}

/**
 * A sync of the mirror would not finish within what is left of today's
 * allowance (exit code 5); `--allow-partial` syncs what fits instead.
 *
 * @example
 * ```ts
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * new CatalogCommand.AllowanceShort({ detail: "the sync needs 250 units; 120 are left today" }).message
 * ```
 * @since 0.3.0
 * @category errors
 */
export class AllowanceShort extends Schema.TaggedError<AllowanceShort>()("AllowanceShort", {
  detail: Schema.String
}) {
  override get message() {
    return this.detail
  }
}

/**
 * The service could not be reached through every retry (exit code 9): the
 * connection was refused, the host name did not resolve, TLS failed, or no
 * answer came in time. The message names the base URL and what to check.
 *
 * @example
 * ```ts
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * new CatalogCommand.Unreachable({
 *   detail: "nothing answers at http://127.0.0.1:1/api/v1 (connection refused) after 6 attempts; check that the service runs there"
 * }).message
 * ```
 * @since 0.4.0
 * @category errors
 */
export class Unreachable extends Schema.TaggedError<Unreachable>()("Unreachable", {
  detail: Schema.String
}) {
  override get message() {
    return this.detail
  }
}

/**
 * Any error a subcommand of `catalog` can end with.
 *
 * @example
 * ```ts
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * const tagOf = (error: CatalogCommand.Failure) => error._tag
 * ```
 * @since 0.4.0
 * @category errors
 */
export type Failure = Errors.CatalogError | UsageError | OutputError | AllowanceShort | Unreachable | MirrorError | TargetsInfeasible
