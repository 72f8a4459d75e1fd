/**
 * Testing your own application against the simulator, with @effect/vitest.
 *
 *   npx vitest run --config examples/vitest.config.ts
 *
 * (In your project, name it `something.test.ts` and run `npx vitest`.)
 *
 * The simulator is a real HTTP server on loopback, started by a Layer for the
 * duration of the tests that use it, with deterministic data of the sizes you
 * ask for and switches for faults. Your code under test only asks for a
 * `CatalogClient`; the test gives it one pointed at the simulator.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Option, Stream } from "effect"
import { CatalogClient } from "effect-catalog"
import { Simulator } from "effect-catalog/simulator"

// The code under test ----------------------------------------------------------

/** The share of reasoning models in the catalog, and the first of them (if any). */
export const reasoningReport = Effect.gen(function*() {
  const catalog = yield* CatalogClient.CatalogClient
  const stats = yield* catalog.stats()
  const reasoning = yield* catalog.models({ reasoning: true, limit: 100 }).pipe(Stream.runCount)
  const first = yield* catalog.models({ reasoning: true, limit: 1 }).pipe(Stream.runHead)
  return { total: stats.models, reasoning, first: Option.map(first, (model) => model.id) }
})

/** A model's name, or `None` when the catalog does not have it. */
export const modelName = (organization: string, model: string) =>
  Effect.flatMap(CatalogClient.CatalogClient, (catalog) => catalog.model({ organization, model })).pipe(
    Effect.map((found) => Option.some(found.name)),
    Effect.catchTag("NotFound", () => Effect.succeedNone)
  )

// The test environment ---------------------------------------------------------

// A simulator of 300 models and a client of it, in one layer: the simulator
// enforces no limits and the client sends at once, retries a fault at once
// (twice at most) and keeps real time, so nothing waits on the TestClock.
// The layer provides the simulator too, so that tests can flip its switches.
const TestLive = Simulator.layerClient({ sizes: { models: 300 } })

// The tests --------------------------------------------------------------------

// `layer` builds TestLive once for the whole block and closes it (stopping the
// server) after, under the default test services.
describe("my application", () => {
  layer(TestLive)((it) => {
    it.effect("reports the reasoning models of the catalog", () =>
      Effect.gen(function*() {
        const report = yield* reasoningReport
        expect(report.total).toBe(300)
        expect(report.reasoning).toBeGreaterThan(0)
        expect(report.reasoning).toBeLessThanOrEqual(report.total)
        expect(Option.isSome(report.first)).toBe(true)
      }))

    it.effect("treats an unknown model as absent", () =>
      Effect.gen(function*() {
        expect(yield* modelName("o9999-nowhere", "m9999999-missing")).toEqual(Option.none())
      }))

    it.effect("lets a 503 through as ServiceUnavailable", () =>
      Effect.gen(function*() {
        const simulator = yield* Simulator.Simulator
        // Every request answered 503 from now on, until the switch is reset.
        yield* simulator.setFaults({ unavailable: 1 })
        const error = yield* Effect.flip(reasoningReport).pipe(
          Effect.ensuring(simulator.setFaults({ unavailable: 0 }))
        )
        expect(error._tag).toBe("ServiceUnavailable")
        expect(yield* modelName("o9999-nowhere", "m9999999-missing")).toEqual(Option.none())
      }))
  })
})
