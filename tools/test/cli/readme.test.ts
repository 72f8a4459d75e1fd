/**
 * Every command example of README, of the pages of docs/ and of `catalog
 * help`, run as it is
 * written (`npx effect-catalog`, `npx catalog` and `catalog` are the bundled
 * command) against the simulator with its default data, each in a folder of
 * its own: it exits with 0 and writes something, on stdout or to the files
 * it names. The simulator's own example serves until it is stopped: it must
 * announce where it listens; the keeper's, until Ctrl-C: it must make a
 * visit first.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { inject } from "vitest"
import { spawn } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { cleanEnv } from "../../../scripts/cleanEnv.js"
import * as Subcommands from "../../src/cli/internal/Subcommands.js"
import * as Simulator from "../../src/simulator/Simulator.js"
import { postgresDatabase } from "../../../test/support/Mirror.js"
import * as Process from "../../../test/support/Process.js"

/** README.md and the pages of docs/, each as its path and its text. */
const documents = ["README.md", ...readdirSync(new URL("../../../docs/", import.meta.url)).filter((page) => page.endsWith(".md")).sort().map((page) => `docs/${page}`)]
  .map((document) => ({ document, text: readFileSync(new URL(`../../../${document}`, import.meta.url), "utf8") }))

/** The command, as README's examples (`npx effect-catalog`, `npx catalog`) and the help's (`catalog`) start it. */
const commandName = /^(npx )?(effect-)?catalog /

/** The `npx effect-catalog …` (and `npx catalog …`) lines of the documents' shell blocks, without their comments. */
const examples = documents.flatMap(({ text }) => [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)])
  .flatMap((block) => (block[1] ?? "").split("\n"))
  .filter((line) => line.startsWith("npx ") && commandName.test(line))
  .map((line) => line.replace(/\s+#.*$/, ""))

/** The examples of every subcommand's help. */
const helpExamples = Subcommands.entries.flatMap(({ guide }) => guide.examples)

/** Runs a keeper's example until its first visit (a JSON line on stderr), then sends it SIGINT; gives how it exited and what it wrote on stderr. */
const keptUntilVisit = (command: string, options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv }) =>
  Effect.async<{ readonly code: number | null; readonly stderr: string }>((resume) => {
    const child = spawn("sh", ["-c", `exec ${command}`], { ...options, stdio: ["ignore", "ignore", "pipe"] })
    let stderr = ""
    let stopping = false
    child.stderr.on("data", (chunk) => {
      stderr += String(chunk)
      // Once: a second Ctrl-C, as in a shell, ends a process that is still stopping.
      if (!stopping && stderr.includes(`"event":"visit"`)) {
        stopping = true
        child.kill("SIGINT")
      }
    })
    child.once("exit", (code) => resume(Effect.succeed({ code, stderr })))
    return Effect.sync(() => void child.kill("SIGKILL"))
  })

/** What a folder's files hold, in bytes. */
const written = (folder: string) => readdirSync(folder).reduce((bytes, name) => bytes + statSync(join(folder, name)).size, 0)

describe("the command examples of README, of docs/ and of the help", () => {
  it("are there: the command's and the mirror's, and one or more in the help of every subcommand", () => {
    expect(examples.length).toBeGreaterThan(15)
    for (const { guide } of Subcommands.entries) expect(guide.examples.length).toBeGreaterThan(0)
  })

  const run = (example: string) =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const database = yield* postgresDatabase
      const folder = yield* Effect.acquireRelease(
        Effect.sync(() => mkdtempSync(join(tmpdir(), "catalog-readme-"))),
        (folder) => Effect.sync(() => rmSync(folder, { recursive: true, force: true }))
      )
      const command = example.replace(commandName, `"${process.execPath}" "${inject("catalogCommand")}" `)
      const options = {
        cwd: folder,
        env: {
          ...Object.fromEntries(Object.entries(cleanEnv()).filter(([name]) => !name.startsWith("CATALOG_"))),
          CATALOG_API_KEY: Redacted.value(simulator.keys.full),
          CATALOG_BASE_URL: simulator.baseUrl,
          // The account's windows, scaled down: this simulator enforces no limits.
          CATALOG_TIME_SCALE: "0.001",
          CATALOG_STATE_DIR: folder,
          DATABASE_URL: database.url
        }
      }
      if (example.replace(commandName, "").startsWith("simulator")) {
        const announced = yield* Process.startedLine("sh", ["-c", `exec ${command}`], options)
        expect(JSON.parse(announced)).toHaveProperty("base_url")
        return
      }
      // The keeper serves until it is stopped: it must make a visit, and stop on Ctrl-C saying how to go on.
      if (example.replace(commandName, "").startsWith("mirror keep")) {
        const kept = yield* keptUntilVisit(command, options)
        expect(kept.code, kept.stderr).toBe(130)
        expect(kept.stderr.trim().split("\n").at(-1)).toMatch(/^catalog: mirror keep: stopped; .* again to go on$/)
        return
      }
      // An example that reads a mirror's changes or its keeper's report reads one made first, in the same folder.
      if (/^(changes|mirror status)/.test(example.replace(commandName, ""))) {
        const named = /--db (\S+)/.exec(example)?.[1] ?? "catalog.sqlite"
        const made = yield* Process.run("sh", ["-c", `"${process.execPath}" "${inject("catalogCommand")}" mirror topics --db ${named}`], options)
        expect(made.code, made.stderr).toBe(0)
      }
      const result = yield* Process.run("sh", ["-c", command], options)
      expect(result.code, result.stderr).toBe(0)
      expect(result.stdout.length + written(folder), result.stderr).toBeGreaterThan(0)
      expect(result.stdout + result.stderr).not.toContain(Redacted.value(simulator.keys.full))
    })

  // One simulator for every example, on the real clock; the examples run two at a time (each is a process of its own).
  describe.concurrent("run", () => {
    layer(Simulator.layer({ enforceLimits: false }), { excludeTestServices: true })((it) => {
      it.scoped.each(examples)("README and docs/: %s", run, 60_000)

      it.scoped.each(helpExamples)("help: %s", run, 60_000)
    })
  })
})
