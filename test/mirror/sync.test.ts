/**
 * Syncs of the simulator's catalog into a mirror, on both stores (an SQLite
 * file and the test's PostgreSQL server): rows equal to the catalog, exact
 * change feeds under churn, nothing written for an unchanged catalog,
 * resumption after a stop at the budget or an expired cursor, locks; a full
 * disk and a PostgreSQL session ended mid-sync, as typed failures.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import { Deferred, Effect, Exit, Layer, Redacted, Schedule, Stream } from "effect"
import { readFileSync } from "node:fs"
import { runOn } from "../../scripts/postgresStatement.js"
import type { CollectionId } from "../../common/src/contract/Operations.js"
import * as Change from "../../common/src/mirror/Change.js"
import * as Mirror from "../../common/src/mirror/Mirror.js"
import * as MirrorDatabase from "../../src/mirror/MirrorDatabase.js"
import * as Simulator from "../../common/src/simulator/Simulator.js"
import * as Client from "../support/Client.js"
import * as MirrorStore from "../support/Mirror.js"

const sizes = { models: 450, skills: 120, mcps: 230, organizations: 40, providers: 12, families: 30, topics: 24, articles: 40 }

/** The mirror's live rows of a collection: id and wire JSON, in id order. */
const liveRows = (collection: CollectionId) =>
  Effect.flatMap(MirrorDatabase.MirrorDatabase, ({ dialect, sql }) =>
    sql<{ readonly id: string; readonly data: string }>`SELECT id, ${sql.literal(dialect === "pg" ? "data::text AS data" : "data")}
      FROM ${sql(collection)} WHERE deleted_at IS NULL`).pipe(
    Effect.map((rows) => new Map(rows.map((row) => [row.id, JSON.parse(row.data)])))
  )

/** The simulator's items of a collection, by id. */
const catalogOf = (collection: CollectionId) =>
  Effect.flatMap(Simulator.Simulator, (simulator) => simulator.listed(collection)).pipe(
    Effect.map((items) => new Map(items.map((item) => [item.id, item])))
  )

const syncAll = (collection: CollectionId, options?: Mirror.SyncOptions) =>
  Mirror.sync(collection, options).pipe(Stream.runCollect, Effect.map((changes) => [...changes]))

const ids = (changes: ReadonlyArray<Change.Change>, tag: Change.Change["_tag"]) =>
  changes.filter((change) => change._tag === tag).map((change) => change.id).sort()

