/**
 * The window arithmetic is one module for both editions: the Effect 4
 * edition's `AdmissionWindows` is the shared rules' module, Effect-free.
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { AdmissionWindows } from "effect-catalog"

describe("AdmissionWindows", () => {
  it("schedules as the contract's windows say, the 11th request after the first answer leaves the 10 s window", () => {
    expect(AdmissionWindows.schedule(12, AdmissionWindows.contractLimits, [], 100).at(-1)).toBe(10_300)
    expect(AdmissionWindows.resolve({ timeScale: 0.01 }).perMinute).toBe(60)
  })

  it("is the shared rules' module, which imports nothing of Effect", () => {
    const shared = readFileSync(fileURLToPath(new URL("../../rules/src/client/AdmissionWindows.ts", import.meta.url)), "utf8")
    const imports = shared.split("\n").filter((line) => line.startsWith("import "))
    expect(imports).toEqual(['import * as ContractLimits from "../contract/Figures.js"'])
  })
})
