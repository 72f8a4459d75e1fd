/**
 * One statement on a database of a PostgreSQL server, by its address,
 * through the Effect 3 edition's `@effect/sql-pg`: for the tests and
 * benchmarks that create, drop or end things on the private server of
 * `scripts/postgres.ts`.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Redacted } from "effect"

/** Runs one statement on a database of a server, by its address. */
export const runOn = (url: string, statement: string) =>
  Effect.flatMap(PgClient.PgClient, (sql) => sql.unsafe(statement)).pipe(
    Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })),
    Effect.orDie
  )
