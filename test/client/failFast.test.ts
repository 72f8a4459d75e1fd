/**
 * Where waiting cannot help, a request fails at once: a host name the
 * resolver says does not exist and a certificate that does not verify are
 * `TransportError`s (`Resolution`, `Certificate`) after one attempt, with
 * every HTTP client a user may provide; a resolver that did not answer, a
 * refused connection and a timeout keep the policy's retries. Nothing
 * leaves the machine: `.invalid` names are answered by the resolver at
 * once (RFC 2606), the certificate is a loopback server's own. Which
 * reasons are worth another attempt, a rule both editions share, is tested
 * once in rules/test/client/RetryRules.test.ts.
 */
import { FetchHttpClient, HttpClient } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import Undici from "@effect/platform-node/Undici"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Layer, Redacted } from "effect"
import type { LookupFunction } from "node:net"
import { freePort } from "../../scripts/localServer.js"
import * as Admission from "../../common/src/client/Admission.js"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import * as Errors from "../../common/src/client/Errors.js"
import * as Retry from "../../common/src/client/Retry.js"
import * as Tls from "../support/Tls.js"

const testKey = "cat_test_key_0123456789"

/** The default policy but for its first backoff, so that a test of what is retried takes milliseconds. */
const quickRetries = { ...Retry.defaultPolicy, base: Duration.millis(5) }

/**
 * The error of `stats` from a client of `baseUrl` over `http`, with the
 * default policy unless told otherwise. Whether it was retried is told by
 * the retries counted and the connections made, not by the time it took,
 * which a busy machine stretches.
 */
const statsError = (baseUrl: string, http: Layer.Layer<HttpClient.HttpClient>, retry: Partial<Retry.Policy> = Retry.defaultPolicy) =>
  Effect.flatMap(CatalogClient.CatalogClient, (catalog) => Effect.flip(catalog.stats())).pipe(
    Effect.provide(
      CatalogClient.layer({ baseUrl, apiKey: Redacted.make(testKey), limits: Admission.noLimits, retry }).pipe(Layer.provide(http))
    ),
    Effect.map((error) => ({ error }))
  )

const expectTransport = (error: Errors.CatalogError): Errors.TransportError => {
  expect(error._tag).toBe("TransportError")
  if (!(error instanceof Errors.TransportError)) throw new Error(`expected TransportError, got ${error._tag}`)
  expect(error.detail).not.toContain(testKey)
  return error
}

/** An undici client whose connections are made with these options. */
const undiciWith = (connect: Undici.buildConnector.BuildOptions) =>
  Layer.scoped(
    HttpClient.HttpClient,
    Effect.map(
      Effect.acquireRelease(Effect.sync(() => new Undici.Agent({ connect })), (agent) => Effect.promise(() => agent.destroy())),
      NodeHttpClient.makeUndici
    )
  )

/** An undici client whose every connection asks `lookup` for the host's address; `asked` counts the attempts. */
const resolvingWith = (lookup: LookupFunction) => {
  let asked = 0
  const counted: LookupFunction = (hostname, options, callback) => {
    asked += 1
    lookup(hostname, options, callback)
  }
  return { layer: undiciWith({ lookup: counted }), asked: () => asked }
}

/** A resolver that fails every name with this code, as getaddrinfo does. */
const failingWith = (code: string): LookupFunction => (hostname, _, callback) =>
  callback(Object.assign(new Error(`getaddrinfo ${code} ${hostname}`), { code }), "", 4)

const retriesSoFar = CatalogClient.metricTotal(CatalogClient.metrics.retries)

const httpClients = [
  { name: "undici", layer: NodeHttpClient.layerUndici },
  { name: "node:http", layer: NodeHttpClient.layer },
  { name: "fetch", layer: FetchHttpClient.layer }
] as const

describe("fail fast where waiting cannot help", () => {
  for (const http of httpClients) {
    it.live(`a host name that does not exist is TransportError (Resolution) at once, over ${http.name}`, () =>
      Effect.gen(function*() {
        const before = yield* retriesSoFar
        const { error } = yield* statsError("http://catalog.invalid/api/v1", http.layer)
        const transport = expectTransport(error)
        expect(transport.reason).toBe("Resolution")
        expect(transport.detail).toMatch(/ENOTFOUND catalog\.invalid/)
        expect(Retry.isRetryable(transport)).toBe(false)
        expect(yield* retriesSoFar).toBe(before)
      }))

    it.scopedLive(`a self-signed certificate is TransportError (Certificate) naming its code, after one connection, over ${http.name}`, () =>
      Effect.gen(function*() {
        const server = yield* Tls.selfSignedServer
        const { error } = yield* statsError(server.baseUrl, http.layer)
        const transport = expectTransport(error)
        expect(transport.reason).toBe("Certificate")
        expect(transport.detail).toMatch(/self-signed certificate.*DEPTH_ZERO_SELF_SIGNED_CERT/)
        expect(server.connections()).toBe(1)
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

  it.scopedLive("a certificate that does not name the host is TransportError (Certificate); once its CA is trusted, the request gets through", () =>
    Effect.gen(function*() {
      const server = yield* Tls.selfSignedServer
      const trusting = undiciWith({ ca: server.certificate })
      const wrongName = expectTransport((yield* statsError(server.baseUrl.replace("127.0.0.1", "localhost"), trusting)).error)
      expect(wrongName.reason).toBe("Certificate")
      expect(wrongName.detail).toMatch(/ERR_TLS_CERT_ALTNAME_INVALID/)
      expect(server.connections()).toBe(1)
      // The stub's answer is no `stats`: the handshake succeeded and the answer was read.
      expect((yield* statsError(server.baseUrl, trusting)).error._tag).toBe("UnexpectedResponse")
    }))

  it.live("a refused connection keeps the policy's retries", () =>
    Effect.gen(function*() {
      const port = yield* Effect.promise(freePort)
      const before = yield* retriesSoFar
      const { error } = yield* statsError(`http://127.0.0.1:${port}/api/v1`, NodeHttpClient.layerUndici, quickRetries)
      const transport = expectTransport(error)
      expect(transport.reason).toBe("Connection")
      expect(transport.detail).toMatch(/ECONNREFUSED/)
      expect((yield* retriesSoFar) - before).toBe(quickRetries.retries)
    }))
})
