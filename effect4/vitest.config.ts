import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/** The edition's own entry points resolve to its sources, as in tsconfig.json's `paths`. */
export const sourceAliases = [
  { find: /^effect-catalog$/, replacement: source("./src/index.ts") },
  { find: /^effect-catalog\/(.*)$/, replacement: source("./src/$1/index.ts") }
]

export default defineConfig({
  resolve: {
    alias: sourceAliases
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000
  }
})
