/**
 * The lock that keeps two syncs of one collection out of each other's way,
 * held in the database itself for as long as a sync's scope lasts:
 *
 * - PostgreSQL: a session advisory lock on a connection reserved for the
 *   sync; the server lets it go when the connection ends, however the
 *   process ended.
 * - SQLite: a row of `sync_locks` naming the process and host; a row left by
 *   a process of this host that is no longer running is taken over.
 */
import { Clock, Effect, type Scope } from "#edition/internal/Edition.js"
import { hostname } from "node:os"
import type * as MirrorDatabase from "#edition/mirror/MirrorDatabase.js"
import { failed } from "#edition/mirror/internal/Failure.js"
import { type DatabaseFailed, SyncLocked } from "../MirrorError.js"
import { isRunning } from "../../../../rules/src/mirror/Rows.js"
import { lockKey } from "../../../../rules/src/mirror/Tables.js"
import { transaction } from "#edition/mirror/internal/Transaction.js"

const postgres = (database: MirrorDatabase.Service, collection: string) =>
  Effect.gen(function*() {
    const connection = yield* database.sql.reserve
    const rows = yield* connection.execute("SELECT pg_try_advisory_lock(hashtext($1)) AS locked", [lockKey(collection)], undefined)
    const row: unknown = rows[0]
    const locked = typeof row === "object" && row !== null && "locked" in row && row.locked === true
    if (!locked) {
      const holders = yield* connection.execute(
        `SELECT a.pid, a.client_addr::text AS address FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
         WHERE l.locktype = 'advisory' AND l.objid = hashtext($1)::oid AND l.granted`,
        [lockKey(collection)],
        undefined
      ).pipe(Effect.orElseSucceed((): ReadonlyArray<unknown> => []))
      const holder: unknown = holders[0]
      const described = typeof holder === "object" && holder !== null && "pid" in holder
        ? `PostgreSQL session ${String(holder.pid)}${"address" in holder && holder.address !== null ? ` from ${String(holder.address)}` : ""}`
        : "another session"
      return yield* new SyncLocked({ collection, holder: described })
    }
    yield* Effect.addFinalizer(() =>
      Effect.ignore(connection.execute("SELECT pg_advisory_unlock(hashtext($1))", [lockKey(collection)], undefined))
    )
  })

const sqlite = (database: MirrorDatabase.Service, collection: string) =>
  Effect.gen(function*() {
    const sql = database.sql
    const host = hostname()
    const pid = process.pid
    const now = new Date(yield* Clock.currentTimeMillis).toISOString()
    yield* transaction(sql, Effect.gen(function*() {
      const [held] = yield* sql<{ readonly host: string; readonly pid: number; readonly acquired_at: string }>`
        SELECT host, pid, acquired_at FROM sync_locks WHERE collection = ${collection}`
      if (held !== undefined) {
        if (held.host !== host || isRunning(held.pid)) {
          return yield* new SyncLocked({ collection, holder: `process ${held.pid} on ${held.host}, since ${held.acquired_at}` })
        }
        yield* sql`DELETE FROM sync_locks WHERE collection = ${collection}`
      }
      yield* sql`INSERT INTO sync_locks ${sql.insert({ collection, host, pid, acquired_at: now })}`
    }))
    yield* Effect.addFinalizer(() => Effect.ignore(sql`DELETE FROM sync_locks WHERE collection = ${collection} AND host = ${host} AND pid = ${pid}`))
  })

/** Holds the lock of a collection for the rest of the scope, or fails with `SyncLocked`. */
export const hold = (database: MirrorDatabase.Service, collection: string): Effect.Effect<void, SyncLocked | DatabaseFailed, Scope.Scope> =>
  (database.dialect === "pg" ? postgres(database, collection) : sqlite(database, collection)).pipe(
    Effect.catchTag("SqlError", (error) => Effect.fail(failed(database.name)(error)))
  )
