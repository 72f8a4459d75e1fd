/**
 * The `catalog` command on a real terminal (tmux, `test/support/Terminal.ts`),
 * against a simulator over real HTTP: its stdout, sent to a file, holds only
 * the data, while the terminal shows what it tells its reader.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { inject } from "vitest"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { cleanEnv } from "../../../scripts/cleanEnv.js"
import * as Simulator from "../../src/simulator/Simulator.js"
import * as Terminal from "../../../test/support/Terminal.js"
import * as Servers from "../../../test/support/Servers.js"

Servers.tmux("the tests of what the command shows on a terminal need it")

const root = new URL("../../..", import.meta.url).pathname

const sizes = { models: 250, skills: 10, mcps: 10, organizations: 10, providers: 5, families: 6, topics: 4, articles: 4 }

/** A folder for the life of the scope. */
const scratch = Effect.acquireRelease(
  Effect.promise(() => mkdtemp(join(tmpdir(), "catalog-terminal-"))),
  (folder) => Effect.promise(() => rm(folder, { recursive: true, force: true }))
)

/** The environment of a run against `simulator`: none of the developer's own `CATALOG_` settings. */
const envOf = (simulator: Simulator.Service, stateDirectory: string): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(cleanEnv()).filter(([name]) => !name.startsWith("CATALOG_"))),
  CATALOG_API_KEY: Redacted.value(simulator.keys.full),
  CATALOG_BASE_URL: simulator.baseUrl,
  // The account's windows, scaled down: this simulator enforces no limits.
  CATALOG_TIME_SCALE: "0.001",
  // The command's state files stay out of the home folder.
  CATALOG_STATE_DIR: stateDirectory
})

/** The screen's lines that are not blank. */
const shown = (screen: string) => screen.split("\n").filter((line) => line.trim() !== "")

/** Where a progress line says the scan stands, and what it waits for while a window holds it. */
const progressPattern =
  /^scan models: (\d+) of (\d+) \((\d+)%\), (\d+\.\d) s left, (?:(\d+) items\/s|waiting (\d+\.\d) s for the (10 s|1 min) window), (\d+) pages?, (\d+) units?$/m

