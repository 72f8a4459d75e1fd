/**
 * RedisAdmission against redis-server processes of the tests' own, one per
 * test on a free port, that the tests stop and restart: a Redis that
 * refuses connections, refuses the password, never answers or goes away
 * mid-scan fails the request with `AdmissionUnavailable` within the store's
 * timeout, never with a silent wait; one back within it is ridden out, every
 * item once; the `catalog` command exits 9 and says so. No password appears
 * in an error, its JSON or the command's output.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Context, Duration, Effect, Layer, Ref, Stream } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { createServer, connect as connectTcp, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { inject } from "vitest"
import { cleanEnv } from "../../scripts/cleanEnv.js"
import { freePort } from "../../scripts/localServer.js"
import * as Admission from "../../common/src/client/Admission.js"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import * as Errors from "../../common/src/client/Errors.js"
import * as RedisAdmission from "../../common/src/redis/RedisAdmission.js"
import * as Simulator from "../../common/src/simulator/Simulator.js"
import * as Process from "../support/Process.js"

const password = "pw-of-the-admission-test"
const wrongPassword = "not-the-pw-of-the-test"

/** The contract's limits on a clock a thousand times faster: Redis is asked for every request. */
const limits: Admission.Limits = { ...Admission.contractLimits, timeScale: 0.001, marginMillis: 1 }

const models = 60
const pageSize = 10

/** Neither password in any text of an error. */
const expectNoPassword = (error: Errors.AdmissionUnavailable) => {
  for (const text of [error.message, error.detail, error.address, JSON.stringify(error), String(error)]) {
    expect(text).not.toContain(password)
    expect(text).not.toContain(wrongPassword)
  }
}

/** Whether something accepts connections on the port now. */
const accepts = (port: number) =>
  Effect.async<boolean>((resume) => {
    const socket = connectTcp(port, "127.0.0.1")
    socket.once("connect", () => {
      socket.destroy()
      resume(Effect.succeed(true))
    })
    socket.once("error", () => resume(Effect.succeed(false)))
    return Effect.sync(() => socket.destroy())
  })

const awaitAccepting = (port: number): Effect.Effect<void> =>
  Effect.flatMap(accepts(port), (yes) => yes ? Effect.void : Effect.zipRight(Effect.sleep("20 millis"), awaitAccepting(port))).pipe(
    Effect.timeoutFail({ duration: "10 seconds", onTimeout: () => new Error(`redis-server on port ${port} did not start within 10 s`) }),
    Effect.orDie
  )

const exited = (child: ChildProcess) =>
  Effect.async<void>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.void)
    child.once("exit", () => resume(Effect.void))
  }).pipe(Effect.timeoutFail({ duration: "10 seconds", onTimeout: () => new Error("redis-server did not stop within 10 s") }), Effect.orDie)

/** A redis-server of the test's own on a free port (password-protected with `requirepass`), stopped with the scope. */
const redisServer = (options: { readonly requirepass?: string } = {}) =>
  Effect.gen(function*() {
    const port = yield* Effect.promise(freePort)
    const running = yield* Ref.make<ChildProcess | undefined>(undefined)
    const args = [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      ...(options.requirepass === undefined ? [] : ["--requirepass", options.requirepass])
    ]
    const start = Effect.sync(() => spawn("redis-server", args, { stdio: "ignore" })).pipe(
      Effect.tap((child) => Ref.set(running, child)),
      Effect.zipRight(awaitAccepting(port))
    )
    const stop = Effect.flatMap(Ref.getAndSet(running, undefined), (child) =>
      child === undefined ? Effect.void : Effect.zipRight(Effect.sync(() => child.kill("SIGKILL")), exited(child)))
    yield* Effect.acquireRelease(start, () => stop)
    return { port, start, stop }
  })

/** A loopback server that accepts connections and never answers. */
const silentServer = Effect.acquireRelease(
  Effect.async<{ readonly port: number; readonly close: () => void }>((resume) => {
    const sockets = new Set<Socket>()
    const server = createServer((socket) => {
      sockets.add(socket)
      socket.on("close", () => sockets.delete(socket))
    })
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const close = () => {
        for (const socket of sockets) socket.destroy()
        server.close()
      }
      resume(Effect.succeed({ port: typeof address === "object" && address !== null ? address.port : 0, close }))
    })
  }),
  (server) => Effect.sync(server.close)
)

/** A simulator of `models` models, and a client of it whose admission is in the Redis at `redis`; outages are noted. */
const clientThrough = (redis: RedisAdmission.Options["redis"], timeout: Duration.DurationInput) =>
  Effect.gen(function*() {
    const simulator = yield* Simulator.make({ sizes: { models }, enforceLimits: false })
    const outages = yield* Ref.make<ReadonlyArray<RedisAdmission.Outage>>([])
    const context = yield* Layer.build(
      CatalogClient.layer({
        baseUrl: simulator.baseUrl,
        apiKey: simulator.keys.full,
        retry: { retries: 0 },
        admission: RedisAdmission.layer(limits, {
          redis,
          timeout,
          prefix: `test:${simulator.baseUrl}:`,
          onOutage: (outage) => Ref.update(outages, (all) => [...all, outage])
        })
      }).pipe(Layer.provide(NodeHttpClient.layerUndici))
    )
    return { catalog: Context.get(context, CatalogClient.CatalogClient), outages: Ref.get(outages) }
  })

