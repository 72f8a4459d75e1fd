/**
 * A private `redis-server` for a test file (`scripts/redis.ts`, nothing of
 * Effect): started before the file's first test, stopped after its last. A
 * server that is missing or does not start fails the file at once, in one
 * line saying what is missing and how to install it, within 30 seconds.
 * Beside it, what the tests read of a Redis directly: every key and value,
 * and a few commands of their own.
 *
 * @example
 * const redis = RedisServer.forFile("the tests of effect-catalog/redis need it")
 * it.effect("…", () => Effect.gen(function*() { const port = redis.port }))
 */
import { afterAll, beforeAll } from "@effect/vitest"
import { Effect, type Scope } from "effect"
import { Redis } from "ioredis"
import { type ChildProcess, spawn } from "node:child_process"
import { connect as connectTcp, createServer, type Socket } from "node:net"
import { freePort, setupFailure } from "../../../scripts/localServer.js"
import { type Server, startRedis } from "../../../scripts/redis.js"

/** How long a file waits for its server to start, at most. */
const startTimeout = 30_000

/** A private `redis-server` for this file; `purpose` says which tests need it. */
export const forFile = (purpose: string): { readonly port: number; readonly url: string } => {
  let started: Server | undefined
  beforeAll(async () => {
    started = await startRedis(purpose)
  }, startTimeout)
  afterAll(() => started?.stop(), startTimeout)
  const server = () => {
    if (started === undefined) throw setupFailure("the file's redis-server has not started")
    return started
  }
  return {
    get port() {
      return server().port
    },
    get url() {
      return server().url
    }
  }
}

/** A connection of the test's own to the Redis on `port`, closed with the scope. */
export const connection = (port: number): Effect.Effect<Redis, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.sync(() => new Redis({ host: "127.0.0.1", port, lazyConnect: false, maxRetriesPerRequest: 1 })),
    (redis) => Effect.sync(() => redis.disconnect())
  )

/** Runs one command of the test's own on the Redis on `port`. */
export const command = (port: number, name: string, ...args: ReadonlyArray<string>): Effect.Effect<unknown> =>
  Effect.scoped(Effect.flatMap(connection(port), (redis) => Effect.promise(() => redis.call(name, ...args))))

/** One key of a Redis, with its type and everything it holds, as text. */
export interface Entry {
  readonly key: string
  readonly type: string
  readonly text: string
}

/** What a key holds, as text: a string's value, a sorted set's members and scores, a hash's fields and values. */
const textOf = async (redis: Redis, key: string, type: string): Promise<string> => {
  switch (type) {
    case "string":
      return (await redis.get(key)) ?? ""
    case "zset":
      return (await redis.zrange(key, 0, -1, "WITHSCORES")).join(" ")
    case "hash":
      return Object.entries(await redis.hgetall(key)).flat().join(" ")
    default:
      return `(${type})`
  }
}

/** Every key of the Redis on `port` under `pattern` (every key by default), with what it holds. */
export const entries = (port: number, pattern = "*"): Effect.Effect<ReadonlyArray<Entry>> =>
  Effect.scoped(Effect.flatMap(connection(port), (redis) =>
    Effect.promise(async () => {
      const keys = (await redis.keys(pattern)).sort()
      return Promise.all(keys.map(async (key) => {
        const type = await redis.type(key)
        return { key, type, text: await textOf(redis, key, type) }
      }))
    })))

/** Whether something accepts connections on the port now. */
const accepts = (port: number) =>
  Effect.callback<boolean>((resume) => {
    const socket = connectTcp(port, "127.0.0.1")
    socket.once("connect", () => {
      socket.destroy()
      resume(Effect.succeed(true))
    })
    socket.once("error", () => resume(Effect.succeed(false)))
    return Effect.sync(() => socket.destroy())
  })

const awaitAccepting = (port: number): Effect.Effect<void> =>
  Effect.flatMap(accepts(port), (yes) => yes ? Effect.void : Effect.andThen(Effect.sleep("20 millis"), awaitAccepting(port))).pipe(
    Effect.timeoutOrElse({ duration: "10 seconds", orElse: () => Effect.die(`redis-server on port ${port} did not start within 10 s`) })
  )

/** Stops a child process and waits for it to exit. */
const killed = (child: ChildProcess) =>
  Effect.callback<void>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.void)
    child.once("exit", () => resume(Effect.void))
    child.kill("SIGKILL")
  }).pipe(Effect.timeoutOrElse({ duration: "10 seconds", orElse: () => Effect.die("redis-server did not stop within 10 s") }))

/** A redis-server of the test's own, on a free port, that it stops and starts again. */
export interface OwnServer {
  readonly port: number
  readonly start: Effect.Effect<void>
  readonly stop: Effect.Effect<void>
}

/** A redis-server of the test's own on a free port (the file's server has shown that one can start), stopped with the scope. */
export const ownServer: Effect.Effect<OwnServer, never, Scope.Scope> = Effect.gen(function*() {
  const port = yield* Effect.promise(freePort)
  let running: ChildProcess | undefined
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
  const start = Effect.andThen(Effect.sync(() => void (running = spawn("redis-server", args, { stdio: "ignore" }))), awaitAccepting(port))
  const stop = Effect.suspend(() => {
    const child = running
    running = undefined
    return child === undefined ? Effect.void : killed(child)
  })
  yield* Effect.acquireRelease(start, () => stop)
  return { port, start, stop }
})

/** A loopback server that accepts connections and never answers, closed with the scope; gives its port. */
export const silentServer: Effect.Effect<number, never, Scope.Scope> = Effect.acquireRelease(
  Effect.callback<{ readonly port: number; readonly close: () => void }>((resume) => {
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
).pipe(Effect.map((server) => server.port))
