/**
 * An `effect/sql` client of an SQLite file through better-sqlite3, the
 * driver the Effect 3 edition's `@effect/sql-sqlite-node` uses: one
 * connection, shared through a semaphore (`SqlClient.makeSqliteAcquirers`),
 * its prepared statements kept for reuse. Effect's own SQLite package for
 * Effect 4 (`@effect/sql-sqlite-node` 4.0.0-beta.102, on `node:sqlite`)
 * imports `effect/unstable/sql`, which Effect 4.0 moved to `effect/sql`: it
 * does not load beside effect 4.1.
 *
 * This module is loaded only when a mirror in SQLite is opened, so that
 * better-sqlite3 is needed only then.
 *
 * @internal
 */
import Sqlite from "better-sqlite3"
import { Effect, Layer, Semaphore, Stream } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlConnection from "effect/sql/SqlConnection"
import { classifySqliteError, SqlError } from "effect/sql/SqlError"
import * as Statement from "effect/sql/Statement"

/** How many prepared statements are kept; the least recently used one goes first. */
const preparedStatements = 200

const failure = (operation: string, message: string) => (cause: unknown) =>
  new SqlError({ reason: classifySqliteError(cause, { message, operation }) })

/** The connection to an open database. */
const connectionOf = (database: Sqlite.Database): SqlConnection.Connection => {
  const prepared = new Map<string, Sqlite.Statement<Array<unknown>>>()
  const prepare = (sql: string) => {
    const kept = prepared.get(sql)
    if (kept !== undefined) {
      prepared.delete(sql)
      prepared.set(sql, kept)
      return kept
    }
    const statement = database.prepare<Array<unknown>>(sql)
    prepared.set(sql, statement)
    if (prepared.size > preparedStatements) prepared.delete(prepared.keys().next().value ?? sql)
    return statement
  }
  const run = (statement: () => Sqlite.Statement<Array<unknown>>, params: ReadonlyArray<unknown>, raw: boolean) =>
    Effect.try({
      try: (): ReadonlyArray<unknown> | Sqlite.RunResult => {
        const ready = statement()
        if (ready.reader) return ready.all(...params)
        const result = ready.run(...params)
        return raw ? result : []
      },
      catch: failure("execute", "Failed to execute statement")
    })
  const rows = (statement: () => Sqlite.Statement<Array<unknown>>, params: ReadonlyArray<unknown>) =>
    Effect.map(run(statement, params, false), (result) => Array.isArray(result) ? result : [])
  const values = (statement: () => Sqlite.Statement<Array<unknown>>, params: ReadonlyArray<unknown>) =>
    Effect.try({
      try: (): ReadonlyArray<ReadonlyArray<unknown>> => {
        const ready = statement()
        if (!ready.reader) {
          ready.run(...params)
          return []
        }
        ready.raw(true)
        try {
          return ready.all(...params).filter(Array.isArray)
        } finally {
          ready.raw(false)
        }
      },
      catch: failure("execute", "Failed to execute statement")
    })
  return {
    execute: (sql, params, transformRows) => Effect.map(rows(() => prepare(sql), params), (found) => transformRows ? transformRows(found) : found),
    executeRaw: (sql, params) => run(() => prepare(sql), params, true),
    executeStream: () => Stream.die("streaming queries are not supported by this SQLite client"),
    executeValues: (sql, params) => values(() => prepare(sql), params),
    executeValuesUnprepared: (sql, params) => values(() => database.prepare(sql), params),
    executeUnprepared: (sql, params, transformRows) =>
      Effect.map(rows(() => database.prepare(sql), params), (found) => transformRows ? transformRows(found) : found)
  }
}

/** A client of the SQLite file `filename`, created if it does not exist, closed with the scope. */
export const make = (filename: string) =>
  Effect.gen(function*() {
    const database = yield* Effect.acquireRelease(
      Effect.try({ try: () => new Sqlite(filename), catch: failure("open", `Failed to open ${filename}`) }),
      (database) => Effect.sync(() => database.close())
    )
    const connection = connectionOf(database)
    const acquirers = SqlClient.makeSqliteAcquirers({
      connection: Effect.succeed(connection),
      semaphore: yield* Semaphore.make(1),
      isTransaction: () => database.inTransaction
    })
    return yield* SqlClient.make({
      ...acquirers,
      compiler: Statement.makeCompilerSqlite(),
      driver: "better-sqlite3",
      spanAttributes: [["db.system.name", "sqlite"]]
    })
  })

/** The client of an SQLite file, as a layer. */
export const layer = (filename: string): Layer.Layer<SqlClient.SqlClient, SqlError> =>
  Layer.effect(SqlClient.SqlClient, make(filename)).pipe(Layer.provide(Reactivity.layer))
