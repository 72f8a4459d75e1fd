/**
 * `CatalogConfig` in Effect 4: every setting from a `Config`, the `CATALOG_*`
 * variables when none is given; a missing or malformed value fails the layer
 * with a `ConfigError` that names where it was read (the variable, or the
 * path of the user's own `Config`), what was expected and an example, in
 * the words of the Effect 3 edition; a base URL is refused as that edition
 * refuses it; the key is `Redacted`, checked, and read again for every
 * request.
 */
import { describe, expect, it } from "@effect/vitest"
import { Config, ConfigProvider, Duration, Effect, Layer, Option, Redacted, Ref, Result, type SchemaIssue } from "effect"
import * as CatalogConfig from "../../common/src/client/CatalogConfig.js"

/** The leaf issue under an issue's pointers, with the path they lead to. */
const located = (issue: SchemaIssue.Issue, path: ReadonlyArray<PropertyKey> = []): { readonly path: string; readonly leaf: SchemaIssue.Issue } =>
  issue._tag === "Pointer" ? located(issue.issue, [...path, ...issue.path]) : { path: path.map(String).join("."), leaf: issue }

/**
 * A `ConfigError` in the words of the Effect 3 edition's tests: "(Missing
 * data at NAME: \"message\")" or "(Invalid data at NAME: \"message\")".
 */
const described = (error: Config.ConfigError): string => {
  if (error.cause._tag !== "SchemaError") return `(Source unavailable: ${error.cause.message})`
  const { leaf, path } = located(error.cause.issue)
  const message = leaf._tag === "MissingKey"
    ? leaf.annotations?.messageMissingKey
    : leaf._tag === "InvalidValue"
    ? leaf.annotations?.message
    : undefined
  return `(${leaf._tag === "MissingKey" ? "Missing" : "Invalid"} data at ${path}: ${JSON.stringify(message ?? String(error))})`
}

/** A provider of these variables of the environment, and nothing else. */
const environment = (variables: ReadonlyArray<readonly [string, string]>) => ConfigProvider.fromEnv({ env: Object.fromEntries(variables) })

/** What building `layer` under these variables gives: "built", or the ConfigError described. */
const built = (layer: Layer.Layer<CatalogConfig.CatalogConfig, Config.ConfigError>, variables: ReadonlyArray<readonly [string, string]>) =>
  Layer.build(layer).pipe(
    Effect.scoped,
    Effect.provideService(ConfigProvider.ConfigProvider, environment(variables)),
    Effect.result,
    Effect.map(Result.match({ onFailure: described, onSuccess: () => "built" }))
  )

const base = [["CATALOG_API_KEY", "cat_test_x"], ["CATALOG_BASE_URL", "https://catalog.example/api/v1"]] as const

