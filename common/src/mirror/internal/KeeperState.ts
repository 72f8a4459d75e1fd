/**
 * The keeper's state in the mirror's database (`keeper_elements`,
 * `keeper_pages`): each element's bookkeeping as `Keeping` gives it, with
 * its family's target and promise, and each walk page's last answer. Every
 * write is one statement, so a keeper killed between two leaves each row
 * whole: at worst a page is asked whole again, never a change repeated
 * (changes are committed with their page, `Sync.writePage`).
 */
import type { SqlError } from "#edition/mirror/internal/Sql.js"
import { Effect, isNonEmpty } from "#edition/internal/Edition.js"
import type * as MirrorDatabase from "#edition/mirror/MirrorDatabase.js"
import type { ElementRow, ItemRow } from "../../../../rules/src/mirror/Keeping.js"

/** An element's row: what `Keeping` restores, its walk's items' rates, and what was asked of its family. */
export interface StoredElement {
  readonly row: ElementRow
  readonly items: ReadonlyArray<ItemRow>
  readonly target: number
  readonly promise: number
  /** The time scale of the keeper that wrote it: its times are seconds of the service's clock at that scale. */
  readonly timeScale: number
}

/** A walk's page as last answered 200: what a 304 stands for. */
export interface StoredPage {
  readonly page: number
  /** The cursor it was read at (null: the first page). */
  readonly cursor: string | null
  readonly etag: string
  readonly body: string
  readonly nextCursor: string | null
  /** When its cursor to the next page was issued, seconds of the service's clock. */
  readonly issuedAt: number
}

interface ElementColumns {
  readonly family: string
  readonly key: string
  readonly pages: number | string | null
  readonly items: number | string | null
  readonly verified_at: number | string | null
  readonly interval: number | string
  readonly visits: number | string
  readonly changes: number | string
  readonly seconds: number | string
  readonly item_rates: string | null
  readonly target: number | string
  readonly promise: number | string
  readonly time_scale: number | string
}

const numberOrNull = (value: number | string | null): number | null => value === null ? null : Number(value)

const isItemRow = (value: unknown): value is ItemRow =>
  typeof value === "object" && value !== null && "id" in value && typeof value.id === "string" &&
  "visits" in value && typeof value.visits === "number" && "changes" in value && typeof value.changes === "number" &&
  "seconds" in value && typeof value.seconds === "number"

/** A walk's items' rates from their column; a column that is not such JSON gives none (they are learned again). */
const itemsOf = (text: string | null): ReadonlyArray<ItemRow> => {
  if (text === null) return []
  try {
    const parsed: unknown = JSON.parse(text)
    return Array.isArray(parsed) ? parsed.filter(isItemRow) : []
  } catch {
    return []
  }
}

/** An element as its row gives it. */
const storedOf = (row: ElementColumns): StoredElement => ({
  row: {
    group: row.family,
    key: row.key,
    pages: numberOrNull(row.pages),
    items: numberOrNull(row.items),
    verifiedAt: numberOrNull(row.verified_at),
    interval: Number(row.interval),
    visits: Number(row.visits),
    changes: Number(row.changes),
    seconds: Number(row.seconds)
  },
  items: itemsOf(row.item_rates),
  target: Number(row.target),
  promise: Number(row.promise),
  timeScale: Number(row.time_scale)
})

/** Every element's row. */
export const elements = (database: MirrorDatabase.Service): Effect.Effect<ReadonlyArray<StoredElement>, SqlError> =>
  Effect.map(database.sql<ElementColumns>`SELECT * FROM keeper_elements`, (rows) => rows.map(storedOf))

/** One element's row, as another keeper may have left it. */
export const element = (database: MirrorDatabase.Service, family: string, key: string): Effect.Effect<StoredElement | undefined, SqlError> =>
  Effect.map(database.sql<ElementColumns>`SELECT * FROM keeper_elements WHERE family = ${family} AND key = ${key}`, ([row]) =>
    row === undefined ? undefined : storedOf(row))

/**
 * What a write of an element's row holds: all of it after a visit (the
 * visitor holds the element's lock), or only what a plan sets (its
 * interval, target and promise), so that a keeper's plan never writes back
 * an older visit than another keeper's.
 */
