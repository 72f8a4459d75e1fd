/**
 * The Effect 4 edition's simulator, the standalone simulator of the Effect 3
 * edition started by a layer: it serves the catalog to the full key and
 * refuses the revoked one; its switches are effects (faults, counts, what it
 * answered, what a collection lists); its account's windows follow the
 * `TestClock` of the fiber that built it; and it stops when its layer ends.
 */
import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Redacted } from "effect"
import { FetchHttpClient, HttpClient, type HttpClientError } from "effect/http"
import { TestClock } from "effect/testing"
import { Simulator } from "effect-catalog/simulator"

/** The status of a GET of `path` on the simulator, sent with the key `key`. */
const status = (
  simulator: Simulator.Service,
  path: string,
  key: Simulator.KeyName = "full"
): Effect.Effect<number, HttpClientError.HttpClientError> =>
  HttpClient.get(`${simulator.baseUrl}${path}`, { headers: { authorization: `Bearer ${Redacted.value(simulator.keys[key])}` } }).pipe(
    Effect.map((response) => response.status),
    Effect.provide(FetchHttpClient.layer)
  )

describe("Simulator", () => {
  it.layer(Simulator.layer({ sizes: { models: 30 }, enforceLimits: false }))("layer", (it) => {
    it.effect("serves /models/ to the full key and refuses the revoked key", () =>
      Effect.gen(function*() {
        const simulator = yield* Simulator.Simulator
        expect(simulator.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/)
        expect(simulator.options.sizes.models).toBe(30)
        const response = yield* HttpClient.get(`${simulator.baseUrl}/models/`, {
          headers: { authorization: `Bearer ${Redacted.value(simulator.keys.full)}` }
        }).pipe(Effect.provide(FetchHttpClient.layer))
        expect(response.status).toBe(200)
        const body = yield* response.json
        expect(body).toHaveProperty("data")
        expect(yield* status(simulator, "/models/", "revoked")).toBe(401)
      }))

    it.effect("its switches: faults, status counts, what it answered, what a collection lists", () =>
      Effect.gen(function*() {
        const simulator = yield* Simulator.Simulator
        const before = yield* simulator.statusCounts
        const answeredBefore = (yield* simulator.answered).length
        yield* simulator.setFaults({ unavailable: 1 })
        expect(yield* status(simulator, "/models/")).toBe(503)
        yield* simulator.setFaults({ unavailable: 0 })
        expect(yield* status(simulator, "/models/")).toBe(200)
        const counts = yield* simulator.statusCounts
        expect(counts.get(503) ?? 0).toBe((before.get(503) ?? 0) + 1)
        expect(counts.get(200) ?? 0).toBe((before.get(200) ?? 0) + 1)
        const answered = yield* simulator.answered
        expect(answered.slice(answeredBefore).map((request) => request.status)).toEqual([503, 200])
        const listed = yield* simulator.listed("models")
        expect(listed).toHaveLength(30)
        expect(new Set(listed.map((model) => model.id)).size).toBe(30)
        expect(yield* simulator.lifetimeOf("models", listed[0]?.id ?? "")).toEqual({ born: 0, died: Number.POSITIVE_INFINITY })
        expect(yield* simulator.epoch).toBeGreaterThanOrEqual(0)
      }))
  })

  it.layer(Simulator.layer({ sizes: { models: 10 }, enforceLimits: true, timeScale: 0.01 }))("on the TestClock", (it) => {
    it.effect("ten requests fill the 10 s window (100 ms at a time scale of 0.01); TestClock.adjust opens it again", () =>
      Effect.gen(function*() {
        const simulator = yield* Simulator.Simulator
        const start = yield* Clock.currentTimeMillis
        const statuses = yield* Effect.forEach(Array.from({ length: 11 }), () => status(simulator, "/stats/"))
        expect(statuses).toEqual([...Array<number>(10).fill(200), 429])
        yield* TestClock.adjust("100 millis")
        expect(yield* status(simulator, "/models/")).toBe(200)
        // The account counted each request at its arrival on the TestClock, not on the real clock.
        const arrivals = (yield* simulator.answered).map((request) => request.arrived - start)
        expect(arrivals).toEqual([...Array<number>(11).fill(0), 100])
      }))
  })

  it.effect("stops when its layer ends: a request after it fails to connect", () =>
    Effect.gen(function*() {
      const simulator = yield* Effect.provide(
        Effect.gen(function*() {
          const simulator = yield* Simulator.Simulator
          expect(yield* status(simulator, "/models/")).toBe(200)
          return simulator
        }),
        Simulator.layer({ sizes: { models: 5 } })
      )
      const refused = yield* Effect.flip(status(simulator, "/models/"))
      expect(refused.reason._tag).toBe("TransportError")
    }))

  it.effect("make: the simulator stops when its scope closes", () =>
    Effect.gen(function*() {
      const simulator = yield* Effect.scoped(Simulator.make({ sizes: { models: 5 } }))
      const refused = yield* Effect.flip(status(simulator, "/models/"))
      expect(refused.reason._tag).toBe("TransportError")
    }))
})
