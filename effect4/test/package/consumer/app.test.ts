// README's "Testing your application", with Effect 4's own names.
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Stream } from "effect"
import { CatalogClient } from "effect-catalog"
import { Simulator } from "effect-catalog/simulator"

// The code under test: it only asks for a CatalogClient.
const reasoningModels = Effect.flatMap(CatalogClient.CatalogClient, (catalog) => Stream.runCollect(catalog.models({ reasoning: true, limit: 5 })))

const modelName = (organization: string, model: string) =>
  Effect.flatMap(CatalogClient.CatalogClient, (catalog) => catalog.model({ organization, model })).pipe(
    Effect.map((found) => Option.some(found.name)),
    Effect.catchTag("NotFound", () => Effect.succeedNone)
  )

// One simulator and its client for the whole block, under the default test services.
describe("my application", () => {
  it.layer(Simulator.layerClient({ sizes: { models: 300 } }))((it) => {
    it.effect("finds the reasoning models, page after page", () =>
      Effect.gen(function*() {
        const models = yield* reasoningModels
        expect(models.length).toBeGreaterThan(25)
        expect(models.every((model) => model.reasoning)).toBe(true)
      }))

    it.effect("reads each model it lists, by the model itself", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const listed = yield* Stream.runCollect(catalog.models({ limit: 100 }).pipe(Stream.take(50)))
        const read = yield* Effect.forEach(listed, (model) => catalog.model(model))
        expect(read.map((model) => model.id)).toEqual(listed.map((model) => model.id))
      }))

    it.effect("treats an unknown model as absent", () =>
      Effect.gen(function*() {
        expect(yield* modelName("o9999-nowhere", "m9999999-missing")).toEqual(Option.none())
      }))

    it.effect("a 503 reaches the caller as ServiceUnavailable, at once", () =>
      Effect.gen(function*() {
        const simulator = yield* Simulator.Simulator
        yield* simulator.setFaults({ unavailable: 1 })
        const error = yield* Effect.flip(reasoningModels).pipe(Effect.ensuring(simulator.setFaults({ unavailable: 0 })))
        expect(error._tag).toBe("ServiceUnavailable")
      }))
  })
})
