/**
 * The exit codes of the `catalog` command, and the code of every error it
 * can end with (`of`). `table` is the one statement of what each code
 * means: `catalog --help` and README show it.
 *
 * @example
 * ```ts
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * CatalogCommand.ExitCodes.notFound // 4
 * ```
 * @since 0.1.0
 */
import type { Failure } from "./CliError.js"

/** @since 0.1.0 @category constants */
export const success = 0
/** The output could not be written, or an internal error (a defect). @since 0.1.0 @category constants */
export const failure = 1
/** Bad usage or configuration, or `InvalidRequest`. @since 0.1.0 @category constants */
export const usage = 2
/** The key was refused (`InvalidApiKey`). @since 0.4.0 @category constants */
export const authentication = 3
/** `NotFound`. @since 0.1.0 @category constants */
export const notFound = 4
/** A quota, the budget or the rate limit stopped the command. @since 0.4.0 @category constants */
export const quota = 5
/** The answer was not what the contract promises. @since 0.4.0 @category constants */
export const unexpectedResponse = 6
/** The mirror's database cannot be opened, migrated or written, or is locked. @since 0.3.0 @category constants */
export const database = 7
/** The key lacks the scope the operation needs (`ScopeMissing`). @since 0.4.0 @category constants */
export const scope = 8
/** The service could not be reached or stayed unavailable through the retries, or the Redis of `--redis` failed (`AdmissionUnavailable`). @since 0.4.0 @category constants */
export const unavailable = 9
/** Interrupted: Ctrl-C, SIGINT (128 + 2). @since 0.1.0 @category constants */
export const interrupted = 130
/** Terminated: SIGTERM (128 + 15). @since 0.6.0 @category constants */
export const terminated = 143

/**
 * A signal that stops the command, each with its own exit code (`ofSignal`).
 *
 * @example
 * ```ts
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * const signal: CatalogCommand.ExitCodes.Signal = "SIGTERM"
 * ```
 * @since 0.6.0
 * @category models
 */
export type Signal = "SIGINT" | "SIGTERM"

/**
 * The exit code of a run a signal stopped: `interrupted` for SIGINT,
 * `terminated` for SIGTERM, as a shell reports a process they end.
 *
 * @example
 * ```ts
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * CatalogCommand.ExitCodes.ofSignal("SIGTERM") // 143
 * ```
 * @since 0.6.0
 * @category utils
 */
export const ofSignal = (signal: Signal): number => signal === "SIGINT" ? interrupted : terminated

/**
 * Every exit code with what it means, in order: what `catalog --help` and
 * README list.
 *
 * @example
 * ```ts
 * import { CatalogCommand } from "effect-catalog/cli"
 *
 * for (const { code, meaning } of CatalogCommand.ExitCodes.table) console.log(code, meaning)
 * ```
 * @since 0.4.0
 * @category constants
 */
export const table: ReadonlyArray<{ readonly code: number; readonly meaning: string }> = [
  { code: success, meaning: "success" },
  { code: failure, meaning: "the output could not be written, or an internal error" },
  { code: usage, meaning: "usage error: a bad command line or configuration, or a request the service refused as invalid" },
  { code: authentication, meaning: "authentication: the key is invalid or revoked" },
  { code: notFound, meaning: "not found" },
  { code: quota, meaning: "quota, budget or rate limit: the allowance is spent, the budget would be passed, the limit held through the retries, or the keeper's freshness targets do not fit" },
  { code: unexpectedResponse, meaning: "unexpected response: an answer outside the contract" },
  { code: database, meaning: "the mirror's database cannot be opened, migrated or written, or is locked" },
  { code: scope, meaning: "scope: the key lacks the scope the operation needs" },
  { code: unavailable, meaning: "service unavailable after the retries: unreachable, or answering 503" },
  { code: interrupted, meaning: "interrupted: Ctrl-C (SIGINT)" },
  { code: terminated, meaning: "terminated: SIGTERM" }
]

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
 * @category utils
 */
export const of = (error: Failure): number => {
  switch (error._tag) {
    case "UsageError":
    case "InvalidRequest":
      return usage
    case "InvalidApiKey":
      return authentication
    case "ScopeMissing":
      return scope
    case "NotFound":
      return notFound
    case "RateLimited":
    case "QuotaExhausted":
    case "BudgetExceeded":
    case "ResponseTooLarge":
    case "AllowanceShort":
    case "TargetsInfeasible":
      return quota
    case "UnsafeLink":
    case "UnexpectedResponse":
      return unexpectedResponse
    case "ServiceUnavailable":
    case "TransportError":
    case "CursorExpired":
    case "Unreachable":
    case "AdmissionUnavailable":
      return unavailable
    case "DatabaseUnavailable":
    case "SchemaTooNew":
    case "DatabaseFailed":
    case "SyncLocked":
      return database
    case "OutputError":
      return failure
  }
}
