/**
 * A `CatalogClient` of a loopback stub server, for tests of answers the
 * simulator never gives, or of a simulator, with options of a test's own.
 *
 * @example
 * const env = stubWithClient("cat_test_0123456789")
 * it.effect("...", () => Effect.gen(function*() { ... }).pipe(Effect.provide(env)))
 */
import { NodeHttpClient } from "@effect/platform-node"
import { Effect, Layer, Redacted } from "effect"
import type { Config } from "effect"
import type { HttpServerError } from "effect/http"
import { Admission, CatalogClient } from "effect-catalog"
import { Simulator } from "effect-catalog/simulator"
import * as Stub from "./Stub.js"

/** A client that sends every request at once and never retries: for tests of what a single answer gives. */
export const direct = { limits: Admission.noLimits, retry: { retries: 0 } } satisfies Partial<CatalogClient.Options>

/** The options of a client of `baseUrl` with `apiKey`, `direct` unless `options` say otherwise. */
export const optionsOf = (baseUrl: string, apiKey: string, options: Partial<CatalogClient.Options> = {}): CatalogClient.Options => ({
  ...direct,
  baseUrl,
  apiKey: Redacted.make(apiKey),
  ...options
})

/** A client of `baseUrl` over undici. */
export const clientOf = (options: CatalogClient.Options): Layer.Layer<CatalogClient.Provided, Config.ConfigError> =>
  CatalogClient.layer(options).pipe(Layer.provide(NodeHttpClient.layerUndici))

/** A stub server and a client of it with this key (a `direct` one unless options say otherwise). */
export const stubWithClient = (
  apiKey: string,
  options: Partial<CatalogClient.Options> = {}
): Layer.Layer<Stub.Stub | CatalogClient.Provided, Config.ConfigError> =>
  Layer.unwrap(Stub.Stub.use((stub) => Effect.succeed(clientOf(optionsOf(stub.baseUrl, apiKey, options))))).pipe(
    Layer.provideMerge(Stub.layer)
  )

/**
 * A simulator with these settings (its limits off unless they say
 * otherwise) and a client of it with one of its keys: a `direct` one on the
 * clock of the fiber that sends (the `TestClock` in `it.effect`) unless
 * options say otherwise.
 */
export const simulatorWithClient = (
  settings: Simulator.Settings = {},
  options: Partial<CatalogClient.Options> = {},
  key: Simulator.KeyName = "full"
): Layer.Layer<Simulator.Simulator | CatalogClient.Provided, Config.ConfigError | HttpServerError.ServeError> =>
  Layer.unwrap(
    Simulator.Simulator.use((simulator) => Effect.succeed(clientOf({ ...direct, baseUrl: simulator.baseUrl, apiKey: simulator.keys[key], ...options })))
  ).pipe(Layer.provideMerge(Simulator.layer({ enforceLimits: false, ...settings })))
