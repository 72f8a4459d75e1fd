/**
 * The client's configuration: where the service is, the key, and how long an
 * answer may take. The key is `Redacted` and is read again for every request,
 * so a rotated key (a secret file, a `Ref`) is picked up without rebuilding
 * any layer.
 *
 * Each setting can also come from a `Config` (`layerConfig`), by default from
 * its variable of the environment (`settings`, `fromEnvironment`); a missing
 * or malformed value fails with a `ConfigError` that names where it was read,
 * what was expected and an example.
 *
 * @example
 * ```ts
 * import { Effect, Redacted } from "effect"
 * import { CatalogConfig } from "effect-catalog"
 *
 * const ConfigLive = CatalogConfig.layer({ baseUrl: "https://catalog.example/api/v1", apiKey: Redacted.make("cat_live_...") })
 *
 * const baseUrl = Effect.map(CatalogConfig.CatalogConfig, (config) => config.baseUrl.href).pipe(Effect.provide(ConfigLive))
 * // succeeds with "https://catalog.example/api/v1"
 * ```
 * @since 0.1.0 (1.x: 1.0.0)
 */
import * as ClientSettings from "../../../rules/src/client/ClientSettings.js"
import * as ConfigErrors from "#edition/client/internal/ConfigErrors.js"
import {
  Config,
  type ConfigFailure,
  decodeDuration,
  Duration,
  type DurationInput,
  durationConfig,
  Effect,
  fromResult,
  integerConfig,
  Layer,
  numberConfig,
  type Option,
  Redacted,
  redactedConfig,
  Result,
  ServiceTag,
  stringConfig
} from "#edition/internal/Edition.js"

/**
 * The resolved configuration.
 *
 * @example
 * ```ts
 * import { Duration, Effect } from "effect"
 * import { CatalogConfig } from "effect-catalog"
 *
 * const describe = (config: CatalogConfig.Service) => `${config.baseUrl.href} (timeout ${Duration.format(config.timeout)})`
 *
 * const program = Effect.map(CatalogConfig.CatalogConfig, describe)
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export interface Service {
  /** The base URL, including the version segment, without a trailing slash. */
  readonly baseUrl: URL
  /** Read before every request. */
  readonly apiKey: Effect.Effect<Redacted.Redacted<string>>
  /** How long one request may take, answer included. */
  readonly timeout: Duration.Duration
}

/**
 * How long one request may take, answer included, unless configured
 * (`timeout`, `CATALOG_TIMEOUT`).
 *
 * @example
 * ```ts
 * import { Duration } from "effect"
 * import { CatalogConfig } from "effect-catalog"
 *
 * Duration.toSeconds(CatalogConfig.defaultTimeout) // 30
 * ```
 * @category constants
 * @since 0.4.0 (1.x: 1.0.0)
 */
export const defaultTimeout: Duration.Duration = Duration.seconds(30)

/**
 * The configuration service.
 *
 * @example
 * ```ts
 * import { Effect, Redacted } from "effect"
 * import { CatalogConfig } from "effect-catalog"
 *
 * const baseUrl = Effect.gen(function*() {
 *   const config = yield* CatalogConfig.CatalogConfig
 *   return config.baseUrl.href
 * }).pipe(
 *   Effect.provide(CatalogConfig.layer({ baseUrl: "http://127.0.0.1:8080/api/v1/", apiKey: Redacted.make("cat_live_...") }))
 * ) // succeeds with "http://127.0.0.1:8080/api/v1"
 * ```
 * @category services
 * @since 0.1.0 (1.x: 1.0.0)
 */
export class CatalogConfig extends ServiceTag<CatalogConfig, Service>()("effect-catalog/CatalogConfig") {}

/**
 * What `layer` takes.
 *
 * @example
 * ```ts
 * import { Effect, Redacted, Ref } from "effect"
 * import { CatalogConfig } from "effect-catalog"
 *
 * // A key read from a `Ref` on every request, so that it can be rotated.
 * const program = Effect.gen(function*() {
 *   const key = yield* Ref.make(Redacted.make("cat_live_..."))
 *   const options: CatalogConfig.Options = { baseUrl: "https://catalog.example/api/v1", apiKey: Ref.get(key), timeout: "10 seconds" }
 *   return yield* CatalogConfig.make(options)
 * })
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export interface Options {
  /** `https://host/api/v1` */
  readonly baseUrl: string | URL
  /** The key, or an effect that reads the current key. */
  readonly apiKey: Redacted.Redacted<string> | Effect.Effect<Redacted.Redacted<string>>
  /** Default: 30 seconds. */
  readonly timeout?: DurationInput
}

/**
 * What a base URL looks like, for the messages that refuse one.
 *
 * @example
 * ```ts
 * import { CatalogConfig } from "effect-catalog"
 *
 * const hint = `set CATALOG_BASE_URL, e.g. ${CatalogConfig.exampleBaseUrl}`
 * ```
 * @category constants
 * @since 0.5.0 (1.x: 1.0.0)
 */
export const exampleBaseUrl = ClientSettings.exampleBaseUrl




/**
 * Checks a base URL: absolute `http(s)`, no credentials, no query or
 * fragment, and written as it will be sent (no lone surrogate, which `URL`
 * would silently replace). A refusal names `source`, where the value came
 * from (`CATALOG_BASE_URL`, a flag), says what
 * was expected with an example, and shows the value only where it cannot
 * hold a password.
 *
 * @example
 * ```ts
 * import { CatalogConfig } from "effect-catalog"
 *
 * CatalogConfig.parseBaseUrl("https://catalog.example/api/v1/") // Result.succeed(URL without the trailing slash) (Either.right in Effect 3)
 * CatalogConfig.parseBaseUrl("catalog.example.com", "CATALOG_BASE_URL")
 * // Result.fail(ConfigError at CATALOG_BASE_URL: 'CATALOG_BASE_URL "catalog.example.com" is not a URL; expected e.g. https://catalog.example/api/v1')
 * ```
 * @category utils
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const parseBaseUrl = (input: string | URL, source?: string): Result.Result<URL, ConfigFailure> => {
  const checked = ClientSettings.checkBaseUrl(input)
  // The path is the key the value came from (the option `baseUrl` when no other is known); the message describes it.
  return "url" in checked
    ? Result.succeed(checked.url)
    : Result.fail(ConfigErrors.invalidData(source ?? "baseUrl", `${source ?? "The base URL"} ${checked.why}`))
}

/**
 * A configuration from options, or a `ConfigError` when they are malformed.
 *
 * @example
 * ```ts
 * import { Effect, Redacted } from "effect"
 * import { CatalogConfig } from "effect-catalog"
 *
 * CatalogConfig.make({ baseUrl: "ftp://catalog.example", apiKey: Redacted.make("cat_live_...") }).pipe(Effect.flip)
 * // fails with a ConfigError at baseUrl: 'The base URL "ftp://catalog.example/" is not an http or https URL; expected e.g. https://catalog.example/api/v1')
 * ```
 * @category constructors
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const make = (options: Options): Effect.Effect<Service, ConfigFailure> =>
  Effect.gen(function*() {
    const baseUrl = yield* fromResult(parseBaseUrl(options.baseUrl))
    const apiKey = Redacted.isRedacted(options.apiKey) ? Effect.succeed(options.apiKey) : options.apiKey
    const key = yield* apiKey
    const keyProblem = ClientSettings.apiKeyProblem(Redacted.value(key))
    if (keyProblem !== undefined) {
      return yield* Effect.fail(ConfigErrors.invalidData("apiKey", keyProblem))
    }
    return { baseUrl, apiKey, timeout: decodeDuration(options.timeout ?? defaultTimeout) }
  })

/**
 * The configuration from options.
 *
 * @example
 * ```ts
 * import { Redacted } from "effect"
 * import { CatalogConfig } from "effect-catalog"
 *
 * const ConfigLive = CatalogConfig.layer({
 *   baseUrl: "http://127.0.0.1:8080/api/v1",
 *   apiKey: Redacted.make("cat_live_...")
 * })
 * ```
 * @category layers
 * @since 0.7.0 (1.x: 1.0.0)
 */
export const layer = (options: Options): Layer.Layer<CatalogConfig, ConfigFailure> => Layer.effect(CatalogConfig, make(options))

