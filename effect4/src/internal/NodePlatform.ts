/**
 * What the shared modules take from `effect/http` and
 * `@effect/platform-node` beyond the client's needs, apart from
 * `Edition.ts` so that loading the client does not load the Node HTTP
 * client: the error of a server that cannot listen, and undici's
 * `HttpClient` layer.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { HttpServerError } from "effect/http"

export const ServeError = HttpServerError.ServeError
export type ServeError = HttpServerError.ServeError
export const undiciLayer = NodeHttpClient.layerUndici
