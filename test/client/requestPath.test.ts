/**
 * The request path as composable `HttpClient` steps: a step of one's own
 * (`CatalogClient.Options.steps`) sees every attempt, after the budget and
 * before admission, and what it does to a request reaches the service,
 * beside the key the exchange sets.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Layer, Redacted, Ref } from "effect"
import * as Admission from "../../common/src/client/Admission.js"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
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
