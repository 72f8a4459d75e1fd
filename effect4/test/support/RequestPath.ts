/**
 * The request path's tests' stubs and fixtures (`send.test.ts`,
 * `liveAllowance.test.ts`): an `HttpClient.make` stub that answers at once
 * (`/usage/` with a wire usage, everything else as the test says) and keeps
 * what it received, and a request path over it with its budget, cache and
 * live allowance, without admission limits.
 */
import { Effect, Redacted } from "effect"
import { HttpClient, HttpClientResponse } from "effect/http"
import * as Admission from "../../../common/src/client/Admission.js"
import { noLimits } from "../../src/client/AdmissionWindows.js"
import * as Budget from "../../../common/src/client/Budget.js"
import * as CatalogConfig from "../../../common/src/client/CatalogConfig.js"
import { decoder } from "../../src/client/internal/Decoder.js"
import * as Send from "../../../common/src/client/internal/Send.js"
import * as LiveAllowance from "../../../common/src/client/LiveAllowance.js"
import { errorKindOf } from "../../../common/src/client/OperationErrors.js"
import * as ResponseCache from "../../../common/src/client/ResponseCache.js"
import * as Retry from "../../../common/src/client/Retry.js"
import { DetailEnvelope } from "../../../common/src/contract/Envelopes.js"
import * as Operations from "../../../common/src/contract/Operations.js"

export const base = "https://catalog.test/api/v1"
export const SECRET = "cat_live_Zq8R3vT1xW9pL2mN7bC4dF6gH0jK5yUe"

export const wireStats = { id: "catalog", models: 1, skills: 2, mcps: 3, organizations: 4, providers: 5, families: 6 }

export const wireUsage = {
  daily_limit: 10_000,
  monthly_limit: 100_000,
  daily_units: 10,
  monthly_units: 100,
  daily_bytes: 0,
  daily_byte_limit: 1_000_000_000,
  minute_limit: 60,
  daily_reset_at: "2026-01-02T00:00:00Z",
  monthly_reset_at: "2026-02-01T00:00:00Z"
}

/** What a stub answers. */
export interface Reply {
  readonly status: number
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string
}

export const json = (status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): Reply => ({
  status,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body)
})

export const problem = (status: number, code: string, headers: Readonly<Record<string, string>> = {}): Reply =>
  json(status, { type: "about:blank", title: code, status, code, detail: code, request_id: `req_${status}` }, headers)

/** A request as the stub received it: its path and query, and its headers. */
export interface Received {
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
}

/** An HTTP client that answers `/usage/` with `wireUsage` and every other request with `reply`, and what it received. */
export const stub = (reply: (request: Received, index: number) => Reply) => {
  const received: Array<Received> = []
  const client = HttpClient.make((request, url) =>
    Effect.sync(() => {
      const seen: Received = { path: `${url.pathname}${url.search}`, headers: { ...request.headers } }
      received.push(seen)
      const answer = url.pathname.endsWith("/usage/")
        ? json(200, { data: wireUsage })
        : reply(seen, received.filter((other) => !other.path.endsWith("/usage/")).length - 1)
      return HttpClientResponse.fromWeb(request, new Response(answer.status === 304 ? null : answer.body ?? null, answer))
    })
  )
  return { client, received }
}

/** How a test's request path is made: its retries, its middleware, whether admission follows the live allowance. */
export interface PathOptions {
  readonly policy?: Partial<Retry.Policy>
  readonly middleware?: ReadonlyArray<Send.Middleware>
  readonly live?: boolean
}

/** The request path over `client`, without admission limits, with its budget and live allowance. */
export const pathOver = (client: HttpClient.HttpClient, options: PathOptions = {}) =>
  Effect.gen(function*() {
    const config = yield* CatalogConfig.make({ baseUrl: base, apiKey: Redacted.make(SECRET) })
    const admission = yield* Effect.flatMap(Admission.memoryStore({ ...noLimits, live: options.live ?? false }), Admission.make)
    const budget = yield* Budget.Budget
    const cache = yield* ResponseCache.ResponseCache
    const allowance = yield* LiveAllowance.make.pipe(
      Effect.provideService(CatalogConfig.CatalogConfig, config),
      Effect.provideService(HttpClient.HttpClient, client),
      Effect.provideService(Admission.Admission, admission)
    )
    const policy: Retry.Policy = { ...Retry.defaultPolicy, retries: 0, ...options.policy }
    const path = yield* Send.requestPath({ config, client, admission, allowance, budget, cache, policy, middleware: options.middleware ?? [] })
    return { path, budget, allowance }
  })

export const withServices = Effect.provide([Budget.layer(), ResponseCache.layerMemory()])

export const statsErrors = errorKindOf(Operations.stats)
export const statsPurpose = {
  operation: Operations.stats,
  scope: null,
  isAllowed: statsErrors.is,
  allows: statsErrors.allows
}
export const decodeStats = decoder(DetailEnvelope(Operations.stats.item))
export const statsUrl = new URL(`${base}/stats/`)