describe("CatalogConfig.layerConfig()", () => {
  it.effect("a ConfigError names the variable, what was expected and an example", () =>
    Effect.gen(function*() {
      expect(yield* built(CatalogConfig.layerConfig(), [["CATALOG_BASE_URL", "https://catalog.example/api/v1"]])).toBe(
        "(Missing data at CATALOG_API_KEY: \"CATALOG_API_KEY is not set; expected the account's API key, e.g. export CATALOG_API_KEY=cat_live_…\")"
      )
      expect(yield* built(CatalogConfig.layerConfig(), [["CATALOG_API_KEY", "cat_live_x"]])).toBe(
        "(Missing data at CATALOG_BASE_URL: \"CATALOG_BASE_URL is not set; expected the service's base URL, e.g. export CATALOG_BASE_URL=https://catalog.example/api/v1\")"
      )
      expect(yield* built(CatalogConfig.layerConfig(), [["CATALOG_API_KEY", "cat_live_x"], ["CATALOG_BASE_URL", "catalog.example.com"]])).toBe(
        "(Invalid data at CATALOG_BASE_URL: \"CATALOG_BASE_URL \\\"catalog.example.com\\\" is not a URL; expected e.g. https://catalog.example/api/v1\")"
      )
      expect(yield* built(CatalogConfig.layerConfig(), [...base, ["CATALOG_TIMEOUT", "soon"]])).toBe(
        "(Invalid data at CATALOG_TIMEOUT: \"CATALOG_TIMEOUT is not valid; expected a duration, e.g. export CATALOG_TIMEOUT=\\\"10 seconds\\\"\")"
      )
      expect(yield* built(CatalogConfig.layerConfig(), base)).toBe("built")
    }))

  it.effect("the ConfigError is Effect 4's: a SchemaError whose issue points at the variable, with the message as its text", () =>
    Effect.gen(function*() {
      const error = yield* Layer.build(CatalogConfig.layerConfig()).pipe(
        Effect.scoped,
        Effect.provideService(ConfigProvider.ConfigProvider, environment([["CATALOG_API_KEY", "cat_live_x"]])),
        Effect.flip
      )
      expect(error).toBeInstanceOf(Config.ConfigError)
      expect(String(error)).toBe(
        "ConfigError(SchemaError(CATALOG_BASE_URL is not set; expected the service's base URL, e.g. export CATALOG_BASE_URL=https://catalog.example/api/v1\n" +
          "  at [\"CATALOG_BASE_URL\"]))"
      )
    }))

  it.effect("what the variables give: the base URL without its trailing slash, the timeout (30 seconds unless set), the key redacted", () =>
    Effect.gen(function*() {
      const config = yield* CatalogConfig.CatalogConfig
      expect(config.baseUrl.href).toBe("https://catalog.example/api/v1")
      expect(Duration.toMillis(config.timeout)).toBe(30_000)
      const key = yield* config.apiKey
      expect(Redacted.value(key)).toBe("cat_test_x")
      expect(String(key)).not.toContain("cat_test_x")
      const timed = yield* CatalogConfig.CatalogConfig.pipe(
        Effect.provide(CatalogConfig.layerConfig()),
        Effect.provideService(ConfigProvider.ConfigProvider, environment([...base, ["CATALOG_TIMEOUT", "10 seconds"]]))
      )
      expect(Duration.toMillis(timed.timeout)).toBe(10_000)
    }).pipe(
      Effect.provide(CatalogConfig.layerConfig()),
      Effect.provideService(ConfigProvider.ConfigProvider, environment([["CATALOG_API_KEY", "cat_test_x"], ["CATALOG_BASE_URL", "https://catalog.example/api/v1/"]]))
    ))

  it.effect("a Config of one's own is read instead, and a refusal names its path", () =>
    Effect.gen(function*() {
      const own = CatalogConfig.layerConfig({ apiKey: Config.Redacted("MY_CATALOG_KEY"), timeout: Config.Duration("MY_TIMEOUT") })
      expect(yield* built(own, [...base, ["MY_TIMEOUT", "5 seconds"]])).toBe(
        "(Missing data at MY_CATALOG_KEY: \"MY_CATALOG_KEY is not set; expected the account's API key, e.g. export MY_CATALOG_KEY=cat_live_…\")"
      )
      expect(yield* built(own, [...base, ["MY_CATALOG_KEY", "cat_test_y"], ["MY_TIMEOUT", "fast"]])).toBe(
        "(Invalid data at MY_TIMEOUT: \"MY_TIMEOUT is not valid; expected a duration, e.g. export MY_TIMEOUT=\\\"10 seconds\\\"\")"
      )
      expect(yield* built(own, [...base, ["MY_CATALOG_KEY", "cat_test_y"], ["MY_TIMEOUT", "5 seconds"]])).toBe("built")
      // A base URL from a Config of one's own is refused at the option's key, baseUrl, as "The base URL": the variable it came from is not known.
      expect(yield* built(CatalogConfig.layerConfig({ baseUrl: Config.succeed("ftp://catalog.example") }), base)).toBe(
        "(Invalid data at baseUrl: \"The base URL \\\"ftp://catalog.example/\\\" is not an http or https URL; expected e.g. https://catalog.example/api/v1\")"
      )
      // An empty key is refused as empty, never as unprintable; Effect 4's environment provider reads an empty variable as not set.
      expect(yield* built(CatalogConfig.layerConfig(), [["CATALOG_API_KEY", ""], ["CATALOG_BASE_URL", "https://catalog.example/api/v1"]])).toBe(
        "(Missing data at CATALOG_API_KEY: \"CATALOG_API_KEY is not set; expected the account's API key, e.g. export CATALOG_API_KEY=cat_live_…\")"
      )
      expect(yield* built(CatalogConfig.layerConfig({ apiKey: Config.succeed(Redacted.make("")) }), base)).toBe(
        "(Invalid data at apiKey: \"The API key is empty; expected the account's API key, e.g. cat_live_…\")"
      )
      // A key that cannot go into a header.
      expect(yield* built(CatalogConfig.layerConfig({ apiKey: Config.succeed(Redacted.make("cat live")) }), base)).toBe(
        "(Invalid data at apiKey: \"The API key must be printable ASCII without spaces, as cat_live_… is\")"
      )
    }))
})

