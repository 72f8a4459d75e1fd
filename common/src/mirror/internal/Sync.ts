/**
 * The writes of a sync, each page in one transaction with the run's
 * checkpoint and counters: new and changed items are upserted, unchanged
 * ones only marked as seen (`last_seen_at`, and the number of the scan that
 * listed them), and after the last page of a scan the items it did not list
 * are marked deleted. What a page changed is appended to the change log in
 * its transaction, and returned once it is committed.
 */
import type { SqlError } from "#edition/mirror/internal/Sql.js"
import { Effect, isNonEmpty } from "#edition/internal/Edition.js"
import type { WireItem } from "../../client/CatalogClient.js"
import type { CollectionId } from "../../contract/Operations.js"
import * as Change from "../Change.js"
import type { Kept } from "../Change.js"
import * as ChangeLog from "./ChangeLog.js"
import type * as MirrorDatabase from "#edition/mirror/MirrorDatabase.js"
import type { Items } from "#edition/mirror/internal/Items.js"
import { type PageCounts, type RunRow, sortPage } from "../../../../rules/src/mirror/Rows.js"
import * as Tables from "../../../../rules/src/mirror/Tables.js"
import { transaction } from "#edition/mirror/internal/Transaction.js"

/** Where a new run starts: the scan it belongs to and the cursor it goes on from (null: the first page). */
export interface Start {
  readonly runId: number
  readonly scan: number
  readonly from: string | null
}

/** A row's JSON as text: the drivers give text for the column read as text, and this keeps any other value whole. */
const textOf = (data: unknown): string => typeof data === "string" ? data : JSON.stringify(data)

/** The column of an item's JSON as text. */
const dataText = (database: MirrorDatabase.Service) => database.sql.literal(Tables.dataText(database.dialect))

/**
 * Starts a run of a collection: it goes on with the scan of the last run if
 * that one did not complete and left a checkpoint, or starts the next scan.
 */
export const start = (database: MirrorDatabase.Service, collection: CollectionId, now: string): Effect.Effect<Start, SqlError> =>
  transaction(database.sql, Effect.gen(function*() {
    const sql = database.sql
    const [last] = yield* sql<Pick<RunRow, "scan" | "status" | "checkpoint">>`
      SELECT scan, status, checkpoint FROM sync_runs WHERE collection = ${collection} ORDER BY id DESC LIMIT 1`
    const resume = last !== undefined && last.status !== "complete" && last.checkpoint !== null
    const scan = resume ? Number(last.scan) : yield* nextScan(database, collection)
    const from = resume ? last.checkpoint : null
    const [row] = yield* sql<{ readonly id: number | string }>`INSERT INTO sync_runs ${
      sql.insert({ collection, scan, status: "running", started_at: now, checkpoint: from })
    } RETURNING id`
    return { runId: Number(row?.id), scan, from }
  }))

/** The number of a collection's next scan. */
export const nextScan = (database: MirrorDatabase.Service, collection: CollectionId) =>
  Effect.map(
    database.sql<{ readonly scan: number | string | null }>`SELECT max(scan) AS scan FROM sync_runs WHERE collection = ${collection}`,
    (rows) => Number(rows[0]?.scan ?? 0) + 1
  )

/** One page to write. */
export interface Page {
  readonly collection: CollectionId
  readonly runId: number
  readonly scan: number
  readonly items: ReadonlyArray<WireItem>
  /** The cursor of the page after this one: the run's checkpoint once this page is committed. */
  readonly checkpoint: string | null
  /** Units and bytes the run has spent so far. */
  readonly spent: { readonly units: number; readonly bytes: number }
  readonly now: string
}

/** Where a page's rows go: a collection's table, or the offers of one model (`model_offers`, by `model_id`). */
interface Target {
  readonly table: string
  readonly collection: Kept
  /** The model whose offers these are; none for a collection. */
  readonly parent: string | undefined
}

/**
 * Writes the items of a page into `target` and marks what is gone as
 * deleted: after the last page of a scan of a collection, what the scan did
 * not list; for a model's offers, what its listing did not hold. Gives what
 * changed, its items given by `items`, once appended to the change log; an
 * item that `items` refuses fails the write (the caller's transaction rolls
 * it back).
 */
