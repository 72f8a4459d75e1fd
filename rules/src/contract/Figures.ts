/**
 * The contract's figures, as plain numbers: stated once here for both
 * editions of the package, whose `Limits` modules give them, with the one
 * figure that is a duration as each edition's own `Duration`.
 */

/**
 * Requests of an account that may start in any 10 seconds.
 *
 * @category constants
 * @since 0.5.0
 */
export const requestsPerTenSeconds = 10

/**
 * Requests of an account that may start in any minute.
 *
 * @category constants
 * @since 0.5.0
 */
export const requestsPerMinute = 60

/**
 * Requests of an account that may be in flight at once (subject to the
 * service's shared capacity).
 *
 * @category constants
 * @since 0.5.0
 */
export const concurrentRequests = 2

/**
 * Usage units an account may spend in a UTC day.
 *
 * @category constants
 * @since 0.5.0
 */
export const dailyUnits = 10_000

/**
 * Usage units an account may spend in a UTC month.
 *
 * @category constants
 * @since 0.5.0
 */
export const monthlyUnits = 100_000

/**
 * Bytes of responses an account may receive in a UTC day (250 MiB).
 *
 * @category constants
 * @since 0.5.0
 */
export const dailyTransferBytes = 250 * 1024 * 1024

/**
 * The page size of a list when `limit` is absent (at most the list's
 * maximum).
 *
 * @category constants
 * @since 0.5.0
 */
export const defaultPageSize = 25

/**
 * The largest page size of a list.
 *
 * @category constants
 * @since 0.5.0
 */
export const maxPageSize = 100

/**
 * The largest page size of a search.
 *
 * @category constants
 * @since 0.5.0
 */
export const maxSearchPageSize = 25

/**
 * The longest cursor the service issues, in characters.
 *
 * @category constants
 * @since 0.5.0
 */
export const maxCursorLength = 1600

/**
 * How long a cursor stays valid after it was issued, in milliseconds
 * (`Limits.cursorLifetime`).
 *
 * @category constants
 * @since 0.7.0
 */
export const cursorLifetimeMillis = 60 * 60 * 1000

/**
 * The largest response the service sends (512 KiB); it also reserves this
 * many bytes of the daily transfer for every request until it is answered.
 *
 * @category constants
 * @since 0.5.0
 */
export const maxResponseBytes = 512 * 1024

/**
 * The largest Skill Markdown document, in UTF-8 bytes.
 *
 * @category constants
 * @since 0.5.0
 */
export const maxSkillMarkdownBytes = 350_000

/**
 * The most items an organization resource's detail holds; a larger
 * resource says `items_truncated`.
 *
 * @category constants
 * @since 0.5.0
 */
export const maxOrganizationResourceItems = 100

/**
 * How many articles the article list holds: the latest published ones
 * (older articles stay readable by slug).
 *
 * @category constants
 * @since 0.5.0
 */
export const articleListWindow = 24

/**
 * Calls of `/usage/` an account may make in any minute (they cost no units).
 *
 * @category constants
 * @since 0.5.0
 */
export const usageCallsPerMinute = 5
