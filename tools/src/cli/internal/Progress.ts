/**
 * Where a run of the `catalog` command stands, on stderr: a progress line
 * refreshed while it runs, only when stderr is a terminal (items and pages
 * done, the total when it is known, the time left by the admission's own
 * schedule, what a held request waits for, the rate), one summary line at
 * the end, and one line when a signal interrupts it.
 */
import { Clock, Duration, Effect, Option, Schedule, type Scope } from "effect"
import * as Admission from "../../../../common/src/client/Admission.js"
import * as Budget from "../../../../common/src/client/Budget.js"
import * as CatalogClient from "../../../../common/src/client/CatalogClient.js"
import { clearLine } from "./Output.js"
import * as Pace from "./Pace.js"
import * as TerminalText from "../../../../rules/src/TerminalText.js"
import { plural } from "../../../../rules/src/Words.js"

/**
 * Where a run stands.
 */
export interface Progress {
  /** Items written. */
  readonly items: number
  /** Pages received (list requests answered, retries not counted). */
  readonly pages: number
  /** Units spent. */
  readonly units: number
  /** Retryable errors met (each was retried, unless it ended the run). */
  readonly retries: number
  /** Answers served from the ETag cache (304). */
  readonly notModified: number
  readonly elapsed: Duration.Duration
  /** The items the run will write, when known (`/stats/`, `--max`, a plan). */
  readonly total: Option.Option<Total>
  /** The time left, when the total is known. */
  readonly left: Option.Option<Duration.Duration>
  /** What the next request waits for, while the admission holds it. */
  readonly wait: Option.Option<Pace.Wait>
}

/** The items a run will write: counted (`/stats/`, `--max`), or `about` so many (a plan's estimate). */
export interface Total {
  readonly count: number
  readonly about: boolean
}

/**
 * A duration for people: seconds with a tenth below 90 s, then minutes, then hours.
 */
export const duration = (seconds: number) =>
  seconds < 90 ? `${seconds.toFixed(1)} s` : seconds < 5400 ? `${(seconds / 60).toFixed(1)} min` : `${(seconds / 3600).toFixed(1)} h`

/** Items, pages and units: "3000 items, 30 pages, 31 units". */
const counts = (progress: Progress) =>
  `${plural(progress.items, "item")}, ${plural(progress.pages, "page")}, ${plural(progress.units, "unit")}`

/** The retries and answers from the cache, when there were any. */
const retries = (progress: Progress) =>
  `${progress.retries === 0 ? "" : `, ${plural(progress.retries, "retry", "retries")}`}${
    progress.notModified === 0 ? "" : `, ${progress.notModified} not modified (304)`
  }`

const rate = (progress: Progress) => {
  const seconds = Duration.toSeconds(progress.elapsed)
  return seconds <= 0 ? "" : `, ${Math.round(progress.items / seconds)} items/s`
}

/** What a held request waits for, in words: "waiting 6.0 s for the 10 s window". */
const waiting = (wait: Pace.Wait) =>
  Option.match(wait.window, {
    onNone: () => "waiting for its turn under the account's limits",
    onSome: (window) => `waiting ${duration(Duration.toSeconds(wait.left))} for the ${window} window`
  })

/**
 * The progress line of a run (shown on a terminal only).
 */
export const progressLine = (label: string, progress: Progress): string => {
  const items = Option.match(progress.total, {
    onNone: () => plural(progress.items, "item"),
    onSome: ({ about, count }) =>
      `${progress.items} of ${about ? "about " : ""}${count} (${count === 0 ? 100 : Math.min(100, Math.floor((progress.items / count) * 100))}%)`
  })
  const left = Option.match(progress.left, { onNone: () => "", onSome: (left) => `, ${duration(Duration.toSeconds(left))} left` })
  // While a request waits, what it waits for takes the place of the rate, which says nothing then.
  const pace = Option.match(progress.wait, { onNone: () => rate(progress), onSome: (wait) => `, ${waiting(wait)}` })
  // What matters most comes first: a narrow terminal cuts the end of the line.
  return `${label}: ${items}${left}${pace}, ${plural(progress.pages, "page")}, ${plural(progress.units, "unit")}${retries(progress)}`
}

/**
 * The summary line of a finished run.
 */
export const summaryLine = (label: string, progress: Progress): string =>
  `catalog: ${label}: ${counts(progress)}${retries(progress)}, ${duration(Duration.toSeconds(progress.elapsed))}`

/**
 * The line of a run a signal interrupted: what it had done, then what
 * `next` says of its output or of how to go on.
 */
export const interruptedLine = (progress: Progress, next: string): string => `catalog: interrupted after ${counts(progress)}; ${next}`

/**
 * What a run counts, given to `Tracker.now` each time it is asked where it
 * stands: the items written, the items it will write when known, and the
 * requests it still has to send for them.
 */
export interface Counts {
  readonly items: number
  readonly total: Option.Option<Total>
  readonly requestsLeft: Option.Option<number>
}

/**
 * Where a run stands from its start: its own counts, with what the client
 * has spent, retried and answered from its cache since, and the pace of
 * its requests under the account's windows.
 */
export interface Tracker {
  readonly now: (counts: Counts) => Effect.Effect<Progress>
}

/**
 * Starts tracking a run that lists `operation` (its pages are that
 * operation's requests) under `limits`, from now.
 */
export const track = (
  operation: string,
  limits: Admission.Limits
): Effect.Effect<Tracker, never, Budget.Budget | Admission.Admission | Pace.Pace> =>
  Effect.gen(function*() {
    const budget = yield* Budget.Budget
    const admission = yield* Admission.Admission
    const pace = yield* Pace.Pace
    const total = CatalogClient.metricTotal
    const started = yield* Clock.currentTimeMillis
    const before = yield* budget.spent
    const requestsOf = (spent: Budget.Spent) => spent.byOperation.get(operation)?.requests ?? 0
    const retriesBefore = yield* total(CatalogClient.metrics.retries)
    const notModifiedBefore = yield* total(CatalogClient.metrics.notModified)
    return {
      now: (counts) =>
        Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          const spent = yield* budget.spent
          const retries = (yield* total(CatalogClient.metrics.retries)) - retriesBefore
          // Only a run that knows what it has left asks for the limits in force (a read of a shared store) and the schedule.
          const estimate = yield* Effect.transposeOption(Option.map(counts.requestsLeft, (requests) =>
            Effect.gen(function*() {
              const inForce = yield* Pace.inForce(admission, limits)
              const held = (yield* admission.waiting) > 0
              return Pace.estimate({ requests, limits: inForce, recent: yield* pace.recent, now, held })
            })))
          return {
            items: counts.items,
            pages: Math.max(0, requestsOf(spent) - requestsOf(before) - retries),
            units: spent.units - before.units,
            retries,
            notModified: (yield* total(CatalogClient.metrics.notModified)) - notModifiedBefore,
            elapsed: Duration.millis(now - started),
            total: counts.total,
            left: Option.map(estimate, ({ left }) => left),
            wait: Option.flatMap(estimate, ({ wait }) => wait)
          }
        })
    }
  })

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
