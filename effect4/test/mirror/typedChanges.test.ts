/**
 * Decoded changes of the Effect 4 edition's mirror (`Mirror.syncDecoded`),
 * on both stores, over real HTTP: each change's items are the collection's
 * resources, equal to the simulator's items decoded, before and after a
 * churn; the type of a change follows the collection through the operations
 * table, and the error unions of both feeds are exact. A row of the mirror
 * that no longer matches the schema (or is not JSON), and an item of the
 * service that passes the wire check but not the schema, fail the sync with
 * `ItemMalformed` naming the collection, the id and the field, with nothing
 * of the page written, so nothing is lost: the wire feed (`Mirror.sync`)
 * then takes both as they are and goes on.
 */
import { describe, expect, expectTypeOf, it } from "@effect/vitest"
import { Effect, Layer, Schema, Stream } from "effect"
import type { Operations } from "effect-catalog"
import { Budget, CatalogClient, Resources } from "effect-catalog"
import type { Change, MirrorError } from "effect-catalog/mirror"
import { Mirror, MirrorDatabase } from "effect-catalog/mirror"
import { Simulator } from "effect-catalog/simulator"
import { wireModel } from "../../../test/support/Fixtures.js"
import * as Client from "../support/Client.js"
import * as MirrorStore from "../support/Mirror.js"
import * as Stub from "../support/Stub.js"

type CollectionId = Operations.CollectionId

const sizes = { models: 250, skills: 60, mcps: 30, organizations: 10, providers: 5, families: 10, topics: 12, articles: 10 }

/** Every wait of a test is bounded: a sync that does not end fails the test. */
const collect = <A, E, R>(changes: Stream.Stream<A, E, R>) => Effect.timeout(Stream.runCollect(changes), "30 seconds")

/** The simulator's items of a collection, by id, as JSON. */
const catalogOf = (collection: CollectionId) =>
  Simulator.Simulator.use((simulator) => simulator.listed(collection)).pipe(
    Effect.map((items) => new Map(items.map((item): [string, unknown] => [item.id, JSON.parse(JSON.stringify(item))])))
  )

const decodeModel = Schema.decodeUnknownSync(Resources.Model)

/** A row of a collection written as another program would: its JSON and hash its own. */
const rewriteRow = (collection: CollectionId, id: string, data: string) =>
  MirrorDatabase.MirrorDatabase.use(({ sql }) => sql`UPDATE ${sql(collection)} SET data = ${data}, hash = 'rewritten' WHERE id = ${id}`)

/** A row of a collection the service never listed, as another program would write it. */
const insertRow = (collection: CollectionId, id: string, data: string) =>
  MirrorDatabase.MirrorDatabase.use(({ sql }) =>
    sql`INSERT INTO ${sql(collection)} ${
      sql.insert({ id, data, hash: "written", first_seen_at: "2026-01-01T00:00:00.000Z", last_seen_at: "2026-01-01T00:00:00.000Z", scan: 0 })
    }`
  )

/** The JSON of a row, as text in either store. */
const rowJson = (collection: CollectionId, id: string) =>
  MirrorDatabase.MirrorDatabase.use(({ dialect, sql }) =>
    sql<{ readonly data: string }>`SELECT ${sql.literal(dialect === "pg" ? "data::text AS data" : "data")} FROM ${sql(collection)} WHERE id = ${id}`
  ).pipe(Effect.map(([row]): unknown => row === undefined ? undefined : JSON.parse(row.data)))

const liveCount = (collection: CollectionId) =>
  MirrorDatabase.MirrorDatabase.use(({ sql }) =>
    sql<{ readonly n: number | string }>`SELECT count(*) AS n FROM ${sql(collection)} WHERE deleted_at IS NULL`
  ).pipe(Effect.map(([row]) => Number(row?.n ?? 0)))

