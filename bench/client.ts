/**
 * The client of a simulator, as every benchmark builds it. Its own module,
 * with only what the client needs, so that the memory benchmark's scanner
 * loads nothing else.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Layer, Redacted } from "effect"
import { CatalogClient } from "../src/index.js"

/** The client of a simulator, over undici, with the shared services exposed. */
export const clientOf = (baseUrl: string, key: string, options: Omit<CatalogClient.Options, "baseUrl" | "apiKey"> = {}) =>
  CatalogClient.layer({ baseUrl, apiKey: Redacted.make(key), ...options }).pipe(Layer.provide(NodeHttpClient.layerUndici))
