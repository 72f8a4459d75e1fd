/**
 * Admission decides when a request leaves, however late the process runs:
 * `catalog scan` processes whose event loops are blocked for 50 to 500 ms at
 * random moments (`test/support/lateEventLoop.mjs`) scan against a simulator
 * in this process that enforces the contract's limits, alone and as a fleet
 * of three sharing one Redis. The simulator is the referee: it refuses with
 * a 429 whatever passes a window as it counts arrivals, so none may come,
 * and no span of its arrivals may hold more than a window allows. Every
 * item is written once.
 *
 * The windows are scaled (a 10 s window lasts 500 ms) so that a block is as
 * long as the window itself: a request that waits for its turn, is blocked
 * after it, and then leaves into a window that has filled meanwhile is what
 * these scans provoke.
 */
import { describe, expect, it } from "@effect/vitest"
import { ManagedRuntime } from "effect"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Simulator from "../../common/src/simulator/Simulator.js"
import { catalog, fullAccess, lines, type Target } from "../support/CatalogProcess.js"
import * as Pace from "../support/Pace.js"
import * as Servers from "../support/Servers.js"

const timeScale = 0.05
const sizes = { models: 3_000, skills: 2_500, mcps: 2_000 }

const redis = Servers.redis("the fleet of scans sharing one account through Redis needs it")

const blocker = fileURLToPath(new URL("../support/lateEventLoop.mjs", import.meta.url))
const logs = mkdtempSync(join(tmpdir(), "late-event-loop-"))

/** Runs `catalog scan <collection>` in a process made late on purpose; gives the ids it wrote and how late it was made. */
const lateScan = async (target: Target, collection: keyof typeof sizes, extra: ReadonlyArray<string> = []) => {
  const log = join(logs, `${collection}-${Math.random().toString(36).slice(2)}.json`)
  const result = await catalog(["scan", collection, "--fields", "id", "--quiet", ...extra], target, {
    CATALOG_TIME_SCALE: String(timeScale),
    NODE_OPTIONS: `--import=${blocker}`,
    LATE_EVENT_LOOP_LOG: log
  })
  // Nothing but what the command says of a page too large (skills are long), which it asks again in smaller pages.
  expect(lines(result.stderr).filter((line) => !line.includes("the page was too large"))).toEqual([])
  expect(result.code).toBe(0)
  const late: { readonly blocks: number; readonly blockedMillis: number } = JSON.parse(readFileSync(log, "utf8"))
  return { ids: lines(result.stdout).map((line) => String(JSON.parse(line).id)), late }
}

/** What the simulator counted: no 429, and no span of arrivals past a window's limit. */
const expectWindowsKept = (answered: ReadonlyArray<Simulator.Answered>) => {
  expect(answered.filter((entry) => entry.status === 429).map((entry) => entry.operation)).toEqual([])
  Pace.expectWithinWindows(answered, timeScale)
}

describe("a late event loop: admission decides when each request leaves", () => {
  it("on the real clock: one scan of 30 pages, blocked for 50 to 500 ms at random moments, provokes no 429 and keeps every window", async () => {
    const runtime = ManagedRuntime.make(Simulator.layer({ timeScale, sizes, enforceLimits: true }))
    try {
      const simulator = await runtime.runPromise(Simulator.Simulator)
      const { ids, late } = await lateScan(fullAccess(simulator), "models")
      expect(ids).toHaveLength(sizes.models)
      expect(new Set(ids).size).toBe(sizes.models)
      // The process was in fact late: blocked for a good part of the scan.
      expect(late.blocks).toBeGreaterThan(0)
      const answered = await runtime.runPromise(simulator.answered)
      expectWindowsKept(answered)
      expect(answered.filter((entry) => entry.operation === "models")).toHaveLength(30)
    } finally {
      await runtime.dispose()
    }
  }, 180_000)

  it("on the real clock: three late scans sharing one Redis provoke no 429 and keep every window together", async () => {
    const runtime = ManagedRuntime.make(Simulator.layer({ timeScale, sizes, enforceLimits: true }))
    try {
      const simulator = await runtime.runPromise(Simulator.Simulator)
      const target = fullAccess(simulator)
      const shared = ["--redis", redis.url]
      const scans = await Promise.all((["models", "skills", "mcps"] as const).map((collection) => lateScan(target, collection, shared)))
      for (const [index, collection] of (["models", "skills", "mcps"] as const).entries()) {
        const ids = scans[index]?.ids ?? []
        expect(ids, collection).toHaveLength(sizes[collection])
        expect(new Set(ids).size, collection).toBe(sizes[collection])
        expect(scans[index]?.late.blocks ?? 0, collection).toBeGreaterThan(0)
      }
      const answered = await runtime.runPromise(simulator.answered)
      // 75 pages at least (skills may have been asked again in smaller pages), and the reads of the live allowance.
      expect(answered.filter((entry) => entry.operation !== "usage").length).toBeGreaterThanOrEqual(75)
      expectWindowsKept(answered)
    } finally {
      await runtime.dispose()
    }
  }, 240_000)
})
