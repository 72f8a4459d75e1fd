/**
 * Admission that follows the account's live allowance: reads of `/usage/`
 * (spaced as the contract allows them) that lower the limits a store admits
 * under.
 *
 * @internal
 */
import { Clock, Effect, Option, Ref, Result, Semaphore } from "effect"
import * as AllowanceReads from "../../../../rules/src/client/AllowanceReads.js"
import type { Service } from "../../../../common/src/client/Admission.js"
import type { AllowanceStore } from "../../../../common/src/client/AdmissionStore.js"
import type { AdmissionUnavailable } from "../../../../common/src/client/Errors.js"

export { usageSpacingMillis } from "../../../../rules/src/client/AllowanceReads.js"

/** What keeps a client's reads of the live allowance when they are due (see `Admission.following`). */
export interface Refresher {
  /** Before a request: reads the allowance if a read is due, or takes the store's, as `Admission.following` says. */
  readonly refresh: Effect.Effect<void>
  /** A 429 the admission did not expect: the read in force may be out of date. */
  readonly outdated: Effect.Effect<void>
}

/** Before a request, at `now`: the store's read taken, or `read` run when one is due (see `Admission.following`). */
const refreshAt = <E>(
  reads: Ref.Ref<AllowanceReads.Reads>,
  allowance: AllowanceStore<AdmissionUnavailable>,
  read: Effect.Effect<void, E>,
  now: number
): Effect.Effect<void> =>
  Effect.gen(function*() {
    const last = yield* Ref.get(reads)
    const before = AllowanceReads.beforeRequest(last, now)
    if (before._tag !== "AskStore") return yield* take(reads, before)
    const stored = yield* Effect.result(allowance.last)
    const step = AllowanceReads.withStored(last, now, Result.isFailure(stored) ? undefined : Option.getOrNull(stored.success))
    yield* take(reads, step)
    if (step._tag !== "Read") return
    yield* read.pipe(
      Effect.andThen(Ref.update(reads, (current) => AllowanceReads.afterRead(current, now))),
      Effect.ignore
    )
  })

/** The reads a step sets, if it sets any. */
const take = (reads: Ref.Ref<AllowanceReads.Reads>, step: AllowanceReads.Step): Effect.Effect<void> =>
  step._tag === "Set" || step._tag === "Read" ? Ref.set(reads, step.reads) : Effect.void

/**
 * When the live allowance of `allowance` is read again by `read`, which
 * records what it read in the store (see `Admission.following`).
 */
export const refresher = <E>(allowance: AllowanceStore<AdmissionUnavailable>, read: Effect.Effect<void, E>): Effect.Effect<Refresher> =>
  Effect.gen(function*() {
    const lock = yield* Semaphore.make(1)
    const reads = yield* Ref.make(AllowanceReads.initial)
    const refresh = lock.withPermit(Effect.flatMap(Clock.currentTimeMillis, (now) => refreshAt(reads, allowance, read, now)))
    const outdated = Effect.flatMap(Clock.currentTimeMillis, (now) => Ref.update(reads, (last) => AllowanceReads.outdated(last, now)))
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
