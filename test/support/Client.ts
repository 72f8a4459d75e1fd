/**
 * A CatalogClient against a simulator, for tests.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import * as Admission from "../../src/client/Admission.js"
import * as CatalogClient from "../../src/client/CatalogClient.js"
import * as Simulator from "../../src/simulator/Simulator.js"

/**
 * A client that sends every request at once and never retries: for tests of
 * what a single answer gives.
 */
export const direct = { limits: Admission.noLimits, retry: { retries: 0 } } satisfies Partial<CatalogClient.Options>

/**
 * A client of the simulator in context, with one of its keys. Unless options
 * say otherwise it never retries, and it keeps to the simulator's limits
 * (scaled by its time scale), known (no `/usage/` read), or to none when the
 * simulator enforces none.
 */
export const client = (key: Simulator.KeyName = "full", options: Partial<CatalogClient.Options> = {}) =>
  Layer.unwrapEffect(
    Effect.map(Simulator.Simulator, (simulator) =>
      CatalogClient.layerWith({
        baseUrl: simulator.baseUrl,
        apiKey: simulator.keys[key],
        retry: { retries: 0 },
        limits: simulator.options.enforceLimits
          ? {
            live: false,
            perTenSeconds: simulator.options.limits.perTenSeconds,
            perMinute: simulator.options.limits.perMinute,
            concurrent: simulator.options.limits.concurrent,
            timeScale: simulator.options.timeScale
          }
          : Admission.noLimits,
        ...options
      }))
  )

/** A simulator with these settings, a client of it, and an HTTP client. */
export const simulatorWithClient = (
  settings: Simulator.Settings = {},
  key: Simulator.KeyName = "full",
  options: Partial<CatalogClient.Options> = {}
) => client(key, options).pipe(Layer.provideMerge(Layer.merge(Simulator.layer(settings), NodeHttpClient.layerUndici)))
