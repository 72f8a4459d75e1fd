/**
 * The `catalog` command (the tools, written in Effect 3, whose `mirror` is
 * the Effect 3 edition's mirror) as a child process of the Effect 4
 * edition's tests: the bundle the global setup built from the sources
 * (`inject("catalogCommand")`), as each package ships it, under the Node
 * that the Effect 3 edition's packages were installed for (the first `node`
 * on PATH outside effect4/node_modules: the root's better-sqlite3, which the
 * bundle loads, is built for it). An interrupted run kills its process.
 */
import { Effect, Redacted } from "effect"
import { inject } from "vitest"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { delimiter, join } from "node:path"
import { cleanEnv } from "../../../scripts/cleanEnv.js"
import type { Simulator } from "effect-catalog/simulator"
import * as Process from "./Process.js"

/** The repository root, home of the Effect 3 edition. */
const root = new URL("../../../", import.meta.url).pathname

/** PATH without the Effect 4 edition's own bins (its Node 22 among them). */
const pathOutsideEdition = (process.env["PATH"] ?? "").split(delimiter).filter((entry) => !entry.startsWith(join(root, "effect4"))).join(delimiter)

/** Runs the command with `args` against a simulator, with its key and a state directory of its own, to its end. */
export const catalog = (simulator: Simulator.Service, args: ReadonlyArray<string>): Effect.Effect<Process.Ran> =>
  Process.run("node", [inject("catalogCommand"), ...args], {
    cwd: root,
    env: cleanEnv({
      PATH: pathOutsideEdition,
      CATALOG_BASE_URL: simulator.baseUrl,
      CATALOG_API_KEY: Redacted.value(simulator.keys.full),
      CATALOG_STATE_DIR: mkdtempSync(join(tmpdir(), "catalog-state-"))
    })
  })
