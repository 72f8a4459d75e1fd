/**
 * Loaded with `node --import`: the packages named in `WITHOUT_PACKAGES`
 * (comma-separated) cannot be resolved, as if they were not installed.
 */
import { register } from "node:module"
import { isMainThread } from "node:worker_threads"

// The hooks run on a thread of their own, which loads this module again.
if (isMainThread) register(import.meta.url)

const blocked = (process.env.WITHOUT_PACKAGES ?? "").split(",").filter((name) => name !== "")

export const resolve = (specifier, context, next) => {
  if (blocked.some((name) => specifier === name || specifier.startsWith(`${name}/`))) {
    const error = new Error(`Cannot find package '${specifier}'`)
    error.code = "ERR_MODULE_NOT_FOUND"
    throw error
  }
  return next(specifier, context)
}
