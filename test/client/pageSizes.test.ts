/**
 * What fits is remembered: on a simulator whose Skills do not fit 100 to a
 * page (the service refuses a page over 512 KiB with 422), the first scan
 * of skills is refused once and records the size that fitted; a later scan
 * through the same page sizes starts there and is never refused.
 */
import * as KeyValueStore from "@effect/platform/KeyValueStore"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Stream } from "effect"
import * as CatalogClient from "../../src/client/CatalogClient.js"
import * as PageSizes from "../../src/client/PageSizes.js"
import * as Simulator from "../../src/simulator/Simulator.js"
import * as Client from "../support/Client.js"

const skills = 300

/** The simulator's 422 answers so far. */
const refused = Effect.map(Simulator.Simulator, (simulator) => simulator.statusCounts).pipe(
  Effect.flatten,
  Effect.map((counts) => counts.get(422) ?? 0)
)

/** Scans every Skill, within a bound no correct scan comes near. */
const scanSkills = Effect.flatMap(CatalogClient.CatalogClient, (catalog) => Stream.runCount(catalog.skills())).pipe(
  Effect.timeoutFail({ duration: "20 seconds", onTimeout: () => new Error("the scan did not end within 20 s") })
)

describe("PageSizes", () => {
  it.layer(Client.simulatorWithClient({ sizes: { skills }, enforceLimits: false }))("in one client", (it) => {
    it.effect("the second scan of skills starts at the size that fitted: no request is refused", () =>
      Effect.gen(function*() {
        expect(yield* scanSkills).toBe(skills)
        expect(yield* refused).toBe(1)
        const fitted = yield* Effect.flatMap(PageSizes.PageSizes, (pageSizes) => pageSizes.get("skills"))
        expect(fitted).toEqual(Option.some(50))
        expect(yield* scanSkills).toBe(skills)
        expect(yield* refused).toBe(1)
        // A list whose pages fit records nothing.
        expect(yield* Effect.flatMap(PageSizes.PageSizes, (pageSizes) => pageSizes.get("models"))).toEqual(Option.none())
      }))
  })

  it.effect("sizes kept in a store are read back by the next layer over it, and an unreadable record starts empty", () =>
    Effect.gen(function*() {
      const store = yield* KeyValueStore.KeyValueStore
      const layer = PageSizes.layerKeyValueStore("account.page-sizes").pipe(Layer.provide(Layer.succeed(KeyValueStore.KeyValueStore, store)))
      yield* Effect.flatMap(PageSizes.PageSizes, (pageSizes) => pageSizes.set("skills", 25)).pipe(Effect.provide(layer))
      expect(yield* store.get("account.page-sizes")).toEqual(Option.some(JSON.stringify({ skills: 25 })))
      expect(yield* Effect.flatMap(PageSizes.PageSizes, (pageSizes) => pageSizes.get("skills")).pipe(Effect.provide(layer))).toEqual(Option.some(25))
      yield* store.set("account.page-sizes", "{\"skills\":-3}")
      expect(yield* Effect.flatMap(PageSizes.PageSizes, (pageSizes) => pageSizes.get("skills")).pipe(Effect.provide(layer))).toEqual(Option.none())
    }).pipe(Effect.provide(KeyValueStore.layerMemory)))
})
