/**
 * A stub HTTP server on loopback that answers whatever a test tells it to
 * and records every request it gets: for answers the simulator never gives
 * (statuses and bodies outside the contract, foreign links, echoed keys).
 *
 * @example
 * const stub = yield* Stub.Stub
 * yield* stub.answer(() => Stub.json(200, { data: stats }))
 * expect((yield* stub.received).map((request) => request.url)).toEqual(["/api/v1/stats/"])
 */
import { Context, Effect, Layer } from "effect"
import { createServer, type Server } from "node:http"

/** A request as the stub received it: its request line's target and its headers. */
export interface Received {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
}

/** What the stub answers. */
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

export class Stub extends Context.Service<Stub, Service>()("test/Stub") {}

/** A JSON answer: `application/json` below 400, `application/problem+json` from 400. */
export const json = (status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): Reply => ({
  status,
  headers: { "content-type": status < 400 ? "application/json" : "application/problem+json", ...headers },
  body: JSON.stringify(body)
})

/** The headers of a request, each once, as strings. */
const headersOf = (raw: ReadonlyArray<string>): Record<string, string> => {
  const headers: Record<string, string> = {}
  for (let index = 0; index + 1 < raw.length; index += 2) headers[(raw[index] ?? "").toLowerCase()] = raw[index + 1] ?? ""
  return headers
}

/** A server on a free loopback port that answers with `reply`, closed (its connections too) when the scope closes. */
const listening = (reply: (request: Received) => Reply) =>
  Effect.acquireRelease(
    Effect.callback<Server>((resume) => {
      const server = createServer((request, response) => {
        const answer = reply({ url: request.url ?? "", headers: headersOf(request.rawHeaders) })
        response.writeHead(answer.status, { ...answer.headers })
        response.end(answer.status === 304 || answer.status === 204 ? undefined : answer.body ?? "")
      })
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
    }),
    (server) =>
      Effect.callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

/** Starts a stub in the current scope. */
export const make = Effect.gen(function*() {
  let respond: (request: Received) => Reply = () => json(404, { code: "not_found" })
  const received: Array<Received> = []
  const server = yield* listening((request) => {
    received.push(request)
    return respond(request)
  })
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  const service: Service = {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    origin: `http://127.0.0.1:${port}`,
    answer: (next) =>
      Effect.sync(() => {
        respond = next
      }),
    received: Effect.sync(() => [...received])
  }
  return service
})

/** A stub for as long as the layer is in use. */
export const layer: Layer.Layer<Stub> = Layer.effect(Stub, make)
