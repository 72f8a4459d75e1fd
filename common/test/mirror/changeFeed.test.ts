/**
 * The mirror's change feed (`ChangeFeed`), on both stores (an SQLite file
 * and the test file's PostgreSQL server), over syncs of the simulator's
 * catalog under churn over real HTTP: every change a sync commits is
 * logged once, in commit order, as the sync gave it; a read starts after
 * any position, of one collection decoded or of several; a subscriber goes
 * on after the position it recorded; a follower takes what is committed
 * after it started. One text, run by both editions' suites.
 */
import { describe, expect, it } from "#edition-test/support/Vitest.js"
import * as MirrorStore from "#edition-test/support/Mirror.js"
import { Effect, Fiber, Layer, Option, Stream } from "#edition/internal/Edition.js"
import type * as Change from "../../src/mirror/Change.js"
import * as ChangeFeed from "../../src/mirror/ChangeFeed.js"
import * as Mirror from "../../src/mirror/Mirror.js"
import * as Simulator from "../../src/simulator/Simulator.js"

const sizes = { models: 150, skills: 40, mcps: 30, organizations: 10, providers: 6, families: 8, topics: 4, articles: 6 }

const synced = (collection: "models" | "skills") => Effect.map(Stream.runCollect(Mirror.sync(collection)), (changes) => [...changes])

const read = (options?: Parameters<typeof ChangeFeed.stream>[0]) => Effect.map(Stream.runCollect(ChangeFeed.stream(options)), (logged) => [...logged])

const kinds = (changes: ReadonlyArray<Change.Change>) => new Set(changes.map((change) => change._tag))

describe.each(MirrorStore.stores)("the change feed in %s", (store) => {
  const fixture = () =>
    Layer.mergeAll(Simulator.layerClient({ sizes, churn: 0.3, churnHorizon: 40, churnClock: "manual" }), MirrorStore.layer(store))

  it.live("logs every change a sync commits, once, in commit order, as the sync gave it; a read starts after any position", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const first = yield* synced("models")
      const skills = yield* synced("skills")
      yield* simulator.advance(simulator.options.churn.horizon + 1)
      const second = yield* synced("models")
      expect(kinds(second)).toEqual(new Set(["Inserted", "Updated", "Deleted"]))

      const logged = yield* read()
      expect(logged.map(({ change }) => change)).toEqual([...first, ...skills, ...second])
      const positions = logged.map(({ position }) => position)
      expect(positions.every((position, i) => i === 0 || position > (positions[i - 1] ?? Infinity))).toBe(true)
      expect(logged.every(({ committedAt }) => committedAt.getTime() > 0)).toBe(true)

      const afterFirst = positions[first.length - 1] ?? 0
      expect((yield* read({ after: afterFirst })).map(({ change }) => change)).toEqual([...skills, ...second])
      expect((yield* read({ collections: ["skills"] })).map(({ change }) => change)).toEqual(skills)
      expect(yield* read({ after: positions.at(-1) ?? 0 })).toEqual([])

      // One collection's changes, decoded with its schema.
      const models = [...yield* Stream.runCollect(ChangeFeed.streamDecoded("models"))]
      expect(models.map(({ change }) => `${change._tag} ${change.id}`)).toEqual([...first, ...second].map((change) => `${change._tag} ${change.id}`))
      for (const { change } of models) {
        const item = change._tag === "Deleted" ? change.before : change.after
        expect(item.id).toBe(change.id)
        expect(typeof item.name).toBe("string")
      }
    }).pipe(Effect.provide(fixture())))

  it.live("a subscriber goes on after the position it recorded; a follower takes what is committed after it started", () =>
    Effect.scoped(Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const first = yield* synced("models")
      const logged = yield* read()
      expect(yield* ChangeFeed.recorded("indexer")).toEqual(Option.none())
      const handled = logged[9]?.position ?? 0
      yield* ChangeFeed.record("indexer", handled)
      expect(yield* ChangeFeed.recorded("indexer")).toEqual(Option.some(handled))
      expect((yield* read({ subscriber: "indexer" })).map(({ change }) => change)).toEqual(first.slice(10))
      // A position given outright goes before the recorded one.
      expect(yield* read({ subscriber: "indexer", after: 0 })).toEqual(logged)

      const end = logged.at(-1)?.position ?? 0
      yield* simulator.advance(simulator.options.churn.horizon + 1)
      const follower = yield* Effect.forkScoped(Stream.runCollect(ChangeFeed.stream({ after: end, follow: "20 millis" }).pipe(Stream.take(5))))
      const second = yield* synced("models")
      expect(second.length).toBeGreaterThanOrEqual(5)
      expect([...yield* Fiber.join(follower)].map(({ change }) => change)).toEqual(second.slice(0, 5))
    })).pipe(Effect.provide(fixture())))
})