describe("CatalogConfig.read", () => {
  const run = <A>(config: Config.Config<A>, setting: CatalogConfig.Setting, variables: ReadonlyArray<readonly [string, string]>) =>
    CatalogConfig.read(config, setting).pipe(
      Effect.provideService(ConfigProvider.ConfigProvider, environment(variables)),
      Effect.result,
      Effect.map(Result.match({ onFailure: described, onSuccess: (value) => value }))
    )

  it.effect("a value is read as the Config reads it; missing, it names the Config's own path; malformed, it is not valid", () =>
    Effect.gen(function*() {
      const { dailyBudget, timeScale } = CatalogConfig.settings
      expect(yield* run(Config.Number("SCALE"), timeScale, [["SCALE", "0.5"]])).toBe(0.5)
      expect(yield* run(Config.Number("SCALE"), timeScale, [])).toBe(
        "(Missing data at SCALE: \"SCALE is not set; expected a number more than 0, e.g. export SCALE=0.1\")"
      )
      expect(yield* run(Config.Number("SCALE"), timeScale, [["SCALE", "fast"]])).toBe(
        "(Invalid data at SCALE: \"SCALE is not valid; expected a number more than 0, e.g. export SCALE=0.1\")"
      )
      // A nested Config names its whole path.
      expect(yield* run(Config.nested(Config.Int("BUDGET"), "CATALOG"), dailyBudget, [["CATALOG_BUDGET", "-"]])).toBe(
        "(Invalid data at CATALOG.BUDGET: \"CATALOG.BUDGET is not valid; expected a whole number of units, 0 or more, e.g. export CATALOG.BUDGET=500\")"
      )
    }))

  it.effect("the defaults of fromEnvironment: a timeout of 30 seconds, a time scale of 1, no daily budget; an optional setting malformed is refused", () =>
    Effect.gen(function*() {
      const { settings } = CatalogConfig
      const timeout = yield* run(CatalogConfig.fromEnvironment.timeout, settings.timeout, [])
      expect(Duration.isDuration(timeout) ? Duration.toMillis(timeout) : timeout).toBe(30_000)
      expect(yield* run(CatalogConfig.fromEnvironment.timeScale, settings.timeScale, [])).toBe(1)
      expect(yield* run(CatalogConfig.fromEnvironment.dailyBudget, settings.dailyBudget, [])).toEqual(Option.none())
      expect(yield* run(CatalogConfig.fromEnvironment.dailyBudget, settings.dailyBudget, [["CATALOG_DAILY_BUDGET", "500"]])).toEqual(Option.some(500))
      expect(yield* run(CatalogConfig.fromEnvironment.dailyBudget, settings.dailyBudget, [["CATALOG_DAILY_BUDGET", "2.5"]])).toBe(
        "(Invalid data at CATALOG_DAILY_BUDGET: \"CATALOG_DAILY_BUDGET is not valid; expected a whole number of units, 0 or more, e.g. export CATALOG_DAILY_BUDGET=500\")"
      )
      expect(yield* run(CatalogConfig.fromEnvironment.timeScale, settings.timeScale, [["CATALOG_TIME_SCALE", "x"]])).toBe(
        "(Invalid data at CATALOG_TIME_SCALE: \"CATALOG_TIME_SCALE is not valid; expected a number more than 0, e.g. export CATALOG_TIME_SCALE=0.1\")"
      )
    }))
})

