import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/** The edition's own entry points resolve to its sources, as in tsconfig.json's `paths`. */
export const sourceAliases = [
  { find: /^effect-catalog$/, replacement: source("./src/index.ts") },
  { find: /^effect-catalog\/(.*)$/, replacement: source("./src/$1/index.ts") }
]

/**
 * The modules both editions share (`../common/src`) import this edition as
 * `#edition/*`, which the repository's package.json resolves to these sources
 * under the condition `effect4` (as `customConditions` in tsconfig.json).
 * The rest are Vitest's own server conditions, which leave out `module`: a
 * package's `module` build (`@opentelemetry/api`'s) may not load under Node.
 */
export const conditions = ["effect4", "node", "development|production"]

export default defineConfig({
  resolve: {
    alias: sourceAliases,
    conditions
  },
  ssr: { resolve: { conditions } },
  test: {
    // The tests both editions share (`../common/test`) run here too, against this edition.
    include: ["test/**/*.test.ts", "../common/test/**/*.test.ts"],
    globalSetup: ["test/support/Bundles.ts"],
    // Files share a worker and the modules it has loaded, Effect's among them, instead of loading them once per
    // file. What a file leaves in them is undone after it.
    isolate: false,
    setupFiles: ["test/support/EachFile.ts"],
    // Two files at once on two cores, as the Effect 3 edition's tests run: one file packs and installs the edition
    // (`package.test.ts`) while the other worker runs the rest.
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 120_000
  }
})