describe.each(MirrorStore.stores)("the mirror in %s", (store) => {
  const fixture = (settings: Simulator.Settings = {}, options = {}) =>
    Layer.mergeAll(Client.simulatorWithClient({ sizes, enforceLimits: false, ...settings }, "full", options), MirrorStore.layer(store))

  it.live("a first sync holds exactly the catalog's items, as the service sent them; a second sync of an unchanged catalog changes nothing", () =>
    Effect.gen(function*() {
      for (const collection of ["models", "organizations", "topics"] as const) {
        const changes = yield* syncAll(collection)
        const catalog = yield* catalogOf(collection)
        expect(ids(changes, "Inserted")).toEqual([...catalog.keys()].sort())
        expect(yield* liveRows(collection)).toEqual(new Map([...catalog].map(([id, item]) => [id, JSON.parse(JSON.stringify(item))])))
        expect(yield* syncAll(collection)).toEqual([])
        const [second, first] = yield* Mirror.runs([collection])
        expect(first).toMatchObject({ status: "complete", items: catalog.size, inserted: catalog.size, updated: 0, deleted: 0 })
        expect(second).toMatchObject({ status: "complete", items: catalog.size, inserted: 0, updated: 0, deleted: 0, scan: 2 })
        // The first page is asked for again with its ETag: unchanged, it costs nothing.
        expect([first?.units, second?.units]).toEqual([Math.ceil(catalog.size / 100), Math.ceil(catalog.size / 100) - 1])
      }
    }).pipe(Effect.provide(fixture())))

  it.live("under churn, a second sync reports exactly the inserts, edits and deletes the catalog had, with the JSON before and after", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      for (const collection of ["models", "skills", "mcps"] as const) {
        const before = yield* catalogOf(collection)
        yield* syncAll(collection)
        yield* simulator.advance(simulator.options.churn.horizon + 1)
        const after = yield* catalogOf(collection)
        const changes = yield* syncAll(collection)
        yield* simulator.advance(-(simulator.options.churn.horizon + 1))
        const edited = [...after.keys()].filter((id) => before.has(id) && JSON.stringify(before.get(id)) !== JSON.stringify(after.get(id)))
        expect(ids(changes, "Inserted")).toEqual([...after.keys()].filter((id) => !before.has(id)).sort())
        expect(ids(changes, "Deleted")).toEqual([...before.keys()].filter((id) => !after.has(id)).sort())
        expect(ids(changes, "Updated")).toEqual(edited.sort())
        expect(edited.length).toBeGreaterThan(0)
        for (const change of changes) {
          if (change._tag !== "Inserted") expect(change.before).toEqual(JSON.parse(JSON.stringify(before.get(change.id))))
          if (change._tag !== "Deleted") expect(change.after).toEqual(after.get(change.id))
        }
        expect(yield* liveRows(collection)).toEqual(new Map([...after].map(([id, item]) => [id, JSON.parse(JSON.stringify(item))])))
        const [run] = yield* Mirror.runs([collection], 1)
        expect(run).toMatchObject({
          status: "complete",
          inserted: ids(changes, "Inserted").length,
          updated: edited.length,
          deleted: ids(changes, "Deleted").length
        })
      }
    }).pipe(Effect.provide(fixture({ churn: 0.3, churnHorizon: 40, churnClock: "manual" }))))

  it.live("a sync stopped by the budget is partial; the next goes on from its checkpoint, and together they spend one full scan", () =>
    Effect.gen(function*() {
      const stopped = yield* Effect.exit(syncAll("models").pipe(Effect.provide(Client.client("full", { dailyBudget: 2 }))))
      expect(Exit.isFailure(stopped) && JSON.stringify(stopped.cause)).toContain("BudgetExceeded")
      const [partial] = yield* Mirror.runs(["models"], 1)
      expect(partial).toMatchObject({ status: "partial", pages: 2, items: 200, units: 2 })
      expect(partial?.checkpoint).not.toBeNull()
      const pages: Array<Mirror.Progress> = []
      const changes = yield* syncAll("models", { onPage: (progress) => Effect.sync(() => pages.push(progress)) }).pipe(
        Effect.provide(Client.client("full"))
      )
      expect(pages[0]?.resumed).toBe(true)
      expect(changes.length).toBe(sizes.models - 200)
      const [resumed] = yield* Mirror.runs(["models"], 1)
      expect(resumed).toMatchObject({ status: "complete", scan: partial?.scan, pages: 3, units: 3, deleted: 0 })
      expect([...(yield* liveRows("models")).keys()].sort()).toEqual([...(yield* catalogOf("models")).keys()].sort())
    }).pipe(Effect.provide(Layer.mergeAll(Layer.merge(Simulator.layer({ sizes, enforceLimits: false }), NodeHttpClient.layerUndici), MirrorStore.layer(store)))))

  it.live("a sync resumed after its cursor expired scans again from the first page, as a new scan, and loses and repeats nothing", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      yield* Effect.exit(syncAll("models").pipe(Effect.provide(Client.client("full", { dailyBudget: 2 }))))
      const [partial] = yield* Mirror.runs(["models"], 1)
      expect(partial).toMatchObject({ status: "partial", items: 200 })
      // The checkpoint's cursor is refused as expired, once.
      yield* simulator.setFaults({ expire: 1 })
      const pages: Array<Mirror.Progress> = []
      const changes = yield* syncAll("models", {
        onPage: (progress) => Effect.zipRight(Effect.sync(() => pages.push(progress)), simulator.setFaults({ expire: 0 }))
      }).pipe(Effect.provide(Client.client("full")))
      expect(pages[0]).toMatchObject({ resumed: true, items: 100, inserted: 0 })
      expect(ids(changes, "Inserted").length).toBe(sizes.models - 200)
      expect(ids(changes, "Updated").concat(ids(changes, "Deleted"))).toEqual([])
      const [resumed] = yield* Mirror.runs(["models"], 1)
      expect(resumed).toMatchObject({ status: "complete", scan: (partial?.scan ?? 0) + 1, items: sizes.models, deleted: 0 })
      expect([...(yield* liveRows("models")).keys()].sort()).toEqual([...(yield* catalogOf("models")).keys()].sort())
    }).pipe(Effect.provide(Layer.mergeAll(Layer.merge(Simulator.layer({ sizes, enforceLimits: false }), NodeHttpClient.layerUndici), MirrorStore.layer(store)))))

  it.live("two syncs of one collection at once: the second is refused with SyncLocked; other collections go on", () =>
    Effect.gen(function*() {
      const results = yield* Effect.all([Effect.exit(syncAll("models")), Effect.exit(syncAll("models")), Effect.exit(syncAll("mcps"))], {
        concurrency: "unbounded"
      })
      const locked = results.filter((exit) => Exit.isFailure(exit))
      expect(locked.length).toBe(1)
      expect(JSON.stringify(locked[0])).toContain("SyncLocked")
      expect(Exit.isSuccess(results[2]!)).toBe(true)
      expect(yield* syncAll("models")).toEqual([])
    }).pipe(Effect.provide(fixture())))
})