describe("CatalogConfig.parseBaseUrl", () => {
  const refusal = (input: string | URL, source?: string) =>
    Result.match(CatalogConfig.parseBaseUrl(input, source), { onFailure: described, onSuccess: (url) => url.href })

  it("an absolute http(s) URL without credentials, query or fragment, its trailing slashes dropped", () => {
    expect(refusal("https://catalog.example/api/v1/")).toBe("https://catalog.example/api/v1")
    expect(refusal(new URL("http://127.0.0.1:8080/api/v1//"))).toBe("http://127.0.0.1:8080/api/v1")
    expect(refusal("catalog.example.com", "CATALOG_BASE_URL")).toBe(
      "(Invalid data at CATALOG_BASE_URL: \"CATALOG_BASE_URL \\\"catalog.example.com\\\" is not a URL; expected e.g. https://catalog.example/api/v1\")"
    )
    // Text that could hold a password is not shown.
    expect(refusal("user@catalog.example")).toBe("(Invalid data at baseUrl: \"The base URL is not a URL; expected e.g. https://catalog.example/api/v1\")")
    expect(refusal("user:secret@catalog")).toBe(
      "(Invalid data at baseUrl: \"The base URL is not an http or https URL; expected e.g. https://catalog.example/api/v1\")"
    )
    expect(refusal("https://user:secret@catalog.example/api/v1")).toBe(
      "(Invalid data at baseUrl: \"The base URL must not carry credentials (the key goes in CATALOG_API_KEY); expected e.g. https://catalog.example/api/v1\")"
    )
    expect(refusal("https://catalog.example/api/v1?key=x#top")).toBe(
      "(Invalid data at baseUrl: \"The base URL \\\"https://catalog.example/api/v1\\\"… must not have a query or a fragment; expected e.g. https://catalog.example/api/v1\")"
    )
  })

  it("a base URL with a lone surrogate is a ConfigError naming where it is", () => {
    const loneSurrogates = [["\ud800", "D800", 0], ["x\udfff", "DFFF", 1], ["\udc00\ud800", "DC00", 0]] as const
    for (const [text, unit, index] of loneSurrogates) {
      const base = "https://catalog.example/api/"
      expect(refusal(`${base}${text}`)).toContain(`The base URL holds a lone surrogate (U+${unit}) at index ${base.length + index}`)
    }
  })
})

describe("CatalogConfig.layer", () => {
  it.effect("a key given as an effect is read again for every request: a rotated key is picked up without a new layer", () =>
    Effect.gen(function*() {
      const key = yield* Ref.make(Redacted.make("cat_test_first"))
      const config = yield* CatalogConfig.CatalogConfig.pipe(
        Effect.provide(CatalogConfig.layer({ baseUrl: "https://catalog.example/api/v1", apiKey: Ref.get(key), timeout: "10 seconds" }))
      )
      expect(Redacted.value(yield* config.apiKey)).toBe("cat_test_first")
      yield* Ref.set(key, Redacted.make("cat_test_second"))
      expect(Redacted.value(yield* config.apiKey)).toBe("cat_test_second")
      expect(Duration.toMillis(config.timeout)).toBe(10_000)
    }))

  it.effect("malformed options fail the layer; layerWith is layer under its former name", () =>
    Effect.gen(function*() {
      expect(yield* built(CatalogConfig.layer({ baseUrl: "ftp://catalog.example", apiKey: Redacted.make("cat_test_x") }), [])).toBe(
        "(Invalid data at baseUrl: \"The base URL \\\"ftp://catalog.example/\\\" is not an http or https URL; expected e.g. https://catalog.example/api/v1\")"
      )
      expect(yield* built(CatalogConfig.layer({ baseUrl: "https://catalog.example/api/v1", apiKey: Redacted.make("cat_live_\u00e9") }), [])).toBe(
        "(Invalid data at apiKey: \"The API key must be printable ASCII without spaces, as cat_live_… is\")"
      )
      expect(CatalogConfig.layerWith).toBe(CatalogConfig.layer)
    }))
})
