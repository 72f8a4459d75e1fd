/**
 * The shape of the Effect 3 edition's code: no function longer than 80
 * lines (a screen), so that each can be read whole, in its sources or in
 * those it shares with the Effect 4 edition (`common/src`, `rules/src`); no
 * file of the Effect 4 edition among the modules it loads, and of the tools
 * only what two entry points give users to embed; and no circle among them,
 * so that every arrow of the request path runs one way.
 */
import { describe, expect, it } from "@effect/vitest"
import { fileURLToPath } from "node:url"
import { longerThan } from "../scripts/functionLengths.js"
import { circles, importGraph, importsBetween } from "../scripts/importGraph.js"

const repository = fileURLToPath(new URL("..", import.meta.url))
const graph = importGraph(repository, "src")

describe("the code's shape", () => {
  it("no function in src, common/src, rules/src or tools/src is longer than 80 lines", () => {
    expect(longerThan(80, ["src", "common/src", "rules/src", "tools/src"].map((folder) => fileURLToPath(new URL(`../${folder}`, import.meta.url))))).toEqual([])
  })

  it("the modules the edition loads are its own, the shared ones, the shared rules and the tools, none of the Effect 4 edition's", () => {
    expect(graph.size).toBeGreaterThan(100)
    expect([...graph.keys()].filter((module) => !/^(src|common\/src|rules\/src|tools\/src)\//.test(module))).toEqual([])
    expect(importsBetween(graph, () => true, (module) => module.startsWith("effect4/"))).toEqual([])
  })

  it("the library reaches none of the tools; two entry points re-export the tools' modules users embed in Effect 3 applications", () => {
    const tools = (module: string) => module.startsWith("tools/")
    expect([...importsBetween(graph, (module) => !tools(module), tools)].sort()).toEqual([
      "src/cli/index.ts → tools/src/cli/Command.ts",
      "src/simulator/index.ts → tools/src/simulator/Command.ts",
      "src/simulator/index.ts → tools/src/simulator/Standalone.ts"
    ])
  })

  it("no module imports itself through others, type-only imports counted", () => {
    expect(circles(graph)).toEqual([])
    // The check finds a circle where there is one.
    expect(circles(new Map([["a.ts", ["b.ts"]], ["b.ts", ["a.ts"]], ["c.ts", ["a.ts"]]]))).toEqual([["a.ts", "b.ts"]])
  })
})
