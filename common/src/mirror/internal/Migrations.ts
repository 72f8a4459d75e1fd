/**
 * The mirror's schema, one migration per version, each the statements of
 * `Tables.migrations` for the database's dialect.
 */
import { SqlClient } from "#edition/mirror/internal/Sql.js"
import { Effect } from "#edition/internal/Edition.js"
import * as Operations from "../../contract/Operations.js"
import * as Tables from "../../../../rules/src/mirror/Tables.js"

const collections = Operations.collections.map((operation) => operation.id)

/** The migration of a name: its statements, in the dialect of the database it runs on. */
const migration = (name: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const dialect = sql.onDialectOrElse({ pg: () => "pg" as const, orElse: () => "sqlite" as const })
    for (const statement of Tables.migrations(dialect, collections)[name] ?? []) yield* sql.unsafe(statement)
  })

/** Every migration, by version. */
export const migrations: Readonly<Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>> = Object.fromEntries(
  Object.keys(Tables.migrations("sqlite", collections)).map((name) => [name, migration(name)])
)