// Each test has a simulator and a terminal of its own, and waits mostly on windows: they run at once.
describe.concurrent("catalog on a terminal", () => {
  // 2,000 models in pages of 100 under 10 requests per 10 s, scaled by 0.2: 21 requests (with /stats/) in about 4 s.
  const limited = Simulator.layer({ sizes: { ...sizes, models: 2_000 }, timeScale: 0.2 })
  const limitedEnv = (simulator: Simulator.Service, folder: string) => ({ ...envOf(simulator, folder), CATALOG_TIME_SCALE: "0.2" })

  it.scopedLive(
    "scan models: a progress line with the total from /stats/, the rate and the time left by the admission's schedule, erased for the summary",
    () =>
      Effect.gen(function*() {
        const simulator = yield* Simulator.Simulator
        const folder = yield* scratch
        const stdout = join(folder, "stdout")
        const terminal = yield* Terminal.open({
          command: [process.execPath, inject("catalogCommand"), "scan", "models"],
          cwd: root,
          env: limitedEnv(simulator, folder),
          stdoutTo: stdout
        })
        // A line once a window has held the scan back: the time left counts the windows still to wait for.
        const during = yield* terminal.waitFor((text) => {
          const match = progressPattern.exec(text)
          return match !== null && Number(match[8]) >= 10 && Number(match[8]) < 20
        }, "15 seconds")
        const seen = Date.now()
        const [, items = "", total = "", percent = "", left = "", , , , pages = "", units = ""] = progressPattern.exec(during) ?? []
        expect(Number(total)).toBe(2_000)
        expect(Number(percent)).toBe(Math.floor(Number(items) / 20))
        // The units are the pages' and the one of /stats/.
        expect(Number(units)).toBe(Number(pages) + 1)
        const summary = /^catalog: scan models: 2000 items, 20 pages, 21 units, \d+\.\d s$/m
        yield* terminal.waitFor((text) => summary.test(text), "15 seconds")
        const actual = (Date.now() - seen) / 1000
        // The schedule's estimate, against the time the scan took from there: within a second and a half.
        expect(Math.abs(Number(left) - actual), `said ${left} s left, took ${actual.toFixed(1)} s`).toBeLessThan(1.5)
        expect(yield* terminal.exited("5 seconds")).toBe(0)
        // The progress line was erased: the screen holds the command and the summary only.
        expect(shown(yield* terminal.screen).filter((line) => line.startsWith("scan models:"))).toEqual([])
        const lines = (yield* Effect.promise(() => readFile(stdout, "utf8"))).split("\n").filter((line) => line !== "")
        expect(lines).toHaveLength(2_000)
        for (const line of lines) expect(JSON.parse(line)).toHaveProperty("id")
      }).pipe(Effect.provide(limited)),
    30_000
  )

  it.scopedLive("while a window holds the next page back, the line says how long and for which window, and the time left counts down", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const folder = yield* scratch
      const terminal = yield* Terminal.open({
        command: [process.execPath, inject("catalogCommand"), "scan", "models"],
        cwd: root,
        env: { ...envOf(simulator, folder), CATALOG_TIME_SCALE: "0.5" },
        stdoutTo: join(folder, "stdout")
      })
      /** A line of the wait, as items written, time left and time waited still. */
      const waitOf = (screen: string) => {
        const match = progressPattern.exec(screen)
        return match === null || match[6] === undefined
          ? undefined
          : { items: Number(match[1]), left: Number(match[4]), wait: Number(match[6]), window: match[7] }
      }
      // The 10 s window, scaled by 0.5, holds the 11th request (/stats/ and the first pages went at once): for 4 s or so.
      const first = waitOf(yield* terminal.waitFor((screen) => waitOf(screen) !== undefined, "20 seconds"))
      expect(first?.window).toBe("10 s")
      // Named in the service's time, counted in the scaled one: the wait is under the 5 s the window lasts here.
      expect(first?.wait).toBeLessThan(5)
      // Later in the same wait, no page having come: less time left, and less to wait.
      const later = waitOf(
        yield* terminal.waitFor((screen) => {
          const now = waitOf(screen)
          return now !== undefined && now.items === first?.items && now.left < first.left
        }, "10 seconds")
      )
      expect(later?.wait).toBeLessThan(first?.wait ?? 0)
      yield* terminal.waitFor((text) => /^catalog: scan models: 2000 items, 20 pages, 21 units, \d+\.\d s$/m.test(text), "30 seconds")
    }).pipe(Effect.provide(Simulator.layer({ sizes: { ...sizes, models: 2_000 }, timeScale: 0.5 }))), 60_000)

  it.scopedLive("mirror: the same progress line, of about the plan's count, with the time left by the schedule, then the summary", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const folder = yield* scratch
      const terminal = yield* Terminal.open({
        command: [process.execPath, inject("catalogCommand"), "mirror", "models", "--db", join(folder, "mirror.sqlite")],
        cwd: root,
        env: limitedEnv(simulator, folder)
      })
      const line =
        /^mirror models: (\d+) of about 2000 \((\d+)%\), \d+\.\d s left, (?:\d+ items\/s|waiting \d+\.\d s for the 10 s window), (\d+ pages?), (\d+ units?)$/m
      const [, items = "", , pages = "", units = ""] = line.exec(yield* terminal.waitFor((screen) => line.test(screen), "20 seconds")) ?? []
      expect(Number(items)).toBeLessThan(2_000)
      // A count and its noun agree: "1 page", "2 pages".
      for (const counted of [pages, units]) {
        const [count, noun = ""] = counted.split(" ")
        expect(noun.endsWith("s"), counted).toBe(count !== "1")
      }
      yield* terminal.waitFor((screen) => /^catalog: mirror models: complete, 2000 items \(\+2000 ~0 -0\), 20 pages, 20 units, /m.test(screen), "30 seconds")
      expect(yield* terminal.exited("10 seconds")).toBe(0)
    }).pipe(Effect.provide(limited)), 60_000)

  it.scopedLive("the simulator's help on a terminal is plain text, with NO_COLOR as without, from the command and from npm run simulator", () =>
    Effect.gen(function*() {
      const commands = [
        [process.execPath, inject("catalogCommand"), "simulator", "--help"],
        [process.execPath, "--import", "tsx", "tools/src/simulator/bin.ts", "--help"]
      ]
      // The children's environment has NO_COLOR set; without it, a terminal is where colours would show.
      const { NO_COLOR: _noColor, ...colourful } = cleanEnv()
      for (const command of commands) {
        for (const env of [colourful, { ...colourful, NO_COLOR: "1" }]) {
          const help = yield* Terminal.open({ command, cwd: root, env, rows: 60 })
          expect(yield* help.exited("30 seconds")).toBe(0)
          const styled = yield* help.styledScreen
          expect(styled).toMatch(/^Usage: catalog simulator \[options\]/)
          expect(styled).not.toContain("\u001b")
        }
      }
    }), 120_000)

  it.scopedLive("--no-total reads no /stats/: the progress line counts without a total; --quiet shows nothing", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const folder = yield* scratch
      const noTotal = yield* Terminal.open({
        command: [process.execPath, inject("catalogCommand"), "scan", "models", "--no-total"],
        cwd: root,
        env: limitedEnv(simulator, folder),
        stdoutTo: join(folder, "no-total")
      })
      const line = yield* noTotal.waitFor((text) => /^scan models: \d+ items, \d+ items\/s, \d+ pages?, \d+ units?/m.test(text), "15 seconds")
      expect(line).not.toMatch(/ of \d+| left/)
      yield* noTotal.waitFor((text) => /^catalog: scan models: 2000 items, 20 pages, 20 units,/m.test(text), "15 seconds")
      const quiet = yield* Terminal.open({
        command: [process.execPath, inject("catalogCommand"), "scan", "models", "--max", "300", "--quiet"],
        cwd: root,
        env: envOf(simulator, folder),
        stdoutTo: join(folder, "quiet")
      })
      expect(yield* quiet.exited("15 seconds")).toBe(0)
      expect(shown(yield* quiet.screen)).toEqual([])
    }).pipe(Effect.provide(limited)), 30_000)

  it.scopedLive("a table on the terminal: cut to its width, and get pretty-prints JSON", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const folder = yield* scratch
      const table = yield* Terminal.open({
        command: [process.execPath, inject("catalogCommand"), "scan", "models", "--max", "5", "--format", "table", "--quiet"],
        cwd: root,
        env: envOf(simulator, folder),
        columns: 60
      })
      expect(yield* table.exited("15 seconds")).toBe(0)
      const rows = shown(yield* table.screen)
      expect(rows).toHaveLength(7)
      expect(rows[0]).toMatch(/^id +name/)
      for (const row of rows) expect(row.length).toBeLessThanOrEqual(60)
      const json = yield* Terminal.open({
        command: [process.execPath, inject("catalogCommand"), "get", "model", "o0000-falcon", "m0000001-atlas-70b"],
        cwd: root,
        env: envOf(simulator, folder)
      })
      expect(yield* json.exited("15 seconds")).toBe(0)
      const pretty = shown(yield* json.screen)
      expect(pretty[0]).toBe("{")
      expect(pretty[1]).toBe('  "id": "o0000-falcon/m0000001-atlas-70b",')
    }).pipe(Effect.provide(Simulator.layer({ sizes, enforceLimits: false }))), 30_000)

  it.scopedLive("scan models: the items on stdout, the summary on the terminal, exit code 0", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const folder = yield* scratch
      const stdout = join(folder, "stdout")
      const terminal = yield* Terminal.open({
        command: [process.execPath, inject("catalogCommand"), "scan", "models", "--page-size", "100"],
        cwd: root,
        env: envOf(simulator, folder),
        stdoutTo: stdout
      })
      const summary = new RegExp(`^catalog: scan models: ${sizes.models} items\\b`, "m")
      yield* terminal.waitFor((text) => summary.test(text), "15 seconds")
      expect(yield* terminal.exited("5 seconds")).toBe(0)
      const screen = yield* terminal.screen
      expect(screen).toMatch(summary)
      // The items went to the file, none to the terminal.
      expect(screen).not.toContain("\"id\"")
      const lines = (yield* Effect.promise(() => readFile(stdout, "utf8"))).split("\n").filter((line) => line !== "")
      expect(lines).toHaveLength(sizes.models)
      for (const line of lines) expect(JSON.parse(line)).toHaveProperty("id")
    }).pipe(Effect.provide(Simulator.layer({ sizes, enforceLimits: false }))), 30_000)

  it.scopedLive("mirror keep: a table of the collections kept, drawn again in place: age, target, share of the time within, units, next walk", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const folder = yield* scratch
      const terminal = yield* Terminal.open({
        command: [process.execPath, inject("catalogCommand"), "mirror", "keep", "--db", join(folder, "catalog.sqlite"), "--fresh", "models=2m,mcps=2m"],
        cwd: root,
        env: { ...envOf(simulator, folder), CATALOG_TIME_SCALE: "0.01" }
      })
      const row = (collection: string) => new RegExp(`^${collection} +\\S+ s +2\\.0 min +\\d+% +\\d+ +(due|now|in \\S+ s) +\\d+\\.\\d\\d$`, "m")
      // After a few seconds, the table has been drawn a few times, each over the last.
      yield* Effect.sleep("2500 millis")
      const screen = yield* terminal.waitFor((text) => row("models").test(text) && row("mcps").test(text), "20 seconds")
      const lines = shown(screen)
      expect(lines.filter((line) => /^collection +age +target +within +units +next walk +changes\/day$/.test(line))).toHaveLength(1)
      expect(lines.filter((line) => line.startsWith("models "))).toHaveLength(1)
    }).pipe(Effect.provide(Simulator.layer({ sizes, timeScale: 0.01 }))), 30_000)
})
