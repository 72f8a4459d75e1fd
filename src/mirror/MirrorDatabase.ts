/**
 * The database a mirror lives in: an SQLite file (embedded, nothing to run)
 * or a PostgreSQL server (for a team), through `@effect/sql`. Building the
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
 * @since 0.3.0
 */
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import type * as SqlError from "@effect/sql/SqlError"
import { Cause, Context, Effect, Layer, Redacted, Schedule } from "effect"
import { withoutCredentials } from "../../rules/src/Credentials.js"
import * as ErrorTexts from "../../rules/src/mirror/ErrorTexts.js"
import { describe } from "./internal/Failure.js"
import * as Migrations from "../../common/src/mirror/internal/Migrations.js"
import * as Tables from "../../rules/src/mirror/Tables.js"
import { DatabaseUnavailable, SchemaTooNew } from "../../common/src/mirror/MirrorError.js"

/**
 * An open mirror database.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { MirrorDatabase } from "effect-catalog/mirror"
 *
 * const liveModels = Effect.flatMap(MirrorDatabase.MirrorDatabase, ({ sql }) =>
 *   sql<{ readonly n: number }>`SELECT count(*) AS n FROM models WHERE deleted_at IS NULL`)
 * ```
 * @category models
 * @since 0.3.0
 */
export interface Service {
  readonly sql: SqlClient.SqlClient
  readonly dialect: "sqlite" | "pg"
  /** The file, or the PostgreSQL address without its secrets: what messages name. */
  readonly name: string
}

/**
 * The open mirror database.
 *
 * @category services
 * @since 0.3.0
 */
export class MirrorDatabase extends Context.Tag("effect-catalog/MirrorDatabase")<MirrorDatabase, Service>() {}

/** The schema version a database has, 0 for a new one. */
const versionOf = (sql: SqlClient.SqlClient) =>
  sql<{ readonly latest: number | string | null }>`SELECT max(migration_id) AS latest FROM ${sql(Tables.migrationsTable)}`.pipe(
    Effect.map((rows) => Number(rows[0]?.latest ?? 0)),
    Effect.orElseSucceed(() => 0)
  )

/** Another try of a migration that failed, soon, a few times. */
const migrationRetries = Schedule.exponential("50 millis").pipe(Schedule.jittered, Schedule.intersect(Schedule.recurs(5)))

const isSchemaTooNew = (cause: Cause.Cause<unknown>) => {
  const failure = Cause.failureOption(cause)
  return failure._tag === "Some" && failure.value instanceof SchemaTooNew
}

/**
 * The mirror database over an `SqlClient` of one's own (SQLite or
 * PostgreSQL), its schema brought up to date.
 *
 * @example
 * ```ts
 * import { SqliteClient } from "@effect/sql-sqlite-node"
 * import { Layer } from "effect"
 * import { MirrorDatabase } from "effect-catalog/mirror"
 *
 * const Mirror = MirrorDatabase.layer("catalog.sqlite").pipe(Layer.provide(SqliteClient.layer({ filename: "catalog.sqlite" })))
 * ```
 * @category layers
 * @since 0.3.0
 */
export const layer = (name: string): Layer.Layer<MirrorDatabase, DatabaseUnavailable | SchemaTooNew, SqlClient.SqlClient> =>
  Layer.effect(
    MirrorDatabase,
    Effect.gen(function*(): Effect.fn.Return<Service, SqlError.SqlError | Migrator.MigrationError | SchemaTooNew, SqlClient.SqlClient> {
      const sql = yield* SqlClient.SqlClient
      const dialect = sql.onDialectOrElse({ pg: () => "pg" as const, orElse: () => "sqlite" as const })
      if (dialect === "sqlite") for (const pragma of Tables.sqlitePragmas) yield* sql.unsafe(pragma)
      yield* Effect.gen(function*() {
        const found = yield* versionOf(sql)
        if (found > Tables.latestVersion) return yield* new SchemaTooNew({ database: name, found, known: Tables.latestVersion })
        yield* Migrator.make({})({ loader: Migrator.fromRecord(Migrations.migrations), table: Tables.migrationsTable })
      }).pipe(
        // Processes that open a new database at once race to create its tables: the ones that lose find them made.
        Effect.sandbox,
        Effect.retry({ schedule: migrationRetries, while: (cause) => !isSchemaTooNew(cause) }),
        Effect.unsandbox
      )
      return { sql, dialect, name }
    }).pipe(
      Effect.catchAllCause((cause): Effect.Effect<never, DatabaseUnavailable | SchemaTooNew> => {
        const failure = Cause.failureOption(cause)
        return failure._tag === "Some" && failure.value._tag === "SchemaTooNew"
          ? Effect.fail(failure.value)
          : Effect.fail(new DatabaseUnavailable({ database: name, detail: describe(cause) }))
      })
    )
  )

/** A driver's layer whose failures, defects included (a file that cannot be opened throws), are `DatabaseUnavailable`. */
const opened = <E>(name: string, client: Layer.Layer<SqlClient.SqlClient, E>): Layer.Layer<SqlClient.SqlClient, DatabaseUnavailable> =>
  Layer.catchAllCause(client, (cause) => Layer.fail(new DatabaseUnavailable({ database: name, detail: describe(cause) })))

/**
 * A driver's client layer, its module loaded when a database of its kind is
 * first opened: a mirror in SQLite never needs the PostgreSQL driver
 * installed, nor one in PostgreSQL the SQLite driver. A driver that is not
 * installed is a `DatabaseUnavailable` that names its package.
 */
const driver = <M>(
  name: string,
  packageName: string,
  load: () => Promise<M>,
  client: (module: M) => Layer.Layer<SqlClient.SqlClient, unknown>
): Layer.Layer<SqlClient.SqlClient, DatabaseUnavailable> =>
  Layer.unwrapEffect(
    Effect.tryPromise({
      try: load,
      catch: (cause) =>
        new DatabaseUnavailable({
          database: name,
          detail: ErrorTexts.messages.driverMissing(packageName, describe(Cause.fail(cause)))
        })
    }).pipe(Effect.map((module) => opened(name, client(module))))
  )

/**
 * A mirror in an SQLite file, created if it does not exist.
 *
 * @example
 * ```ts
 * import { MirrorDatabase } from "effect-catalog/mirror"
 *
 * const Local = MirrorDatabase.layerSqlite("catalog.sqlite")
 * ```
 * @category layers
 * @since 0.3.0
 */
export const layerSqlite = (filename: string): Layer.Layer<MirrorDatabase, DatabaseUnavailable | SchemaTooNew> =>
  layer(filename).pipe(Layer.provide(
    driver(filename, "@effect/sql-sqlite-node", () => import("@effect/sql-sqlite-node/SqliteClient"), (SqliteClient) => SqliteClient.layer({ filename }))
  ))

/**
 * A mirror in a PostgreSQL database (`postgres://user:password@host:port/database`).
 * The address stays `Redacted`; messages name it without its secrets: the
 * password of its userinfo and of its query (`?password=…`,
 * `?sslpassword=…`, in any case) are shown as `***`.
 *
 * @example
 * ```ts
 * import { Config, Layer } from "effect"
 * import { MirrorDatabase } from "effect-catalog/mirror"
 *
 * const Team = Layer.unwrapEffect(Config.redacted("MIRROR_URL").pipe(Config.map(MirrorDatabase.layerPostgres)))
 * ```
 * @category layers
 * @since 0.3.0
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
 * @since 0.3.0
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
 * @since 0.3.0
 */
export const isPostgresAddress = (database: string): boolean => /^postgres(ql)?:\/\//.test(database)
