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
 * What a base URL looks like, for the messages that refuse one.
 *
 * @since 0.5.0
 */
export const exampleBaseUrl = "https://catalog.example/api/v1"

/**
 * Checks a base URL: absolute `http(s)`, no credentials, no query or
 * fragment, and written as it will be sent (no lone surrogate, which `URL`
 * would silently replace). A refusal names `source`, where the value came
 * from (`CATALOG_BASE_URL`, a flag; by default "The base URL"), says what
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
 * @since 0.1.0
 */
export const parseBaseUrl = (input: string | URL, source: string = "The base URL"): Either.Either<URL, ConfigError.ConfigError> => {
  const invalid = (why: string) => Either.left(ConfigError.InvalidData([source], `${source} ${why}`))
  const expected = `expected e.g. ${exampleBaseUrl}`
  const unsendable = typeof input === "string" ? unencodable(input) : undefined
  if (unsendable !== undefined) return invalid(unsendable)
  let url: URL
  try {
    url = new URL(input)
  } catch {
    // Text that is not a URL is shown, unless it could hold credentials (user:password@host).
    const shown = typeof input === "string" && !input.includes("@") ? `${JSON.stringify(input)} ` : ""
    return invalid(`${shown}is not a URL; ${expected}`)
  }
  if (url.username !== "" || url.password !== "") return invalid(`must not carry credentials (the key goes in CATALOG_API_KEY); ${expected}`)
  if (url.protocol !== "https:" && url.protocol !== "http:") return invalid(`${JSON.stringify(url.href)} is not an http or https URL; ${expected}`)
  if (url.search !== "" || url.hash !== "") return invalid(`${JSON.stringify(url.origin + url.pathname)}… must not have a query or a fragment; ${expected}`)
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
 * // Left(InvalidData at The base URL: 'The base URL "ftp://catalog.example/" is not an http or https URL; expected e.g. https://catalog.example/api/v1')
 * ```
 * @since 0.1.0
 */
export const make = (options: Options): Effect.Effect<Service, ConfigError.ConfigError> =>
  Effect.gen(function*() {
    const baseUrl = yield* parseBaseUrl(options.baseUrl)
    const apiKey = Redacted.isRedacted(options.apiKey) ? Effect.succeed(options.apiKey) : options.apiKey
    const key = yield* apiKey
    if (!headerSafe.test(Redacted.value(key))) {
      return yield* Effect.fail(ConfigError.InvalidData(["apiKey"], "The API key must be printable ASCII without spaces, as cat_live_… is"))
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
 * A variable of the environment, refused in words that name it, say what was
 * expected and give an example.
 */
const variable = <A>(config: Config.Config<A>, name: string, expected: string): Effect.Effect<A, ConfigError.ConfigError> =>
  Effect.mapError(config, (error) =>
    ConfigError.isMissingDataOnly(error)
      ? ConfigError.MissingData([name], `${name} is not set; expected ${expected}`)
      : ConfigError.InvalidData([name], `${name} is not valid; expected ${expected}`))

/**
 * The configuration from the environment: `CATALOG_API_KEY`,
 * `CATALOG_BASE_URL` and, optionally, `CATALOG_TIMEOUT` (e.g. `10 seconds`).
 * A `ConfigError` names the variable, what was expected and an example.
 *
 * @example
 * ```ts
 * import { CatalogConfig } from "effect-catalog"
 *
 * const ConfigLive = CatalogConfig.layer
 * // without CATALOG_API_KEY, fails with MissingData at CATALOG_API_KEY:
 * // "CATALOG_API_KEY is not set; expected the account's API key, e.g. export CATALOG_API_KEY=cat_live_…"
 * ```
 * @since 0.1.0
 */
export const layer: Layer.Layer<CatalogConfig, ConfigError.ConfigError> = Layer.effect(
  CatalogConfig,
  Effect.gen(function*() {
    const apiKey = yield* variable(
      Config.redacted("CATALOG_API_KEY"),
      "CATALOG_API_KEY",
      "the account's API key, e.g. export CATALOG_API_KEY=cat_live_…"
    )
    const baseUrl = yield* variable(
      Config.string("CATALOG_BASE_URL"),
      "CATALOG_BASE_URL",
      `the service's base URL, e.g. export CATALOG_BASE_URL=${exampleBaseUrl}`
    ).pipe(Effect.flatMap((text) => parseBaseUrl(text, "CATALOG_BASE_URL")))
    const timeout = yield* variable(
      Config.duration("CATALOG_TIMEOUT").pipe(Config.withDefault(defaultTimeout)),
      "CATALOG_TIMEOUT",
      "a duration, e.g. export CATALOG_TIMEOUT=\"10 seconds\""
    )
    return yield* make({ apiKey, baseUrl, timeout })
  })
)