describe("the type of a decoded change", () => {
  it("follows the collection through the operations table; the wire feed keeps its wire items; the error unions are exact", () => {
    expectTypeOf<Stream.Success<ReturnType<typeof Mirror.syncDecoded<"models">>>>().toEqualTypeOf<Change.Change<Resources.Model>>()
    expectTypeOf<Stream.Success<ReturnType<typeof Mirror.syncDecoded<"skills">>>>().toEqualTypeOf<Change.Change<Resources.Skill>>()
    expectTypeOf<Stream.Success<ReturnType<typeof Mirror.syncDecoded<"mcps">>>>().toEqualTypeOf<Change.Change<Resources.Mcp>>()
    expectTypeOf<Mirror.Item<"models">>().toEqualTypeOf<Resources.Model>()
    expectTypeOf<Change.Inserted<Resources.Model>["after"]>().toEqualTypeOf<Resources.Model>()
    expectTypeOf<Change.Updated<Resources.Model>["before"]>().toEqualTypeOf<Resources.Model>()
    expectTypeOf<Change.Updated<Resources.Model>["after"]>().toEqualTypeOf<Resources.Model>()
    expectTypeOf<Change.Deleted<Resources.Model>["before"]>().toEqualTypeOf<Resources.Model>()
    expectTypeOf<Change.Change<Resources.Model>["_tag"]>().toEqualTypeOf<"Inserted" | "Updated" | "Deleted">()
    expectTypeOf<Stream.Success<ReturnType<typeof Mirror.sync>>>().toEqualTypeOf<Change.Change<CatalogClient.WireItem>>()
    expectTypeOf<Stream.Error<ReturnType<typeof Mirror.sync>>>().toEqualTypeOf<Mirror.SyncError>()
    expectTypeOf<Mirror.SyncError>().toEqualTypeOf<CatalogClient.WireError | MirrorError.DatabaseFailed | MirrorError.SyncLocked>()
    expectTypeOf<Stream.Error<ReturnType<typeof Mirror.syncDecoded<"models">>>>().toEqualTypeOf<Mirror.SyncDecodedError>()
    expectTypeOf<Mirror.SyncDecodedError>().toEqualTypeOf<
      CatalogClient.WireError | MirrorError.DatabaseFailed | MirrorError.SyncLocked | MirrorError.ItemMalformed
    >()
    expectTypeOf<Stream.Services<ReturnType<typeof Mirror.syncDecoded<"models">>>>().toEqualTypeOf<
      CatalogClient.CatalogClient | Budget.Budget | MirrorDatabase.MirrorDatabase
    >()
  })
})

describe("a row of an SQLite mirror whose text is not JSON", () => {
  it.live("fails a decoded sync with ItemMalformed; the wire feed gives its text under `stored`", () =>
    Effect.gen(function*() {
      yield* collect(Mirror.sync("topics"))
      yield* insertRow("topics", "hand/text", "{not json")
      const malformed = yield* Effect.flip(collect(Mirror.syncDecoded("topics")))
      if (malformed._tag !== "ItemMalformed") return expect.fail(malformed.message)
      expect(malformed).toMatchObject({ _tag: "ItemMalformed", source: "mirror", collection: "topics", id: "hand/text", field: "" })
      expect(malformed.detail).toMatch(/^not JSON: /)
      expect(yield* liveCount("topics")).toBe(sizes.topics + 1)
      const deleted = yield* collect(Mirror.sync("topics"))
      expect(deleted.map((change) => change._tag === "Deleted" && change.before)).toEqual([{ id: "hand/text", stored: "{not json" }])
      expect(yield* liveCount("topics")).toBe(sizes.topics)
    }).pipe(Effect.provide(Layer.mergeAll(Client.simulatorWithClient({ sizes, enforceLimits: false }), MirrorStore.layer("sqlite")))))
})

