/**
 * The modules both editions share (`common/src`) are one text compiled
 * against either major of Effect, so they name nothing that resolves to one
 * of them: Effect and the edition's own modules come through `#edition/…`
 * (the repository's package.json, `effect4` condition for the Effect 4
 * edition), everything else from the shared rules, each other and Node.
 */
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { specifiersOf as specifiersIn } from "../scripts/importGraph.js"

const common = fileURLToPath(new URL("../common/src", import.meta.url))
const repository = fileURLToPath(new URL("..", import.meta.url))
const sources = readdirSync(common, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts")).sort()

/** Every module specifier of a source: static imports and re-exports, type-only ones too, and dynamic imports. */
const specifiersOf = (source: string): ReadonlyArray<string> => specifiersIn(readFileSync(join(common, source), "utf8"))

/** Where a relative specifier of `source` leads, from the repository's root. */
const target = (source: string, specifier: string) => relative(repository, join(common, dirname(source), specifier))

describe("the modules both editions share", () => {
  it("are there to check", () => {
    expect(sources.length).toBeGreaterThan(5)
  })

  it("take Effect and the edition's modules through #edition/…, and name no package", () => {
    const named = sources.flatMap((source) =>
      specifiersOf(source)
        .filter((specifier) => !specifier.startsWith(".") && !specifier.startsWith("#edition/") && !specifier.startsWith("node:"))
        .map((specifier) => `${source}: ${specifier}`)
    )
    expect(named).toEqual([])
  })

  it("import by relative path only each other and the shared rules", () => {
    const outside = sources.flatMap((source) =>
      specifiersOf(source)
        .filter((specifier) => specifier.startsWith("."))
        .filter((specifier) => !/^(common|rules)\/src\//.test(target(source, specifier)))
        .map((specifier) => `${source}: ${specifier}`)
    )
    expect(outside).toEqual([])
  })
})
