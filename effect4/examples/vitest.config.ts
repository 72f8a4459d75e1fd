/**
 * Runs the example test file, which lies outside the edition's test folder:
 *
 *   npx vitest run --config examples/vitest.config.ts
 */
import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"
import { conditions, sourceAliases } from "../vitest.config.js"

export default defineConfig({
  // In this repository `effect-catalog` is the edition's sources; an application gets the package.
  resolve: { alias: sourceAliases, conditions },
  ssr: { resolve: { conditions } },
  test: {
    // The edition's folder, wherever the command is run from.
    root: fileURLToPath(new URL("..", import.meta.url)),
    include: ["examples/testing-your-app.ts"],
    testTimeout: 30_000
  }
})
