import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"
import { PackageFirst } from "./test/setup/sequencer.js"

/** The package's own entry points resolve to its sources, as in tsconfig.json's `paths`. */
export const sourceAliases = [
  { find: /^effect-catalog$/, replacement: fileURLToPath(new URL("src/index.ts", import.meta.url)) },
  { find: /^effect-catalog\/(.*)$/, replacement: fileURLToPath(new URL("src/$1/index.ts", import.meta.url)) }
]

export default defineConfig({
  resolve: { alias: sourceAliases },
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/setup/tmux.ts", "test/setup/redis.ts", "test/setup/postgres.ts", "test/setup/command.ts", "test/setup/packed.ts"],
    sequence: { sequencer: PackageFirst },
    testTimeout: 30_000,
    hookTimeout: 30_000
  }
})
