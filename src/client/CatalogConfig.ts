/**
 * The client's configuration: where the service is, the key, and how long an
 * answer may take. The key is `Redacted` and is read again for every request,
 * so a rotated key (a secret file, a `Ref`) is picked up without rebuilding
 * any layer.
 *
 * @since 0.1.0
 */
import { Config, ConfigError, Context, Duration, Effect, Either, Layer, Redacted } from "effect"
import * as ClientSettings from "../../rules/src/client/ClientSettings.js"

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
 * @since 0.1.0
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
 * @since 0.4.0
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
 * const baseUrl = Effect.map(CatalogConfig.CatalogConfig, (config) => config.baseUrl.href).pipe(
 *   Effect.provide(CatalogConfig.layer({ baseUrl: "http://127.0.0.1:8080/api/v1/", apiKey: Redacted.make("cat_live_...") }))
 * ) // succeeds with "http://127.0.0.1:8080/api/v1"
 * ```
 * @category services
 * @since 0.1.0
 */
export class CatalogConfig extends Context.Tag("effect-catalog/CatalogConfig")<CatalogConfig, Service>() {}

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
 * @since 0.1.0
 */
export interface Options {
  /** `https://host/api/v1` */
  readonly baseUrl: string | URL
  /** The key, or an effect that reads the current key. */
  readonly apiKey: Redacted.Redacted<string> | Effect.Effect<Redacted.Redacted<string>>
  /** Default: 30 seconds. */
  readonly timeout?: Duration.DurationInput
}

/**
 * What a base URL looks like, for the messages that refuse one.
 *
 * @category constants
 * @since 0.5.0
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
 * CatalogConfig.parseBaseUrl("https://catalog.example/api/v1/") // Either.right(URL without the trailing slash)
 * CatalogConfig.parseBaseUrl("catalog.example.com", "CATALOG_BASE_URL")
 * // Either.left(InvalidData at CATALOG_BASE_URL: 'CATALOG_BASE_URL "catalog.example.com" is not a URL; expected e.g. https://catalog.example/api/v1')
 * ```
 * @category utils
 * @since 0.1.0
 */
export const parseBaseUrl = (input: string | URL, source?: string): Either.Either<URL, ConfigError.ConfigError> => {
  const checked = ClientSettings.checkBaseUrl(input)
  // The path is the key the value came from (the option `baseUrl` when no other is known); the message describes it.
  return "url" in checked
    ? Either.right(checked.url)
    : Either.left(ConfigError.InvalidData([source ?? "baseUrl"], `${source ?? "The base URL"} ${checked.why}`))
}

/**
 * A configuration from options, or a `ConfigError` when they are malformed.
 *
 * @example
 * ```ts
 * import { Effect, Redacted } from "effect"
 * import { CatalogConfig } from "effect-catalog"
 *
 * CatalogConfig.make({ baseUrl: "ftp://catalog.example", apiKey: Redacted.make("cat_live_...") }).pipe(Effect.either)
 * // Left(InvalidData at baseUrl: 'The base URL "ftp://catalog.example/" is not an http or https URL; expected e.g. https://catalog.example/api/v1')
 * ```
 * @category constructors
 * @since 0.1.0
 */
