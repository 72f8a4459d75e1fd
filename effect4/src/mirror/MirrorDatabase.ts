/**
 * The database a mirror lives in: an SQLite file (embedded, nothing to run)
 * or a PostgreSQL server (for a team), through `effect/sql`. Building the
 * layer opens the database and brings its schema up to date with the
 * `Migrator`; a database that cannot be opened or migrated fails with
 * `DatabaseUnavailable`, one written by a newer version with `SchemaTooNew`.
 *
 * @example
 * ```ts
 * import { Redacted } from "effect"
 * import { MirrorDatabase } from "effect-catalog/mirror"
 *
 * const Local = MirrorDatabase.layerSqlite("catalog.sqlite")
 * const Team = MirrorDatabase.layerPostgres(Redacted.make("postgres://mirror@db.internal/catalog"))
 * const FromOption = MirrorDatabase.layerFrom(process.argv[2] ?? "catalog.sqlite")
 * ```
 * @since 1.1.0
 */
import { Cause, Context, Effect, Layer, Redacted, Schedule } from "effect"
import * as Migrator from "effect/sql/Migrator"
import * as SqlClient from "effect/sql/SqlClient"
import * as ErrorTexts from "../../../rules/src/mirror/ErrorTexts.js"
import * as Tables from "../../../rules/src/mirror/Tables.js"
import { withoutCredentials } from "../../../rules/src/Credentials.js"
import { describe } from "./internal/Failure.js"
import * as Migrations from "../../../common/src/mirror/internal/Migrations.js"
import { DatabaseUnavailable, SchemaTooNew } from "../../../common/src/mirror/MirrorError.js"

/**
 * An open mirror database.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { MirrorDatabase } from "effect-catalog/mirror"
 *
 * const liveModels = MirrorDatabase.MirrorDatabase.use(({ sql }) =>
 *   sql<{ readonly n: number }>`SELECT count(*) AS n FROM models WHERE deleted_at IS NULL`)
 * ```
 * @category models
 * @since 1.1.0
 */
export interface Service {
  readonly sql: SqlClient.SqlClient
  readonly dialect: Tables.Dialect
  /** The file, or the PostgreSQL address without its secrets: what messages name. */
  readonly name: string
}

/**
 * The open mirror database.
 *
 * @category services
 * @since 1.1.0
 */
export class MirrorDatabase extends Context.Service<MirrorDatabase, Service>()("effect-catalog/MirrorDatabase") {}

/** The schema version a database has, 0 for a new one. */
const versionOf = (sql: SqlClient.SqlClient) =>
  sql<{ readonly latest: number | string | null }>`SELECT max(migration_id) AS latest FROM ${sql(Tables.migrationsTable)}`.pipe(
    Effect.map((rows) => Number(rows[0]?.latest ?? 0)),
    Effect.orElseSucceed(() => 0)
  )

/** Another try of a migration that failed, soon, a few times. */
const migrationRetries = { schedule: Schedule.exponential("50 millis").pipe(Schedule.jittered), times: 5 }

/**
 * The mirror database over an `SqlClient` of one's own (SQLite or
 * PostgreSQL), its schema brought up to date.
 *
 * @example
 * ```ts
 * import { PgClient } from "@effect/sql-pg"
 * import { Layer, Redacted } from "effect"
 * import { MirrorDatabase } from "effect-catalog/mirror"
 *
 * const Mirror = MirrorDatabase.layer("catalog on db.internal").pipe(
 *   Layer.provide(PgClient.layer({ url: Redacted.make("postgres://mirror@db.internal/catalog") }))
 * )
 * ```
 * @category layers
 * @since 1.1.0
 */
export const layer = (name: string): Layer.Layer<MirrorDatabase, DatabaseUnavailable | SchemaTooNew, SqlClient.SqlClient> =>
  Layer.effect(
    MirrorDatabase,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const dialect = sql.onDialectOrElse({ pg: () => "pg" as const, orElse: () => "sqlite" as const })
      if (dialect === "sqlite") for (const pragma of Tables.sqlitePragmas) yield* sql.unsafe(pragma)
      yield* Effect.gen(function*() {
        const found = yield* versionOf(sql)
        if (found > Tables.latestVersion) return yield* new SchemaTooNew({ database: name, found, known: Tables.latestVersion })
        yield* Migrator.make({})({ loader: Migrator.fromRecord(Migrations.migrations), table: Tables.migrationsTable })
      }).pipe(
        // Processes that open a new database at once race to create its tables: the ones that lose find them made.
        Effect.retry({ ...migrationRetries, while: (error) => !(error instanceof SchemaTooNew) })
      )
      return { sql, dialect, name }
    }).pipe(
      Effect.catchCause((cause): Effect.Effect<never, DatabaseUnavailable | SchemaTooNew> => {
        const error = Cause.findErrorOption(cause)
        return error._tag === "Some" && error.value instanceof SchemaTooNew
          ? Effect.fail(error.value)
          : Effect.fail(new DatabaseUnavailable({ database: name, detail: describe(cause) }))
      })
    )
  )

