/**
 * `ioredis` is an optional peer dependency: loading `effect-catalog/redis`
 * without it fails at once with a message that says how to install it,
 * rather than with a module resolution error from deep inside the package.
 * The modules of this entry load `ioredis` itself only when a layer is built.
 */
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

/** The `ioredis` module. */
export const load = () => import("ioredis")
