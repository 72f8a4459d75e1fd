/**
 * What a client sent, recorded by middleware of its own (run once per
 * attempt, after admission): when each request left, its path and the page
 * it asked for.
 *
 * @example
 * const traffic = Traffic.recorder()
 * const layer = simulatorWithClient({}, { middleware: [traffic.middleware] })
 * // ... scan ...
 * expect(traffic.sent.map((request) => request.limit)).toEqual(["100", "100"])
 */
import { Effect, Option } from "effect"
import { HttpClient, UrlParams } from "effect/http"
import type { CatalogClient } from "effect-catalog"

/** A request as it left the client. */
export interface Sent {
  /** When it left, on the wall clock. */
  readonly at: number
  readonly path: string
  readonly limit: string | null
  readonly cursor: string | null
}

/** Middleware that records every request the client sends, and the record. */
export const recorder = () => {
  const sent: Array<Sent> = []
  const middleware: CatalogClient.Middleware = (client) =>
    HttpClient.tapRequest(client, (request) =>
      Effect.sync(() => {
        sent.push({
          at: Date.now(),
          path: new URL(request.url).pathname,
          limit: Option.getOrNull(UrlParams.getFirst(request.urlParams, "limit")),
          cursor: Option.getOrNull(UrlParams.getFirst(request.urlParams, "cursor"))
        })
      }))
  return { sent, middleware }
}
