/**
 * What the mirror writes and reads, as plain data: which items of a page
 * are new, edited or only seen again (by the hash of their wire JSON), the
 * rows of `sync_runs` and the runs they give, and whether the process that
 * holds an SQLite lock still runs.
 *
 * Imports nothing of Effect. The sync (common/src/mirror/internal/Sync.ts,
 * compiled against either edition) sorts its pages with `sortPage` and reads
 * its runs with `runOf`, so that either edition sees the same changes in the
 * same mirror.
 */
import { createHash } from "node:crypto"

/** An item of a page: its wire form, an object with a string `id`. */
export interface Item {
  readonly id: string
}

/** What a collection's table holds of an item the page lists. */
export interface StoredRow {
  readonly id: string
  readonly hash: string
  readonly deleted_at: unknown
}

/** A row to upsert (a type, not an interface: a record of columns to the drivers' `insert`). */
export type WrittenRow = {
  readonly id: string
  readonly data: string
  readonly hash: string
  readonly first_seen_at: string
  readonly last_seen_at: string
  readonly scan: number
}

/** What a page brings, item by item. */
export interface SortedPage<A extends Item> {
  /** New and edited items, as rows to upsert. */
  readonly written: ReadonlyArray<WrittenRow>
  /** New and edited items, in the page's order. */
  readonly changed: ReadonlyArray<A>
  /** The ids of the edited ones. */
  readonly edited: ReadonlySet<string>
  /** The ids of the items listed again unchanged: only marked as seen. */
  readonly seen: ReadonlyArray<string>
}

const hashOf = (text: string) => createHash("sha1").update(text).digest("base64url")

/**
 * Sorts the items of a page by what the mirror holds of them: an item whose
 * wire JSON has the hash of its live row is only seen again; any other is
 * written, and is an edit if its row is live.
 */
export const sortPage = <A extends Item>(
  items: ReadonlyArray<A>,
  stored: ReadonlyArray<StoredRow>,
  now: string,
  scan: number
): SortedPage<A> => {
  const known = new Map(stored.map((row) => [row.id, row]))
  const written: Array<WrittenRow> = []
  const changed: Array<A> = []
  const edited = new Set<string>()
  const seen: Array<string> = []
  for (const item of items) {
    const data = JSON.stringify(item)
    const hash = hashOf(data)
    const row = known.get(item.id)
    const live = row !== undefined && row.deleted_at === null
    if (live && row.hash === hash) {
      seen.push(item.id)
      continue
    }
    written.push({ id: item.id, data, hash, first_seen_at: now, last_seen_at: now, scan })
    if (live) edited.add(item.id)
    changed.push(item)
  }
  return { written, changed, edited, seen }
}

/** What one page adds to its run's counters. */
export interface PageCounts {
  readonly items: number
  readonly inserted: number
  readonly updated: number
  readonly deleted: number
}

/**
 * What a run has done so far: pages and items committed, the changes they
 * brought, and the units and response bytes spent.
 *
 * @example
 * ```ts
 * import type { Mirror } from "effect-catalog/mirror"
 *
 * const changed = (counts: Mirror.Counts) => counts.inserted + counts.updated + counts.deleted
 * ```
 * @category models
 * @since 0.3.0
 */
export interface Counts extends PageCounts {
  readonly pages: number
  readonly units: number
  readonly bytes: number
}

/** The row of a sync run, as stored. */
export interface RunRow {
  readonly id: number
  readonly collection: string
  readonly scan: number
  readonly status: string
  readonly started_at: string | Date
  readonly ended_at: string | Date | null
  readonly checkpoint: string | null
  readonly pages: number
  readonly units: number
  readonly bytes: number | string
  readonly items: number
  readonly inserted: number
  readonly updated: number
  readonly deleted: number
  readonly detail: string | null
}

/**
 * A sync run, as `sync_runs` records it.
 *
 * @example
 * ```ts
 * import type { Mirror } from "effect-catalog/mirror"
 *
 * const line = (run: Mirror.Run) =>
 *   `${run.collection}: ${run.status}, ${run.items} items (+${run.inserted} ~${run.updated} -${run.deleted}), ${run.units} units`
 * ```
 * @category models
 * @since 0.3.0
 */
export interface Run extends Counts {
  readonly collection: string
  /** The number of the collection's full scan the run belongs to (a resumed run goes on with the same scan). */
  readonly scan: number
  readonly status: "running" | "complete" | "partial" | "failed" | "interrupted"
  readonly startedAt: Date
  readonly endedAt: Date | null
  /** The cursor the next run goes on from, unless the run is complete. */
  readonly checkpoint: string | null
  /** Why a run that did not complete ended. */
  readonly detail: string | null
}

const statuses: ReadonlyArray<Run["status"]> = ["running", "complete", "partial", "failed", "interrupted"]

/** The run a row of `sync_runs` records; numbers read as text (PostgreSQL's bigint) are numbers again. */
export const runOf = (row: RunRow): Run => ({
  collection: row.collection,
  scan: Number(row.scan),
  status: statuses.find((status) => status === row.status) ?? "failed",
  startedAt: new Date(row.started_at),
  endedAt: row.ended_at === null ? null : new Date(row.ended_at),
  checkpoint: row.checkpoint,
  pages: Number(row.pages),
  items: Number(row.items),
  inserted: Number(row.inserted),
  updated: Number(row.updated),
  deleted: Number(row.deleted),
  units: Number(row.units),
  bytes: Number(row.bytes),
  detail: row.detail
})

/** Whether a process of this host is running. */
export const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error instanceof Error && "code" in error && error.code === "EPERM"
  }
}

/** Whether an error ended a sync at the account's allowance or the client's daily budget. */
export const isStoppedAtAllowance = (error: unknown): boolean =>
  typeof error === "object" && error !== null && "_tag" in error && (error._tag === "BudgetExceeded" || error._tag === "QuotaExhausted")
