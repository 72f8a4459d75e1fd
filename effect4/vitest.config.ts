import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url))

export default defineConfig({
  resolve: {
    alias: [
      { find: /^effect-catalog$/, replacement: source("./src/index.ts") },
      { find: /^effect-catalog\/(.*)$/, replacement: source("./src/$1/index.ts") }
    ]
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000
  }
})