describe.each(MirrorStore.stores)("decoded changes from the mirror in %s", (store) => {
  const fixture = (settings: Simulator.Settings = {}) =>
    Layer.mergeAll(Client.simulatorWithClient({ sizes, enforceLimits: false, ...settings }), MirrorStore.layer(store))

  it.live("give each item as its collection's resource: inserts, then under churn the models before and after each edit and before each delete", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const before = yield* catalogOf("models")
      const inserted = yield* collect(Mirror.syncDecoded("models"))
      expect(inserted.map((change) => change._tag === "Inserted" ? change.id : change._tag).sort()).toEqual([...before.keys()].sort())
      for (const change of inserted) if (change._tag === "Inserted") expect(change.after).toEqual(decodeModel(before.get(change.id)))
      yield* simulator.advance(simulator.options.churn.horizon + 1)
      const after = yield* catalogOf("models")
      const changes = yield* collect(Mirror.syncDecoded("models"))
      const tags = new Set(changes.map((change) => change._tag))
      expect(tags).toEqual(new Set(["Inserted", "Updated", "Deleted"]))
      for (const change of changes) {
        if (change._tag !== "Inserted") expect(change.before).toEqual(decodeModel(before.get(change.id)))
        if (change._tag !== "Deleted") expect(change.after).toEqual(decodeModel(after.get(change.id)))
      }
      const count = (tag: Change.Change["_tag"]) => changes.filter((change) => change._tag === tag).length
      const [run] = yield* Mirror.runs(["models"], 1)
      expect(run).toMatchObject({ status: "complete", inserted: count("Inserted"), updated: count("Updated"), deleted: count("Deleted") })
      const skills = yield* collect(Mirror.syncDecoded("skills"))
      expect(skills.length).toBe((yield* catalogOf("skills")).size)
      for (const change of skills) {
        if (change._tag !== "Inserted") return expect.fail(`${change._tag} ${change.id}`)
        expect(typeof change.after.installs).toBe("bigint")
      }
    }).pipe(Effect.provide(fixture({ churn: 0.3, churnHorizon: 40, churnClock: "manual" }))))

  it.live("a row edited out of the schema: ItemMalformed naming collection, id and field, the page rolled back; the wire feed gives the row as stored", () =>
    Effect.gen(function*() {
      yield* collect(Mirror.syncDecoded("models"))
      const [id = ""] = [...(yield* catalogOf("models")).keys()].sort()
      const stored = yield* rowJson("models", id)
      const edited = JSON.stringify({ ...(typeof stored === "object" && stored !== null ? stored : {}), context_tokens: "many" })
      yield* rewriteRow("models", id, edited)
      const malformed = yield* Effect.flip(collect(Mirror.syncDecoded("models")))
      expect(malformed).toMatchObject({ _tag: "ItemMalformed", source: "mirror", collection: "models", id, field: "context_tokens" })
      expect(malformed.message).toContain(JSON.stringify(id))
      expect(malformed.message).toContain("context_tokens")
      expect(yield* rowJson("models", id)).toEqual(JSON.parse(edited))
      const [failed] = yield* Mirror.runs(["models"], 1)
      expect(failed).toMatchObject({ status: "failed", detail: malformed.message })
      const wire = yield* collect(Mirror.sync("models"))
      expect(wire.map((change) => [change._tag, change.id])).toEqual([["Updated", id]])
      expect(wire[0]?._tag === "Updated" && wire[0].before).toEqual(JSON.parse(edited))
      expect(yield* rowJson("models", id)).toEqual(stored)

      // A row the service never listed, written by another program: its deletion cannot be decoded.
      yield* insertRow("models", "hand/made", JSON.stringify({ id: "hand/made", name: 7 }))
      const unlisted = yield* Effect.flip(collect(Mirror.syncDecoded("models")))
      expect(unlisted).toMatchObject({ _tag: "ItemMalformed", source: "mirror", collection: "models", id: "hand/made", field: "name" })
      expect(yield* liveCount("models")).toBe(sizes.models + 1)
      const deleted = yield* collect(Mirror.sync("models"))
      expect(deleted.map((change) => change._tag === "Deleted" && change.before)).toEqual([{ id: "hand/made", name: 7 }])
      expect(yield* liveCount("models")).toBe(sizes.models)
      expect(yield* collect(Mirror.syncDecoded("models"))).toEqual([])
    }).pipe(Effect.provide(fixture())))

  it.live("an item of the service right on the wire but not by the schema (2026-02-30): ItemMalformed, nothing of its page written", () =>
    Effect.gen(function*() {
      const stub = yield* Stub.Stub
      const good = wireModel(stub.baseUrl, "acme", "m1")
      const bad = { ...wireModel(stub.baseUrl, "acme", "m2"), released_on: "2026-02-30" }
      yield* stub.answer(() =>
        Stub.json(200, {
          data: [good, bad],
          pagination: { limit: 100, has_more: false, next_cursor: null },
          links: { next: null },
          meta: { observed_at: null, stale: null }
        })
      )
      const malformed = yield* Effect.flip(collect(Mirror.syncDecoded("models")))
      expect(malformed).toMatchObject({ _tag: "ItemMalformed", source: "service", collection: "models", id: "acme/m2", field: "released_on" })
      expect(malformed.message).toContain("2026-02-30")
      expect(yield* liveCount("models")).toBe(0)
      const [failed] = yield* Mirror.runs(["models"], 1)
      expect(failed).toMatchObject({ status: "failed", pages: 0, items: 0 })
      const wire = yield* collect(Mirror.sync("models"))
      expect(wire.map((change) => change._tag === "Inserted" && change.after)).toEqual([good, bad])
      expect(yield* liveCount("models")).toBe(2)
    }).pipe(Effect.provide(Layer.mergeAll(Client.stubWithClient("cat_test_key_0123456789"), MirrorStore.layer(store)))))
})
