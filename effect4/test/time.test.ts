/**
 * Errors that come with time, on the `TestClock`: a request's total time
 * limit (against a server that never answers, and one that sends a page's
 * headers and then trickles its body), an expired cursor and a
 * `Retry-After`. The client's clock, and the simulator's, move only when the
 * test moves them, so each error is checked to come exactly when it is due,
 * not a millisecond early. HTTP exchanges still take real time, which the
 * tests wait out on the wall clock.
 */
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { createServer, type Server, type Socket } from "node:net"
import { CatalogClient } from "effect-catalog"
import { Simulator } from "effect-catalog/simulator"
import { clientOf, optionsOf, simulatorWithClient } from "./support/Client.js"

/** Waits `millis` of real time, whatever the `TestClock` says. */
const realPause = (millis: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, millis)))

/** Waits in real time, 10 s at most, until `condition` holds. */
const eventually = (condition: () => boolean) =>
  Effect.gen(function*() {
    const deadline = Date.now() + 10_000
    while (!condition() && Date.now() < deadline) yield* realPause(5)
    expect(condition()).toBe(true)
  })

/** A TCP server on loopback that writes `onConnection` to each connection, and the count of connections; closed, its connections too, with the scope. */
const tcpServer = (onConnection: (write: (text: string) => void, closed: (stop: () => void) => void) => void) =>
  Effect.acquireRelease(
    Effect.callback<{ readonly server: Server; readonly sockets: Array<Socket> }>((resume) => {
      const sockets: Array<Socket> = []
      const server = createServer((socket) => {
        sockets.push(socket)
        socket.on("error", () => {})
        onConnection((text) => socket.write(text), (stop) => socket.on("close", stop))
      })
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed({ server, sockets })))
    }),
    ({ server, sockets }) =>
      Effect.callback<void>((resume) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ server, sockets }) => {
    const address = server.address()
    return { port: typeof address === "object" && address !== null ? address.port : 0, connections: () => sockets.length }
  }))

const key = "cat_test_key_0123456789"

describe("the client's time limit, on the TestClock", () => {
  it.effect("a server that never answers: TransportError (Timeout) exactly at the client's timeout", () =>
    Effect.gen(function*() {
      const silent = yield* tcpServer(() => {})
      const error = yield* Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const reading = yield* Effect.forkChild(Effect.flip(catalog.stats()))
        yield* eventually(() => silent.connections() === 1)
        yield* TestClock.adjust("99 millis")
        yield* realPause(50)
        expect(reading.pollUnsafe(), "no timeout a millisecond early").toBeUndefined()
        yield* TestClock.adjust("1 millis")
        return yield* Fiber.join(reading)
      }).pipe(Effect.provide(clientOf(optionsOf(`http://127.0.0.1:${silent.port}/api/v1`, key, { timeout: "100 millis" }))))
      expect(error._tag).toBe("TransportError")
      if (error._tag === "TransportError") {
        expect(error.reason).toBe("Timeout")
        expect(error.detail).toContain("100")
      }
    }))

  it.effect("a server that sends a page's headers, then a byte every 2 s: Timeout at the client's timeout, not when the server stops", () =>
    Effect.gen(function*() {
      const dripping = yield* tcpServer((write, closed) => {
        write("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{")
        const drip = setInterval(() => write(" "), 2_000)
        closed(() => clearInterval(drip))
      })
      const error = yield* Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const reading = yield* Effect.forkChild(Effect.flip(catalog.modelsPage()))
        yield* eventually(() => dripping.connections() === 1)
        // The headers and the first byte arrive; the body trickles.
        yield* realPause(200)
        yield* TestClock.adjust("1499 millis")
        yield* realPause(50)
        expect(reading.pollUnsafe(), "no timeout a millisecond early").toBeUndefined()
        yield* TestClock.adjust("1 millis")
        return yield* Fiber.join(reading)
      }).pipe(Effect.provide(clientOf(optionsOf(`http://127.0.0.1:${dripping.port}/api/v1`, key, { timeout: "1500 millis" }))))
      expect(error._tag).toBe("TransportError")
      if (error._tag === "TransportError") expect(error.reason).toBe("Timeout")
    }))
})

describe("a simulator and a client on the TestClock, limits off", () => {
  it.effect("CursorExpired for a cursor older than an hour, not at the hour; the listing read from its start again works", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const first = yield* catalog.modelsPage({ limit: 10 })
      const cursor = first.nextCursor ?? ""
      expect(cursor).not.toBe("")
      yield* TestClock.adjust("1 hour")
      expect((yield* catalog.modelsPage({ limit: 10, cursor })).items, "valid for one hour").toHaveLength(10)
      yield* TestClock.adjust("1 millis")
      const expired = yield* Effect.flip(catalog.modelsPage({ limit: 10, cursor }))
      expect(expired._tag).toBe("CursorExpired")
      if (expired._tag === "CursorExpired") {
        expect(expired.code).toBe("cursor_expired")
        expect(expired.requestId).toMatch(/^req_/)
      }
      expect((yield* catalog.modelsPage({ limit: 10 })).items).toHaveLength(10)
    }).pipe(Effect.provide(simulatorWithClient({ sizes: { models: 300 } }))))

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
      const next = yield* Effect.forkChild(catalog.stats())
      yield* realPause(100)
      yield* TestClock.adjust("1999 millis")
      yield* realPause(100)
      expect(next.pollUnsafe(), "no call a millisecond early").toBeUndefined()
      expect(yield* simulator.answered).toHaveLength(1)
      yield* TestClock.adjust("1 millis")
      expect((yield* Fiber.join(next)).id).toBe("catalog")
      expect((yield* simulator.answered).map((answer) => answer.status)).toEqual([429, 200])
    }).pipe(Effect.provide(simulatorWithClient({ sizes: { models: 50 } }))))
})
