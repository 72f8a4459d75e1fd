/**
 * Mirror databases for tests, one new database per use: an SQLite file in a
 * temporary directory, or a database of its own in the test file's private
 * PostgreSQL server (`Servers.postgresUrl`), started when a test first asks.
 */
import { Effect, Layer } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { databaseUrl } from "../../scripts/postgres.js"
import { runOn } from "../../scripts/postgresStatement.js"
import * as MirrorDatabase from "../../src/mirror/MirrorDatabase.js"
import * as Servers from "./Servers.js"

export type Store = "sqlite" | "postgres"

export const stores: ReadonlyArray<Store> = ["sqlite", "postgres"]

let databases = 0

/** The file's PostgreSQL server, its address. */
export const server = Servers.postgresUrl("the tests of the mirror in PostgreSQL need it")

/** A new, empty PostgreSQL database of the test server: its address, dropped when the scope closes. */
export const postgresDatabase = Effect.acquireRelease(
  Effect.gen(function*() {
    const name = `mirror_${process.pid}_${++databases}`
    const admin = yield* server
    yield* runOn(admin, `CREATE DATABASE ${name}`)
    return { name, admin, url: databaseUrl(admin, name) }
  }),
  ({ admin, name }) => Effect.ignore(runOn(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
)

/** A new SQLite file in a directory removed when the scope closes. */
export const sqliteFile = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(path.join(tmpdir(), "effect-catalog-mirror-"))),
  (directory) => Effect.sync(() => rmSync(directory, { recursive: true, force: true }))
).pipe(Effect.map((directory) => path.join(directory, "catalog.sqlite")))

/** Where a new mirror of a store lives: a file or a PostgreSQL address. */
export const newDatabase = (store: Store) => store === "sqlite" ? sqliteFile : Effect.map(postgresDatabase, ({ url }) => url)

/** A new mirror database of a store, for as long as the layer is in use. */
export const layer = (store: Store): Layer.Layer<MirrorDatabase.MirrorDatabase, never> =>
  Layer.unwrapScoped(Effect.map(newDatabase(store), (database) => Layer.orDie(MirrorDatabase.layerFrom(database))))
