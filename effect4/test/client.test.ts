/**
 * The Effect 4 edition's client against the simulator, through
 * `Simulator.layerClient`: streams, details, pages, links, the wire form,
 * a method's error union with `catchTags`, and, with the account's limits
 * enforced, pacing that follows the `TestClock`.
 */
import { describe, expect, it } from "@effect/vitest"
import { type Config, ConfigProvider, Effect, Fiber, Layer, Redacted, Schema, Stream } from "effect"
import { FetchHttpClient, type HttpClient } from "effect/http"
import { TestClock } from "effect/testing"
import { Admission, CatalogClient, ResponseCache } from "effect-catalog"
import { Simulator } from "effect-catalog/simulator"

/** Waits `millis` of real time, whatever the `TestClock` says. */
const realPause = (millis: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, millis)))

/** How many requests the simulator answered with `status`. */
const answeredWith = (status: number): Effect.Effect<number, never, Simulator.Simulator> =>
  Simulator.Simulator.use((simulator) =>
    Effect.map(simulator.answered, (answered) => answered.filter((request) => request.status === status).length)
  )

/** Waits in real time until `condition` holds, for `millis` at most. */
const eventually = <R>(condition: Effect.Effect<boolean, never, R>, millis: number): Effect.Effect<boolean, never, R> =>
  Effect.gen(function*() {
    const deadline = Date.now() + millis
    while (Date.now() < deadline) {
      if (yield* condition) return true
      yield* realPause(10)
    }
    return yield* condition
  })

describe("CatalogClient", () => {
  it.layer(Simulator.layerClient({ sizes: { models: 230 } }))("over Simulator.layerClient", (it) => {
    it.effect("models() streams every model once, across pages", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const simulator = yield* Simulator.Simulator
        const ids = yield* Stream.runCollect(Stream.map(catalog.models(), (model) => model.id))
        expect(ids).toHaveLength(230)
        expect(new Set(ids).size).toBe(230)
        expect([...ids].sort()).toEqual((yield* simulator.listed("models")).map((model) => model.id).sort())
      }))

    it.effect("model(...) reads one model; a missing one fails with NotFound", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const simulator = yield* Simulator.Simulator
        const id = (yield* simulator.listed("models"))[0]?.id ?? ""
        const model = yield* catalog.model(id)
        expect(model.id).toBe(id)
        const [organization = "", name = ""] = id.split("/")
        expect((yield* catalog.model({ organization, model: name })).id).toBe(id)
        const missing = yield* Effect.flip(catalog.model({ organization, model: "m9999999-missing" }))
        expect(missing._tag).toBe("NotFound")
      }))

    it.effect("modelsPage({ limit: 10 }) reads one page and its cursor", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const first = yield* catalog.modelsPage({ limit: 10 })
        expect(first.items).toHaveLength(10)
        expect(first.hasMore).toBe(true)
        expect(first.nextCursor).not.toBeNull()
        const second = yield* catalog.modelsPage({ limit: 10, cursor: first.nextCursor ?? "" })
        expect(second.items).toHaveLength(10)
        expect(second.items.map((model) => model.id)).not.toContain(first.items[0]?.id)
      }))

    it.effect("follow(model.api_url) reads the model, tagged with its operation", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const [model] = (yield* catalog.modelsPage({ limit: 1 })).items
        expect(model).toBeDefined()
        const followed = yield* catalog.follow(model?.api_url ?? "")
        expect(followed.operation).toBe("model")
        expect(followed.operation === "model" ? followed.value.id : null).toBe(model?.id)
        expect((yield* Effect.flip(catalog.follow("https://elsewhere.example/api/v1/models/")))._tag).toBe("UnsafeLink")
      }))

    it.effect("followList(...) reads the list a link names, each item tagged", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const [model] = (yield* catalog.modelsPage({ limit: 1 })).items
        const items = yield* Stream.runCollect(catalog.followList(`${model?.api_url ?? ""}offers/`))
        expect(items.every((item) => item.operation === "modelOffers")).toBe(true)
        const offers = yield* Stream.runCollect(catalog.modelOffers(model?.id ?? ""))
        expect(items.map((item) => item.value.id)).toEqual(offers.map((offer) => offer.id))
      }))

    it.effect("wire(\"models\", {}) gives every item as a wire object", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const items = yield* Stream.runCollect(catalog.wire("models", {}))
        expect(items).toHaveLength(230)
        const isWireItem = Schema.is(CatalogClient.WireItem)
        expect(items.every((item) => isWireItem(item) && typeof item.id === "string")).toBe(true)
        // The wire form keeps the service's JSON: an exact integer stays a decimal string.
        expect(items.some((item) => typeof item["context_tokens"] === "string" || item["context_tokens"] === null)).toBe(true)
      }))

    it.effect("catchTags over a method's error union", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const answer = yield* catalog.model({ organization: "o9999-missing", model: "m9999999-missing" }).pipe(
          Effect.map((model) => model.name),
          Effect.catchTags({
            NotFound: (error) => Effect.succeed(`not found (${error._tag})`),
            RateLimited: () => Effect.succeed("rate limited"),
            InvalidRequest: (error) => Effect.succeed(`invalid: ${error.detail}`)
          })
        )
        expect(answer).toBe("not found (NotFound)")
      }))
  })

  it.effect("a fault is retried at once, twice at most, whatever the TestClock does", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const simulator = yield* Simulator.Simulator
      yield* simulator.setFaults({ unavailable: 1 })
      const error = yield* Effect.flip(catalog.stats())
      expect(error._tag).toBe("ServiceUnavailable")
      expect(yield* answeredWith(503)).toBe(3)
    }).pipe(Effect.provide(Simulator.layerClient({ sizes: { models: 30 } }))))

  it.effect("the client keeps real time: its time limit passes on the live clock, not the TestClock", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const simulator = yield* Simulator.Simulator
      yield* simulator.setFaults({ slow: 1, slowMillis: 500 })
      const started = Date.now()
      const error = yield* Effect.flip(catalog.stats())
      expect(error._tag).toBe("TransportError")
      expect(Date.now() - started).toBeLessThan(5_000)
    }).pipe(Effect.provide(Simulator.layerClient({ sizes: { models: 30 }, timeout: "100 millis" }))))

  it.effect("with enforceLimits, the 11th request goes once the TestClock has moved by the scaled 10 s window, 100 ms", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const simulator = yield* Simulator.Simulator
      const reads = yield* Effect.forkChild(Effect.all(Array.from({ length: 11 }, () => catalog.stats()), { concurrency: "unbounded" }))
      expect(yield* eventually(Effect.map(answeredWith(200), (answered) => answered === 10), 5_000)).toBe(true)
      // The 11th is held, however long the real wait.
      yield* realPause(200)
      expect(yield* answeredWith(200)).toBe(10)
      yield* TestClock.adjust("99 millis")
      yield* realPause(100)
      expect(yield* answeredWith(200)).toBe(10)
      yield* TestClock.adjust("1 millis")
      const all = yield* Fiber.join(reads)
      expect(all).toHaveLength(11)
      expect(yield* answeredWith(429)).toBe(0)
      const times = (yield* simulator.answered).map((answer) => answer.at)
      expect(times.map((at) => at - (times[0] ?? 0))).toEqual([...Array.from({ length: 10 }, () => 0), 100])
    }).pipe(Effect.provide(Simulator.layerClient({ sizes: { models: 30 }, enforceLimits: true }))))
})

