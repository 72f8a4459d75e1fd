/**
 * Every program of `examples/` runs as a user would run it, as its own
 * process configured from the environment, against a simulator started here
 * (scaled time, account limits enforced), and prints what it promises; the
 * example test file passes under its own vitest config.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Simulator from "../src/simulator/Simulator.js"
import { cleanEnv } from "../scripts/cleanEnv.js"
import { runNode } from "./support/Process.js"

const root = fileURLToPath(new URL("..", import.meta.url))

const timeScale = 0.01
const sizes = { models: 200, skills: 250, mcps: 60, organizations: 40 }

/** Runs `examples/NAME.ts` with tsx, configured for the simulator in context. */
const example = (name: string, args: ReadonlyArray<string> = []) =>
  Effect.gen(function*() {
    const simulator = yield* Simulator.Simulator
    const ran = yield* runNode(["--import", "tsx", `examples/${name}.ts`, ...args], {
      cwd: root,
      env: cleanEnv({
        CATALOG_BASE_URL: simulator.baseUrl,
        CATALOG_API_KEY: Redacted.value(simulator.keys.full),
        CATALOG_TIME_SCALE: String(timeScale)
      })
    })
    expect(ran.code, `examples/${name}.ts exited with ${ran.code}\n${ran.stderr}`).toBe(0)
    return ran
  })

const timeout = 60_000

describe("examples", () => {
  layer(Simulator.layer({ sizes, timeScale }), { excludeTestServices: true })((it) => {
    it.effect("first-call: the catalog's counts, then the first model through follow", () =>
      Effect.gen(function*() {
        const { stdout } = yield* example("first-call")
        expect(stdout).toContain(`The catalog holds ${sizes.models} models, ${sizes.skills} Skills and ${sizes.mcps} MCP servers`)
        expect(stdout).toMatch(/First model: .+ \(o\d+-[a-z]+\/m\d+-[a-z0-9-]+\)/)
        expect(stdout).toMatch(/context tokens: (\d+|unknown)/)
      }), timeout)

    it.effect("scan-skills: every Skill once, in wire form, to the NDJSON file; progress on stderr", () =>
      Effect.acquireUseRelease(
        Effect.promise(async () => {
          await mkdir(join(root, ".tmp"), { recursive: true })
          return mkdtemp(join(root, ".tmp", "examples-"))
        }),
        (dir) =>
          Effect.gen(function*() {
            const file = join(dir, "skills.ndjson")
            const { stderr, stdout } = yield* example("scan-skills", [file])
            expect(stdout).toContain(`Wrote ${sizes.skills} Skills to ${file}`)
            expect(stderr).toContain("100 Skills…")
            expect(stderr).toContain("200 Skills…")
            const lines = (yield* Effect.promise(() => readFile(file, "utf8"))).split("\n").filter((line) => line !== "")
            expect(lines).toHaveLength(sizes.skills)
            const ids = lines.map((line) => {
              const skill: unknown = JSON.parse(line)
              if (typeof skill !== "object" || skill === null || !("id" in skill) || !("installs" in skill)) {
                throw new Error(`not a Skill: ${line.slice(0, 200)}`)
              }
              // Exact integers stay decimal strings on the wire.
              expect(skill.installs).toMatch(/^\d+$/)
              return String(skill.id)
            })
            expect(new Set(ids).size).toBe(sizes.skills)
          }),
        (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
      ), timeout)

    it.effect("exhaustive-errors: a missing model takes the NotFound branch", () =>
      Effect.gen(function*() {
        const { stdout } = yield* example("exhaustive-errors")
        expect(stdout).toContain("No model o9999-nowhere/m9999999-missing: treat it as absent (request req_")
      }), timeout)

    it.effect("cheapest-offers: a table of the cheapest offer of 20 reasoning models", () =>
      Effect.gen(function*() {
        const { stdout } = yield* example("cheapest-offers")
        const lines = stdout.trim().split("\n")
        expect(lines[0]).toMatch(/^model\s+cheapest provider\s+input \$\/Mtok$/)
        expect(lines.at(-1)).toBe("20 reasoning models")
        const rows = lines.slice(1, -1)
        expect(rows).toHaveLength(20)
        expect(rows.some((row) => /\s\d+(\.\d+)?$/.test(row))).toBe(true)
      }), timeout)

    it.effect("refresh: the second pass of the same reads costs 0 units", () =>
      Effect.gen(function*() {
        const { stdout } = yield* example("refresh")
        expect(stdout).toContain("First pass:  20 models, 20 units")
        expect(stdout).toContain("Second pass: 20 models, 0 units")
        expect(stdout).toContain("Changed: 0")
      }), timeout)

    it.effect("testing-your-app: the example test file passes under its vitest config", () =>
      Effect.gen(function*() {
        const ran = yield* runNode(
          [join(root, "node_modules", "vitest", "vitest.mjs"), "run", "--config", "examples/vitest.config.ts"],
          { cwd: root }
        )
        expect(ran.code, `${ran.stdout}\n${ran.stderr}`).toBe(0)
        expect(ran.stdout.replace(/\x1b\[[0-9;]*m/g, "")).toMatch(/Tests\s+3 passed/)
      }), timeout)
  })
})
