/**
 * The pace of a run's requests under the account's windows: when each
 * request of the run left (as the admission let it go, whatever it was
 * for: a page, `/stats/`, a read of `/usage/`, a retry) and how long it
 * took, recorded around the admission the client is built with; and what
 * the admission's schedule (`Admission.schedule`, as `catalog plan` uses
 * it) makes of the requests still to send: the time left, and, while a
 * request is held, how long it waits and for which window.
 */
import { Clock, Context, Duration, Effect, Option, Ref } from "effect"
import * as Admission from "../../../../common/src/client/Admission.js"

/** A request of the run: when it left, and when its answer came (none while it is on its way). */
export interface Sent {
  readonly left: number
  readonly answered: Option.Option<number>
}

/**
 * The requests of the run, as the admission let them go.
 */
export interface Service {
  /** The recent requests, oldest first, in milliseconds of the clock. */
  readonly recent: Effect.Effect<ReadonlyArray<Sent>>
}

/**
 * The requests of the run, recorded by the admission of its client (`recording`).
 */
export class Pace extends Context.Tag("effect-catalog/cli/Pace")<Pace, Service>() {}

/** How many requests are remembered: more than any window of the account holds. */
const remembered = 120

/** The record of the run's requests: each with a number of its own, to find it when it ends. */
interface Record {
  readonly count: number
  readonly sent: ReadonlyArray<Sent & { readonly number: number }>
}

/**
 * An admission that records when each request it lets go leaves and when
 * it ends, and the record of them.
 */
export const recording = (admission: Admission.Service): Effect.Effect<readonly [Admission.Service, Service]> =>
  Effect.map(Ref.make<Record>({ count: 0, sent: [] }), (record) => {
    const leaves = Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Ref.modify(record, ({ count, sent }): readonly [number, Record] => [
        count,
        { count: count + 1, sent: [...sent.slice(1 - remembered), { number: count, left: now, answered: Option.none() }] }
      ]))
    const ends = (number: number) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Ref.update(record, ({ count, sent }) => ({
          count,
          sent: sent.map((request) => request.number === number ? { ...request, answered: Option.some(now) } : request)
        })))
    const recorded: Admission.Service = {
      ...admission,
      admit: (request) => admission.admit(Effect.flatMap(leaves, (number) => Effect.ensuring(request, ends(number))))
    }
    return [recorded, { recent: Effect.map(Ref.get(record), ({ sent }) => sent) }] as const
  })

/**
 * A window of the account, named by its length in the service's time
 * (whatever the time scale), with the limits under which it alone holds
 * requests back.
 */
const windows: ReadonlyArray<{ readonly name: string; readonly alone: (limits: Admission.Limits) => Admission.Limits }> = [
  { name: "10 s", alone: (limits) => ({ ...limits, perMinute: Number.POSITIVE_INFINITY }) },
  { name: "1 min", alone: (limits) => ({ ...limits, perTenSeconds: Number.POSITIVE_INFINITY }) }
]

/** What a held request waits for: how long still, and which window, when one of them holds it. */
export interface Wait {
  readonly left: Duration.Duration
  /** The window's length in the service's time ("10 s", "1 min"); none when no window of this run explains the wait (a pause after a 429, or requests of another process). */
  readonly window: Option.Option<string>
}

/** Where the requests still to send stand. */
export interface Estimate {
  /** Until the last of them is answered. */
  readonly left: Duration.Duration
  /** What the next one waits for, while the admission holds one. */
  readonly wait: Option.Option<Wait>
}

/** The middle of some numbers (0 for none). */
const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length === 0 ? 0 : sorted.length % 2 === 1 ? sorted[middle] ?? 0 : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

/**
 * The time `requests` more requests in a row need under `limits`, after
 * the requests sent so far (`recent`, at `now`), each taking as long as the
 * usual one of them: the admission's schedule of them, which moves on as
 * the clock does, during a wait too. Requests on their way count among the
 * `requests` (a page asked for is still to come). While the admission holds
 * a request (`held`), the wait the schedule gives the next one, and the
 * window that sets it.
 */
export const estimate = (options: {
  readonly requests: number
  readonly limits: Admission.Limits
  readonly recent: ReadonlyArray<Sent>
  readonly now: number
  readonly held: boolean
}): Estimate => {
  const { limits, now, recent } = options
  const requestMillis = median(recent.flatMap(({ answered, left }) => Option.toArray(Option.map(answered, (at) => at - left))))
  const booked = recent.map(({ left }) => left - now)
  const onTheirWay = recent.filter(({ answered }) => Option.isNone(answered)).length
  const toSend = Math.max(0, options.requests - onTheirWay)
  const nextStart = (under: Admission.Limits) => Admission.schedule(1, under, booked, requestMillis).at(-1) ?? 0
  const starts = Admission.schedule(toSend, limits, booked, requestMillis)
  const left = Duration.millis(Math.max(0, options.requests === 0 ? 0 : (starts.at(-1) ?? 0) + requestMillis))
  if (!options.held) return { left, wait: Option.none() }
  // A window holds the next request when, under it alone, the request starts later than under no window at all.
  const unheld = Math.max(0, nextStart({ ...limits, perTenSeconds: Number.POSITIVE_INFINITY, perMinute: Number.POSITIVE_INFINITY }))
  const holding = windows
    .map(({ alone, name }) => ({ name, start: nextStart(alone(limits)) }))
    .filter(({ start }) => start > unheld)
    .sort((a, b) => b.start - a.start)
  return {
    left,
    wait: Option.some({
      left: Duration.millis(Math.max(0, nextStart(limits))),
      window: Option.map(Option.fromNullable(holding[0]), ({ name }) => name)
    })
  }
}

/**
 * The limits admission keeps now: `limits`, under the account's live
 * `minute_limit` when it follows it and has read it.
 */
export const inForce = (admission: Admission.Service, limits: Admission.Limits): Effect.Effect<Admission.Limits> =>
  admission.allowance === undefined ? Effect.succeed(limits) : admission.allowance.last.pipe(
    Effect.map(Option.match({ onNone: () => limits, onSome: (read) => Admission.underAllowance(limits, read.minuteLimit) })),
    Effect.orElseSucceed(() => limits)
  )
