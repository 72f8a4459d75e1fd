/**
 * The exit codes of the `catalog` command, and the code of every error it
 * can end with.
 *
 * | code | meaning |
 * |---|---|
 * | 0 | success |
 * | 1 | the output could not be written, or an internal error |
 * | 2 | bad usage or configuration, `InvalidRequest` |
 * | 3 | `InvalidApiKey`, `ScopeMissing` |
 * | 4 | `NotFound` |
 * | 5 | limits and unavailability after retries: `RateLimited`, `QuotaExhausted`, `BudgetExceeded`, `ServiceUnavailable`, `CursorExpired`, `ResponseTooLarge`; a mirror that cannot finish within today's allowance (`AllowanceShort`) |
 * | 6 | `UnsafeLink`, `UnexpectedResponse`, `TransportError` |
 * | 7 | the mirror's database: `DatabaseUnavailable`, `SchemaTooNew`, `DatabaseFailed`, `SyncLocked` |
 * | 130 | interrupted (Ctrl-C, SIGTERM) |
 *
 * @example
 * ```ts
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * CatalogCommand.ExitCodes.notFound // 4
 * ```
 * @since 0.1.0
 */
import { Effect } from "effect"
import type * as Errors from "../client/Errors.js"
import type { MirrorError } from "../mirror/MirrorError.js"
import type { AllowanceShort, OutputError, UsageError } from "./CliError.js"

/**
 * Success.
 *
 * @example
 * ```ts
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * CatalogCommand.ExitCodes.success // 0
 * ```
 * @since 0.1.0
 */
export const success = 0

/**
 * The output could not be written, or an internal error (a defect).
 *
 * @example
 * ```ts
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * CatalogCommand.ExitCodes.failure // 1
 * ```
 * @since 0.1.0
 */
export const failure = 1

/**
 * Bad usage or configuration, or `InvalidRequest`.
 *
 * @example
 * ```ts
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * CatalogCommand.ExitCodes.usage // 2
 * ```
 * @since 0.1.0
 */
export const usage = 2

/**
 * The key was refused (`InvalidApiKey`) or lacks a scope (`ScopeMissing`).
 *
 * @example
 * ```ts
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * CatalogCommand.ExitCodes.access // 3
 * ```
 * @since 0.1.0
 */
export const access = 3

/**
 * `NotFound`.
 *
 * @example
 * ```ts
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * CatalogCommand.ExitCodes.notFound // 4
 * ```
 * @since 0.1.0
 */
export const notFound = 4

/**
 * A limit was reached or the service stayed unavailable after the retries.
 *
 * @example
 * ```ts
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * CatalogCommand.ExitCodes.limits // 5
 * ```
 * @since 0.1.0
 */
export const limits = 5

/**
 * The answer or the connection was not what the contract promises:
 * `UnsafeLink`, `UnexpectedResponse`, `TransportError`.
 *
 * @example
 * ```ts
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * CatalogCommand.ExitCodes.service // 6
 * ```
 * @since 0.1.0
 */
export const service = 6

/**
 * The mirror's database cannot be opened, migrated or written, or another
 * sync of the collection holds its lock.
 *
 * @example
 * ```ts
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * CatalogCommand.ExitCodes.database // 7
 * ```
 * @since 0.3.0
 */
export const database = 7

/**
 * Interrupted by SIGINT or SIGTERM (128 + 2).
 *
 * @example
 * ```ts
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * CatalogCommand.ExitCodes.interrupted // 130
 * ```
 * @since 0.1.0
 */
export const interrupted = 130

/**
 * Runs a subcommand whose interruption (Ctrl-C, SIGTERM) ends the process
 * with `interrupted`.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * const handler = Effect.never.pipe(CatalogCommand.ExitCodes.exitWhenInterrupted)
 * ```
 * @since 0.3.0
 */
export const exitWhenInterrupted = <A, E, R>(handler: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.onInterrupt(handler, () => Effect.sync(() => (process.exitCode = interrupted)))

/**
 * Any error a subcommand of `catalog` can end with.
 *
 * @example
 * ```ts
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * const tagOf = (error: CatalogCommand.ExitCodes.Failure) => error._tag
 * ```
 * @since 0.1.0
 */
export type Failure = Errors.CatalogError | UsageError | OutputError | AllowanceShort | MirrorError

/**
 * The exit code of an error.
 *
 * @example
 * ```ts
 * import { CatalogCommand } from "effect-catalog/cli"
 * import { Errors } from "effect-catalog"
 *
 * CatalogCommand.ExitCodes.of(new Errors.NotFound({ requestId: "r1", code: "not_found", detail: "No such model" })) // 4
 * ```
 * @since 0.1.0
 */
export const of = (error: Failure): number => {
  switch (error._tag) {
    case "UsageError":
    case "InvalidRequest":
      return usage
    case "InvalidApiKey":
    case "ScopeMissing":
      return access
    case "NotFound":
      return notFound
    case "RateLimited":
    case "QuotaExhausted":
    case "BudgetExceeded":
    case "ServiceUnavailable":
    case "CursorExpired":
    case "ResponseTooLarge":
    case "AllowanceShort":
      return limits
    case "UnsafeLink":
    case "UnexpectedResponse":
    case "TransportError":
      return service
    case "DatabaseUnavailable":
    case "SchemaTooNew":
    case "DatabaseFailed":
    case "SyncLocked":
      return database
    case "OutputError":
      return failure
  }
}
