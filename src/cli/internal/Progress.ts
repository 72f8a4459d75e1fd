/**
 * Where a scan of the `catalog` command stands, on stderr: a progress line
 * refreshed while it runs, only when stderr is a terminal (items and pages
 * done, the total when it is known, the rate, and the time left by the
 * admission's own schedule), and one summary line at the end.
 */
import { Duration, Effect, Option, Schedule, type Scope } from "effect"
import * as Admission from "../../client/Admission.js"
import { clearLine } from "./Output.js"
import * as TerminalText from "./TerminalText.js"

/**
 * Where a scan stands.
 */
export interface Progress {
  /** Items written. */
  readonly items: number
  /** Pages received (list requests answered, retries not counted). */
  readonly pages: number
  /** Units spent. */
  readonly units: number
  /** Requests waiting for a permit of the account's limits. */
  readonly waiting: number
  /** Retryable errors met (each was retried, unless it ended the scan). */
  readonly retries: number
  /** Answers served from the ETag cache (304). */
  readonly notModified: number
  readonly elapsed: Duration.Duration
  /** The items the scan will write, when known (`/stats/`, `--max`). */
  readonly total: Option.Option<number>
  /** The time left, when the total is known. */
  readonly left: Option.Option<Duration.Duration>
}

/**
 * A count with its noun: `plural(1, "unit", "units")` is "1 unit".
 */
export const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`

/**
 * A duration for people: seconds with a tenth below 90 s, then minutes, then hours.
 */
export const duration = (seconds: number) =>
  seconds < 90 ? `${seconds.toFixed(1)} s` : seconds < 5400 ? `${(seconds / 60).toFixed(1)} min` : `${(seconds / 3600).toFixed(1)} h`

/** The retries and answers from the cache, when there were any. */
const retries = (progress: Progress) =>
  `${progress.retries === 0 ? "" : `, ${plural(progress.retries, "retry", "retries")}`}${
    progress.notModified === 0 ? "" : `, ${progress.notModified} not modified (304)`
  }`

const rate = (progress: Progress) => {
  const seconds = Duration.toSeconds(progress.elapsed)
  return seconds <= 0 ? "" : `, ${Math.round(progress.items / seconds)} items/s`
}

/**
 * The progress line of a scan (shown on a terminal only).
 */
export const progressLine = (label: string, progress: Progress): string => {
  const items = Option.match(progress.total, {
    onNone: () => plural(progress.items, "item", "items"),
    onSome: (total) => `${progress.items} of ${total} (${total === 0 ? 100 : Math.min(100, Math.floor((progress.items / total) * 100))}%)`
  })
  const left = Option.match(progress.left, { onNone: () => "", onSome: (left) => `, ${duration(Duration.toSeconds(left))} left` })
  const waiting = progress.waiting === 0 ? "" : `, ${progress.waiting} waiting`
  // What matters most comes first: a narrow terminal cuts the end of the line.
  return `${label}: ${items}${left}${rate(progress)}, ${plural(progress.pages, "page", "pages")}, ${plural(progress.units, "unit", "units")}${waiting}${
    retries(progress)
  }`
}

/**
 * The summary line of a finished scan.
 */
export const summaryLine = (label: string, progress: Progress): string =>
  `catalog: ${label}: ${plural(progress.items, "item", "items")}, ${plural(progress.pages, "page", "pages")}, ${
    plural(progress.units, "unit", "units")
  }${retries(progress)}, ${duration(Duration.toSeconds(progress.elapsed))}`

/**
 * The time a scan still needs: the admission's schedule (`Admission.schedule`)
 * for the pages left, after the pages already received (each booked at its
 * arrival less a request's time), each request taking as long as the
 * quickest of the recent ones (the gap between two arrivals no window held
 * back). `arrivals` are the times pages arrived, in milliseconds from now.
 */
export const timeLeft = (options: {
  readonly itemsLeft: number
  readonly pageSize: number
  readonly limits: Admission.Limits
  readonly arrivals: ReadonlyArray<number>
}): Duration.Duration => {
  const requests = Math.ceil(Math.max(0, options.itemsLeft) / Math.max(1, options.pageSize))
  if (requests === 0) return Duration.zero
  const gaps = options.arrivals.slice(1).map((arrival, index) => arrival - (options.arrivals[index] ?? arrival))
  const requestMillis = gaps.length === 0 ? 0 : Math.max(0, Math.min(...gaps))
  const booked = options.arrivals.map((arrival) => arrival - requestMillis)
  const starts = Admission.schedule(requests, options.limits, booked, requestMillis)
  return Duration.millis(Math.max(0, (starts.at(-1) ?? 0) + requestMillis))
}

/** The line within `width` columns: whole parts (", "-separated) dropped from its end, then cut. */
const fit = (text: string, width: number): string => {
  let fitted = text
  while (fitted.length > width && fitted.lastIndexOf(", ") > 0) fitted = fitted.slice(0, fitted.lastIndexOf(", "))
  return fitted.slice(0, width)
}

/**
 * Shows a progress line on stderr, refreshed every `every`, for the life
 * of the scope, when stderr is a terminal; erases it when the scope closes.
 * Elsewhere it does nothing. Parts at the end of the line that the
 * terminal's width leaves no room for are not shown; the line is inert,
 * as every line on stderr.
 */
export const show = (
  line: Effect.Effect<string>,
  every: Duration.DurationInput = "200 millis"
): Effect.Effect<void, never, Scope.Scope> =>
  process.stderr.isTTY !== true ? Effect.void : Effect.gen(function*() {
    const render = Effect.flatMap(line, (text) =>
      Effect.sync(() => {
        const columns = process.stderr.columns ?? 0
        const width = columns > 0 ? columns : 120
        process.stderr.write(`${clearLine}${fit(TerminalText.line(text), Math.max(20, width - 1))}`)
      }))
    yield* Effect.addFinalizer(() => Effect.sync(() => process.stderr.write(clearLine)))
    yield* Effect.forkScoped(Effect.repeat(render, Schedule.spaced(every)))
  })
