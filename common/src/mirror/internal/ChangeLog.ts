/**
 * The change log's reads and writes: a transaction that commits changes
 * appends them (`append`, in the same transaction, so that a change is
 * logged exactly when it is committed), readers take them in position
 * order from a position on, and a subscriber's position is recorded under
 * its name.
 */
import type { SqlError } from "#edition/mirror/internal/Sql.js"
import { Effect, isNonEmpty } from "#edition/internal/Edition.js"
import type { Kept } from "../Change.js"
import type * as MirrorDatabase from "#edition/mirror/MirrorDatabase.js"
import * as Tables from "../../../../rules/src/mirror/Tables.js"

/** A change as the log holds it: the items as their JSON text, as the collection's table holds them. */
export type Entry = {
  readonly collection: Kept
  readonly id: string
  readonly kind: "Inserted" | "Updated" | "Deleted"
  readonly before: string | null
  readonly after: string | null
}

/** A logged change, as read back: its JSON as text in either dialect. */
export interface Row {
  readonly position: number | string
  readonly collection: Kept
  readonly id: string
  readonly kind: Entry["kind"]
  readonly before: string | null
  readonly after: string | null
  readonly committed_at: string | Date
}

/** Appends changes in the transaction under way; in PostgreSQL, its appends wait for those of any other until it commits. */
export const append = (database: MirrorDatabase.Service, entries: ReadonlyArray<Entry>, now: string): Effect.Effect<void, SqlError> =>
  Effect.gen(function*() {
    const rows: ReadonlyArray<Entry & { readonly committed_at: string }> = entries.map((entry) => ({ ...entry, committed_at: now }))
    if (!isNonEmpty(rows)) return
    const sql = database.sql
    if (database.dialect === "pg") yield* sql`SELECT pg_advisory_xact_lock(hashtext(${Tables.changeLogLockKey}))`
    yield* sql`INSERT INTO mirror_changes ${sql.insert(rows)}`
  })

/** Up to `limit` changes after `after`, in position order, of the collections given (all when none are). */
export const read = (
  database: MirrorDatabase.Service,
  after: number,
  limit: number,
  collections: ReadonlyArray<Kept> | undefined
): Effect.Effect<ReadonlyArray<Row>, SqlError> => {
  const sql = database.sql
  const text = (column: string) => sql.literal(database.dialect === "pg" ? `${column}::text AS ${column}` : column)
  return sql<Row>`
    SELECT position, collection, id, kind, ${text("before")}, ${text("after")}, committed_at FROM mirror_changes
    WHERE position > ${after}${collections === undefined ? sql`` : sql` AND ${sql.in("collection", collections)}`}
    ORDER BY position LIMIT ${limit}`
}

/** The position of the last change logged, 0 when none. */
export const last = (database: MirrorDatabase.Service): Effect.Effect<number, SqlError> =>
  Effect.map(
    database.sql<{ readonly position: number | string | null }>`SELECT max(position) AS position FROM mirror_changes`,
    ([row]) => Number(row?.position ?? 0)
  )

/** The position a subscriber recorded, if it has. */
export const positionOf = (database: MirrorDatabase.Service, subscriber: string): Effect.Effect<number | undefined, SqlError> =>
  Effect.map(
    database.sql<{ readonly position: number | string }>`SELECT position FROM mirror_subscribers WHERE name = ${subscriber}`,
    ([row]) => row === undefined ? undefined : Number(row.position)
  )

/** Records a subscriber's position. */
export const record = (database: MirrorDatabase.Service, subscriber: string, position: number, now: string): Effect.Effect<void, SqlError> =>
  Effect.asVoid(database.sql`INSERT INTO mirror_subscribers ${database.sql.insert({ name: subscriber, position, updated_at: now })}
    ON CONFLICT (name) DO UPDATE SET position = excluded.position, updated_at = excluded.updated_at`)
