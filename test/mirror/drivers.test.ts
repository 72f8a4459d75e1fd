/**
 * A mirror loads the driver of its own database only: with one driver not
 * installed (its package made impossible to resolve), a mirror of the other
 * kind still opens, and one of the missing kind is `DatabaseUnavailable`
 * naming the package to install.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { fileURLToPath } from "node:url"
import { cleanEnv } from "../../scripts/cleanEnv.js"
import { sqliteFile } from "../support/Mirror.js"
import { runNode } from "../support/Process.js"

const root = fileURLToPath(new URL("../..", import.meta.url))

/** How a mirror of each kind opened, with these packages not installed. */
const openBoth = (without: string) =>
  Effect.gen(function*() {
    const file = yield* sqliteFile
    const ran = yield* runNode(["--import", "tsx", "--import", "./test/support/withoutPackages.mjs", "test/mirror/fixtures/openBoth.ts", file], {
      cwd: root,
      env: cleanEnv({ WITHOUT_PACKAGES: without })
    })
    expect(ran.code, ran.stderr).toBe(0)
    const opened: { readonly sqlite: string; readonly postgres: string } = JSON.parse(ran.stdout)
    return opened
  }).pipe(Effect.scoped)

describe("the drivers of the mirror", () => {
  it.live("without @effect/sql-pg, a mirror in SQLite opens; one in PostgreSQL names the missing driver", () =>
    Effect.gen(function*() {
      const opened = yield* openBoth("@effect/sql-pg")
      expect(opened.sqlite).toBe("opened")
      expect(opened.postgres).toMatch(/^DatabaseUnavailable: .*the driver @effect\/sql-pg is not installed/)
    }), 30_000)

  it.live("without @effect/sql-sqlite-node, a mirror in SQLite names the missing driver", () =>
    Effect.gen(function*() {
      const opened = yield* openBoth("@effect/sql-sqlite-node")
      expect(opened.sqlite).toMatch(/^DatabaseUnavailable: .*the driver @effect\/sql-sqlite-node is not installed/)
      expect(opened.postgres).toMatch(/^DatabaseUnavailable: .*ECONNREFUSED/)
    }), 30_000)
})
