/**
 * The edition's code in functions of a screen at most: none of its sources
 * has a function longer than 80 lines.
 */
import { describe, expect, it } from "@effect/vitest"
import { fileURLToPath } from "node:url"
import { longerThan } from "../../scripts/functionLengths.js"

describe("the code's shape", () => {
  it("no function of the edition's sources is longer than 80 lines", () => {
    expect(longerThan(80, [fileURLToPath(new URL("../src", import.meta.url))])).toEqual([])
  })
})
