/**
 * Mirror databases for the Effect 4 edition's tests, one new database per
 * use: an SQLite file in a temporary directory, or a database of its own in
 * the test file's private PostgreSQL server (`scripts/postgres.ts`), started
 * when a test first asks and stopped after the file's last test. Beside
 * them, the Effect 4 edition's sync as a process of its own
 * (`mirror/fixtures/syncModels.ts`), for the tests that kill one.
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { cleanEnv } from "../../../scripts/cleanEnv.js"
import { databaseUrl, type Server, startPostgres } from "../../../scripts/postgres.js"
import { MirrorDatabase } from "effect-catalog/mirror"
import type { Simulator } from "effect-catalog/simulator"
import { editionCondition } from "./Process.js"

export type Store = "sqlite" | "postgres"

export const stores: ReadonlyArray<Store> = ["sqlite", "postgres"]

let started: Promise<Server> | undefined

/**
 * Stops the file's PostgreSQL server, if a test started one; registered
 * after every file by `EachFile.ts`, since files that share a worker share
 * this module.
 */
export const stopPostgres = async (): Promise<void> => {
  const server = started
  started = undefined
  await server?.then((running) => running.stop(), () => undefined)
}

/** The file's PostgreSQL server, its address: started by the first test that asks. */
export const server = Effect.promise(() => (started ??= startPostgres("the tests of the mirror in PostgreSQL need it")).then((server) => server.url))

/** Runs one statement on a database of a server, by its address. */
export const runOn = (url: string, statement: string): Effect.Effect<void> =>
  PgClient.PgClient.use((sql) => sql.unsafe(statement)).pipe(
    Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })),
    Effect.asVoid,
    Effect.orDie
  )

let databases = 0

/** A new, empty PostgreSQL database of the test server: its address, dropped when the scope closes. */
export const postgresDatabase = Effect.acquireRelease(
  Effect.gen(function*() {
    const name = `mirror4_${process.pid}_${++databases}`
    const admin = yield* server
    yield* runOn(admin, `CREATE DATABASE ${name}`)
    return { name, admin, url: databaseUrl(admin, name) }
  }),
  ({ admin, name }) => Effect.ignore(runOn(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
)

/** A new SQLite file in a directory removed when the scope closes. */
export const sqliteFile = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(path.join(tmpdir(), "effect-catalog-mirror4-"))),
  (directory) => Effect.sync(() => rmSync(directory, { recursive: true, force: true }))
).pipe(Effect.map((directory) => path.join(directory, "catalog.sqlite")))

/** Where a new mirror of a store lives: a file or a PostgreSQL address. */
export const newDatabase = (store: Store) => store === "sqlite" ? sqliteFile : Effect.map(postgresDatabase, ({ url }) => url)

/** A new mirror database of a store, for as long as the layer is in use. */
export const layer = (store: Store): Layer.Layer<MirrorDatabase.MirrorDatabase> =>
  Layer.unwrap(Effect.map(newDatabase(store), (database) => Layer.orDie(MirrorDatabase.layerFrom(database))))

/** The pages of models the simulator has answered with 200. */
export const modelPages = (simulator: Simulator.Service): Effect.Effect<number> =>
  Effect.map(simulator.answered, (answered) => answered.filter((answer) => answer.operation === "models" && answer.status === 200).length)

/**
 * The Effect 4 edition's sync of the models into `database`, as a process of
 * its own (mirror/fixtures/syncModels.ts under this Node, 22), against
 * `simulator`; killed with SIGKILL when the scope closes.
 */
export const syncProcess = (simulator: Simulator.Service, database: string) =>
  Effect.acquireRelease(
    Effect.sync(() =>
      spawn(process.execPath, [editionCondition, "--import", "tsx", new URL("../mirror/fixtures/syncModels.ts", import.meta.url).pathname, database], {
        cwd: new URL("../..", import.meta.url).pathname,
        env: cleanEnv({ CATALOG_BASE_URL: simulator.baseUrl, CATALOG_API_KEY: Redacted.value(simulator.keys.full) }),
        stdio: "ignore"
      })
    ),
    (child) => Effect.sync(() => void child.kill("SIGKILL"))
  )

/** How a process ended: the signal that ended it, or its exit code. */
export const ended = (child: ChildProcess): Effect.Effect<string> =>
  Effect.callback<string>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.succeed(child.signalCode ?? `exit ${child.exitCode}`))
    child.once("exit", (code, signal) => resume(Effect.succeed(signal ?? `exit ${code}`)))
  })