const writeRows = <A, E>(
  database: MirrorDatabase.Service,
  target: Target,
  page: { readonly items: ReadonlyArray<WireItem>; readonly scan: number; readonly now: string; readonly last: boolean },
  items: Items<A, E>
) =>
  Effect.gen(function*() {
    const sql = database.sql
    const table = sql(target.table)
    const { collection } = target
    const { now, scan } = page
    const ids = page.items.map((item) => item.id)
    const stored = ids.length === 0 ? [] : yield* sql<{ readonly id: string; readonly hash: string; readonly deleted_at: unknown }>`
      SELECT id, hash, deleted_at FROM ${table} WHERE ${sql.in("id", ids)}`
    const { changed, edited, seen, written } = sortPage(page.items, stored, now, scan)
    // The JSON before an edit is read only for the items that were edited.
    const before = edited.size === 0 ? new Map<string, unknown>() : new Map(
      (yield* sql<{ readonly id: string; readonly data: unknown }>`
        SELECT id, ${dataText(database)} FROM ${table} WHERE ${sql.in("id", [...edited])}`).map((row) => [row.id, row.data])
    )
    const changeOf = (item: WireItem): Effect.Effect<Change.Change<A>, E> =>
      Effect.flatMap(items.received(item), (after): Effect.Effect<Change.Change<A>, E> =>
        before.has(item.id)
          ? Effect.map(items.stored(item.id, before.get(item.id)), (stored) => Change.Updated({ collection, id: item.id, before: stored, after }))
          : Effect.succeed(Change.Inserted({ collection, id: item.id, after })))
    const changes: Array<Change.Change<A>> = yield* Effect.forEach(changed, changeOf)
    const rows = target.parent === undefined ? written : written.map((row) => ({ ...row, model_id: target.parent }))
    if (isNonEmpty(rows)) {
      yield* sql`INSERT INTO ${table} ${sql.insert(rows)}
        ON CONFLICT (id) DO UPDATE SET data = excluded.data, hash = excluded.hash, last_seen_at = excluded.last_seen_at, deleted_at = NULL, scan = excluded.scan`
    }
    if (seen.length > 0) yield* sql`UPDATE ${table} SET last_seen_at = ${now}, scan = ${scan} WHERE ${sql.in("id", seen)}`
    const gone = !page.last
      ? []
      : target.parent === undefined
      ? yield* sql<{ readonly id: string; readonly data: unknown }>`
          UPDATE ${table} SET deleted_at = ${now} WHERE deleted_at IS NULL AND scan <> ${scan} RETURNING id, ${dataText(database)}`
      : yield* sql<{ readonly id: string; readonly data: unknown }>`
          UPDATE ${table} SET deleted_at = ${now} WHERE deleted_at IS NULL AND model_id = ${target.parent}${
        ids.length === 0 ? sql`` : sql` AND NOT ${sql.in("id", ids)}`
      } RETURNING id, ${dataText(database)}`
    for (const row of gone) changes.push(Change.Deleted({ collection, id: row.id, before: yield* items.stored(row.id, row.data) }))
    // The log holds the items as the table does: the text written, and the text read before an edit or a deletion.
    const writtenData = new Map(written.map((row) => [row.id, row.data]))
    yield* ChangeLog.append(database, [
      ...changed.map((item): ChangeLog.Entry => ({
        collection,
        id: item.id,
        kind: edited.has(item.id) ? "Updated" : "Inserted",
        before: edited.has(item.id) ? textOf(before.get(item.id)) : null,
        after: writtenData.get(item.id) ?? JSON.stringify(item)
      })),
      ...gone.map((row): ChangeLog.Entry => ({ collection, id: row.id, kind: "Deleted", before: textOf(row.data), after: null }))
    ], now)
    const counts: PageCounts = { items: page.items.length, inserted: changed.length - edited.size, updated: edited.size, deleted: gone.length }
    return { changes, counts }
  })

/**
 * Writes a page, and after the last page of a scan marks what it did not
 * list as deleted; gives what changed, its items given by `items`. An item
 * that `items` refuses rolls the page back.
 */
export const writePage = <A, E>(
  database: MirrorDatabase.Service,
  page: Page,
  items: Items<A, E>
): Effect.Effect<{ readonly changes: ReadonlyArray<Change.Change<A>>; readonly counts: PageCounts }, SqlError | E> =>
  transaction(database.sql, Effect.gen(function*() {
    const sql = database.sql
    const last = page.checkpoint === null
    const written = yield* writeRows(database, { table: page.collection, collection: page.collection, parent: undefined }, { ...page, last }, items)
    const { counts } = written
    yield* sql`UPDATE sync_runs SET checkpoint = ${page.checkpoint}, scan = ${page.scan}, pages = pages + 1, items = items + ${counts.items},
      inserted = inserted + ${counts.inserted}, updated = updated + ${counts.updated}, deleted = deleted + ${counts.deleted},
      units = ${page.spent.units}, bytes = ${page.spent.bytes}${
      last ? sql`, status = 'complete', ended_at = ${page.now}` : sql``
    } WHERE id = ${page.runId}`
    return written
  }))

/**
 * Writes a model's offers as its listing gave them, in one transaction:
 * new and changed ones upserted, the model's others marked deleted, what
 * changed logged as `modelOffers`; gives what changed.
 */
export const writeOffers = <A, E>(
  database: MirrorDatabase.Service,
  model: string,
  offers: ReadonlyArray<WireItem>,
  now: string,
  items: Items<A, E>
): Effect.Effect<{ readonly changes: ReadonlyArray<Change.Change<A>>; readonly counts: PageCounts }, SqlError | E> =>
  transaction(database.sql, writeRows(database, { table: Tables.offersTable, collection: "modelOffers", parent: model }, { items: offers, scan: 0, now, last: true }, items))

/** How a run that did not complete ended: stopped at the allowance, failed, or interrupted. */
export const end = (database: MirrorDatabase.Service, runId: number, status: "partial" | "failed" | "interrupted", detail: string | null, now: string) =>
  database.sql`UPDATE sync_runs SET status = ${status}, ended_at = ${now}, detail = ${detail} WHERE id = ${runId} AND status = 'running'`

/** The runs of the collections, newest first. */
export const runs = (database: MirrorDatabase.Service, collections: ReadonlyArray<CollectionId>, limit: number) =>
  database.sql<RunRow>`SELECT * FROM sync_runs WHERE ${database.sql.in("collection", collections)} ORDER BY id DESC LIMIT ${limit}`
