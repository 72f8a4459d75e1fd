/**
 * The client's configuration: where the service is, the key, and how long an
 * answer may take. The key is `Redacted` and is read again for every request,
 * so a rotated key (a secret file, a `Ref`) is picked up without rebuilding
 * any layer.
 *
 * @since 0.1.0
 */
import { Config, ConfigError, Context, Duration, Effect, Either, Layer, Redacted } from "effect"
import { unencodable } from "./Links.js"

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
 *   Effect.provide(CatalogConfig.layerWith({ baseUrl: "http://127.0.0.1:8080/api/v1/", apiKey: Redacted.make("cat_live_...") }))
 * ) // succeeds with "http://127.0.0.1:8080/api/v1"
 * ```
 * @since 0.1.0
 */
export class CatalogConfig extends Context.Tag("effect-catalog/CatalogConfig")<CatalogConfig, Service>() {}

/**
 * What `layerWith` takes.
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
 * Checks a base URL: absolute `http(s)`, no credentials, no query or
 * fragment, and written as it will be sent (no lone surrogate, which `URL`
 * would silently replace).
 *
 * @example
 * ```ts
 * import { CatalogConfig } from "effect-catalog"
 *
 * CatalogConfig.parseBaseUrl("https://catalog.example/api/v1/") // Either.right(URL without the trailing slash)
 * ```
 * @since 0.1.0
 */
export const parseBaseUrl = (input: string | URL): Either.Either<URL, ConfigError.ConfigError> => {
  const invalid = (why: string) => Either.left(ConfigError.InvalidData(["CATALOG_BASE_URL"], why))
  const unsendable = typeof input === "string" ? unencodable(input) : undefined
  if (unsendable !== undefined) return invalid(`The base URL ${unsendable}`)
  let url: URL
  try {
    url = new URL(input)
  } catch {
    return invalid("Expected an absolute URL such as https://host/api/v1")
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return invalid("Expected an http or https URL")
  if (url.username !== "" || url.password !== "") return invalid("The base URL must not carry credentials")
  if (url.search !== "" || url.hash !== "") return invalid("The base URL must not have a query or a fragment")
  url.pathname = url.pathname.replace(/\/+$/, "")
  return Either.right(url)
}

const headerSafe = /^[\x21-\x7e]+$/

/**
 * A configuration from options, or a `ConfigError` when they are malformed.
 *
 * @example
 * ```ts
 * import { Effect, Redacted } from "effect"
 * import { CatalogConfig } from "effect-catalog"
 *
 * CatalogConfig.make({ baseUrl: "ftp://catalog.example", apiKey: Redacted.make("cat_live_...") }).pipe(Effect.either)
 * // Left(ConfigError): Expected an http or https URL
 * ```
 * @since 0.1.0
 */
export const make = (options: Options): Effect.Effect<Service, ConfigError.ConfigError> =>
  Effect.gen(function*() {
    const baseUrl = yield* parseBaseUrl(options.baseUrl)
    const apiKey = Redacted.isRedacted(options.apiKey) ? Effect.succeed(options.apiKey) : options.apiKey
    const key = yield* apiKey
    if (!headerSafe.test(Redacted.value(key))) {
      return yield* Effect.fail(ConfigError.InvalidData(["CATALOG_API_KEY"], "The key must be printable ASCII without spaces"))
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
 * const ConfigLive = CatalogConfig.layerWith({
 *   baseUrl: "http://127.0.0.1:8080/api/v1",
 *   apiKey: Redacted.make("cat_live_...")
 * })
 * ```
 * @since 0.1.0
 */
export const layerWith = (options: Options): Layer.Layer<CatalogConfig, ConfigError.ConfigError> =>
  Layer.effect(CatalogConfig, make(options))

/**
 * The configuration from the environment: `CATALOG_API_KEY`,
 * `CATALOG_BASE_URL` and, optionally, `CATALOG_TIMEOUT` (e.g. `10 seconds`).
 *
 * @example
 * ```ts
 * import { CatalogConfig } from "effect-catalog"
 *
 * const ConfigLive = CatalogConfig.layer
 * ```
 * @since 0.1.0
 */
export const layer: Layer.Layer<CatalogConfig, ConfigError.ConfigError> = Layer.effect(
  CatalogConfig,
  Effect.gen(function*() {
    const apiKey = yield* Config.redacted("CATALOG_API_KEY")
    const baseUrl = yield* Config.string("CATALOG_BASE_URL")
    const timeout = yield* Config.duration("CATALOG_TIMEOUT").pipe(Config.withDefault(defaultTimeout))
    return yield* make({ apiKey, baseUrl, timeout })
  })
)
