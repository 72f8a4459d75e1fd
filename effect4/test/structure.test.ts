/**
 * The shape of the Effect 4 edition's code: no function of its sources
 * longer than 80 lines (a screen); nothing of the Effect 3 edition or of the
 * tools among the modules it loads (the simulator comes as a bundle its
 * declaration types, `common/src/simulator/Simulator.ts` says why); and no
 * circle among them, the shared ones among them.
 */
import { describe, expect, it } from "@effect/vitest"
import { fileURLToPath } from "node:url"
import { longerThan } from "../../scripts/functionLengths.js"
import { circles, importGraph } from "../../scripts/importGraph.js"

const repository = fileURLToPath(new URL("../..", import.meta.url))
const graph = importGraph(repository, "effect4/src")

describe("the code's shape", () => {
  it("no function of the edition's sources is longer than 80 lines", () => {
    expect(longerThan(80, [fileURLToPath(new URL("../src", import.meta.url))])).toEqual([])
  })

  it("the modules the edition loads are its own, the shared ones and the shared rules, none of the Effect 3 edition's or the tools'", () => {
    expect(graph.size).toBeGreaterThan(80)
    expect([...graph.keys()].filter((module) => !/^(effect4\/src|common\/src|rules\/src)\//.test(module))).toEqual([])
  })

  it("no module imports itself through others, type-only imports counted", () => {
    expect(circles(graph)).toEqual([])
  })
})
