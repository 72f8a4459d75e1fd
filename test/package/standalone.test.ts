/**
 * The standalone simulator bundled as the Effect 4 edition takes it: one
 * module that needs nothing installed beside it, started under Node 22 in a
 * directory of its own with no `node_modules` anywhere above it.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { cleanEnv } from "../../scripts/cleanEnv.js"
import { bundleStandaloneSimulator } from "../../scripts/bundle.js"
import { requireNode22 } from "../support/Node22.js"
import { run } from "../support/Process.js"

const program = `
import { start } from "./simulator.js"
let now = 0
const running = await start({ sizes: { models: 20 }, timeScale: 0.01 }, { now: () => now })
const get = (path) => fetch(running.baseUrl + path, { headers: { authorization: "Bearer " + running.keys.full } }).then((answer) => answer.status)
const statuses = []
for (let n = 0; n < 11; n++) statuses.push(await get("/stats/"))
now += 100
statuses.push(await get("/models/"))
await running.stop()
console.log(JSON.stringify(statuses))
`

describe("the standalone simulator, bundled", () => {
  it.effect("runs alone under Node 22, its windows on the clock it is given", () =>
    Effect.gen(function*() {
      const dir = yield* Effect.acquireRelease(
        Effect.promise(() => mkdtemp(join(tmpdir(), "effect-catalog-standalone-"))),
        (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
      )
      yield* Effect.promise(() => bundleStandaloneSimulator(join(dir, "simulator.js")))
      yield* Effect.promise(() => writeFile(join(dir, "run.mjs"), program))
      const ran = yield* run(requireNode22(), ["run.mjs"], { cwd: dir, env: cleanEnv() })
      expect(ran.stderr).toBe("")
      expect(JSON.parse(ran.stdout)).toEqual([...Array(10).fill(200), 429, 200])
    }).pipe(Effect.scoped))
})
