/**
 * What the shared modules take from `@effect/platform` and
 * `@effect/platform-node` beyond the client's needs, apart from
 * `Edition.ts` so that loading the client does not load the Node HTTP
 * client: the error of a server that cannot listen, and undici's
 * `HttpClient` layer.
 */
export { ServeError } from "@effect/platform/HttpServerError"
export { layerUndici as undiciLayer } from "@effect/platform-node/NodeHttpClient"
