/**
 * The Effect 4 edition's mirror loads the driver of its own database only:
 * with one driver not installed (its package made impossible to resolve, in
 * a Node 22 process of its own), a mirror of the other kind still opens,
 * and one of the missing kind is `DatabaseUnavailable` naming the package
 * to install: `better-sqlite3` for SQLite, `@effect/sql-pg` for PostgreSQL.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { fileURLToPath } from "node:url"
import { cleanEnv } from "../../../scripts/cleanEnv.js"
import { sqliteFile } from "../support/Mirror.js"
import { editionCondition, runNode } from "../support/Process.js"

/** The edition's folder, where the fixture runs. */
const edition = fileURLToPath(new URL("../..", import.meta.url))

/** The edition's tsx, and the hook that makes the packages of `WITHOUT_PACKAGES` impossible to resolve (the Effect 3 edition's, which is plain Node). */
const tsx = new URL("../../node_modules/tsx/dist/loader.mjs", import.meta.url).href
const withoutPackages = new URL("../../../test/support/withoutPackages.mjs", import.meta.url).href

/** How a mirror of each kind opened, with these packages not installed. */
const openBoth = (without: string) =>
  Effect.gen(function*() {
    const file = yield* sqliteFile
    const ran = yield* runNode([editionCondition, "--import", tsx, "--import", withoutPackages, "test/mirror/fixtures/openBoth.ts", file], {
      cwd: edition,
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
    }), 60_000)

  it.live("without better-sqlite3, a mirror in SQLite names the missing driver; one in PostgreSQL gets as far as its server", () =>
    Effect.gen(function*() {
      const opened = yield* openBoth("better-sqlite3")
      expect(opened.sqlite).toMatch(/^DatabaseUnavailable: .*the driver better-sqlite3 is not installed/)
      expect(opened.postgres).toMatch(/^DatabaseUnavailable: .*ECONNREFUSED/)
    }), 60_000)
})
