/**
 * `CatalogClient.layerConfig`: every setting from a `Config`, the `CATALOG_*`
 * variables when none is given; a missing or malformed value fails the layer
 * with a `ConfigError` that names where it was read (the variable, or the
 * path of the user's own `Config`); a client so configured reads the
 * simulator over HTTP.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Config, ConfigProvider, Effect, Either, Layer, Option } from "effect"
import * as Admission from "../../src/client/Admission.js"
import * as Budget from "../../src/client/Budget.js"
import * as CatalogClient from "../../src/client/CatalogClient.js"
import * as Simulator from "../../src/simulator/Simulator.js"

/** What building `layer` under these variables gives: "built", or the ConfigError as a string. */
const built = (layer: Layer.Layer<CatalogClient.Provided, unknown, never>, variables: ReadonlyArray<readonly [string, string]>) =>
  Layer.build(layer).pipe(
    Effect.scoped,
    Effect.withConfigProvider(ConfigProvider.fromMap(new Map(variables))),
    Effect.either,
    Effect.map(Either.match({ onLeft: String, onRight: () => "built" }))
  )

const provided = (config: CatalogClient.ConfigOptions) => CatalogClient.layerConfig(config).pipe(Layer.provide(NodeHttpClient.layerUndici))

const base = [["CATALOG_API_KEY", "cat_test_x"], ["CATALOG_BASE_URL", "https://catalog.example/api/v1"]] as const

describe("CatalogClient.layerConfig", () => {
  it.effect("a setting left out is read from its CATALOG_* variable, and a refusal names the variable", () =>
    Effect.gen(function*() {
      expect(yield* built(provided({}), base)).toBe("built")
      expect(yield* built(provided({}), [...base, ["CATALOG_TIME_SCALE", "0"]])).toBe(
        "(Invalid data at CATALOG_TIME_SCALE: \"CATALOG_TIME_SCALE is not valid; expected a number more than 0, e.g. export CATALOG_TIME_SCALE=0.1\")"
      )
      expect(yield* built(provided({}), [...base, ["CATALOG_DAILY_BUDGET", "-1"]])).toBe(
        "(Invalid data at CATALOG_DAILY_BUDGET: \"CATALOG_DAILY_BUDGET is not valid; expected a whole number of units, 0 or more, e.g. export CATALOG_DAILY_BUDGET=500\")"
      )
    }))

  it.effect("a Config of one's own is read instead, and a refusal names its path", () =>
    Effect.gen(function*() {
      const own = provided({ apiKey: Config.redacted("MY_CATALOG_KEY"), timeScale: Config.number("MY_SCALE") })
      expect(yield* built(own, [...base, ["MY_SCALE", "0.5"]])).toBe(
        "(Missing data at MY_CATALOG_KEY: \"MY_CATALOG_KEY is not set; expected the account's API key, e.g. export MY_CATALOG_KEY=cat_live_…\")"
      )
      expect(yield* built(own, [...base, ["MY_CATALOG_KEY", "cat_test_y"], ["MY_SCALE", "fast"]])).toBe(
        "(Invalid data at MY_SCALE: \"MY_SCALE is not valid; expected a number more than 0, e.g. export MY_SCALE=0.1\")"
      )
      expect(yield* built(own, [...base, ["MY_CATALOG_KEY", "cat_test_y"], ["MY_SCALE", "0.5"]])).toBe("built")
    }))

  it.scoped("a client configured by Configs alone reads the simulator, under the budget and time scale they give", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const context = yield* Layer.build(
        CatalogClient.layerConfig({
          apiKey: Config.succeed(simulator.keys.full),
          baseUrl: Config.succeed(simulator.baseUrl),
          timeScale: Config.succeed(simulator.options.timeScale),
          dailyBudget: Config.succeed(Option.some(2))
        }, { limits: { live: false } }).pipe(Layer.provide(NodeHttpClient.layerUndici))
      )
      const catalog = yield* Effect.provide(CatalogClient.CatalogClient, context)
      const budget = yield* Effect.provide(Budget.Budget, context)
      const admission = yield* Effect.provide(Admission.Admission, context)
      expect(admission.allowance).toBeUndefined()
      expect((yield* catalog.modelsPage({ limit: 2 })).items).toHaveLength(2)
      expect((yield* budget.spent).units).toBe(1)
      yield* catalog.stats()
      const refused = yield* Effect.flip(catalog.modelsPage({ limit: 2 }))
      expect(refused._tag).toBe("BudgetExceeded")
    }).pipe(Effect.provide(Simulator.layer({ timeScale: 0.01, sizes: { models: 10 } }).pipe(Layer.provide(NodeHttpClient.layerUndici)))))
})
