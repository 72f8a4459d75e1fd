/**
 * Decoded changes (`Mirror.syncDecoded`), on both stores: each change's
 * items are the collection's resources, equal to the simulator's items
 * decoded, before and after a churn; the type of a change follows the
 * collection through the operations table. A row of the mirror that no
 * longer matches the schema, and an item of the service that passes the
 * wire check but not the schema, fail the sync with `ItemMalformed` naming
 * the collection, the id and the field, with nothing of the page written;
 * the wire feed (`Mirror.sync`) still takes both as they are.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, expectTypeOf, it } from "@effect/vitest"
import { Effect, Layer, Redacted, Schema, Stream } from "effect"
import type { WireItem } from "../../common/src/client/CatalogClient.js"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import type { CollectionId } from "../../common/src/contract/Operations.js"
import * as Resources from "../../common/src/contract/Resources.js"
import type * as Change from "../../common/src/mirror/Change.js"
import * as Mirror from "../../common/src/mirror/Mirror.js"
import * as MirrorDatabase from "../../src/mirror/MirrorDatabase.js"
import * as Simulator from "../../common/src/simulator/Simulator.js"
import * as Client from "../support/Client.js"
import { wireModel } from "../support/Fixtures.js"
import * as MirrorStore from "../support/Mirror.js"
import * as Stub from "../support/Stub.js"

const sizes = { models: 250, skills: 60, mcps: 30, organizations: 10, providers: 5, families: 10, topics: 12, articles: 10 }

/** Every wait of a test is bounded: a sync that does not end fails the test. */
const bounded = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.timeout(effect, "30 seconds")

const collect = <A, E, R>(changes: Stream.Stream<A, E, R>) =>
  bounded(Stream.runCollect(changes)).pipe(Effect.map((chunk) => [...chunk]))

/** The simulator's items of a collection, by id, as JSON. */
const catalogOf = (collection: CollectionId) =>
  Effect.flatMap(Simulator.Simulator, (simulator) => simulator.listed(collection)).pipe(
    Effect.map((items) => new Map(items.map((item): [string, unknown] => [item.id, JSON.parse(JSON.stringify(item))])))
  )

const decodeModel = Schema.decodeUnknownSync(Resources.Model)

/** A row of a collection written as another program would: its JSON and hash its own. */
const rewriteRow = (collection: CollectionId, id: string, data: string) =>
  Effect.flatMap(MirrorDatabase.MirrorDatabase, ({ sql }) =>
    sql`UPDATE ${sql(collection)} SET data = ${data}, hash = 'rewritten' WHERE id = ${id}`)

/** A row of a collection the service never listed, as another program would write it. */
const insertRow = (collection: CollectionId, id: string, data: string) =>
  Effect.flatMap(MirrorDatabase.MirrorDatabase, ({ sql }) =>
    sql`INSERT INTO ${sql(collection)} ${
      sql.insert({ id, data, hash: "written", first_seen_at: "2026-01-01T00:00:00.000Z", last_seen_at: "2026-01-01T00:00:00.000Z", scan: 0 })
    }`)

/** The JSON of a row, as text in either store. */
const rowJson = (collection: CollectionId, id: string) =>
  Effect.flatMap(MirrorDatabase.MirrorDatabase, ({ dialect, sql }) =>
    sql<{ readonly data: string }>`SELECT ${sql.literal(dialect === "pg" ? "data::text AS data" : "data")} FROM ${sql(collection)} WHERE id = ${id}`).pipe(
    Effect.map(([row]) => row === undefined ? undefined : JSON.parse(row.data))
  )

const liveCount = (collection: CollectionId) =>
  Effect.flatMap(MirrorDatabase.MirrorDatabase, ({ sql }) =>
    sql<{ readonly n: number | string }>`SELECT count(*) AS n FROM ${sql(collection)} WHERE deleted_at IS NULL`).pipe(
    Effect.map(([row]) => Number(row?.n ?? 0))
  )

describe("the type of a decoded change", () => {
  it("follows the collection through the operations table; the wire feed keeps its wire items", () => {
    expectTypeOf<Stream.Stream.Success<ReturnType<typeof Mirror.syncDecoded<"models">>>>().toEqualTypeOf<Change.Change<Resources.Model>>()
    expectTypeOf<Stream.Stream.Success<ReturnType<typeof Mirror.syncDecoded<"skills">>>>().toEqualTypeOf<Change.Change<Resources.Skill>>()
    expectTypeOf<Stream.Stream.Success<ReturnType<typeof Mirror.syncDecoded<"mcps">>>>().toEqualTypeOf<Change.Change<Resources.Mcp>>()
    expectTypeOf<Change.Updated<Resources.Model>["before"]>().toEqualTypeOf<Resources.Model>()
    expectTypeOf<Change.Deleted<Resources.Model>["before"]>().toEqualTypeOf<Resources.Model>()
    expectTypeOf<Stream.Stream.Success<ReturnType<typeof Mirror.sync>>>().toEqualTypeOf<Change.Change<WireItem>>()
    expectTypeOf<Stream.Stream.Error<ReturnType<typeof Mirror.syncDecoded<"models">>>>().toEqualTypeOf<Mirror.SyncDecodedError>()
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
      const deleted = yield* collect(Mirror.sync("topics"))
      expect(deleted.map((change) => change._tag === "Deleted" && change.before)).toEqual([{ id: "hand/text", stored: "{not json" }])
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
      const [run] = yield* Mirror.runs(["models"], 1)
      expect(run).toMatchObject({ status: "complete", inserted: changes.filter((change) => change._tag === "Inserted").length })
      const skills = yield* collect(Mirror.syncDecoded("skills"))
      expect(skills.length).toBe((yield* catalogOf("skills")).size)
      for (const change of skills) if (change._tag === "Inserted") expect(typeof change.after.installs).toBe("bigint")
    }).pipe(Effect.provide(fixture({ churn: 0.3, churnHorizon: 40, churnClock: "manual" }))))

  it.live("a row edited out of the schema: ItemMalformed naming collection, id and field, the page rolled back; the wire feed gives the row as stored", () =>
    Effect.gen(function*() {
      yield* collect(Mirror.syncDecoded("models"))
      const [id = ""] = [...(yield* catalogOf("models")).keys()].sort()
      const edited = JSON.stringify({ ...(yield* rowJson("models", id)), context_tokens: "many" })
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

      // A row the service never listed, written by another program: its deletion cannot be decoded.
      yield* insertRow("models", "hand/made", JSON.stringify({ id: "hand/made", name: 7 }))
      const unlisted = yield* Effect.flip(collect(Mirror.syncDecoded("models")))
      expect(unlisted).toMatchObject({ _tag: "ItemMalformed", source: "mirror", collection: "models", id: "hand/made", field: "name" })
      expect(yield* liveCount("models")).toBe(sizes.models + 1)
      const deleted = yield* collect(Mirror.sync("models"))
      expect(deleted.map((change) => change._tag === "Deleted" && change.before)).toEqual([{ id: "hand/made", name: 7 }])
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
    }).pipe(
      Effect.provide(Layer.mergeAll(
        Layer.unwrapEffect(Effect.map(Stub.Stub, (stub) =>
          CatalogClient.layer({ ...Client.direct, baseUrl: stub.baseUrl, apiKey: Redacted.make("cat_test_key_0123456789") }))).pipe(
            Layer.provideMerge(Layer.merge(Stub.layer, NodeHttpClient.layerUndici))
          ),
        MirrorStore.layer(store)
      ))
    ))
})