describe("the mirror's database: opening it, and its failures", () => {
  const catalog = Client.simulatorWithClient({ sizes, enforceLimits: false })

  /** The application name of the mirror's PostgreSQL sessions. */
  const mirrorSessions = "effect-catalog mirror"

  /** After a sync of models failed at page 3: the mirror holds the two pages committed, and the next sync goes on from page 3 to the end. */
  const goesOnFromPageTwo = (url: string) =>
    Effect.gen(function*() {
      expect((yield* liveRows("models")).size).toBe(200)
      yield* syncAll("models")
      expect([...(yield* liveRows("models")).keys()].sort()).toEqual([...(yield* catalogOf("models")).keys()].sort())
      const [resumed] = yield* Mirror.runs(["models"], 1)
      expect(resumed).toMatchObject({ status: "complete", pages: 3 })
    }).pipe(Effect.provide(Layer.orDie(MirrorDatabase.layerPostgres(Redacted.make(url)))), Effect.scoped)

  it.live("a file that cannot be opened, or a schema newer than the code: DatabaseUnavailable, SchemaTooNew", () =>
    Effect.gen(function*() {
      const unopenable = yield* Effect.flip(Layer.build(MirrorDatabase.layerSqlite("/nonexistent/directory/catalog.sqlite")))
      expect(unopenable._tag).toBe("DatabaseUnavailable")
      expect(unopenable.message).toContain("/nonexistent/directory/catalog.sqlite")
      const file = yield* MirrorStore.sqliteFile
      yield* Effect.flatMap(MirrorDatabase.MirrorDatabase, ({ sql }) => sql`INSERT INTO effect_catalog_migrations (migration_id, name) VALUES (99, 'future')`)
        .pipe(Effect.provide(Layer.orDie(MirrorDatabase.layerSqlite(file))), Effect.scoped)
      const tooNew = yield* Effect.flip(Layer.build(MirrorDatabase.layerSqlite(file)))
      expect(tooNew).toMatchObject({ _tag: "SchemaTooNew", found: 99, known: 4 })
      const closedPort = yield* Effect.flip(Layer.build(MirrorDatabase.layerPostgres(Redacted.make("postgres://postgres:secret@127.0.0.1:1/none"))))
      expect(closedPort._tag).toBe("DatabaseUnavailable")
      expect(closedPort.message).not.toContain("secret")
    }).pipe(Effect.scoped))

  it.live.each(MirrorStore.stores)("a new database in %s opened by four at once: each finds the schema made, by itself or another", (store) =>
    Effect.gen(function*() {
      const database = yield* MirrorStore.newDatabase(store)
      const opened = yield* Effect.all(
        Array.from({ length: 4 }, () => Effect.scoped(Layer.build(MirrorDatabase.layerFrom(database))).pipe(Effect.as("opened"))),
        { concurrency: "unbounded" }
      )
      expect(opened).toEqual(["opened", "opened", "opened", "opened"])
    }).pipe(Effect.scoped))

  it.live("a full disk mid-sync: DatabaseFailed, the mirror at its last committed page; the next sync goes on from there", () =>
    Effect.gen(function*() {
      const file = yield* MirrorStore.sqliteFile
      const pages: Array<number> = []
      const full = yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        // Room for the schema and a few pages of models, not for all of them.
        const [size] = yield* sql<{ readonly page_count: number }>`PRAGMA page_count`
        yield* sql.unsafe(`PRAGMA max_page_count = ${(size?.page_count ?? 0) + 60}`)
        return yield* Effect.flip(syncAll("models", { onPage: (progress) => Effect.sync(() => pages.push(progress.items)) }))
      }).pipe(
        Effect.provide(MirrorDatabase.layer(file).pipe(Layer.provideMerge(SqliteClient.layer({ filename: file })))),
        Effect.scoped
      )
      expect(full._tag).toBe("DatabaseFailed")
      expect(full.message).toContain("full")
      const committed = pages.at(-1) ?? 0
      expect(committed).toBeGreaterThan(0)
      yield* Effect.gen(function*() {
        expect((yield* liveRows("models")).size).toBe(committed)
        const [failedRun] = yield* Mirror.runs(["models"], 1)
        expect(failedRun).toMatchObject({ status: "failed", items: committed })
        yield* syncAll("models")
        expect([...(yield* liveRows("models")).keys()].sort()).toEqual([...(yield* catalogOf("models")).keys()].sort())
      }).pipe(Effect.provide(Layer.orDie(MirrorDatabase.layerSqlite(file))), Effect.scoped)
    }).pipe(Effect.provide(catalog), Effect.scoped))

  it.live("a PostgreSQL connection dropped mid-sync: DatabaseFailed, the mirror at its last committed page; the next sync goes on", () =>
    Effect.gen(function*() {
      const { admin, name, url } = yield* MirrorStore.postgresDatabase
      const pages: Array<number> = []
      const dropped = yield* Effect.flip(syncAll("models", {
        onPage: (progress) =>
          Effect.zipRight(
            Effect.sync(() => pages.push(progress.items)),
            // The server goes away for this database: its sessions end, and no new one is let in.
            progress.pages === 2
              ? Effect.zipRight(
                runOn(admin, `ALTER DATABASE ${name} ALLOW_CONNECTIONS false`),
                runOn(admin, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`)
              )
              : Effect.void
          )
      })).pipe(Effect.provide(Layer.orDie(MirrorDatabase.layerPostgres(Redacted.make(url)))), Effect.scoped)
      expect(dropped._tag).toBe("DatabaseFailed")
      yield* runOn(admin, `ALTER DATABASE ${name} ALLOW_CONNECTIONS true`)
      yield* goesOnFromPageTwo(url)
    }).pipe(Effect.provide(catalog), Effect.scoped))

  it.live("a PostgreSQL session ended inside a page's transaction, its ROLLBACK failing too: DatabaseFailed with the server's reason, never a defect; the next sync goes on", () =>
    Effect.gen(function*() {
      const { url } = yield* MirrorStore.postgresDatabase
      const pageTwo = yield* Deferred.make<void>()
      const locked = yield* Deferred.make<void>()
      // Another session locks the models table once page 2 is committed: page 3's transaction waits for it, and its session is ended while it waits.
      const endWaitingSession = Effect.gen(function*() {
        const sql = yield* PgClient.PgClient
        yield* Deferred.await(pageTwo).pipe(Effect.timeout("20 seconds"))
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`LOCK TABLE models IN ACCESS EXCLUSIVE MODE`
          yield* Deferred.succeed(locked, undefined)
          // A transaction sees pg_stat_activity as it was at its first read, unless it clears that snapshot.
          yield* Effect.zipRight(
            sql`SELECT pg_stat_clear_snapshot()`,
            sql<{ readonly waiting: number }>`SELECT count(*)::int AS waiting FROM pg_stat_activity
              WHERE datname = current_database() AND application_name = ${mirrorSessions} AND wait_event_type = 'Lock'`
          ).pipe(
            Effect.repeat({ schedule: Schedule.spaced("20 millis"), until: ([row]) => (row?.waiting ?? 0) > 0 }),
            Effect.timeout("10 seconds")
          )
          yield* sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = ${mirrorSessions}`
        }))
      }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })))
      const [dropped] = yield* Effect.all([
        Effect.flip(syncAll("models", {
          onPage: (progress) => progress.pages === 2 ? Effect.zipRight(Deferred.succeed(pageTwo, undefined), Deferred.await(locked)) : Effect.void
        })).pipe(Effect.provide(Layer.orDie(MirrorDatabase.layerPostgres(Redacted.make(url)))), Effect.scoped),
        endWaitingSession
      ], { concurrency: "unbounded" })
      expect(dropped._tag).toBe("DatabaseFailed")
      expect(dropped.message).toContain("terminating connection due to administrator command")
      yield* goesOnFromPageTwo(url)
    }).pipe(Effect.provide(catalog), Effect.scoped))
})

