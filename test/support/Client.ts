/**
 * A CatalogClient against a simulator, for tests.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import * as CatalogClient from "../../src/client/CatalogClient.js"
import type * as CatalogConfig from "../../src/client/CatalogConfig.js"
import * as Simulator from "../../src/simulator/Simulator.js"

/** A client of the simulator in context, with one of its keys. */
export const client = (key: Simulator.KeyName = "full", options: Partial<CatalogConfig.Options> = {}) =>
  Layer.unwrapEffect(
    Effect.map(Simulator.Simulator, (simulator) =>
      CatalogClient.layerWith({ baseUrl: simulator.baseUrl, apiKey: simulator.keys[key], ...options }))
  )

/** A simulator with these settings, a client of it, and an HTTP client. */
export const simulatorWithClient = (
  settings: Simulator.Settings = {},
  key: Simulator.KeyName = "full",
  options: Partial<CatalogConfig.Options> = {}
) => client(key, options).pipe(Layer.provideMerge(Layer.merge(Simulator.layer(settings), NodeHttpClient.layerUndici)))
