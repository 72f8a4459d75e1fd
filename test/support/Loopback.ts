/**
 * Ports on loopback, for tests of a client that cannot connect.
 *
 * @example
 * const port = yield* Loopback.closedPort
 * const baseUrl = `http://127.0.0.1:${port}/api/v1`
 */
import { Effect } from "effect"
import { createServer } from "node:net"

/** A port on loopback on which nothing listens. */
export const closedPort = Effect.async<number>((resume) => {
  const server = createServer()
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})
