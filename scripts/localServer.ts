/** What the scripts that start private servers (Redis, PostgreSQL) for the tests and benchmarks share. */
import { createServer } from "node:net"

/** An error whose report is its message alone: a stack says nothing to its reader. */
export const setupFailure = (message: string) => {
  const error = new Error(message)
  error.stack = `Error: ${message}`
  return error
}

/** A loopback port free now. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })
