/**
 * One mirror, both editions: a mirror that the Effect 3 edition made (its
 * `catalog mirror` command, a Node 20 process) the Effect 4 edition syncs
 * on, and the other way round, in an SQLite file and in a PostgreSQL
 * database. An unchanged catalog brings no change, whichever edition made
 * the rows; under churn each edition reports exactly the catalog's changes;
 * a sync killed mid-page by SIGKILL in one edition is gone on by the other
 * from its checkpoint, nothing lost or twice, for one full scan and at most
 * one page more. Real time: the processes are real.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Redacted, Schedule, Stream } from "effect"
import { Mirror, MirrorDatabase } from "effect-catalog/mirror"
import { Simulator } from "effect-catalog/simulator"
import * as Client from "../support/Client.js"
import * as CatalogCommand from "../support/CatalogCommand.js"
import * as MirrorStore from "../support/Mirror.js"

const sizes = { models: 1_200, skills: 20, mcps: 20, organizations: 10, providers: 5, families: 10, topics: 6, articles: 8 }

/** A sync of the models by the Effect 4 edition, in this process: its changes as tag and id. */
const syncHere = (database: string) =>
  Mirror.sync("models").pipe(
    Stream.map((change) => ({ _tag: change._tag, id: change.id })),
    Stream.runCollect,
    Effect.provide(Layer.orDie(MirrorDatabase.layerFrom(database)))
  )

/** A sync of the models by the Effect 3 edition's command: its changes as tag and id. */
const syncByEffect3 = (simulator: Simulator.Service, database: string) =>
  Effect.map(CatalogCommand.catalog(simulator, ["mirror", "models", "--db", database, "--no-limits", "--changes"]), (ran) => {
    expect(ran.stderr).not.toContain(Redacted.value(simulator.keys.full))
    expect(ran.code, ran.stderr).toBe(0)
    return ran.stdout.split("\n").filter((line) => line !== "").map((line): { readonly _tag: string; readonly id: string } => JSON.parse(line))
  })

/** The models of the mirror: live ids in order, and how many rows in all. */
const mirrored = (database: string) =>
  MirrorDatabase.MirrorDatabase.use(({ sql }) => sql<{ readonly id: string; readonly deleted_at: unknown }>`SELECT id, deleted_at FROM models`).pipe(
    Effect.map((rows) => ({ rows: rows.length, live: rows.filter((row) => row.deleted_at === null).map((row) => row.id).sort() })),
    Effect.provide(Layer.orDie(MirrorDatabase.layerFrom(database)))
  )

const catalogIds = (simulator: Simulator.Service) => Effect.map(simulator.listed("models"), (items) => items.map((item) => item.id).sort())

const byTag = (changes: ReadonlyArray<{ readonly _tag: string; readonly id: string }>, tag: string) =>
  changes.filter((change) => change._tag === tag).map((change) => change.id).sort()

describe.each(MirrorStore.stores)("one mirror in %s, both editions", (store) => {
  const fixture = Client.simulatorWithClient({ sizes, churn: 0.1, churnClock: "manual" })

  it.live("the Effect 3 edition makes it, the Effect 4 edition syncs on and back: no change for an unchanged catalog, exactly the catalog's changes under churn", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const database = yield* MirrorStore.newDatabase(store)
      const first = yield* syncByEffect3(simulator, database)
      expect(byTag(first, "Inserted")).toEqual(yield* catalogIds(simulator))
      expect(yield* syncHere(database)).toEqual([])
      const [run] = yield* Mirror.runs(["models"], 1).pipe(Effect.provide(Layer.orDie(MirrorDatabase.layerFrom(database))))
      expect(run).toMatchObject({ status: "complete", scan: 2, items: sizes.models, inserted: 0, updated: 0, deleted: 0 })

      const before = new Map((yield* simulator.listed("models")).map((item) => [item.id, JSON.stringify(item)]))
      yield* simulator.advance(simulator.options.churn.horizon + 1)
      const after = new Map((yield* simulator.listed("models")).map((item) => [item.id, JSON.stringify(item)]))
      const changes = yield* syncHere(database)
      expect(byTag(changes, "Inserted")).toEqual([...after.keys()].filter((id) => !before.has(id)).sort())
      expect(byTag(changes, "Deleted")).toEqual([...before.keys()].filter((id) => !after.has(id)).sort())
      const edited = [...after.keys()].filter((id) => before.has(id) && before.get(id) !== after.get(id)).sort()
      expect(edited.length).toBeGreaterThan(0)
      expect(byTag(changes, "Updated")).toEqual(edited)
      expect(yield* syncByEffect3(simulator, database)).toEqual([])
      expect((yield* mirrored(database)).live).toEqual([...after.keys()].sort())
    }).pipe(Effect.provide(fixture)), 120_000)

  it.live("the Effect 4 edition makes it, the Effect 3 edition syncs on: no change for an unchanged catalog, exactly the catalog's changes under churn", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const database = yield* MirrorStore.newDatabase(store)
      expect(byTag(yield* syncHere(database), "Inserted")).toEqual(yield* catalogIds(simulator))
      expect(yield* syncByEffect3(simulator, database)).toEqual([])
      const before = new Set(yield* catalogIds(simulator))
      yield* simulator.advance(simulator.options.churn.horizon + 1)
      const after = yield* catalogIds(simulator)
      const changes = yield* syncByEffect3(simulator, database)
      expect(byTag(changes, "Inserted")).toEqual(after.filter((id) => !before.has(id)))
      expect(byTag(changes, "Updated").length).toBeGreaterThan(0)
      expect(yield* syncHere(database)).toEqual([])
      expect((yield* mirrored(database)).live).toEqual(after)
    }).pipe(Effect.provide(fixture)), 120_000)

  it.live("an Effect 4 sync killed with SIGKILL mid-sync is gone on by the Effect 3 edition from its checkpoint: every model once, one full scan and at most one page more", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const database = yield* MirrorStore.newDatabase(store)
      const child = yield* MirrorStore.syncProcess(simulator, database)
      yield* MirrorStore.modelPages(simulator).pipe(Effect.repeat({ until: (pages) => pages >= 4, schedule: Schedule.spaced("5 millis") }))
      child.kill("SIGKILL")
      yield* MirrorStore.ended(child)
      const before = yield* mirrored(database)
      expect(before.live.length).toBeGreaterThan(0)
      expect(before.live.length).toBeLessThan(sizes.models)
      const changes = yield* syncByEffect3(simulator, database)
      expect(changes.every((change) => change._tag === "Inserted")).toBe(true)
      expect(changes.length).toBe(sizes.models - before.live.length)
      const after = yield* mirrored(database)
      expect(after).toEqual({ rows: sizes.models, live: yield* catalogIds(simulator) })
      // One full scan is 12 pages; the page under way when the process was killed may be asked for again.
      expect(yield* MirrorStore.modelPages(simulator)).toBeLessThanOrEqual(Math.ceil(sizes.models / 100) + 1)
    }).pipe(Effect.provide(fixture)), 120_000)
})
