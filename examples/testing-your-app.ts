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
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer, Option, Stream } from "effect"
import { Admission, CatalogClient } from "effect-catalog"
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

// A simulator of 300 models that does not enforce the account limits, so the
// tests run at full speed; the client sends at once and never retries, so a
// fault shows up as the error it is.
const SimulatorLive = Simulator.layer({ sizes: { models: 300 }, enforceLimits: false })

const ClientOfSimulator = Layer.unwrapEffect(
  Effect.map(Simulator.Simulator, (simulator) =>
    CatalogClient.layerWith({
      baseUrl: simulator.baseUrl,
      apiKey: simulator.keys.full,
      limits: Admission.noLimits,
      retry: { retries: 0 }
    }))
)

// The client, and the simulator too, so that tests can flip its switches.
const TestLive = ClientOfSimulator.pipe(Layer.provideMerge(Layer.merge(SimulatorLive, NodeHttpClient.layerUndici)))

// The tests --------------------------------------------------------------------

// `layer` builds TestLive once for the whole block and closes it (stopping the
// server) after. `excludeTestServices` keeps the real clock: the client's pacing
// and timeouts sleep for real (under the TestClock they would wait for
// `TestClock.adjust`).
describe("my application", () => {
  layer(TestLive, { excludeTestServices: true })((it) => {
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
