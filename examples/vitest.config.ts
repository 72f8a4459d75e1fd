/**
 * Runs the example test file, which lies outside the project's test folder:
 *
 *   npx vitest run --config examples/vitest.config.ts
 */
import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"
import { sourceAliases } from "../vitest.config.js"

export default defineConfig({
  // In this repository `effect-catalog` is its sources; an application gets the package.
  resolve: { alias: sourceAliases },
  test: {
    // The repository root, wherever the command is run from.
    root: fileURLToPath(new URL("..", import.meta.url)),
    include: ["examples/testing-your-app.ts"],
    testTimeout: 30_000
  }
})
