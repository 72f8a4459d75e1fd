/**
 * The shape of the tools (the simulator and the `catalog` command): a
 * program written in Effect 3 on the Effect 3 edition's public modules, so
 * the modules it loads are its own, that edition's, the shared ones and the
 * shared rules, never the Effect 4 edition's; and of the library only
 * public modules, never one under `internal/`, so that the library can
 * change its insides without the tools noticing.
 */
import { describe, expect, it } from "@effect/vitest"
import { fileURLToPath } from "node:url"
import { importGraph, importsBetween } from "../../scripts/importGraph.js"

const repository = fileURLToPath(new URL("../..", import.meta.url))
const graph = importGraph(repository, "tools/src")
const tools = (module: string) => module.startsWith("tools/")

describe("the tools' shape", () => {
  it("load the Effect 3 edition, the shared modules and rules, and nothing of the Effect 4 edition", () => {
    expect(graph.size).toBeGreaterThan(60)
    expect([...graph.keys()].filter((module) => !/^(tools\/src|src|common\/src|rules\/src)\//.test(module))).toEqual([])
  })

  it("take the library's public modules only, none under internal/", () => {
    const arrows = importsBetween(graph, tools, (module) => !tools(module))
    expect(arrows.length).toBeGreaterThan(10)
    expect(arrows.filter((arrow) => arrow.split(" → ")[1]?.includes("/internal/"))).toEqual([])
  })
})
