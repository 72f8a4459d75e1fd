/**
 * Errors that come with time, on the test clock: a request's total time
 * limit, an expired cursor and a `Retry-After`. The client's clock and the
 * simulator's move only when the test moves them, so each error is checked
 * to come exactly when it is due. HTTP exchanges still take real time,
 * which the tests wait out on the wall clock. (A file of its own:
 * `layer(…, { excludeTestServices: true })` elsewhere in a file takes the
 * test clock from its later tests.)
 */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Fiber, Layer, Redacted, TestClock } from "effect"
import { createServer as createTcpServer, type Server as TcpServer } from "node:net"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import * as Simulator from "../../common/src/simulator/Simulator.js"
import * as Client from "../support/Client.js"
import * as WallClock from "../support/WallClock.js"

describe("a simulator that answers after 500 ms, a client with a timeout of 100 ms", () => {
  it.effect("TransportError (Timeout) when the answer takes longer than the client's timeout, exactly at the timeout", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const reading = yield* Effect.fork(Effect.flip(catalog.stats()))
      // The request reaches the simulator, which waits on the test clock before it answers.
      yield* WallClock.pause(100)
      yield* TestClock.adjust("99 millis")
      yield* WallClock.pause(50)
      expect(reading.unsafePoll(), "no timeout a millisecond early").toBeNull()
      yield* TestClock.adjust("1 millis")
      const transport = yield* Fiber.join(reading)
      expect(transport._tag).toBe("TransportError")
      if (transport._tag === "TransportError") {
        expect(transport.reason).toBe("Timeout")
        expect(transport.detail).toContain("100ms")
      }
    }).pipe(
      Effect.provide(
        Client.simulatorWithClient({ sizes: { models: 50 }, enforceLimits: false, faults: { slow: 1, slowMillis: 500 } }, "full", { timeout: "100 millis" })
      )
    ))
})

describe("a server that sends the headers of a page, then one byte every 2 s", () => {
  // On the test clock for the client's time limit; the server drips on the real one.
  it.effect("the request ends with TransportError Timeout at the client's timeout, not when the server stops", () =>
    Effect.gen(function*() {
      const server = yield* Effect.acquireRelease(
        Effect.async<TcpServer>((resume) => {
          const tcp = createTcpServer((socket) => {
            socket.on("error", () => {})
            socket.write("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{")
            const drip = setInterval(() => socket.write(" "), 2_000)
            socket.on("close", () => clearInterval(drip))
          })
          tcp.listen(0, "127.0.0.1", () => resume(Effect.succeed(tcp)))
        }),
        (tcp) => Effect.async<void>((resume) => {
          tcp.close(() => resume(Effect.void))
          tcp.emit("close")
        })
      )
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      const error = yield* Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const reading = yield* Effect.fork(Effect.flip(catalog.modelsPage()))
        // The headers and the first byte arrive; the body trickles.
        yield* WallClock.pause(300)
        expect(reading.unsafePoll()).toBeNull()
        yield* TestClock.adjust("1500 millis")
        return yield* Fiber.join(reading)
      }).pipe(
        Effect.provide(CatalogClient.layer({
          ...Client.direct,
          baseUrl: `http://127.0.0.1:${port}/api/v1`,
          apiKey: Redacted.make("cat_test_key_0123456789"),
          timeout: "1500 millis"
        }).pipe(Layer.provide(NodeHttpClient.layerUndici)))
      )
      expect(error._tag).toBe("TransportError")
      if (error._tag === "TransportError") expect(error.reason).toBe("Timeout")
    }).pipe(Effect.scoped))
})

describe("a simulator on the test clock, limits off", () => {
  it.effect("CursorExpired for a cursor older than an hour, not at the hour", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const first = yield* catalog.modelsPage({ limit: 10 })
      const cursor = first.nextCursor ?? ""
      expect(cursor).not.toBe("")
      yield* TestClock.adjust("1 hours")
      expect((yield* catalog.modelsPage({ limit: 10, cursor })).items, "valid for one hour").toHaveLength(10)
      yield* TestClock.adjust("1 millis")
      const expired = yield* Effect.flip(catalog.modelsPage({ limit: 10, cursor }))
      expect(expired._tag).toBe("CursorExpired")
      if (expired._tag === "CursorExpired") {
        expect(expired.code).toBe("cursor_expired")
        expect(expired.requestId).toMatch(/^req_/)
      }
      // Restarting the listing works.
      expect((yield* catalog.modelsPage({ limit: 10 })).items).toHaveLength(10)
    }).pipe(Effect.provide(Client.simulatorWithClient({ sizes: { models: 300 }, enforceLimits: false }))))

  it.effect("RateLimited with the Retry-After the service asked for; the next call waits exactly that long", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const simulator = yield* Simulator.Simulator
      yield* simulator.injectRateLimit(1, 2_000)
      const limited = yield* Effect.flip(catalog.stats())
      expect(limited._tag).toBe("RateLimited")
      if (limited._tag === "RateLimited") {
        expect(limited.code).toBe("rate_limited")
        expect(Duration.toMillis(limited.retryAfter)).toBe(2_000)
      }
      const next = yield* Effect.fork(catalog.stats())
      yield* WallClock.pause(100)
      yield* TestClock.adjust("1999 millis")
      yield* WallClock.pause(100)
      expect(next.unsafePoll(), "no call a millisecond early").toBeNull()
      yield* TestClock.adjust("1 millis")
      expect((yield* Fiber.join(next)).id).toBe("catalog")
    }).pipe(Effect.provide(Client.simulatorWithClient({ sizes: { models: 50 }, enforceLimits: false }))))
})
