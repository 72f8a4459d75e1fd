/**
 * A CatalogClient against a simulator, for tests.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { Effect, Layer, Redacted } from "effect"
import * as Admission from "../../common/src/client/Admission.js"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import * as Simulator from "../../common/src/simulator/Simulator.js"
import * as Stub from "./Stub.js"

/**
 * A client that sends every request at once and never retries: for tests of
 * what a single answer gives.
 */
export const direct = { limits: Admission.noLimits, retry: { retries: 0 } } satisfies Partial<CatalogClient.Options>

/**
 * The limits a client of this simulator keeps to: its limits (scaled by its
 * time scale), known (no `/usage/` read), or none when it enforces none.
 */
export const limitsOf = (simulator: Simulator.Service): Partial<Admission.Limits> =>
  simulator.options.enforceLimits
    ? {
      live: false,
      perTenSeconds: simulator.options.limits.perTenSeconds,
      perMinute: simulator.options.limits.perMinute,
      concurrent: simulator.options.limits.concurrent,
      timeScale: simulator.options.timeScale
    }
    : Admission.noLimits

/**
 * A client of the simulator in context, with one of its keys. Unless options
 * say otherwise it never retries, and it keeps to the simulator's limits
 * (`limitsOf`).
 */
export const client = (key: Simulator.KeyName = "full", options: Partial<CatalogClient.Options> = {}) =>
  Layer.unwrapEffect(
    Effect.map(Simulator.Simulator, (simulator) =>
      CatalogClient.layer({
        baseUrl: simulator.baseUrl,
        apiKey: simulator.keys[key],
        retry: { retries: 0 },
        limits: limitsOf(simulator),
        ...options
      }))
  )

/** A simulator with these settings, a client of it, and an HTTP client. */
export const simulatorWithClient = (
  settings: Simulator.Settings = {},
  key: Simulator.KeyName = "full",
  options: Partial<CatalogClient.Options> = {}
) => client(key, options).pipe(Layer.provideMerge(Layer.merge(Simulator.layer(settings), NodeHttpClient.layerUndici)))

/**
 * A stub server, a client of it with this key (a `direct` one unless options
 * say otherwise), and an HTTP client.
 */
export const stubWithClient = (apiKey: string, options: Partial<CatalogClient.Options> = {}) =>
  Layer.unwrapEffect(
    Effect.map(Stub.Stub, (stub) => CatalogClient.layer({ ...direct, baseUrl: stub.baseUrl, apiKey: Redacted.make(apiKey), ...options }))
  ).pipe(Layer.provideMerge(Layer.merge(Stub.layer, NodeHttpClient.layerUndici)))