/** How an effect ended, and how long it took on the real clock. */
const timed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.timed(Effect.either(effect)), ([elapsed, outcome]) => ({ millis: Duration.toMillis(elapsed), outcome }))

/** The error an effect failed with, and how long it took to fail; at most 20 s (no test may hang). */
const failureOf = <A, R>(effect: Effect.Effect<A, Errors.CatalogError, R>) =>
  Effect.gen(function*() {
    const { millis, outcome } = yield* timed(effect.pipe(Effect.timeoutFail({ duration: "20 seconds", onTimeout: () => "hung" as const })))
    if (outcome._tag === "Right") return yield* Effect.dieMessage("succeeded, where it should fail")
    const error = outcome.left
    if (error === "hung") return yield* Effect.dieMessage("no answer within 20 s")
    if (!(error instanceof Errors.AdmissionUnavailable)) return yield* Effect.dieMessage(`failed with ${error._tag}, not AdmissionUnavailable`)
    return { error, millis }
  })

describe("a Redis that fails", () => {
  it.scopedLive("nothing listening: the operation fails with AdmissionUnavailable (Connection) within the timeout, said at once", () =>
    Effect.gen(function*() {
      const port = yield* Effect.promise(freePort)
      const { catalog, outages } = yield* clientThrough(`redis://:${password}@127.0.0.1:${port}`, "1 second")
      const { error, millis } = yield* failureOf(catalog.stats())
      expect(error.reason).toBe("Connection")
      expect(error.address).toBe(`redis://127.0.0.1:${port}`)
      expect(error.detail).toBe(`Redis at redis://127.0.0.1:${port} was not back within 1s: connect ECONNREFUSED 127.0.0.1:${port}`)
      expect(millis).toBeGreaterThanOrEqual(950)
      expect(millis).toBeLessThan(3_000)
      expectNoPassword(error)
      const [outage, ...more] = yield* outages
      expect(more).toEqual([])
      expect(outage?.address).toBe(`redis://127.0.0.1:${port}`)
      expect(outage?.cause).toBe(`connect ECONNREFUSED 127.0.0.1:${port}`)
      // The first failure is told with the moment the request gives up: about a second later.
      expect(Math.abs((outage?.until.getTime() ?? 0) - Date.now())).toBeLessThan(2_000)
    }))

  it.scopedLive("a URL that cannot be read: AdmissionUnavailable at the first request, not a defect", () =>
    Effect.gen(function*() {
      const { catalog } = yield* clientThrough(`redis://:${password}@127.0.0.1:not-a-port`, "1 second")
      const { error, millis } = yield* failureOf(catalog.stats())
      expect(error.reason).toBe("Connection")
      expect(error.address).toBe("an unreadable URL")
      expect(millis).toBeLessThan(1_000)
      expectNoPassword(error)
    }))

  it.scopedLive("a server that accepts and never answers: AdmissionUnavailable (Timeout) within the timeout", () =>
    Effect.gen(function*() {
      const silent = yield* silentServer
      const { catalog } = yield* clientThrough({ host: "127.0.0.1", port: silent.port, password }, "1 second")
      const { error, millis } = yield* failureOf(catalog.stats())
      expect(error.reason).toBe("Timeout")
      expect(error.detail).toBe(`Redis at redis://127.0.0.1:${silent.port} did not answer within 1s`)
      expect(millis).toBeGreaterThanOrEqual(950)
      expect(millis).toBeLessThan(3_000)
      expectNoPassword(error)
    }))

  it.scopedLive("a password-protected server: a wrong password or none fails at once (Authentication); the right one works", () =>
    Effect.gen(function*() {
      const server = yield* redisServer({ requirepass: password })
      const refusals = [
        { redis: `redis://:${wrongPassword}@127.0.0.1:${server.port}`, reply: "WRONGPASS" },
        { redis: `redis://127.0.0.1:${server.port}/?password=${wrongPassword}`, reply: "WRONGPASS" },
        { redis: { host: "127.0.0.1", port: server.port, password: wrongPassword }, reply: "WRONGPASS" },
        { redis: `redis://127.0.0.1:${server.port}`, reply: "NOAUTH" }
      ] as const
      for (const { redis, reply } of refusals) {
        const { catalog } = yield* clientThrough(redis, "3 seconds")
        const { error, millis } = yield* failureOf(catalog.stats())
        expect(error.reason).toBe("Authentication")
        expect(error.address).toBe(`redis://127.0.0.1:${server.port}`)
        expect(error.detail).toMatch(new RegExp(`^Redis at redis://127\\.0\\.0\\.1:${server.port} refused the credentials: ${reply}`))
        // Not waited for: a password does not come right by waiting.
        expect(millis).toBeLessThan(2_000)
        expectNoPassword(error)
      }
      const { catalog, outages } = yield* clientThrough(`redis://:${password}@127.0.0.1:${server.port}`, "3 seconds")
      const page = yield* catalog.modelsPage({ limit: 5 })
      expect(page.items).toHaveLength(5)
      expect(yield* outages).toEqual([])
    }))

  it.scopedLive("stopped mid-scan: the scan fails with AdmissionUnavailable within the timeout, no item emitted twice", () =>
    Effect.gen(function*() {
      const server = yield* redisServer()
      const { catalog } = yield* clientThrough({ host: "127.0.0.1", port: server.port }, "1 second")
      const stoppedAt = yield* Ref.make<number | null>(null)
      const seen: Array<string> = []
      const scan = catalog.models({ limit: pageSize }).pipe(
        Stream.tap((model) => {
          seen.push(model.id)
          return seen.length === pageSize ? Effect.zipRight(server.stop, Ref.set(stoppedAt, Date.now())) : Effect.void
        }),
        Stream.runDrain
      )
      const { error } = yield* failureOf(scan)
      const failedAfter = Date.now() - ((yield* Ref.get(stoppedAt)) ?? Number.NaN)
      expect(error.reason).toBe("Connection")
      expect(failedAfter).toBeLessThan(3_000)
      expect(seen.length).toBeGreaterThanOrEqual(pageSize)
      expect(seen.length).toBeLessThan(models)
      expect(new Set(seen).size).toBe(seen.length)
    }))

  it.scopedLive("restarted mid-scan within the timeout: the scan completes, every item exactly once", () =>
    Effect.gen(function*() {
      const server = yield* redisServer()
      const { catalog, outages } = yield* clientThrough({ host: "127.0.0.1", port: server.port }, "5 seconds")
      const seen: Array<string> = []
      const restart = Effect.zipRight(server.stop, Effect.forkScoped(Effect.zipRight(Effect.sleep("500 millis"), server.start)))
      yield* catalog.models({ limit: pageSize }).pipe(
        Stream.tap((model) => {
          seen.push(model.id)
          return seen.length === pageSize ? restart : Effect.void
        }),
        Stream.runDrain,
        Effect.timeout("20 seconds")
      )
      expect(seen.length).toBe(models)
      expect(new Set(seen).size).toBe(models)
      // The outage was met, told once, and ridden out.
      expect((yield* outages).length).toBe(1)
    }))
})

