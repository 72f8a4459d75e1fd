/**
 * `ioredis` is an optional peer dependency: loading `effect-catalog/redis`
 * without it fails at once with a message that says how to install it,
 * rather than with a module resolution error from deep inside the package.
 * The modules of this entry load `ioredis` itself only when a layer is built.
 */
import { Effect } from "effect"
import type { RedisOptions } from "ioredis"
import { createRequire } from "node:module"

const missing = (cause: unknown) =>
  cause instanceof Error && "code" in cause && cause.code === "MODULE_NOT_FOUND" && cause.message.includes("ioredis")

try {
  createRequire(import.meta.url).resolve("ioredis")
} catch (cause) {
  throw missing(cause)
    ? new Error(
      "effect-catalog/redis needs the optional peer dependency ioredis, which is not installed: npm install ioredis",
      { cause }
    )
    : cause
}

/** Where a Redis is: connection options, or a `redis://` or `rediss://` URL. */
export type Connection = RedisOptions | string

/**
 * A connection of its own, closed with the scope. Its errors reach the
 * commands that fail because of them, not a log line per attempt.
 */
export const connect = (connection: Connection) =>
  Effect.acquireRelease(
    Effect.map(Effect.promise(() => import("ioredis")), ({ Redis }) =>
      (typeof connection === "string" ? new Redis(connection) : new Redis(connection)).on("error", () => {})),
    (client) => Effect.ignore(Effect.tryPromise(() => client.quit()))
  )
