/**
 * An HTTPS server on loopback whose certificate does not verify: self-signed
 * for 127.0.0.1, made by `openssl` for the run (valid for 100 years, so it
 * fails for being self-signed and nothing else). It counts the connections
 * it accepts, so a test sees how often a client tried; a request that got
 * through is answered with an empty object.
 *
 * @example
 * const server = yield* Tls.selfSignedServer
 * expect(server.connections()).toBe(1)
 */
import { Effect, type Scope } from "effect"
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer } from "node:https"
import { tmpdir } from "node:os"
import { join } from "node:path"

export interface Service {
  /** `https://127.0.0.1:PORT/api/v1` */
  readonly baseUrl: string
  /** The server's certificate, in PEM: a client that trusts it as a CA gets through. */
  readonly certificate: string
  /** The connections accepted so far. */
  readonly connections: () => number
}

/** A key and a self-signed certificate for 127.0.0.1, in PEM. */
const makeSelfSigned = () => {
  const folder = mkdtempSync(join(tmpdir(), "catalog-tls-"))
  try {
    const key = join(folder, "key.pem")
    const cert = join(folder, "cert.pem")
    execFileSync("openssl", [
      "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "36500",
      "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
      "-keyout", key, "-out", cert
    ], { stdio: "ignore", timeout: 20_000 })
    return { key: readFileSync(key, "utf8"), cert: readFileSync(cert, "utf8") }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

let pair: { readonly key: string; readonly cert: string } | undefined

/** The key and certificate of this run's servers, made once. */
const selfSigned = () => (pair ??= makeSelfSigned())

/** The server, closed with the scope. */
export const selfSignedServer: Effect.Effect<Service, never, Scope.Scope> = Effect.acquireRelease(
  Effect.callback<{ readonly service: Service; readonly close: () => void }>((resume) => {
    let accepted = 0
    const { cert, key } = selfSigned()
    const server = createServer({ cert, key }, (_, response) => response.writeHead(200, { "content-type": "application/json" }).end("{}"))
    server.on("connection", () => {
      accepted += 1
    })
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      resume(Effect.succeed({
        service: { baseUrl: `https://127.0.0.1:${port}/api/v1`, certificate: cert, connections: () => accepted },
        close: () => {
          server.closeAllConnections()
          server.close()
        }
      }))
    })
  }),
  ({ close }) => Effect.sync(close)
).pipe(Effect.map(({ service }) => service))