export const make = (options: Options): Effect.Effect<Service, ConfigError.ConfigError> =>
  Effect.gen(function*() {
    const baseUrl = yield* parseBaseUrl(options.baseUrl)
    const apiKey = Redacted.isRedacted(options.apiKey) ? Effect.succeed(options.apiKey) : options.apiKey
    const key = yield* apiKey
    const keyProblem = ClientSettings.apiKeyProblem(Redacted.value(key))
    if (keyProblem !== undefined) {
      return yield* Effect.fail(ConfigError.InvalidData(["apiKey"], keyProblem))
    }
    return { baseUrl, apiKey, timeout: Duration.decode(options.timeout ?? defaultTimeout) }
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
 * @since 0.7.0
 */
export const layer = (options: Options): Layer.Layer<CatalogConfig, ConfigError.ConfigError> => Layer.effect(CatalogConfig, make(options))

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
 * @since 0.1.0
 * @deprecated Renamed `layer`, as Effect's own clients name the layer of options; this alias goes in 0.8.0.
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
 * @since 0.5.0
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
 * @since 0.5.0
 */
export const settings = ClientSettings.settings

/**
 * The `Config` of each setting when none is given: its variable of the
 * environment (`settings`), with the defaults of the options.
 *
 * @example
 * ```ts
 * import { Config } from "effect"
 * import { CatalogConfig } from "effect-catalog"
 *
 * // The key from a variable of one's own, the rest as by default.
 * const options: CatalogConfig.ConfigOptions = { ...CatalogConfig.fromEnvironment, apiKey: Config.redacted("MY_CATALOG_KEY") }
 * ```
 * @category constants
 * @since 0.5.0
 */
export const fromEnvironment = {
  apiKey: Config.redacted(settings.apiKey.variable),
  baseUrl: Config.string(settings.baseUrl.variable),
  timeout: Config.withDefault(Config.duration(settings.timeout.variable), defaultTimeout),
  timeScale: Config.withDefault(Config.number(settings.timeScale.variable), 1),
  dailyBudget: Config.option(Config.integer(settings.dailyBudget.variable))
}

/**
 * What `layerConfig` takes: a `Config` for each setting; those left out are
 * read as `fromEnvironment` reads them.
 *
 * @example
 * ```ts
 * import { Config } from "effect"
 * import { CatalogConfig } from "effect-catalog"
 *
 * const options: CatalogConfig.ConfigOptions = {
 *   apiKey: Config.redacted("CATALOG_KEY"),
 *   timeout: Config.succeed("10 seconds")
 * }
 * ```
 * @category models
 * @since 0.5.0
 */
export interface ConfigOptions {
  readonly apiKey?: Config.Config<Redacted.Redacted<string>>
  readonly baseUrl?: Config.Config<string | URL>
  readonly timeout?: Config.Config<Duration.DurationInput>
}

/** The name a `ConfigError` gives its value: its path, when it has one. */
const nameOf = (error: ConfigError.ConfigError): string | undefined =>
  ConfigError.isMissingData(error) || ConfigError.isInvalidData(error) || ConfigError.isSourceUnavailable(error) ||
    ConfigError.isUnsupported(error)
    ? error.path.length === 0 ? undefined : error.path.join(".")
    : ConfigError.isAnd(error) || ConfigError.isOr(error)
    ? nameOf(error.left) ?? nameOf(error.right)
    : undefined

/**
 * Reads a setting from `config`; a missing or malformed value is refused in
 * words that name where it was read (the variable, or the path of the
 * `Config` given), say what was expected and give an example.
 *
 * @example
 * ```ts
 * import { Config } from "effect"
 * import { CatalogConfig } from "effect-catalog"
 *
 * const timeout = CatalogConfig.read(Config.duration("MY_TIMEOUT"), CatalogConfig.settings.timeout)
 * // without MY_TIMEOUT: MissingData at MY_TIMEOUT: 'MY_TIMEOUT is not set; expected a duration, e.g. export MY_TIMEOUT="10 seconds"'
 * ```
 * @category utils
 * @since 0.5.0
 */
export const read = <A>(config: Config.Config<A>, setting: Setting): Effect.Effect<A, ConfigError.ConfigError> =>
  Effect.mapError(config, (error) => {
    const name = nameOf(error) ?? setting.variable
    const expected = `${setting.expected}, e.g. export ${name}=${setting.example}`
    return ConfigError.isMissingDataOnly(error)
      ? ConfigError.MissingData([name], `${name} is not set; expected ${expected}`)
      : ConfigError.InvalidData([name], `${name} is not valid; expected ${expected}`)
  })

/**
 * The configuration from `Config`s, each setting read from its variable of
 * the environment unless a `Config` is given for it. A `ConfigError` names
 * the variable (or the path of the `Config` given), what was expected and an
 * example.
 *
 * @example
 * ```ts
 * import { Config } from "effect"
 * import { CatalogConfig } from "effect-catalog"
 *
 * const ConfigLive = CatalogConfig.layerConfig({ apiKey: Config.redacted("MY_CATALOG_KEY") })
 * // without MY_CATALOG_KEY, fails with MissingData at MY_CATALOG_KEY:
 * // "MY_CATALOG_KEY is not set; expected the account's API key, e.g. export MY_CATALOG_KEY=cat_live_…"
 * ```
 * @category layers
 * @since 0.5.0
 */
export const layerConfig = (options: ConfigOptions = {}): Layer.Layer<CatalogConfig, ConfigError.ConfigError> =>
  Layer.effect(
    CatalogConfig,
    Effect.gen(function*() {
      const baseUrlConfig = options.baseUrl ?? fromEnvironment.baseUrl
      const apiKey = yield* read(options.apiKey ?? fromEnvironment.apiKey, settings.apiKey)
      const baseUrl = yield* read(baseUrlConfig, settings.baseUrl).pipe(
        // A refusal names the variable when the URL came from it.
        Effect.flatMap((url) => parseBaseUrl(url, baseUrlConfig === fromEnvironment.baseUrl ? settings.baseUrl.variable : undefined))
      )
      const timeout = yield* read(options.timeout ?? fromEnvironment.timeout, settings.timeout)
      return yield* make({ apiKey, baseUrl, timeout })
    })
  )