/**
 * A driver's client layer, its module loaded when a database of its kind is
 * first opened: a mirror in SQLite never needs the PostgreSQL driver
 * installed, nor one in PostgreSQL the SQLite driver. A driver that is not
 * installed is a `DatabaseUnavailable` that names its package; its other
 * failures, defects included (a file that cannot be opened), are
 * `DatabaseUnavailable` too.
 */
const driver = <M>(
  name: string,
  packageName: string,
  load: () => Promise<M>,
  client: (module: M) => Layer.Layer<SqlClient.SqlClient, unknown>
): Layer.Layer<SqlClient.SqlClient, DatabaseUnavailable> =>
  Layer.unwrap(
    Effect.tryPromise({
      try: load,
      catch: (cause) => new DatabaseUnavailable({ database: name, detail: ErrorTexts.messages.driverMissing(packageName, describe(Cause.fail(cause))) })
    }).pipe(Effect.map(client))
  ).pipe(
    Layer.catchCause((cause) => {
      const error = Cause.findErrorOption(cause)
      return Layer.effect(SqlClient.SqlClient, Effect.fail(
        error._tag === "Some" && error.value instanceof DatabaseUnavailable ? error.value : new DatabaseUnavailable({ database: name, detail: describe(cause) })
      ))
    })
  )

/**
 * A mirror in an SQLite file, created if it does not exist, through
 * better-sqlite3 (an optional peer dependency: README, Install, says which
 * version and why).
 *
 * @example
 * ```ts
 * import { MirrorDatabase } from "effect-catalog/mirror"
 *
 * const Local = MirrorDatabase.layerSqlite("catalog.sqlite")
 * ```
 * @category layers
 * @since 1.1.0
 */
export const layerSqlite = (filename: string): Layer.Layer<MirrorDatabase, DatabaseUnavailable | SchemaTooNew> =>
  layer(filename).pipe(Layer.provide(driver(filename, "better-sqlite3", () => import("./internal/Sqlite.js"), (Sqlite) => Sqlite.layer(filename))))

/**
 * A mirror in a PostgreSQL database (`postgres://user:password@host:port/database`),
 * through `@effect/sql-pg`. The address stays `Redacted`; messages name it
 * without its secrets: the password of its userinfo and of its query
 * (`?password=…`, `?sslpassword=…`, in any case) are shown as `***`.
 *
 * @example
 * ```ts
 * import { Config, Effect, Layer } from "effect"
 * import { MirrorDatabase } from "effect-catalog/mirror"
 *
 * const Team = Layer.unwrap(Effect.gen(function*() {
 *   return MirrorDatabase.layerPostgres(yield* Config.Redacted("MIRROR_URL"))
 * }))
 * ```
 * @category layers
 * @since 1.1.0
 */
export const layerPostgres = (url: Redacted.Redacted<string>): Layer.Layer<MirrorDatabase, DatabaseUnavailable | SchemaTooNew> => {
  const name = withoutCredentials(Redacted.value(url)) ?? "a PostgreSQL address that cannot be read"
  return layer(name).pipe(Layer.provide(
    driver(name, "@effect/sql-pg", () => import("@effect/sql-pg/PgClient"), (PgClient) =>
      PgClient.layer({ url, connectTimeout: "10 seconds", maxConnections: 4, applicationName: "effect-catalog mirror" }))
  ))
}

/**
 * A mirror in the database a command-line option names: a PostgreSQL
 * address (`postgres://…` or `postgresql://…`) or the path of an SQLite file.
 *
 * @example
 * ```ts
 * import { MirrorDatabase } from "effect-catalog/mirror"
 *
 * const Mirror = MirrorDatabase.layerFrom("./catalog.sqlite")
 * ```
 * @category layers
 * @since 1.1.0
 */
export const layerFrom = (database: string): Layer.Layer<MirrorDatabase, DatabaseUnavailable | SchemaTooNew> =>
  isPostgresAddress(database) ? layerPostgres(Redacted.make(database)) : layerSqlite(database)

/**
 * Whether a command-line option names a PostgreSQL database
 * (`postgres://…` or `postgresql://…`) rather than an SQLite file.
 *
 * @example
 * ```ts
 * import { MirrorDatabase } from "effect-catalog/mirror"
 *
 * MirrorDatabase.isPostgresAddress("postgresql://db.internal/catalog") // true
 * MirrorDatabase.isPostgresAddress("./catalog.sqlite") // false
 * ```
 * @category guards
 * @since 1.1.0
 */
export const isPostgresAddress = (database: string): boolean => /^postgres(ql)?:\/\//.test(database)
