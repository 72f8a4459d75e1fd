/**
 * `npm run typecheck`, as part of the test run: the sources, the tests, the
 * examples, the benchmarks and the scripts typecheck, strict. It runs as a
 * test file, first, beside the others (a compiler run is mostly work for
 * one core while the files beside it wait on their processes and servers),
 * and on failure shows what tsc said.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { cleanEnv } from "../scripts/cleanEnv.js"
import { root } from "./support/CatalogProcess.js"
import { run } from "./support/Process.js"

describe("npm run typecheck", () => {
  it.live("finds no type error anywhere in the repository", () =>
    Effect.gen(function*() {
      const ran = yield* run("npm", ["run", "--silent", "typecheck", "--", "--pretty", "false"], { cwd: root, env: cleanEnv() })
      expect(`${ran.stdout}${ran.stderr}`.trim()).toBe("")
      expect(ran.code).toBe(0)
    }), 240_000)
})