/**
 * The former name of `layer`.
 *
 * @example
 * ```ts
 * import { Redacted } from "effect"
 * import { CatalogConfig } from "effect-catalog"
 *
 * const ConfigLive = CatalogConfig.layerWith({ baseUrl: "http://127.0.0.1:8080/api/v1", apiKey: Redacted.make("cat_live_...") })
 * ```
 * @category layers
 * @since 0.1.0 (1.x: 1.0.0)
 * @deprecated Renamed `layer`, as Effect's own clients name the layer of options; kept so that code written for the 0.x line still compiles; removed in 2.0.0.
 */
export const layerWith = layer

/**
 * A setting of the client that a `Config` can give: the variable of the
 * environment it is read from unless another `Config` is given, what it
 * expects and an example value.
 *
 * @example
 * ```ts
 * import { CatalogConfig } from "effect-catalog"
 *
 * const line = (setting: CatalogConfig.Setting) => `${setting.variable}: ${setting.expected}, e.g. ${setting.example}`
 * line(CatalogConfig.settings.timeout) // 'CATALOG_TIMEOUT: a duration, e.g. "10 seconds"'
 * ```
 * @category models
 * @since 0.5.0 (1.x: 1.0.0)
 */
export interface Setting extends ClientSettings.Setting {}

/**
 * The settings a `Config` can give, and the only place their variables are
 * named: `CATALOG_API_KEY`, `CATALOG_BASE_URL`, `CATALOG_TIMEOUT`,
 * `CATALOG_TIME_SCALE` and `CATALOG_DAILY_BUDGET`.
 *
 * @example
 * ```ts
 * import { CatalogConfig } from "effect-catalog"
 *
 * CatalogConfig.settings.apiKey.variable // "CATALOG_API_KEY"
 * ```
 * @category constants
 * @since 0.5.0 (1.x: 1.0.0)
 */
export const settings = ClientSettings.settings

/**
 * The `Config` of each setting when none is given: its variable of the
 * environment (`settings`), with the defaults of the options.
 *
 * @example
 * ```ts effect4
 * import { Config } from "effect"
 * import { CatalogConfig } from "effect-catalog"
 *
 * // The key from a variable of one's own, the rest as by default.
 * const options: CatalogConfig.ConfigOptions = { ...CatalogConfig.fromEnvironment, apiKey: Config.Redacted("MY_CATALOG_KEY") }
 * ```
 *
 * In Effect 3:
 *
 * ```ts effect3
 * import { Config } from "effect"
 * import { CatalogConfig } from "effect-catalog"
 *
 * // The key from a variable of one's own, the rest as by default.
 * const options: CatalogConfig.ConfigOptions = { ...CatalogConfig.fromEnvironment, apiKey: Config.redacted("MY_CATALOG_KEY") }
 * ```
 * @category constants
 * @since 0.5.0 (1.x: 1.0.0)
 */
export const fromEnvironment: {
  readonly apiKey: Config.Config<Redacted.Redacted<string>>
  readonly baseUrl: Config.Config<string>
  readonly timeout: Config.Config<Duration.Duration>
  readonly timeScale: Config.Config<number>
  readonly dailyBudget: Config.Config<Option.Option<number>>
} = {
  apiKey: redactedConfig(settings.apiKey.variable),
  baseUrl: stringConfig(settings.baseUrl.variable),
  timeout: Config.withDefault(durationConfig(settings.timeout.variable), defaultTimeout),
  timeScale: Config.withDefault(numberConfig(settings.timeScale.variable), 1),
  dailyBudget: Config.option(integerConfig(settings.dailyBudget.variable))
}

/**
 * What `layerConfig` takes: a `Config` for each setting; those left out are
 * read as `fromEnvironment` reads them.
 *
 * @example
 * ```ts effect4
 * import { Config } from "effect"
 * import { CatalogConfig } from "effect-catalog"
 *
 * const options: CatalogConfig.ConfigOptions = {
 *   apiKey: Config.Redacted("CATALOG_KEY"),
 *   timeout: Config.succeed("10 seconds")
 * }
 * ```
 *
 * In Effect 3:
 *
 * ```ts effect3
 * import { Config } from "effect"
 * import { CatalogConfig } from "effect-catalog"
 *
 * const options: CatalogConfig.ConfigOptions = {
 *   apiKey: Config.redacted("CATALOG_KEY"),
 *   timeout: Config.succeed("10 seconds")
 * }
 * ```
 * @category models
 * @since 0.5.0 (1.x: 1.0.0)
 */