export type Written = "visit" | "plan"

/** Writes an element's row. */
export const saveElement = (database: MirrorDatabase.Service, element: StoredElement): Effect.Effect<void, SqlError> =>
  saveElements(database, [element], "visit")

/** The rows written at once: well within either database's limit of parameters a statement (13 a row). */
const rowsAStatement = 500

/** Writes elements' rows, some hundreds a statement. */
export const saveElements = (database: MirrorDatabase.Service, elements: ReadonlyArray<StoredElement>, what: Written): Effect.Effect<void, SqlError> => {
  const sql = database.sql
  const columnsOf = ({ items, promise, row, target, timeScale }: StoredElement) => ({
    family: row.group,
    key: row.key,
    pages: row.pages,
    items: row.items,
    verified_at: row.verifiedAt,
    interval: row.interval,
    visits: row.visits,
    changes: row.changes,
    seconds: row.seconds,
    item_rates: items.length === 0 ? null : JSON.stringify(items),
    target,
    promise,
    time_scale: timeScale
  })
  const chunks = Array.from({ length: Math.ceil(elements.length / rowsAStatement) }, (_, i) => elements.slice(i * rowsAStatement, (i + 1) * rowsAStatement))
  return Effect.forEach(chunks, (chunk) => {
    const rows: Array<Record<string, unknown>> = chunk.map(columnsOf)
    return !isNonEmpty(rows) ? Effect.void : sql`INSERT INTO keeper_elements ${sql.insert(rows)}
    ON CONFLICT (family, key) DO UPDATE SET interval = excluded.interval, target = excluded.target, promise = excluded.promise,
      time_scale = excluded.time_scale${
      what === "visit"
        ? sql`, pages = excluded.pages, items = excluded.items, verified_at = excluded.verified_at, visits = excluded.visits,
      changes = excluded.changes, seconds = excluded.seconds, item_rates = excluded.item_rates`
        : sql``
    }`
  }, { discard: true })
}

/** Each page of a collection's walk, in order. */
export const pages = (database: MirrorDatabase.Service, collection: string): Effect.Effect<ReadonlyArray<StoredPage>, SqlError> =>
  Effect.map(
    database.sql<{
      readonly page: number | string
      readonly cursor: string | null
      readonly etag: string
      readonly body: string
      readonly next_cursor: string | null
      readonly issued_at: number | string
    }>`SELECT page, cursor, etag, body, next_cursor, issued_at FROM keeper_pages WHERE collection = ${collection} ORDER BY page`,
    (rows) =>
      rows.map((row) => ({
        page: Number(row.page),
        cursor: row.cursor,
        etag: row.etag,
        body: row.body,
        nextCursor: row.next_cursor,
        issuedAt: Number(row.issued_at)
      }))
  )

/** Writes a walk's page as answered 200. */
export const savePage = (database: MirrorDatabase.Service, collection: string, page: StoredPage): Effect.Effect<void, SqlError> =>
  Effect.asVoid(database.sql`INSERT INTO keeper_pages ${
    database.sql.insert({
      collection,
      page: page.page,
      cursor: page.cursor,
      etag: page.etag,
      body: page.body,
      next_cursor: page.nextCursor,
      issued_at: page.issuedAt
    })
  } ON CONFLICT (collection, page) DO UPDATE SET cursor = excluded.cursor, etag = excluded.etag, body = excluded.body,
    next_cursor = excluded.next_cursor, issued_at = excluded.issued_at`)

/** Forgets a walk's pages past `last`: the list got shorter. */
export const dropPagesAfter = (database: MirrorDatabase.Service, collection: string, last: number): Effect.Effect<void, SqlError> =>
  Effect.asVoid(database.sql`DELETE FROM keeper_pages WHERE collection = ${collection} AND page > ${last}`)

/** Forgets an element (a model that is gone) and the answers kept for it. */
export const dropElement = (database: MirrorDatabase.Service, family: string, key: string): Effect.Effect<void, SqlError> =>
  Effect.asVoid(database.sql`DELETE FROM keeper_elements WHERE family = ${family} AND key = ${key}`)

