/**
 * When a client reads the account's live allowance (`/usage/`) again: where
 * it stands with its reads, and the step each event takes it to, as plain
 * functions of plain data (see `Admission.following`). The first request is
 * never preceded by a read; later ones take the store's read of the day, or
 * read `/usage/` themselves, spaced as the contract allows; a 429 the
 * admission did not expect marks the read in force as possibly out of date.
 *
 * Imports nothing of Effect. Both editions' `Following`
 * (src/client/internal/Following.ts, effect4/src/client/internal/Following.ts)
 * keep a `Reads` in a `Ref` and run the steps under a lock.
 */
import { usageCallsPerMinute } from "../contract/Figures.js"

/** The shortest time between two reads of `/usage/`: the contract's calls a minute, evenly spaced. */
export const usageSpacingMillis = 60_000 / usageCallsPerMinute

/** The UTC day of a moment, as the service counts its daily allowance. */
const utcDay = (millis: number) => new Date(millis).toISOString().slice(0, 10)

/** Where a client stands with its reads of the live allowance. */
export interface Reads {
  /** Whether a request was admitted before (the first is never preceded by a read). */
  readonly sent: boolean
  /** When this client last read (or tried to read) `/usage/`. */
  readonly tried: number
  /** The UTC day of the read in force, `""` while none is. */
  readonly day: string
  /** Since when the read in force may be out of date (a 429 the admission did not expect); `null` while it is current. */
  readonly staleSince: number | null
}

/** A client that has read nothing and sent nothing. */
export const initial: Reads = { sent: false, tried: Number.NEGATIVE_INFINITY, day: "", staleSince: null }

/**
 * What to do before a request: keep the reads as they are, set them, ask the
 * store for its read (then `withStored`), or set them and read `/usage/`
 * (then `afterRead` once the read is recorded).
 */
export type Step =
  | { readonly _tag: "Keep" }
  | { readonly _tag: "Set"; readonly reads: Reads }
  | { readonly _tag: "AskStore" }
  | { readonly _tag: "Read"; readonly reads: Reads }

const keep: Step = { _tag: "Keep" }
const set = (reads: Reads): Step => ({ _tag: "Set", reads })

/** Before a request at `now`, from the client's own reads: the first request is sent as it is; a current read of today is kept. */
export const beforeRequest = (last: Reads, now: number): Step => {
  if (!last.sent) return set({ ...last, sent: true })
  if (last.staleSince === null && last.day === utcDay(now)) return keep
  return { _tag: "AskStore" }
}

/**
 * Before a request at `now`, with what the store answered: its read
 * (`readAt`), `null` when it holds none, `undefined` when it could not tell.
 * A store that cannot tell cannot admit either: the request meets its
 * failure, and no read is spent on it. The store's read of today, made since
 * the read in force went out of date, is taken; otherwise `/usage/` is read,
 * unless a read was made or tried less than `usageSpacingMillis` ago.
 */
export const withStored = (last: Reads, now: number, stored: { readonly readAt: number } | null | undefined): Step => {
  if (stored === undefined) return set({ ...last, tried: now })
  const today = utcDay(now)
  if (stored !== null && utcDay(stored.readAt) === today && stored.readAt >= (last.staleSince ?? Number.NEGATIVE_INFINITY)) {
    return set({ ...last, day: today, staleSince: null })
  }
  if (now - Math.max(last.tried, stored?.readAt ?? Number.NEGATIVE_INFINITY) < usageSpacingMillis) return keep
  return { _tag: "Read", reads: { ...last, tried: now } }
}

/** A read of `/usage/`, begun at `now`, is recorded: it is the read in force, current. */
export const afterRead = (current: Reads, now: number): Reads => ({ ...current, day: utcDay(now), staleSince: null })

/** A 429 the admission did not expect, at `now`: the read in force may be out of date since then. */
export const outdated = (last: Reads, now: number): Reads => ({ ...last, staleSince: last.staleSince ?? now })
