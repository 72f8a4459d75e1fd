/**
 * The `catalog` command as a process stopped by a signal mid-run, against a
 * simulator that answers every request late: SIGINT and SIGTERM end it with
 * their exit codes (130, 143), one line on stderr says how far it got and
 * what to run to go on, and what it wrote is whole in every format (a JSON
 * array closed, CSV on a whole row, NDJSON on a whole line), as many items
 * as the line says. An interrupted mirror says the command that goes on
 * from its checkpoint, and that command does.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Redacted, Schedule, type Scope } from "effect"
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { inject } from "vitest"
import { cleanEnv } from "../../../scripts/cleanEnv.js"
import * as ExitCodes from "../../src/cli/ExitCodes.js"
import * as Simulator from "../../src/simulator/Simulator.js"
import { lines } from "../../../test/support/CatalogProcess.js"
import * as Process from "../../../test/support/Process.js"
import * as Csv from "../../../test/support/Csv.js"

/** A folder for the life of the scope. */
const scratch = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "catalog-interrupt-"))),
  (folder) => Effect.sync(() => rmSync(folder, { recursive: true, force: true }))
)

/** The environment of a run against `simulator`: its full key, the account's windows scaled down, state files in `folder`. */
const envOf = (simulator: Simulator.Service, folder: string) =>
  cleanEnv({
    CATALOG_BASE_URL: simulator.baseUrl,
    CATALOG_API_KEY: Redacted.value(simulator.keys.full),
    CATALOG_TIME_SCALE: "0.001",
    CATALOG_STATE_DIR: folder
  })

/**
 * The bundled command started in `folder`, to be stopped by a signal once
 * the simulator has answered `pages` pages of `operation`; gives its exit
 * code and what it printed. Killed when the scope closes, if it still runs.
 */
const interrupted = (
  args: ReadonlyArray<string>,
  options: { readonly folder: string; readonly signal: ExitCodes.Signal; readonly operation: string; readonly pages: number }
): Effect.Effect<Process.Ran, never, Simulator.Simulator | Scope.Scope> =>
  Effect.gen(function*() {
    const simulator = yield* Simulator.Simulator
    const before = yield* answered(options.operation)
    const child = yield* Effect.acquireRelease(
      Effect.sync(() =>
        spawn(process.execPath, [inject("catalogCommand"), ...args], {
          cwd: options.folder,
          env: envOf(simulator, options.folder),
          stdio: ["ignore", "pipe", "pipe"]
        })
      ),
      (child) => Effect.sync(() => child.kill("SIGKILL"))
    )
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => (stdout += chunk))
    child.stderr.on("data", (chunk) => (stderr += chunk))
    const exited = Effect.async<number | null>((resume) => {
      child.once("close", (code) => resume(Effect.succeed(code)))
    })
    yield* answered(options.operation).pipe(
      Effect.repeat({ until: (count) => count >= before + options.pages, schedule: Schedule.spaced("20 millis") })
    )
    child.kill(options.signal)
    const code = yield* exited
    expect(stdout + stderr).not.toContain(Redacted.value(simulator.keys.full))
    return { code, stdout, stderr }
  })

/** How many pages of `operation` the simulator has answered. */
const answered = (operation: string) =>
  Effect.flatMap(Simulator.Simulator, (simulator) =>
    Effect.map(simulator.answered, (all) => all.filter((answer) => answer.operation === operation && answer.status === 200).length))

/** The ids of what a list's output holds, read as its format is read, each item whole. */
const itemsIn = (format: "ndjson" | "json" | "csv", text: string): ReadonlyArray<unknown> => {
  switch (format) {
    case "ndjson":
      expect(text.endsWith("\n")).toBe(true)
      return lines(text).map((line) => JSON.parse(line))
    case "json": {
      const array: unknown = JSON.parse(text)
      if (!Array.isArray(array)) throw new Error("not a JSON array")
      return array
    }
    case "csv": {
      const [header, ...rows] = Csv.rows(text)
      expect(header?.[0]).toBe("id")
      for (const row of rows) expect(row).toHaveLength(header?.length ?? 0)
      return rows.map(([id]) => ({ id }))
    }
  }
}

