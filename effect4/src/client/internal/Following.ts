/**
 * Admission that follows the account's live allowance: reads of `/usage/`
 * (spaced as the contract allows them) that lower the limits a store admits
 * under.
 *
 * @internal
 */
import { Clock, Duration, Effect, Option, Ref, Result, Semaphore } from "effect"
import * as ContractLimits from "../../contract/Limits.js"
import type { Service } from "../Admission.js"
import type { AllowanceStore } from "../AdmissionStore.js"
import type { AdmissionUnavailable } from "../Errors.js"

/** The shortest time between two reads of `/usage/`: the contract's calls a minute, evenly spaced. */
export const usageSpacingMillis = Duration.toMillis(Duration.minutes(1)) / ContractLimits.usageCallsPerMinute

/** The UTC day of a moment, as the service counts its daily allowance. */
const utcDay = (millis: number) => new Date(millis).toISOString().slice(0, 10)

/** Where a client stands with its reads of the live allowance. */
interface Reads {
  /** Whether a request was admitted before (the first is never preceded by a read). */
  readonly sent: boolean
  /** When this client last read (or tried to read) `/usage/`. */
  readonly tried: number
  /** The UTC day of the read in force, `""` while none is. */
  readonly day: string
  /** Since when the read in force may be out of date (a 429 the admission did not expect); `null` while it is current. */
  readonly staleSince: number | null
}

/** What keeps a client's reads of the live allowance when they are due (see `Admission.following`). */
export interface Refresher {
  /** Before a request: reads the allowance if a read is due, or takes the store's, as `Admission.following` says. */
  readonly refresh: Effect.Effect<void>
  /** A 429 the admission did not expect: the read in force may be out of date. */
  readonly outdated: Effect.Effect<void>
}

/** Before a request, at `now`: the store's read taken, or `read` run when one is due (see `Admission.following`). */
const refreshAt = <E>(
  reads: Ref.Ref<Reads>,
  allowance: AllowanceStore<AdmissionUnavailable>,
  read: Effect.Effect<void, E>,
  now: number
): Effect.Effect<void> =>
  Effect.gen(function*() {
    const today = utcDay(now)
    const last = yield* Ref.get(reads)
    if (!last.sent) return yield* Ref.set(reads, { ...last, sent: true })
    if (last.staleSince === null && last.day === today) return
    const stored = yield* Effect.result(allowance.last)
    // A store that cannot tell cannot admit either: the request meets its failure, and no read is spent on it.
    if (Result.isFailure(stored)) return yield* Ref.set(reads, { ...last, tried: now })
    const known = Option.getOrNull(stored.success)
    if (known !== null && utcDay(known.readAt) === today && known.readAt >= (last.staleSince ?? Number.NEGATIVE_INFINITY)) {
      return yield* Ref.set(reads, { ...last, day: today, staleSince: null })
    }
    if (now - Math.max(last.tried, known?.readAt ?? Number.NEGATIVE_INFINITY) < usageSpacingMillis) return
    yield* Ref.set(reads, { ...last, tried: now })
    yield* read.pipe(
      Effect.andThen(Ref.update(reads, (current) => ({ ...current, day: today, staleSince: null }))),
      Effect.ignore
    )
  })

/**
 * When the live allowance of `allowance` is read again by `read`, which
 * records what it read in the store (see `Admission.following`).
 */
export const refresher = <E>(allowance: AllowanceStore<AdmissionUnavailable>, read: Effect.Effect<void, E>): Effect.Effect<Refresher> =>
  Effect.gen(function*() {
    const lock = yield* Semaphore.make(1)
    const reads = yield* Ref.make<Reads>({ sent: false, tried: Number.NEGATIVE_INFINITY, day: "", staleSince: null })
    const refresh = lock.withPermit(Effect.flatMap(Clock.currentTimeMillis, (now) => refreshAt(reads, allowance, read, now)))
    const outdated = Effect.flatMap(Clock.currentTimeMillis, (now) => Ref.update(reads, (last) => ({ ...last, staleSince: last.staleSince ?? now })))
    return { refresh, outdated }
  })

/** Admission under the account's live allowance, read by `minuteLimit` (see `Admission.following`). */
export const following = <E>(admission: Service, minuteLimit: Effect.Effect<number, E>): Effect.Effect<Service> => {
  const allowance = admission.allowance
  if (allowance === undefined) return Effect.succeed(admission)
  const read = Effect.flatMap(Effect.zip(Clock.currentTimeMillis, minuteLimit), ([readAt, limit]) => allowance.set({ minuteLimit: limit, readAt }))
  return Effect.map(refresher(allowance, read), ({ outdated, refresh }): Service => ({
    ...admission,
    admit: (request) => Effect.andThen(refresh, admission.admit(request)),
    pause: (retryAfter) => Effect.andThen(outdated, admission.pause(retryAfter))
  }))
}
