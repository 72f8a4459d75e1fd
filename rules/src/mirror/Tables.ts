/**
 * The mirror's tables, as SQL text for each dialect: a table per collection
 * of the catalog, the sync runs, the locks of SQLite syncs (PostgreSQL
 * syncs hold advisory locks), and the change log with its subscribers; and the expressions the mirror reads its rows
 * with.
 *
 * Imports nothing of Effect. The migrations
 * (common/src/mirror/internal/Migrations.ts, compiled against either
 * edition) run these statements, so that a mirror one edition made, the
 * other reads and goes on syncing: one file, one schema, one history of
 * migrations.
 */

/** The databases a mirror lives in. */
export type Dialect = "sqlite" | "pg"

/** The table that records which migrations a database has had. */
export const migrationsTable = "effect_catalog_migrations"

/** The statements that create a collection's table and the index of its live rows. */
const collectionTable = (dialect: Dialect, name: string): ReadonlyArray<string> => [
  dialect === "pg"
    ? `CREATE TABLE "${name}" (
  id text PRIMARY KEY,
  data jsonb NOT NULL,
  hash text NOT NULL,
  first_seen_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  deleted_at timestamptz,
  scan integer NOT NULL
)`
    : `CREATE TABLE "${name}" (
  id TEXT PRIMARY KEY,
  data TEXT NOT NULL,
  hash TEXT NOT NULL,
  first_seen_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  deleted_at TEXT,
  scan INTEGER NOT NULL
)`,
  `CREATE INDEX "${name}_listed" ON "${name}" (scan) WHERE deleted_at IS NULL`
]