const hasId = (item: unknown) => typeof item === "object" && item !== null && "id" in item && typeof item.id === "string"

/** The line of an interrupted run: its counts, and what it says next. */
const interruptedLine = /^catalog: interrupted after (\d+) items?, (\d+) pages?, (\d+) units?; (.*)$/

describe("catalog stopped by a signal", { timeout: 120_000 }, () => {
  // Every answer is 200 ms late: a scan of 40 pages takes 8 s, a sync of 60 pages 12 s.
  layer(Simulator.layer({ sizes: { models: 600 }, enforceLimits: false, faults: { slow: 1, slowMillis: 200 } }), { excludeTestServices: true })(
    (it) => {
      for (const signal of ["SIGINT", "SIGTERM"] as const) {
        it.scoped(`${signal} mid-scan: exit code ${ExitCodes.ofSignal(signal)}, one line saying how far it got, and the --out file whole in every format`, () =>
          Effect.gen(function*() {
            const folder = yield* scratch
            for (const format of ["json", "csv", "ndjson"] as const) {
              const file = `models.${format}`
              const ran = yield* interrupted(["scan", "models", "--page-size", "15", "--format", format, "--out", file], {
                folder,
                signal,
                operation: "models",
                pages: 3
              })
              expect(ran.code, ran.stderr).toBe(ExitCodes.ofSignal(signal))
              expect(ran.stdout).toBe("")
              const [line, ...more] = lines(ran.stderr)
              expect(more).toEqual([])
              const [, items = "", pages = "", units = "", next] = interruptedLine.exec(line ?? "") ?? []
              expect(line).toMatch(interruptedLine)
              expect(next).toBe(`${file} holds them, each whole; a scan does not resume: run it again to start over`)
              // Every page received is a unit; the items written are those of whole pages, as many as the line says.
              expect(Number(units)).toBe(Number(pages))
              const written = itemsIn(format, readFileSync(join(folder, file), "utf8"))
              expect(written.length).toBe(Number(items))
              expect(written.length).toBeGreaterThan(0)
              expect(written.length).toBeLessThan(600)
              expect(written.length % 15).toBe(0)
              expect(written.every(hasId)).toBe(true)
            }
          }))
      }

      it.scoped("SIGINT mid-sync of the mirror: exit code 130, its changes on whole lines, and a line with the command that goes on, which does", () =>
        Effect.gen(function*() {
          const folder = yield* scratch
          const database = join(folder, "mirror.sqlite")
          const ran = yield* interrupted(["mirror", "models", "--db", database, "--changes"], {
            folder,
            signal: "SIGINT",
            operation: "models",
            pages: 3
          })
          expect(ran.code, ran.stderr).toBe(ExitCodes.interrupted)
          expect(ran.stdout.endsWith("\n")).toBe(true)
          const changes = lines(ran.stdout).map((line) => JSON.parse(line))
          expect(changes.length).toBeGreaterThan(0)
          const [line, ...more] = lines(ran.stderr)
          expect(more).toEqual([])
          const [, items = "", , , next] = interruptedLine.exec(line ?? "") ?? []
          expect(line).toMatch(interruptedLine)
          // The items of the pages committed, whose changes were written (a signal between a commit and its lines loses those lines).
          expect(Number(items)).toBeGreaterThanOrEqual(changes.length)
          expect(next).toBe(`run catalog mirror models --db ${database} --changes again: it goes on from where models stopped`)
          // The command it names, run as it is written: the sync goes on from its checkpoint and completes.
          const simulator = yield* Simulator.Simulator
          const command = (next ?? "").replace(/^run catalog /, "").replace(/ again: .*$/, "")
          const again = yield* Process.run("sh", ["-c", `exec "${process.execPath}" "${inject("catalogCommand")}" ${command}`], {
            cwd: folder,
            env: envOf(simulator, folder)
          })
          expect(again.code, again.stderr).toBe(0)
          expect(lines(again.stderr)).toEqual([expect.stringMatching(/^catalog: mirror models: complete, \d+ items /)])
          const rest = lines(again.stdout).map((line) => JSON.parse(line))
          // Nothing twice: the second run inserts only what the first did not commit.
          expect(rest.length).toBe(600 - Number(items))
        }))
    }
  )
})
