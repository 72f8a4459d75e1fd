/**
 * A stub HTTP server on loopback that answers whatever a test tells it to and
 * records every request it gets: for answers the simulator never gives
 * (statuses and bodies outside the contract, foreign links, echoed secrets).
 */
import { HttpServer, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Context, Effect, Layer, Ref } from "effect"
import { createServer } from "node:http"

export interface Received {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
}

export interface Reply {
  readonly status: number
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string
}

export interface Service {
  /** `http://127.0.0.1:PORT/api/v1` */
  readonly baseUrl: string
  /** `http://127.0.0.1:PORT`, the server's origin. */
  readonly origin: string
  /** Sets how the next requests are answered. */
  readonly answer: (respond: (request: Received) => Reply) => Effect.Effect<void>
  /** Every request received, oldest first. */
  readonly received: Effect.Effect<ReadonlyArray<Received>>
}

export class Stub extends Context.Tag("test/Stub")<Stub, Service>() {}

export const json = (status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): Reply => ({
  status,
  headers: { "content-type": status < 400 ? "application/json" : "application/problem+json", ...headers },
  body: JSON.stringify(body)
})

const make = Effect.gen(function*() {
  const server = yield* HttpServer.HttpServer
  const port = server.address._tag === "TcpAddress" ? server.address.port : 0
  const respond = yield* Ref.make<(request: Received) => Reply>(() => json(404, { code: "not_found" }))
  const received = yield* Ref.make<ReadonlyArray<Received>>([])
  yield* HttpServer.serveEffect(
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const entry: Received = { url: request.url, headers: request.headers }
      yield* Ref.update(received, (all) => [...all, entry])
      const reply = (yield* Ref.get(respond))(entry)
      return HttpServerResponse.text(reply.body ?? "", { status: reply.status, headers: reply.headers ?? {} })
    })
  )
  const service: Service = {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    origin: `http://127.0.0.1:${port}`,
    answer: (next) => Ref.set(respond, next),
    received: Ref.get(received)
  }
  return service
})

export const layer = Layer.scoped(Stub, make).pipe(
  Layer.provide(NodeHttpServer.layer(() => createServer(), { port: 0, host: "127.0.0.1" }))
)
