/**
 * The window arithmetic of admission (`rules/src/client/AdmissionWindows`),
 * tested once for both editions, whose public `AdmissionWindows` is this
 * module: the contract's windows, the earliest start they allow, a
 * schedule under them, and the limits resolved from a time scale. It
 * imports only the contract's figures, so that it is the same arithmetic
 * under Effect 3 and Effect 4.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import * as AdmissionWindows from "../../src/client/AdmissionWindows.js"

describe("AdmissionWindows", () => {
  it("earliestStart: now while under every limit; else when the oldest counted start leaves its window", () => {
    const windows = AdmissionWindows.windows({ ...AdmissionWindows.contractLimits, marginMillis: 0 })
    expect(windows).toEqual([{ millis: 10_000, limit: 10 }, { millis: 60_000, limit: 60 }])
    expect(AdmissionWindows.earliestStart([], windows, 5)).toBe(5)
    const nine = Array.from({ length: 9 }, (_, index) => index)
    expect(AdmissionWindows.earliestStart(nine, windows, 9)).toBe(9)
    expect(AdmissionWindows.earliestStart([...nine, 9], windows, 10)).toBe(10_000)
    // Never before the last booking.
    expect(AdmissionWindows.earliestStart([0, 7_000], windows, 100)).toBe(7_000)
  })

  it("schedules as the contract's windows say, the 11th request after the first answer leaves the 10 s window", () => {
    expect(AdmissionWindows.schedule(12, AdmissionWindows.contractLimits, [], 100).at(-1)).toBe(10_300)
    expect(AdmissionWindows.resolve({ timeScale: 0.01 }).perMinute).toBe(60)
  })

  it("imports the contract's figures and nothing else", () => {
    const text = readFileSync(new URL("../../src/client/AdmissionWindows.ts", import.meta.url), "utf8")
    const imports = text.split("\n").filter((line) => line.startsWith("import "))
    expect(imports).toEqual(['import * as ContractLimits from "../contract/Figures.js"'])
  })
})
