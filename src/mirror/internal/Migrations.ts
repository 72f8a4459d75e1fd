/**
 * The mirror's schema, one migration per version, for SQLite and PostgreSQL:
 * a table per collection of the catalog (`Operations.collections`), the sync
 * runs, and the locks of SQLite syncs (PostgreSQL syncs hold advisory locks).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import * as Operations from "../../contract/Operations.js"

/** The table that records which migrations a database has had. */
export const table = "effect_catalog_migrations"

const collectionTable = (sql: SqlClient.SqlClient, name: string) =>
  sql.onDialectOrElse({
    pg: () =>
      sql`CREATE TABLE ${sql(name)} (
  id text PRIMARY KEY,
  data jsonb NOT NULL,
  hash text NOT NULL,
  first_seen_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  deleted_at timestamptz,
  scan integer NOT NULL
)`,
    orElse: () =>
      sql`CREATE TABLE ${sql(name)} (
  id TEXT PRIMARY KEY,
  data TEXT NOT NULL,
  hash TEXT NOT NULL,
  first_seen_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  deleted_at TEXT,
  scan INTEGER NOT NULL
)`
  }).pipe(Effect.zipRight(sql`CREATE INDEX ${sql(`${name}_listed`)} ON ${sql(name)} (scan) WHERE deleted_at IS NULL`))

const first = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  for (const operation of Operations.collections) yield* collectionTable(sql, operation.id)
  yield* sql.onDialectOrElse({
    pg: () =>
      sql`CREATE TABLE sync_runs (
  id bigserial PRIMARY KEY,
  collection text NOT NULL,
  scan integer NOT NULL,
  status text NOT NULL,
  started_at timestamptz NOT NULL,
  ended_at timestamptz,
  checkpoint text,
  pages integer NOT NULL DEFAULT 0,
  units integer NOT NULL DEFAULT 0,
  bytes bigint NOT NULL DEFAULT 0,
  items integer NOT NULL DEFAULT 0,
  inserted integer NOT NULL DEFAULT 0,
  updated integer NOT NULL DEFAULT 0,
  deleted integer NOT NULL DEFAULT 0,
  detail text
)`,
    orElse: () =>
      sql`CREATE TABLE sync_runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  collection TEXT NOT NULL,
  scan INTEGER NOT NULL,
  status TEXT NOT NULL,
  started_at TEXT NOT NULL,
  ended_at TEXT,
  checkpoint TEXT,
  pages INTEGER NOT NULL DEFAULT 0,
  units INTEGER NOT NULL DEFAULT 0,
  bytes INTEGER NOT NULL DEFAULT 0,
  items INTEGER NOT NULL DEFAULT 0,
  inserted INTEGER NOT NULL DEFAULT 0,
  updated INTEGER NOT NULL DEFAULT 0,
  deleted INTEGER NOT NULL DEFAULT 0,
  detail TEXT
)`
  })
  yield* sql`CREATE INDEX sync_runs_collection ON sync_runs (collection, id)`
  yield* sql`CREATE TABLE sync_locks (
  collection TEXT PRIMARY KEY,
  host TEXT NOT NULL,
  pid INTEGER NOT NULL,
  acquired_at TEXT NOT NULL
)`
})

/** Every migration, by version. */
export const migrations: Readonly<Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>> = {
  "1_collections": first
}

/** The newest version this code knows. */
export const latest = Math.max(...Object.keys(migrations).map((name) => Number.parseInt(name, 10)))
