/**
 * The shape of the Effect 4 edition's code: no function of its sources
 * longer than 80 lines (a screen); of the Effect 3 edition it loads only
 * the standalone simulator, through the declaration of its bundle and the
 * plain types of its settings (`src/simulator/Simulator.ts` says why); and no circle among the
 * modules it loads, the shared ones among them.
 */
import { describe, expect, it } from "@effect/vitest"
import { fileURLToPath } from "node:url"
import { longerThan } from "../../scripts/functionLengths.js"
import { circles, importGraph, importsBetween } from "../../scripts/importGraph.js"

const repository = fileURLToPath(new URL("../..", import.meta.url))
const graph = importGraph(repository, "effect4/src")

/** The modules of the standalone simulator this edition's `Simulator` imports: the declaration of its bundle, and the plain types of its settings. */
const standaloneSimulator = ["src/simulator/StandaloneBundle.d.ts", "src/simulator/Settings.ts", "src/simulator/data/Slots.ts", "src/simulator/data/Collation.ts"]

describe("the code's shape", () => {
  it("no function of the edition's sources is longer than 80 lines", () => {
    expect(longerThan(80, [fileURLToPath(new URL("../src", import.meta.url))])).toEqual([])
  })

  it("of the Effect 3 edition, the edition's modules and the shared ones import only the standalone simulator", () => {
    expect(graph.size).toBeGreaterThan(80)
    const own = (module: string) => /^(effect4\/src|common\/src|rules\/src)\//.test(module)
    expect(importsBetween(graph, own, (module) => !own(module)).filter((arrow) => !standaloneSimulator.some((module) => arrow.endsWith(`→ ${module}`))))
      .toEqual([])
    expect(importsBetween(graph, own, (module) => !own(module)).length).toBeGreaterThan(0)
  })

  it("no module imports itself through others, type-only imports counted", () => {
    expect(circles(graph)).toEqual([])
  })
})
