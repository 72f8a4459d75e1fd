/**
 * `CatalogClient.layerConfig`: every setting from a `Config`, the `CATALOG_*`
 * variables when none is given; a missing or malformed value fails the layer
 * with a `ConfigError` that names where it was read (the variable, or the
 * path of the user's own `Config`); a client so configured reads the
 * simulator over HTTP.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import type * as HttpClient from "@effect/platform/HttpClient"
import { Config, ConfigProvider, Effect, Either, Layer, Option, Redacted } from "effect"
import * as Admission from "../../common/src/client/Admission.js"
import * as AdmissionWindows from "../../rules/src/client/AdmissionWindows.js"
import * as Budget from "../../common/src/client/Budget.js"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import * as CatalogConfig from "../../common/src/client/CatalogConfig.js"
import * as ResponseCache from "../../common/src/client/ResponseCache.js"
import * as Simulator from "../../common/src/simulator/Simulator.js"

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

  it.effect("a malformed base URL is refused at the key it came from, described in the message", () =>
    Effect.gen(function*() {
      expect(yield* built(provided({}), [["CATALOG_API_KEY", "cat_test_x"], ["CATALOG_BASE_URL", "catalog.example.com"]])).toBe(
        "(Invalid data at CATALOG_BASE_URL: \"CATALOG_BASE_URL \"catalog.example.com\" is not a URL; expected e.g. https://catalog.example/api/v1\")"
      )
      expect(yield* built(provided({ baseUrl: Config.succeed("ftp://catalog.example") }), base)).toBe(
        "(Invalid data at baseUrl: \"The base URL \"ftp://catalog.example/\" is not an http or https URL; expected e.g. https://catalog.example/api/v1\")"
      )
      const refused = CatalogConfig.parseBaseUrl("ftp://catalog.example")
      expect(Either.isLeft(refused) && refused.left._op === "InvalidData" ? refused.left.path : undefined).toEqual(["baseUrl"])
      const fromVariable = CatalogConfig.parseBaseUrl("ftp://catalog.example", "CATALOG_BASE_URL")
      expect(Either.isLeft(fromVariable) && fromVariable.left._op === "InvalidData" ? fromVariable.left.path : undefined).toEqual(["CATALOG_BASE_URL"])
    }))

  it.effect("an empty key is refused as empty, not as unprintable", () =>
    Effect.gen(function*() {
      expect(yield* built(provided({}), [["CATALOG_API_KEY", ""], ["CATALOG_BASE_URL", "https://catalog.example/api/v1"]])).toBe(
        "(Invalid data at apiKey: \"The API key is empty; expected the account's API key, e.g. cat_live_…\")"
      )
      expect(yield* built(provided({ apiKey: Config.succeed(Redacted.make("")) }), base)).toBe(
        "(Invalid data at apiKey: \"The API key is empty; expected the account's API key, e.g. cat_live_…\")"
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

describe("a base URL with the wrong path", () => {
  it.scoped("the simulator's 404 is UnexpectedResponse that names the request once and says to check the base URL", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const wrong = simulator.baseUrl.replace(/\/api\/v1$/, "/api/v2")
      const context = yield* Layer.build(
        CatalogClient.layer({ baseUrl: wrong, apiKey: simulator.keys.full, limits: { live: false } }).pipe(Layer.provide(NodeHttpClient.layerUndici))
      )
      const catalog = yield* Effect.provide(CatalogClient.CatalogClient, context)
      const refused = yield* Effect.flip(catalog.modelsPage({ limit: 2 }))
      expect(refused._tag).toBe("UnexpectedResponse")
      const requestId = "requestId" in refused ? refused.requestId : null
      expect(requestId).not.toBeNull()
      expect(refused.message.split(`(request ${requestId})`)).toHaveLength(2)
      expect(refused.message).toMatch(/^Unexpected response \(status 404\): Status 404 is not an answer models can give: /)
      expect(refused.message).toContain("check the base URL, which should end in the base path /api/v1")
    }).pipe(Effect.provide(Simulator.layer({ timeScale: 0.01, sizes: { models: 10 } }).pipe(Layer.provide(NodeHttpClient.layerUndici)))))
})

describe("options that cannot take effect", () => {
  const options = { baseUrl: "https://catalog.example/api/v1", apiKey: Redacted.make("cat_test_x") }
  const client = (layer: Layer.Layer<CatalogClient.Provided, unknown, HttpClient.HttpClient>) => layer.pipe(Layer.provide(NodeHttpClient.layerUndici))

  it.effect("limits beside an admission of one's own, cacheEntries beside a cache, middleware under both its names: refused, naming the option", () =>
    Effect.gen(function*() {
      expect(yield* built(client(CatalogClient.layer({ ...options, limits: { timeScale: 0.01 }, admission: Admission.layerMemory() })), [])).toBe(
        "(Invalid data at limits: \"limits cannot take effect beside admission: the admission given keeps the limits it was made with; give them to its layer\")"
      )
      expect(yield* built(client(CatalogClient.layer({ ...options, cacheEntries: 10, cache: ResponseCache.layerMemory() })), [])).toBe(
        "(Invalid data at cacheEntries: \"cacheEntries cannot take effect beside cache: it sizes the default cache only; size the cache given in its own layer\")"
      )
      expect(yield* built(client(CatalogClient.layer({ ...options, middleware: [], steps: [] })), [])).toBe(
        "(Invalid data at steps: \"steps is the former name of middleware: give the middleware once, as middleware\")"
      )
      // Each alone takes effect.
      expect(yield* built(client(CatalogClient.layer({ ...options, limits: { timeScale: 0.01 } })), [])).toBe("built")
      expect(yield* built(client(CatalogClient.layer({ ...options, admission: Admission.layerMemory() })), [])).toBe("built")
    }))

  it.effect("CATALOG_TIME_SCALE that the admission given does not keep, or that the limits given contradict: refused; one it keeps is taken", () =>
    Effect.gen(function*() {
      const scaled = [...base, ["CATALOG_TIME_SCALE", "0.01"]] as const
      expect(yield* built(client(CatalogClient.layerConfig({}, { admission: Admission.layerMemory() })), scaled)).toBe(
        "(Invalid data at CATALOG_TIME_SCALE: \"CATALOG_TIME_SCALE (0.01) cannot take effect: the admission given keeps a time scale of 1; " +
          "give the time scale to its limits, or leave CATALOG_TIME_SCALE unset\")"
      )
      expect(yield* built(client(CatalogClient.layerConfig({}, { limits: { timeScale: 0.5 } })), scaled)).toBe(
        "(Invalid data at CATALOG_TIME_SCALE: \"CATALOG_TIME_SCALE (0.01) cannot take effect beside limits.timeScale (0.5): give the time scale once\")"
      )
      const keeping = Admission.layerMemory(AdmissionWindows.resolve({ timeScale: 0.01 }))
      expect(yield* built(client(CatalogClient.layerConfig({}, { admission: keeping })), scaled)).toBe("built")
      expect(yield* built(client(CatalogClient.layerConfig({}, { admission: Admission.layerMemory() })), base)).toBe("built")
      // The admission built keeps the time scale the configuration gave.
      const admission = yield* Effect.provide(Admission.Admission, client(CatalogClient.layerConfig())).pipe(
        Effect.withConfigProvider(ConfigProvider.fromMap(new Map(scaled)))
      )
      expect(admission.limits?.timeScale).toBe(0.01)
    }))
})
