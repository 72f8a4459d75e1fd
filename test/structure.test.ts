/**
 * The shape of the code that the Effect 4 edition is ported from: no
 * function of the client or the mirror longer than 80 lines (a screen), so
 * that each can be read, and ported, whole.
 */
import { describe, expect, it } from "@effect/vitest"
import { longerThan } from "../scripts/functionLengths.js"

describe("the code's shape", () => {
  it("no function in src/client or src/mirror is longer than 80 lines", () => {
    expect(longerThan(80, ["src/client", "src/mirror"])).toEqual([])
  })
})