export interface ConfigOptions {
  readonly apiKey?: Config.Config<Redacted.Redacted<string>>
  readonly baseUrl?: Config.Config<string | URL>
  readonly timeout?: Config.Config<DurationInput>
}

/**
 * Reads a setting from `config`; a missing or malformed value is refused in
 * words that name where it was read (the variable, or the path of the
 * `Config` given), say what was expected and give an example.
 *
 * @example
 * ```ts effect4
 * import { Config } from "effect"
 * import { CatalogConfig } from "effect-catalog"
 *
 * const timeout = CatalogConfig.read(Config.Duration("MY_TIMEOUT"), CatalogConfig.settings.timeout)
 * // without MY_TIMEOUT: ConfigError at MY_TIMEOUT: 'MY_TIMEOUT is not set; expected a duration, e.g. export MY_TIMEOUT="10 seconds"'
 * ```
 *
 * In Effect 3:
 *
 * ```ts effect3
 * import { Config } from "effect"
 * import { CatalogConfig } from "effect-catalog"
 *
 * const timeout = CatalogConfig.read(Config.duration("MY_TIMEOUT"), CatalogConfig.settings.timeout)
 * // without MY_TIMEOUT: ConfigError at MY_TIMEOUT: 'MY_TIMEOUT is not set; expected a duration, e.g. export MY_TIMEOUT="10 seconds"'
 * ```
 * @category utils
 * @since 0.5.0 (1.x: 1.0.0)
 */
export const read = <A>(config: Config.Config<A>, setting: Setting): Effect.Effect<A, ConfigFailure> =>
  Effect.matchEffect(config, {
    onFailure: (error) =>
      Effect.flatMap(ConfigErrors.isMissing(config, error), (missing) => {
        const name = ConfigErrors.nameOf(error) ?? setting.variable
        const expected = `${setting.expected}, e.g. export ${name}=${setting.example}`
        return Effect.fail(
          missing
            ? ConfigErrors.missingData(name, `${name} is not set; expected ${expected}`)
            : ConfigErrors.invalidData(name, `${name} is not valid; expected ${expected}`)
        )
      }),
    onSuccess: Effect.succeed
  })

/**
 * The configuration from `Config`s, each setting read from its variable of
 * the environment unless a `Config` is given for it. A `ConfigError` names
 * the variable (or the path of the `Config` given), what was expected and an
 * example.
 *
 * @example
 * ```ts effect4
 * import { Config } from "effect"
 * import { CatalogConfig } from "effect-catalog"
 *
 * const ConfigLive = CatalogConfig.layerConfig({ apiKey: Config.Redacted("MY_CATALOG_KEY") })
 * // without MY_CATALOG_KEY, fails with a ConfigError at MY_CATALOG_KEY:
 * // "MY_CATALOG_KEY is not set; expected the account's API key, e.g. export MY_CATALOG_KEY=cat_live_…"
 * ```
 *
 * In Effect 3:
 *
 * ```ts effect3
 * import { Config } from "effect"
 * import { CatalogConfig } from "effect-catalog"
 *
 * const ConfigLive = CatalogConfig.layerConfig({ apiKey: Config.redacted("MY_CATALOG_KEY") })
 * // without MY_CATALOG_KEY, fails with a ConfigError at MY_CATALOG_KEY:
 * // "MY_CATALOG_KEY is not set; expected the account's API key, e.g. export MY_CATALOG_KEY=cat_live_…"
 * ```
 * @category layers
 * @since 0.5.0 (1.x: 1.0.0)
 */
export const layerConfig = (options: ConfigOptions = {}): Layer.Layer<CatalogConfig, ConfigFailure> =>
  Layer.effect(
    CatalogConfig,
    Effect.gen(function*() {
      const baseUrlConfig = options.baseUrl ?? fromEnvironment.baseUrl
      const apiKey = yield* read(options.apiKey ?? fromEnvironment.apiKey, settings.apiKey)
      const url = yield* read(baseUrlConfig, settings.baseUrl)
      // A refusal names the variable when the URL came from it.
      const baseUrl = yield* fromResult(parseBaseUrl(url, baseUrlConfig === fromEnvironment.baseUrl ? settings.baseUrl.variable : undefined))
      const timeout = yield* read(options.timeout ?? fromEnvironment.timeout, settings.timeout)
      return yield* make({ apiKey, baseUrl, timeout })
    })
  )
