/**
 * Where waiting cannot help, a request fails at once, with every HTTP client
 * a user may provide (undici, node:http, fetch): a host name the resolver
 * says does not exist and a certificate that does not verify are
 * `TransportError`s (`Resolution`, `Certificate`) after one attempt, no
 * retry scheduled; a resolver that did not answer and a refused connection
 * keep the policy's retries. Nothing leaves the machine: `.invalid` names
 * are answered by the resolver at once (RFC 2606), the certificate is a
 * loopback server's own.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Layer, Redacted } from "effect"
import { FetchHttpClient, type HttpClient } from "effect/http"
import type { LookupFunction } from "node:net"
import { createServer } from "node:net"
import { Admission, CatalogClient, Errors, Retry } from "effect-catalog"
import * as Tls from "./support/Tls.js"

const testKey = "cat_test_key_0123456789"

/** The default policy but for its first backoff, so that a test of what is retried takes milliseconds. */
const quickRetries = { ...Retry.defaultPolicy, base: Duration.millis(5) }

const retriesSoFar = CatalogClient.metricTotal(CatalogClient.metrics.retries)

/** The error of `stats` from a client of `baseUrl` over `http`, with the default policy unless told otherwise, and the retries it made. */
const statsError = (baseUrl: string, http: Layer.Layer<HttpClient.HttpClient>, retry: Partial<Retry.Policy> = Retry.defaultPolicy) =>
  Effect.gen(function*() {
    const before = yield* retriesSoFar
    const error = yield* CatalogClient.CatalogClient.use((catalog) => Effect.flip(catalog.stats())).pipe(
      Effect.provide(CatalogClient.layer({ baseUrl, apiKey: Redacted.make(testKey), limits: Admission.noLimits, retry }).pipe(Layer.provide(http)))
    )
    return { error, retries: (yield* retriesSoFar) - before }
  })

const expectTransport = (error: Errors.CatalogError): Errors.TransportError => {
  if (!(error instanceof Errors.TransportError)) return expect.fail(`expected TransportError, got ${error._tag}`)
  expect(error.detail.includes(testKey)).toBe(false)
  return error
}

/** An undici client whose every connection asks `lookup` for the host's address; `asked` counts the attempts. */
const resolvingWith = (lookup: LookupFunction) => {
  let asked = 0
  const counted: LookupFunction = (hostname, options, callback) => {
    asked += 1
    lookup(hostname, options, callback)
  }
  return { layer: NodeHttpClient.layerUndiciOptions({ connect: { lookup: counted } }), asked: () => asked }
}

/** A resolver that fails every name with this code, as getaddrinfo does. */
const failingWith = (code: string): LookupFunction => (hostname, _, callback) =>
  callback(Object.assign(new Error(`getaddrinfo ${code} ${hostname}`), { code }), "", 4)

/** A free loopback port, with nothing listening on it. */
const closedPort = Effect.callback<number>((resume) => {
  const server = createServer()
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})

const httpClients = [
  { name: "undici", layer: NodeHttpClient.layerUndici },
  { name: "node:http", layer: NodeHttpClient.layerNodeHttp },
  { name: "fetch", layer: FetchHttpClient.layer }
] as const

describe("fail fast where waiting cannot help", () => {
  for (const http of httpClients) {
    it.live(`a host name that does not exist is TransportError (Resolution) after one attempt, over ${http.name}`, () =>
      Effect.gen(function*() {
        const { error, retries } = yield* statsError("http://catalog.invalid/api/v1", http.layer)
        const transport = expectTransport(error)
        expect(transport.reason).toBe("Resolution")
        expect(transport.detail).toMatch(/ENOTFOUND catalog\.invalid/)
        expect(Retry.isRetryable(transport)).toBe(false)
        expect(retries).toBe(0)
      }))

    it.live(`a self-signed certificate is TransportError (Certificate) naming its code, after one connection, over ${http.name}`, () =>
      Effect.gen(function*() {
        const server = yield* Tls.selfSignedServer
        const { error, retries } = yield* statsError(server.baseUrl, http.layer)
        const transport = expectTransport(error)
        expect(transport.reason).toBe("Certificate")
        expect(transport.detail).toMatch(/self-signed certificate.*DEPTH_ZERO_SELF_SIGNED_CERT/)
        expect(server.connections()).toBe(1)
        expect(retries).toBe(0)
      }))
  }

  it.live("the resolver's code decides, whatever the name: ENOTFOUND is asked once, EAI_AGAIN as often as the policy allows", () =>
    Effect.gen(function*() {
      const missing = resolvingWith(failingWith("ENOTFOUND"))
      const busy = resolvingWith(failingWith("EAI_AGAIN"))
      const notFound = expectTransport((yield* statsError("http://catalog.example/api/v1", missing.layer, quickRetries)).error)
      const again = expectTransport((yield* statsError("http://catalog.example/api/v1", busy.layer, quickRetries)).error)
      expect([notFound.reason, missing.asked()]).toEqual(["Resolution", 1])
      expect([again.reason, busy.asked()]).toEqual(["Connection", quickRetries.retries + 1])
      expect(again.detail).toMatch(/EAI_AGAIN catalog\.example/)
    }))

  it.live("a certificate that does not name the host is TransportError (Certificate); once its CA is trusted, the request gets through", () =>
    Effect.gen(function*() {
      const server = yield* Tls.selfSignedServer
      const trusting = NodeHttpClient.layerUndiciOptions({ connect: { ca: server.certificate } })
      const wrongName = expectTransport((yield* statsError(server.baseUrl.replace("127.0.0.1", "localhost"), trusting)).error)
      expect(wrongName.reason).toBe("Certificate")
      expect(wrongName.detail).toMatch(/ERR_TLS_CERT_ALTNAME_INVALID/)
      expect(server.connections()).toBe(1)
      // The server's answer is no `stats`: the handshake succeeded and the answer was read.
      expect((yield* statsError(server.baseUrl, trusting)).error._tag).toBe("UnexpectedResponse")
    }))

  it.live("a refused connection keeps the policy's retries", () =>
    Effect.gen(function*() {
      const port = yield* closedPort
      const { error, retries } = yield* statsError(`http://127.0.0.1:${port}/api/v1`, NodeHttpClient.layerUndici, quickRetries)
      const transport = expectTransport(error)
      expect(transport.reason).toBe("Connection")
      expect(transport.detail).toMatch(/ECONNREFUSED/)
      expect(retries).toBe(quickRetries.retries)
    }))
})
