/**
 * The keeper (`Mirror.keep`), on both stores, over the simulator's catalog
 * under churn over real HTTP, the service and the client 100 times faster
 * (an hour of the service's clock is 36 s, a target of 2 minutes 1.2 s)
 * and the account's windows
 * enforced: a collection never verified is walked at once; a walk within
 * its cursors' hour is answered 304 page after page, no unit spent; what
 * changed at the source is committed once and logged in the change feed,
 * and the mirror then holds what the service lists; a keeper started again
 * goes on from the state in the database, without a cold rescan; targets
 * that do not fit fail with the ages it can promise, or are kept at those;
 * 503s, 429s and expired cursors are waited out, nothing logged twice.
 * Its figures are metrics too, labelled by collection.
 * One text, run by both editions' suites.
 */
import { describe, expect, it } from "#edition-test/support/Vitest.js"
import * as MirrorStore from "#edition-test/support/Mirror.js"
import { Deferred, Effect, Fiber, labelled, Layer, Metric, Ref, Stream } from "#edition/internal/Edition.js"
import * as KeeperMetrics from "../../../rules/src/mirror/KeeperMetrics.js"
import * as ChangeFeed from "../../src/mirror/ChangeFeed.js"
import * as Mirror from "../../src/mirror/Mirror.js"
import * as Simulator from "../../src/simulator/Simulator.js"

const sizes = { models: 150, skills: 40, mcps: 30, organizations: 10, providers: 6, families: 8, topics: 4, articles: 6 }

/** Runs the keeper until it has made `count` visits; gives them. */
const visits = (count: number, options: Omit<Mirror.KeepOptions, "onVisit">) =>
  Effect.scoped(Effect.gen(function*() {
    const seen = yield* Ref.make<ReadonlyArray<Mirror.Visit>>([])
    const enough = yield* Deferred.make<void>()
    const keeper = yield* Effect.forkScoped(Mirror.keep({
      ...options,
      onVisit: (visit) =>
        Effect.flatMap(Ref.updateAndGet(seen, (all) => [...all, visit]), (all) => all.length >= count ? Deferred.succeed(enough, undefined) : Effect.void)
    }))
    // A keeper that fails fails the test rather than leave it waiting.
    yield* Effect.raceFirst(Deferred.await(enough), Fiber.join(keeper))
    yield* Fiber.interrupt(keeper)
    return (yield* Ref.get(seen)).slice(0, count)
  }))

/** A gauge or counter of the keeper's, by its definition and labels. */
const gaugeOf = (definition: { readonly name: string; readonly description: string }, labels: Readonly<Record<string, string>>) =>
  Effect.map(Metric.value(labelled(Metric.gauge(definition.name, { description: definition.description }), labels)), (state) => Number(state.value))

const countOf = (definition: { readonly name: string; readonly description: string }, labels: Readonly<Record<string, string>>) =>
  Effect.map(
    Metric.value(labelled(Metric.counter(definition.name, { description: definition.description, incremental: true }), labels)),
    (state) => Number(state.count)
  )

const liveIds = Effect.map(Stream.runCollect(ChangeFeed.stream()), (logged) => {
  const live = new Set<string>()
  for (const { change } of logged) {
    if (change._tag === "Deleted") live.delete(change.id)
    else live.add(change.id)
  }
  return live
})

