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
    include: ["test/**/*.test.ts", "tools/test/**/*.test.ts", "rules/test/**/*.test.ts", "common/test/**/*.test.ts"],
    // The servers a file needs (Redis, PostgreSQL, tmux) it starts itself (`test/support/Servers.ts`).
    globalSetup: ["test/setup/bundles.ts", "test/setup/packed.ts"],
    // Files share a worker and the modules it has loaded, Effect's among them: loading them once
    // per file cost about a quarter of the suite. What a file leaves in them is undone before the next.
    isolate: false,
    setupFiles: ["test/setup/eachFile.ts"],
    sequence: { sequencer: PackageFirst },
    // Two files at once on two cores: most of a file's time is spent waiting on processes, servers and windows.
    pool: "forks",
    poolOptions: { forks: { minForks: 1, maxForks: 2 } },
    // Sized for a busy machine: a test that waits on processes may take several times as long there as on a quiet one.
    testTimeout: 120_000,
    hookTimeout: 120_000
  }
})
