/**
 * The `catalog` command as a process where the service cannot be reached:
 * a host name that does not exist and a certificate that does not verify
 * end it at once (exit 9, one line naming the host and what to check,
 * nothing announced, no retry); a refused connection is still announced
 * and retried.
 */
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort } from "../../../scripts/localServer.js"
import * as ExitCodes from "../../src/cli/ExitCodes.js"
import { catalog, expectErrorLine, keepSecret, lines, type Target } from "../../../test/support/CatalogProcess.js"
import * as Tls from "../../../test/support/Tls.js"

const key = "cat_live_unreachable0123456789abcdef"
keepSecret(key)

/** A run of the command, and how long it took from its start to its end. */
const timed = (args: ReadonlyArray<string>, target: Target | null) =>
  Effect.promise(() => catalog(args, target)).pipe(
    Effect.timed,
    Effect.map(([elapsed, result]) => ({ ...result, elapsed: Duration.toMillis(elapsed) }))
  )

/** `catalog stats` with the default retry policy. */
const stats = (baseUrl: string, args: ReadonlyArray<string> = []) => timed(["stats", ...args], { baseUrl, key })

/**
 * The command started, failed and ended within 2 s (the default policy
 * would retry for 15 s); on a machine so loaded that `catalog --version`
 * alone takes over a second, within a second more than that.
 */
const expectAtOnce = (elapsed: number) =>
  Effect.map(timed(["--version"], null), (bare) => expect(elapsed).toBeLessThan(Math.max(2_000, bare.elapsed + 1_000)))

describe("catalog where waiting cannot help", () => {
  it.live("a host name that does not exist: exit 9 within 2 s, one line naming the host and DNS, not retried", () =>
    Effect.gen(function*() {
      const run = yield* stats("http://catalog.invalid/api/v1")
      expect(expectErrorLine(run, ExitCodes.unavailable, "Unreachable")).toBe(
        "catalog: Unreachable: cannot reach http://catalog.invalid/api/v1 (the host name does not resolve) after 1 attempt, " +
          "not retried: waiting cannot help; " +
          "check the host name catalog.invalid in CATALOG_BASE_URL (or --base-url): the resolver says it does not exist"
      )
      yield* expectAtOnce(run.elapsed)
    }))

  it.scopedLive("a self-signed certificate: exit 9 within 2 s, one line naming the certificate's problem and NODE_EXTRA_CA_CERTS", () =>
    Effect.gen(function*() {
      const server = yield* Tls.selfSignedServer
      const run = yield* stats(server.baseUrl)
      const host = new URL(server.baseUrl).host
      expect(expectErrorLine(run, ExitCodes.unavailable, "Unreachable")).toBe(
        `catalog: Unreachable: cannot reach ${server.baseUrl} ` +
          "(its TLS certificate does not verify: self-signed certificate [DEPTH_ZERO_SELF_SIGNED_CERT]) after 1 attempt, " +
          "not retried: waiting cannot help; " +
          `check the certificate ${host} presents (its dates, its host names, who signed it), ` +
          "or give Node the CA that signed it: NODE_EXTRA_CA_CERTS=/path/to/ca.pem"
      )
      expect(server.connections()).toBe(1)
      yield* expectAtOnce(run.elapsed)
    }))

  it.scopedLive("the advice works: with NODE_EXTRA_CA_CERTS naming the certificate, the command gets through to the server", () =>
    Effect.gen(function*() {
      const server = yield* Tls.selfSignedServer
      const folder = yield* Effect.acquireRelease(
        Effect.sync(() => mkdtempSync(join(tmpdir(), "catalog-ca-"))),
        (path) => Effect.sync(() => rmSync(path, { recursive: true, force: true }))
      )
      const ca = join(folder, "ca.pem")
      writeFileSync(ca, server.certificate)
      const run = yield* Effect.promise(() => catalog(["stats", "--retries", "0"], { baseUrl: server.baseUrl, key }, { NODE_EXTRA_CA_CERTS: ca }))
      // The server's answer is no `stats`: the handshake succeeded and the answer was read.
      expectErrorLine(run, ExitCodes.unexpectedResponse, "UnexpectedResponse")
    }))

  it.live("a refused connection is still announced at once and retried", () =>
    Effect.gen(function*() {
      const port = yield* Effect.promise(freePort)
      const run = yield* stats(`http://127.0.0.1:${port}/api/v1`, ["--retries", "1"])
      expect(run.code).toBe(ExitCodes.unavailable)
      expect(lines(run.stderr)).toEqual([
        expect.stringMatching(/^catalog: cannot reach .* \(connection refused\); retrying up to 1 time, until /),
        expect.stringMatching(/^catalog: Unreachable: cannot reach .* \(connection refused\) after 2 attempts; check that the service runs there/)
      ])
    }))
})