describe("CatalogClient refusals", () => {
  const environment = { CATALOG_API_KEY: "cat_test", CATALOG_BASE_URL: "http://127.0.0.1:1/api/v1" }
  const refusal = (layer: Layer.Layer<CatalogClient.Provided, Config.ConfigError, HttpClient.HttpClient>, variables: Record<string, string>) =>
    Effect.flip(Effect.scoped(Layer.build(Layer.provide(layer, FetchHttpClient.layer)))).pipe(
      Effect.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(variables))),
      Effect.map(String)
    )

  it.effect("options that cannot all take effect fail the layer with a ConfigError that says why", () =>
    Effect.gen(function*() {
      const options = { baseUrl: environment.CATALOG_BASE_URL, apiKey: Redacted.make(environment.CATALOG_API_KEY) }
      expect(yield* refusal(CatalogClient.layer({ ...options, cacheEntries: 3, cache: ResponseCache.layerMemory() }), environment))
        .toContain("cacheEntries cannot take effect beside cache")
      expect(yield* refusal(CatalogClient.layer({ ...options, limits: { timeScale: 0.5 }, admission: Admission.layerMemory() }), environment))
        .toContain("limits cannot take effect beside admission")
      expect(yield* refusal(CatalogClient.layer({ ...options, middleware: [], steps: [] }), environment))
        .toContain("steps is the former name of middleware")
    }))

  it.effect("a time scale of the configuration that disagrees, or is not above 0, is refused, naming its variable", () =>
    Effect.gen(function*() {
      expect(yield* refusal(CatalogClient.layerConfig({}, { limits: { timeScale: 0.5 } }), { ...environment, CATALOG_TIME_SCALE: "0.01" }))
        .toContain("CATALOG_TIME_SCALE (0.01) cannot take effect beside limits.timeScale (0.5)")
      expect(yield* refusal(CatalogClient.layerConfig(), { ...environment, CATALOG_TIME_SCALE: "-1" })).toContain("CATALOG_TIME_SCALE is not valid")
      expect(yield* refusal(CatalogClient.layerConfig({}, { admission: Admission.layerMemory() }), { ...environment, CATALOG_TIME_SCALE: "0.01" }))
        .toContain("CATALOG_TIME_SCALE (0.01) cannot take effect: the admission given keeps a time scale of 1")
    }))
})