describe("the reference's SQL over the mirror (docs/reference.md)", () => {
  /** The statements of the reference's `sql` blocks: the first block is SQLite's, the second PostgreSQL's. */
  const referenceStatements = (store: MirrorStore.Store): ReadonlyArray<string> => {
    const reference = readFileSync(new URL("../../docs/reference.md", import.meta.url), "utf8")
    const blocks = [...reference.matchAll(/```sql\n([\s\S]*?)```/g)].map((match) => match[1] ?? "")
    const block = blocks[store === "sqlite" ? 0 : 1] ?? ""
    return block.split(";").map((statement) => statement.replace(/--.*$/gm, "").trim()).filter((statement) => statement !== "")
  }

  it.live.each(MirrorStore.stores)("every query of the reference runs on a synced mirror in %s, and the first two find rows", (store) =>
    Effect.gen(function*() {
      for (const collection of ["models", "organizations"] as const) yield* syncAll(collection)
      const { sql } = yield* MirrorDatabase.MirrorDatabase
      const statements = referenceStatements(store)
      expect(statements.length).toBe(3)
      const results = yield* Effect.forEach(statements, (statement) => sql.unsafe(statement))
      expect(results[0]?.length).toBeGreaterThan(0)
      expect(results[1]?.length).toBeGreaterThan(0)
    }).pipe(
      Effect.provide(Layer.mergeAll(Client.simulatorWithClient({ sizes, enforceLimits: false }), MirrorStore.layer(store))),
      Effect.scoped
    ))
})
