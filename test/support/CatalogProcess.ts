/**
 * The `catalog` command as a process, for the tests that run it: bundled by
 * the test setup, with the key and base URL of a simulator in its
 * environment, its state files in a folder of the test file's own. Every
 * run checks that no key of a simulator appears in what it printed.
 */
import { afterAll, beforeAll, expect } from "@effect/vitest"
import { ManagedRuntime, Redacted } from "effect"
import { inject } from "vitest"
import { spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Simulator from "../../common/src/simulator/Simulator.js"

export const root = new URL("../..", import.meta.url).pathname

export interface Result {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Where the runs of this file keep their state files. */
export const stateDirectory = mkdtempSync(join(tmpdir(), "catalog-state-"))

/** Every key a run could leak; no run may print any of them. */
const secrets = new Set<string>()

/** A key that no run may print. */
export const keepSecret = (key: string) => {
  secrets.add(key)
}

export const keysOf = (simulator: Simulator.Service) => {
  for (const key of Object.values(simulator.keys)) secrets.add(Redacted.value(key))
}

export interface Target {
  readonly baseUrl: string
  readonly key: string
}

/** The simulator with its full-access key, its keys kept out of every output (`keysOf`). */
export const fullAccess = (simulator: Simulator.Service): Target => {
  keysOf(simulator)
  return { baseUrl: simulator.baseUrl, key: Redacted.value(simulator.keys.full) }
}

/**
 * A simulator for the tests of the calling `describe` block, started before
 * them and stopped after them, and its full-access target (read once the
 * simulator has started).
 */
export const simulatorForBlock = (settings: Simulator.Settings) => {
  const runtime = ManagedRuntime.make(Simulator.layer(settings))
  let started: Target = { baseUrl: "", key: "" }
  beforeAll(async () => {
    started = fullAccess(await runtime.runPromise(Simulator.Simulator))
  })
  afterAll(() => runtime.dispose())
  const full: Target = {
    get baseUrl() {
      return started.baseUrl
    },
    get key() {
      return started.key
    }
  }
  return { runtime, full }
}

/** Runs a command (the `catalog` command, or `npm run catalog`) and collects its output. */
export const spawnCatalog = (command: string, args: ReadonlyArray<string>, target: Target | null, env: Readonly<Record<string, string>> = {}) =>
  new Promise<Result>((resolve, reject) => {
    const { CATALOG_API_KEY: _key, CATALOG_BASE_URL: _base, CATALOG_TIME_SCALE: _scale, CATALOG_DAILY_BUDGET: _budget, ...inherited } =
      process.env
    const child = spawn(command, args, {
      cwd: root,
      env: {
        ...inherited,
        ...(target === null ? {} : { CATALOG_API_KEY: target.key, CATALOG_BASE_URL: target.baseUrl }),
        // The account's windows, scaled down: these simulators enforce no limits.
        CATALOG_TIME_SCALE: "0.001",
        // The command's state files (start times of recent requests) stay out of the home folder.
        CATALOG_STATE_DIR: stateDirectory,
        ...env
      },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => (stdout += chunk))
    child.stderr.on("data", (chunk) => (stderr += chunk))
    child.once("error", reject)
    child.once("close", (code) => {
      for (const secret of secrets) {
        expect(stdout).not.toContain(secret)
        expect(stderr).not.toContain(secret)
      }
      resolve({ code, stdout, stderr })
    })
  })

/** Runs the command as it ships, bundled from the sources by the test setup. */
export const catalog = (args: ReadonlyArray<string>, target: Target | null, env: Readonly<Record<string, string>> = {}) =>
  spawnCatalog(process.execPath, [inject("catalogCommand"), ...args], target, env)

export const lines = (text: string) => text.split("\n").filter((line) => line !== "")

/** One line on stderr: `catalog: <Tag>: …`. */
export const expectErrorLine = (result: Result, code: number, tag: string) => {
  expect(result.code).toBe(code)
  expect(result.stdout).toBe("")
  const [line, ...more] = lines(result.stderr)
  expect(more).toEqual([])
  expect(line).toMatch(new RegExp(`^catalog: ${tag}: `))
  return line ?? ""
}

