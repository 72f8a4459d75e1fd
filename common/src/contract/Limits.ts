/**
 * The limits of the contract, stated once: the account's frequency windows,
 * concurrency, units and transfer, the page sizes, the cursor, the response
 * size and the other bounds of the service. Admission, the simulator, the
 * OpenAPI document, the mirror's plan and the command's help all read them
 * from here.
 *
 * The figures are protective, not a throughput guarantee: an account may be
 * allowed less, which `/usage/` reports.
 *
 * @example
 * ```ts
 * import { Duration } from "effect"
 * import { Limits } from "effect-catalog"
 *
 * Limits.requestsPerMinute // 60
 * Limits.maxPageSize // 100
 * Limits.maxSearchPageSize // 25
 * Duration.toMillis(Limits.cursorLifetime) // 3600000
 *
 * // Pages of 100 needed to read 10,000 models, and the minutes they take at the account's rate.
 * const pages = Math.ceil(10_000 / Limits.maxPageSize)
 * const minutes = pages / Limits.requestsPerMinute
 * ```
 * @since 0.5.0 (1.x: 1.0.0)
 */
import { Duration } from "#edition/internal/Edition.js"
import { cursorLifetimeMillis } from "../../../rules/src/contract/Figures.js"

export * from "../../../rules/src/contract/Figures.js"

/**
 * How long a cursor stays valid after it was issued; an older one answers
 * 409 `cursor_expired`.
 *
 * @category constants
 * @since 0.5.0 (1.x: 1.0.0)
 */
export const cursorLifetime: Duration.Duration = Duration.millis(cursorLifetimeMillis)