describe.each(MirrorStore.stores)("the keeper in %s", (store) => {
  const fixture = () =>
    Layer.mergeAll(
      Simulator.layerClient({ sizes, churn: 0.3, churnHorizon: 40, churnClock: "manual", enforceLimits: true }),
      MirrorStore.layer(store)
    )

  it.live("walks on its kept ETags (304s, no unit, within the cursors' hour), commits each change once, and goes on after a restart", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const targets = { models: "2 minutes" } as const
      const [cold, warm] = yield* visits(2, { targets })
      expect(cold).toMatchObject({ collection: "models", pages: 2, unchanged: 0, items: 150, changes: 150 })
      expect(warm).toMatchObject({ pages: 2, unchanged: 2, items: 150, changes: 0 })

      yield* simulator.advance(simulator.options.churn.horizon + 1)
      const [changed] = yield* visits(1, { targets })
      expect(changed?.changes).toBeGreaterThan(0)
      // Started again: the state in the database says models was verified; nothing is asked whole but what changed.
      const [again] = yield* visits(1, { targets })
      expect(again).toMatchObject({ pages: 2, unchanged: 2, changes: 0 })

      const logged = [...yield* Stream.runCollect(ChangeFeed.stream())]
      expect(logged.length).toBe(150 + (changed?.changes ?? 0))
      const listed = new Set((yield* simulator.listed("models")).map((model) => model.id))
      expect(yield* liveIds).toEqual(listed)
      const statuses = yield* simulator.statusCounts
      expect(statuses.get(429) ?? 0).toBe(0)
      expect(statuses.get(304) ?? 0).toBeGreaterThanOrEqual(4)

      // The same figures as metrics, labelled by collection.
      expect(yield* gaugeOf(KeeperMetrics.gauges.target, { collection: "models" })).toBe(120)
      expect(yield* gaugeOf(KeeperMetrics.gauges.withinTarget, { collection: "models" })).toBe(1)
      expect(yield* countOf(KeeperMetrics.counters.walks, { collection: "models" })).toBeGreaterThanOrEqual(4)
      expect(yield* countOf(KeeperMetrics.counters.pages, { collection: "models", status: "304" })).toBeGreaterThanOrEqual(4)

      const [report] = yield* Mirror.freshness
      expect(report).toMatchObject({ collection: "models", target: 120, withinTarget: true })
      expect(report?.age).toBeGreaterThanOrEqual(0)
      expect(report?.nextDue).toBeInstanceOf(Date)
    }).pipe(Effect.provide(fixture())))

  it.live("keeps every model's offers, model by model: each listed once, then 304s; a model's offers that change are committed and logged as modelOffers", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const targets = { models: "2 minutes", modelOffers: "2 minutes" } as const
      const seen = yield* visits(sizes.models * 2 + 4, { targets })
      const offerVisits = seen.filter((visit) => visit.collection === "modelOffers")
      expect(offerVisits.length).toBeGreaterThanOrEqual(sizes.models)
      const models = yield* simulator.listed("models")
      const offered = models.reduce((sum, model) => sum + model.offer_count, 0)
      // Each model's offers were listed once whole; later visits were 304s.
      const logged = [...yield* Stream.runCollect(ChangeFeed.stream({ collections: ["modelOffers"] }))]
      expect(logged.length).toBe(offered)
      expect(logged.every(({ change }) => change._tag === "Inserted" && change.collection === "modelOffers")).toBe(true)
      const again = offerVisits.slice(sizes.models)
      expect(again.length).toBeGreaterThan(0)
      expect(again.every((visit) => visit.unchanged === 1 && visit.changes === 0)).toBe(true)
      const decoded = [...yield* Stream.runCollect(ChangeFeed.streamDecoded("modelOffers"))]
      expect(decoded.every(({ change }) => change._tag === "Inserted" && typeof change.after.model_id === "string")).toBe(true)
      const [report] = (yield* Mirror.freshness).filter((row) => row.collection === "modelOffers")
      expect(report).toMatchObject({ collection: "modelOffers", target: 120 })
    }).pipe(Effect.provide(fixture())))

  it.live("waits out 503s, 429s and cursors that expire, and still commits each change once: the 429s are only those the service made up", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const targets = { models: "2 minutes" } as const
      yield* visits(1, { targets })
      yield* simulator.advance(simulator.options.churn.horizon + 1)
      yield* simulator.setFaults({ unavailable: 0.2, expire: 0.3 })
      yield* simulator.injectRateLimit(2, 50)
      const faulted = yield* visits(3, { targets })
      yield* simulator.setFaults({ unavailable: 0, expire: 0 })
      expect(faulted.reduce((sum, visit) => sum + visit.changes, 0)).toBeGreaterThan(0)
      const statuses = yield* simulator.statusCounts
      expect(statuses.get(429)).toBe(2)
      expect(statuses.get(503) ?? 0).toBeGreaterThan(0)
      expect(statuses.get(409) ?? 0).toBeGreaterThan(0)
      // Replayed, the log is each change once, and ends at what the service lists.
      const logged = [...yield* Stream.runCollect(ChangeFeed.stream())]
      const seen = new Map<string, string>()
      for (const { change } of logged) {
        const after = change._tag === "Deleted" ? undefined : JSON.stringify(change.after)
        expect(after === undefined ? seen.has(change.id) : seen.get(change.id) !== after, `${change._tag} ${change.id}`).toBe(true)
        if (after === undefined) seen.delete(change.id)
        else seen.set(change.id, after)
      }
      expect(new Set(seen.keys())).toEqual(new Set((yield* simulator.listed("models")).map((model) => model.id)))
    }).pipe(Effect.provide(fixture())))

  it.live("targets that do not fit fail with the ages it can promise, or are kept at those when it is told to", () =>
    Effect.gen(function*() {
      const targets = { models: "1 second", skills: "1 second" } as const
      const refused = yield* Effect.flip(Mirror.keep({ targets }))
      expect(refused._tag).toBe("TargetsInfeasible")
      if (refused._tag !== "TargetsInfeasible") return
      expect(refused.targets).toEqual({ models: 1, skills: 1 })
      expect(refused.promises["models"]).toBeGreaterThan(1)
      expect(refused.message).toContain("models within")
      const [visit] = yield* visits(1, { targets, whenInfeasible: "promise" })
      expect(visit?.pages).toBeGreaterThan(0)
    }).pipe(Effect.provide(fixture())))
})
