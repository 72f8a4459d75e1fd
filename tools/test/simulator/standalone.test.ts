/**
 * The simulator outside any Effect runtime (`SimulatorStandalone`), as both
 * editions' `Simulator` starts it: Promises, plain switches and keys, and the
 * time read from a clock the caller gives, which moves the account's windows.
 */
import { describe, expect, it } from "@effect/vitest"
import * as SimulatorStandalone from "../../src/simulator/Standalone.js"
import type * as StandaloneBundle from "../../../common/src/simulator/StandaloneBundle.js"

/** Sends a GET of `path` with `key`; its status. */
const statusOf = (running: SimulatorStandalone.Running, path: string, key = running.keys.full) =>
  fetch(`${running.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } }).then(async (answer) => {
    await answer.arrayBuffer()
    return answer.status
  })

describe("the standalone simulator", () => {
  it("is what the declaration of its bundle, which both editions load, says it is", () => {
    const declared: Pick<typeof StandaloneBundle, "start" | "resolve"> = SimulatorStandalone
    expect(declared.resolve({ timeScale: 0.01 }).limits.perMinute).toBe(60)
  })

  it("bundled, its Effect keeps a global store of its own, apart from the one the program's Effect 3 shares", async () => {
    const stores = () => [Reflect.get(globalThis, "effect/GlobalValue"), Reflect.get(globalThis, "effect-catalog/simulator/GlobalValue")]
    const [programStore] = stores()
    const bundle: typeof StandaloneBundle = await import("../../../common/src/simulator/StandaloneBundle.js")
    const running = await bundle.start({ sizes: { models: 5 }, enforceLimits: false })
    try {
      expect(await statusOf(running, "/models/")).toBe(200)
      const [shared, own] = stores()
      expect(shared).toBe(programStore)
      expect(own).toBeInstanceOf(Map)
      expect(own).not.toBe(shared)
    } finally {
      await running.stop()
    }
  })

  it("serves the catalog with plain keys and switches, and stops", async () => {
    const running = await SimulatorStandalone.start({ sizes: { models: 30 }, enforceLimits: false })
    try {
      expect(running.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/)
      expect(typeof running.keys.full).toBe("string")
      expect(await statusOf(running, "/models/")).toBe(200)
      expect(await statusOf(running, "/models/", running.keys.revoked)).toBe(401)
      running.setFaults({ unavailable: 1 })
      expect(await statusOf(running, "/stats/")).toBe(503)
      expect(running.listed("models")).toHaveLength(30)
      expect([...running.statusCounts()].sort()).toEqual([[200, 1], [401, 1], [503, 1]])
    } finally {
      await running.stop()
    }
    await expect(statusOf(running, "/models/")).rejects.toThrow()
  })

  it("reads the time from the clock it is given: the account's window moves only when that clock does", async () => {
    let now = Date.UTC(2026, 10, 26, 12)
    const running = await SimulatorStandalone.start({ sizes: { models: 10 }, timeScale: 0.01 }, { now: () => now })
    try {
      // Ten requests fill the 10 s window (100 ms at this time scale), however long real time takes.
      for (let n = 0; n < 10; n++) expect(await statusOf(running, "/stats/")).toBe(200)
      expect(await statusOf(running, "/stats/")).toBe(429)
      await new Promise((resolve) => setTimeout(resolve, 150))
      expect(await statusOf(running, "/stats/")).toBe(429)
      now += 100
      expect(await statusOf(running, "/stats/")).toBe(200)
      const arrivals = running.answered().map((entry) => entry.arrived)
      expect((arrivals.at(-1) ?? 0) - (arrivals[0] ?? 0)).toBe(100)
    } finally {
      await running.stop()
    }
  })

  it("runs its switches on the clock it is given: the daily allowance spent is the given clock's day", async () => {
    const running = await SimulatorStandalone.start({ sizes: { models: 10 }, enforceLimits: true }, { now: () => 0 })
    try {
      expect(await statusOf(running, "/stats/")).toBe(200)
      running.spendDailyUnits()
      expect(await statusOf(running, "/stats/")).toBe(429)
    } finally {
      await running.stop()
    }
  })
})