const syncRuns = (dialect: Dialect) =>
  dialect === "pg"
    ? `CREATE TABLE sync_runs (
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
)`
    : `CREATE TABLE sync_runs (
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

/**
 * The change log: every change the mirror commits, in the transaction that
 * commits it, numbered in commit order (`position`), with the item before
 * and after as the collection's table holds it; and where each named
 * subscriber of the feed stands.
 */
const changeLog = (dialect: Dialect): ReadonlyArray<string> => [
  dialect === "pg"
    ? `CREATE TABLE mirror_changes (
  position bigserial PRIMARY KEY,
  collection text NOT NULL,
  id text NOT NULL,
  kind text NOT NULL,
  before jsonb,
  after jsonb,
  committed_at timestamptz NOT NULL
)`
    : `CREATE TABLE mirror_changes (
  position INTEGER PRIMARY KEY AUTOINCREMENT,
  collection TEXT NOT NULL,
  id TEXT NOT NULL,
  kind TEXT NOT NULL,
  before TEXT,
  after TEXT,
  committed_at TEXT NOT NULL
)`,
  "CREATE INDEX mirror_changes_collection ON mirror_changes (collection, position)",
  dialect === "pg"
    ? `CREATE TABLE mirror_subscribers (
  name text PRIMARY KEY,
  position bigint NOT NULL,
  updated_at timestamptz NOT NULL
)`
    : `CREATE TABLE mirror_subscribers (
  name TEXT PRIMARY KEY,
  position INTEGER NOT NULL,
  updated_at TEXT NOT NULL
)`
]

/**
 * The statements of each migration, by its name (`<version>_<what>`), for
 * the collections given (the operations table's, in its order).
 */
/**
 * The keeper's state: each element it keeps fresh (a collection's walk),
 * with what its visits showed of its rate, its last verification and its
 * interval, as `Keeping.ElementRow` gives them (times in seconds of the
 * service's clock), the rates of a walk's items, and its family's target
 * and promised age as the keeper last planned them; and each page of a
 * walk as last answered, its ETag and body (what a 304 stands for), the
 * cursor it was read at and the one it led on with, and when that was
 * issued. A keeper started again reads them back.
 */
const keeperState = (dialect: Dialect): ReadonlyArray<string> => {
  const [text, real, int] = dialect === "pg" ? ["text", "double precision", "integer"] : ["TEXT", "REAL", "INTEGER"]
  return [
    `CREATE TABLE keeper_elements (
  family ${text} NOT NULL,
  key ${text} NOT NULL,
  pages ${int},
  items ${int},
  verified_at ${real},
  interval ${real} NOT NULL,
  visits ${real} NOT NULL,
  changes ${real} NOT NULL,
  seconds ${real} NOT NULL,
  item_rates ${text},
  target ${real} NOT NULL,
  promise ${real} NOT NULL,
  time_scale ${real} NOT NULL,
  PRIMARY KEY (family, key)
)`,
    `CREATE TABLE keeper_pages (
  collection ${text} NOT NULL,
  page ${int} NOT NULL,
  cursor ${text},
  etag ${text} NOT NULL,
  body ${text} NOT NULL,
  next_cursor ${text},
  issued_at ${real} NOT NULL,
  PRIMARY KEY (collection, page)
)`
  ]
}

/** The table of every model's offers the keeper keeps: a collection's table, with the model each offer is of. */
export const offersTable = "model_offers"

/** The statements of `model_offers`: a collection's table and its index, and `model_id` with an index of its own. */
const offers = (dialect: Dialect): ReadonlyArray<string> => [
  ...collectionTable(dialect, offersTable),
  `ALTER TABLE ${offersTable} ADD COLUMN model_id ${dialect === "pg" ? "text" : "TEXT"}`,
  `CREATE INDEX ${offersTable}_model ON ${offersTable} (model_id)`
]

export const migrations = (dialect: Dialect, collections: ReadonlyArray<string>): Readonly<Record<string, ReadonlyArray<string>>> => ({
  "1_collections": [
    ...collections.flatMap((name) => collectionTable(dialect, name)),
    syncRuns(dialect),
    "CREATE INDEX sync_runs_collection ON sync_runs (collection, id)",
    `CREATE TABLE sync_locks (
  collection TEXT PRIMARY KEY,
  host TEXT NOT NULL,
  pid INTEGER NOT NULL,
  acquired_at TEXT NOT NULL
)`
  ],
  "2_change_log": changeLog(dialect),
  "3_keeper": keeperState(dialect),
  "4_model_offers": offers(dialect)
})

/** The newest schema version this code knows: that of its last migration. */
export const latestVersion = Math.max(...Object.keys(migrations("sqlite", [])).map((name) => Number.parseInt(name, 10)))

/**
 * Settings of an SQLite mirror, each time it is opened: durable at every
 * commit against a crash of the process (write-ahead log, synced at its
 * checkpoints); a checkpoint every 64 MiB of log rather than every 4 MiB,
 * as a sync writes hundreds of KiB a page; a wait of up to 10 s for another
 * process's write.
 */
export const sqlitePragmas: ReadonlyArray<string> = [
  "PRAGMA journal_mode = WAL",
  "PRAGMA synchronous = NORMAL",
  "PRAGMA wal_autocheckpoint = 16384",
  "PRAGMA busy_timeout = 10000"
]

/** The column of an item's JSON as text, in either dialect. */
export const dataText = (dialect: Dialect): string => dialect === "pg" ? "data::text AS data" : "data"

/** The size in bytes of an item's JSON, in either dialect. */
export const dataBytes = (dialect: Dialect): string => dialect === "pg" ? "octet_length(data::text)" : "length(CAST(data AS BLOB))"

/** The name of the lock of a collection's syncs: the key of a PostgreSQL advisory lock. */
export const lockKey = (collection: string): string => `effect-catalog mirror ${collection}`

/**
 * The key of the PostgreSQL advisory lock a transaction holds from its first
 * append to the change log until it commits: positions are drawn when rows
 * are inserted, not when they commit, so appends take turns, and a reader
 * that has seen a position never later finds a smaller one committed.
 * (SQLite commits one writer at a time already.)
 */
export const changeLogLockKey = "effect-catalog mirror change log"
