/**
 * `tsc --noEmit` over the edition's sources and tests, strict, as a test of
 * the run: a type error anywhere fails it.
 */
import { describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"

const edition = fileURLToPath(new URL("..", import.meta.url))

describe("npm run typecheck", () => {
  it("finds no type error in the edition", () => {
    const ran = spawnSync(process.execPath, [fileURLToPath(new URL("../node_modules/typescript/bin/tsc", import.meta.url)), "--noEmit", "-p", edition], {
      encoding: "utf8"
    })
    expect(ran.stdout + ran.stderr).toBe("")
    expect(ran.status).toBe(0)
  })
})
