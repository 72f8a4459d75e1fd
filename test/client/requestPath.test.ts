/**
 * The request path as composable `HttpClient` steps: a step of one's own
 * (`CatalogClient.Options.steps`) sees every attempt, after the budget and
 * before admission, and what it does to a request reaches the service,
 * beside the key the exchange sets.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Layer, Redacted, Ref } from "effect"
import * as Admission from "../../common/src/client/Admission.js"
import * as Budget from "../../common/src/client/Budget.js"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import * as Errors from "../../common/src/client/Errors.js"
import * as ResponseCache from "../../common/src/client/ResponseCache.js"
import * as Retry from "../../common/src/client/Retry.js"
import * as Stub from "../support/Stub.js"

const key = "cat_test_steps_0123456789abcdef"

const stats = { id: "catalog", models: 1, skills: 0, mcps: 0, organizations: 0, providers: 0, families: 0 }

describe("the request path", () => {
  it.live("a step of one's own sets a header on every attempt, retries included; the key is still set by the exchange", () =>
    Effect.gen(function*() {
      const attempts = yield* Ref.make(0)
      const counting: CatalogClient.Step = HttpClient.tapRequest(() => Ref.update(attempts, (n) => n + 1))
      const tagged: CatalogClient.Step = HttpClient.mapRequest(HttpClientRequest.setHeader("x-team", "search"))
      const stub = yield* Stub.Stub
      let served = 0
      yield* stub.answer(() =>
        served++ === 0 ? Stub.json(503, { code: "service_unavailable" }, { "retry-after": "0" }) : Stub.json(200, { data: stats })
      )
      const client = CatalogClient.layer({
        baseUrl: stub.baseUrl,
        apiKey: Redacted.make(key),
        limits: Admission.noLimits,
        retry: { retries: 2, base: Duration.millis(1) },
        middleware: [counting, tagged]
      }).pipe(Layer.provide(NodeHttpClient.layerUndici))
      yield* Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        expect(yield* catalog.stats()).toMatchObject({ id: "catalog", models: 1 })
      }).pipe(Effect.provide(client))
      const received = yield* stub.received
      expect(received).toHaveLength(2)
      for (const request of received) {
        expect(request.headers["x-team"]).toBe("search")
        expect(request.headers["authorization"]).toBe(`Bearer ${key}`)
      }
      expect(yield* Ref.get(attempts)).toBe(2)
    }).pipe(Effect.provide(Stub.layer)))
})

/** A client whose requests may fail in transit. */
type Flaky = HttpClient.HttpClient.With<HttpClientError.HttpClientError | Errors.TransportError>

describe("the steps users compose take the client first or last (dual), in Effect 3 too", () => {
  /** A client that answers every request with a 503 and counts what it was sent. */
  const unavailable = Effect.map(Ref.make(0), (sent) => ({
    sent,
    client: HttpClient.make((request) =>
      Effect.as(Ref.update(sent, (n) => n + 1), HttpClientResponse.fromWeb(request, new Response("{}", { status: 503 })))
    )
  }))

  it.effect("Admission, Budget, ResponseCache, LiveAllowance and Retry: client first is the same step as client last", () =>
    Effect.gen(function*() {
      const admission = yield* Admission.Admission
      const budget = yield* Budget.Budget
      const cache = yield* ResponseCache.ResponseCache
      const { client, sent } = yield* unavailable
      const first = Budget.step(ResponseCache.step(Admission.step(client, admission), cache), budget, () => ({ operation: "search", units: 5 }))
      const last = client.pipe(Admission.step(admission), ResponseCache.step(cache), Budget.step(budget, () => ({ operation: "search", units: 5 })))
      for (const stepped of [first, last]) expect((yield* stepped.get("http://catalog.test/api/v1/search/")).status).toBe(503)
      expect(yield* Ref.get(sent)).toBe(2)
      expect((yield* budget.spent).byOperation.get("search")).toMatchObject({ requests: 2, units: 0 })
    }).pipe(Effect.provide(Layer.mergeAll(Admission.layerMemory(Admission.contractLimits), Budget.layer(), ResponseCache.layerMemory()))))

  it.live("Retry: client first or last, the connection that failed once is tried again", () =>
    Effect.gen(function*() {
      const policy: Retry.Policy = { ...Retry.defaultPolicy, retries: 1, base: Duration.millis(1) }
      for (const stepOf of [(client: Flaky) => Retry.step(client, policy), (client: Flaky) => client.pipe(Retry.step(policy))]) {
        const { client, sent } = yield* unavailable
        const failures = yield* Ref.make(1)
        type Answer = Effect.Effect<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError | Errors.TransportError>
        const flaky: Flaky = HttpClient.transform(client, (response) =>
          Effect.flatMap(Ref.getAndUpdate(failures, (n) => n - 1), (left): Answer =>
            left > 0 ? Effect.fail(new Errors.TransportError({ reason: "Connection", detail: "reset" })) : response))
        expect((yield* stepOf(flaky).get("http://catalog.test/api/v1/stats/")).status).toBe(503)
        expect(yield* Ref.get(sent)).toBe(1)
      }
    }))
})
