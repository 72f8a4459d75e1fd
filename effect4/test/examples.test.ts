/**
 * Every program of the edition's `examples/` runs as a user would run it:
 * its own Node 22 process, which strips the types itself, configured from
 * the environment, against a simulator started here (scaled time, the
 * account's limits enforced), and prints what it promises, provoking no 429;
 * the example test file passes under its own vitest config, and so does
 * README's Effect 4 test file (the ```ts effect4 block of "Testing your
 * application"), which is the consumer test's file
 * (`test/package/consumer/app.test.ts`) but for its opening comment.
 *
 * In an application `effect-catalog` is the installed package; here a
 * resolve hook (`support/Examples.ts`), loaded with `--import`, makes it the
 * edition's sources and finds the `.ts` module behind each relative `.js`
 * specifier, as tsc's `paths` and NodeNext resolution do.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { cleanEnv } from "../../scripts/cleanEnv.js"
import { Simulator } from "effect-catalog/simulator"
import { edition, runExample } from "./support/Examples.js"
import { runNode } from "./support/Process.js"

const timeScale = 0.01
const sizes = { models: 200, skills: 250, mcps: 60, organizations: 40 }

/** The 429s the simulator has answered so far. */
const refused = Simulator.Simulator.use((simulator) => Effect.map(simulator.statusCounts, (counts) => counts.get(429) ?? 0))

/** Runs `examples/NAME.ts` with Node 22, configured for the simulator in context, and checks that it succeeded without a 429. */
const example = (name: string, args: ReadonlyArray<string> = []) =>
  Effect.gen(function*() {
    const simulator = yield* Simulator.Simulator
    const before = yield* refused
    const ran = yield* runExample(
      name,
      args,
      cleanEnv({
        CATALOG_BASE_URL: simulator.baseUrl,
        CATALOG_API_KEY: Redacted.value(simulator.keys.full),
        CATALOG_TIME_SCALE: String(timeScale)
      })
    )
    expect(ran.code, `examples/${name}.ts exited with ${ran.code}\n${ran.stderr}`).toBe(0)
    expect(yield* refused, `examples/${name}.ts provoked a 429`).toBe(before)
    return ran
  })

/** Runs the edition's vitest with the config at `config` in the edition's folder to its end. */
const vitest = (config: string) =>
  runNode([join(edition, "node_modules", "vitest", "vitest.mjs"), "run", "--config", config], { cwd: edition, env: cleanEnv() })

const timeout = 60_000

/** A folder of its own under the edition's `.tmp/`, removed when the scope closes. */
const temporaryFolder = Effect.acquireRelease(
  Effect.promise(async () => {
    await mkdir(join(edition, ".tmp"), { recursive: true })
    return mkdtemp(join(edition, ".tmp", "examples-"))
  }),
  (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
)

/** The code of the first ```ts effect4 block of README.md after `heading`. */
const readmeBlockAfter = async (heading: string) => {
  const lines = (await readFile(fileURLToPath(new URL("../../README.md", import.meta.url)), "utf8")).split("\n")
  const start = lines.findIndex((line, index) => index > lines.indexOf(heading) && line === "```ts effect4") + 1
  return start === 0 ? "" : `${lines.slice(start, lines.indexOf("```", start)).join("\n")}\n`
}

describe("examples", () => {
  layer(Simulator.layer({ sizes, timeScale }), { excludeTestServices: true })((it) => {
    it.effect("the simulator enforces the account's limits", () =>
      Effect.gen(function*() {
        const simulator = yield* Simulator.Simulator
        expect(simulator.options.enforceLimits).toBe(true)
        expect(simulator.options.timeScale).toBe(timeScale)
      }))

    it.effect("first-call: the catalog's counts, then the first model through follow", () =>
      Effect.gen(function*() {
        const { stdout } = yield* example("first-call")
        expect(stdout).toContain(`The catalog holds ${sizes.models} models, ${sizes.skills} Skills and ${sizes.mcps} MCP servers`)
        expect(stdout).toMatch(/First model: .+ \(o\d+-[a-z]+\/m\d+-[a-z0-9-]+\)/)
        expect(stdout).toMatch(/context tokens: (\d+|unknown)/)
        expect(stdout).toMatch(/released on: +(\d{4}-\d{2}-\d{2}|unknown)/)
      }), timeout)

    it.effect("scan-skills: every Skill once, in wire form, to the NDJSON file; progress on stderr", () =>
      Effect.gen(function*() {
        const dir = yield* temporaryFolder
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
      }).pipe(Effect.scoped), timeout)

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
        const ran = yield* vitest("examples/vitest.config.ts")
        expect(ran.code, `${ran.stdout}\n${ran.stderr}`).toBe(0)
        expect(ran.stdout.replace(/\x1b\[[0-9;]*m/g, "")).toMatch(/Tests\s+3 passed/)
      }), timeout)

    it.effect("README's Effect 4 test file passes under vitest, against Simulator.layerClient", () =>
      Effect.gen(function*() {
        const code = yield* Effect.promise(() => readmeBlockAfter("## Testing your application"))
        const fixture = yield* Effect.promise(() => readFile(new URL("package/consumer/app.test.ts", import.meta.url), "utf8"))
        expect(code).toContain("Simulator.layerClient")
        expect(code).toBe(fixture.replace(/^(\/\/.*\n)+/, ""))
        const dir = yield* temporaryFolder
        yield* Effect.promise(() =>
          Promise.all([
            writeFile(join(dir, "app.test.ts"), code),
            writeFile(
              join(dir, "vitest.config.ts"),
              [
                `import { defineConfig } from "vitest/config"`,
                `import { conditions, sourceAliases } from "../../vitest.config.js"`,
                `export default defineConfig({ resolve: { alias: sourceAliases, conditions }, ssr: { resolve: { conditions } }, test: { root: ${JSON.stringify(dir)}, include: ["app.test.ts"] } })`,
                ""
              ].join("\n")
            )
          ])
        )
        const ran = yield* vitest(join(dir, "vitest.config.ts"))
        expect(ran.code, `${ran.stdout}\n${ran.stderr}`).toBe(0)
        expect(ran.stdout.replace(/\x1b\[[0-9;]*m/g, "")).toMatch(/Tests\s+4 passed/)
      }).pipe(Effect.scoped), timeout)
  })
})
