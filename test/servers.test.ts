/**
 * Each test file starts only the servers it uses: a file of the client's
 * tests runs where no `redis-server`, `tmux` or PostgreSQL can be found, and
 * a file that needs Redis fails at once, in one line saying what to
 * install. Both run as a user would run them, `vitest run <file>`, with a
 * `PATH` that holds `node` and `sh` alone.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { mkdtempSync, rmSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { cleanEnv } from "../scripts/cleanEnv.js"
import { root } from "./support/CatalogProcess.js"
import { run } from "./support/Process.js"

/** `vitest run file` with a PATH of `node` and `sh` only. */
const vitestWithoutServers = (file: string) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const bin = mkdtempSync(join(tmpdir(), "bare-path-"))
      symlinkSync(process.execPath, join(bin, "node"))
      symlinkSync("/bin/sh", join(bin, "sh"))
      return bin
    }),
    (bin) =>
      Effect.gen(function*() {
        const started = performance.now()
        const ran = yield* run(process.execPath, [join(root, "node_modules", "vitest", "vitest.mjs"), "run", file], {
          cwd: root,
          env: cleanEnv({ PATH: bin, NO_COLOR: "1" })
        })
        return { ...ran, seconds: (performance.now() - started) / 1000 }
      }),
    (bin) => Effect.sync(() => rmSync(bin, { recursive: true, force: true }))
  )

describe("servers, each file its own", () => {
  it.live("a file of the client's tests passes with no redis-server, tmux or PostgreSQL on the PATH", () =>
    Effect.gen(function*() {
      const ran = yield* vitestWithoutServers("test/client/admission.test.ts")
      expect(ran.code, ran.stdout + ran.stderr).toBe(0)
      expect(ran.stdout).toMatch(/Tests +\d+ passed/)
    }))

  it.live("a file that needs Redis, where there is none, fails within 30 s in one line naming what to install", () =>
    Effect.gen(function*() {
      const ran = yield* vitestWithoutServers("test/redis/keyValueStore.test.ts")
      expect(ran.code).not.toBe(0)
      expect(ran.seconds).toBeLessThan(30)
      const said = `${ran.stdout}\n${ran.stderr}`.split("\n").filter((line) => line.includes("redis-server is not installed"))
      expect(said.length).toBeGreaterThan(0)
      expect(said[0]).toContain("install it with `apt-get install -y redis-server`")
    }))
})