describe("the catalog command with a Redis that fails", () => {
  it.live("nothing listening: exit 9 within a few seconds, the wait said at once and the failure in one line; nothing on stdout, no password", () =>
    Effect.gen(function*() {
      const redisPort = yield* Effect.promise(freePort)
      const servicePort = yield* Effect.promise(freePort)
      const env = cleanEnv({
        CATALOG_API_KEY: "cat_test_admission_key",
        CATALOG_BASE_URL: `http://127.0.0.1:${servicePort}/api/v1`,
        CATALOG_STATE_DIR: mkdtempSync(join(tmpdir(), "catalog-state-")),
        CATALOG_TIME_SCALE: "0.001"
      })
      const args = [inject("catalogCommand"), "get", "model", "acme", "ok", "--redis", `redis://:${password}@127.0.0.1:${redisPort}`]
      const { millis, outcome } = yield* timed(Process.runNode(args, { cwd: process.cwd(), env }).pipe(Effect.timeout("30 seconds")))
      if (outcome._tag === "Left") return yield* Effect.dieMessage("the command did not end within 30 s")
      const ran = outcome.right
      expect(ran.code).toBe(9)
      expect(ran.stdout).toBe("")
      const lines = ran.stderr.split("\n").filter((line) => line !== "")
      expect(lines).toHaveLength(2)
      const address = `redis://127\\.0\\.0\\.1:${redisPort}`
      expect(lines[0]).toMatch(
        new RegExp(
          `^catalog: Redis at ${address} failed \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${redisPort}\\); waiting for it until \\d\\d:\\d\\d:\\d\\d UTC at the latest \\(Ctrl-C stops\\)$`
        )
      )
      expect(lines[1]).toMatch(
        new RegExp(
          `^catalog: AdmissionUnavailable: Redis at ${address} was not back within 5s: connect ECONNREFUSED .*; check that Redis runs there and that --redis \\(or CATALOG_REDIS_URL\\) names it$`
        )
      )
      expect(ran.stderr).not.toContain(password)
      // The default timeout (5 s), and the start of the process.
      expect(millis).toBeGreaterThanOrEqual(Duration.toMillis(RedisAdmission.defaultTimeout))
      expect(millis).toBeLessThan(15_000)
    }))
})
