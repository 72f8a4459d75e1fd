/**
 * The shared rules are written once for both editions, so nothing in them
 * may face Effect: a file under `rules/src` that imported `effect` or
 * `@effect/*` would load Effect 3 in one edition and Effect 4 in the other.
 * They import only each other, Node's built-ins and plain libraries.
 */
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const rules = fileURLToPath(new URL("../src", import.meta.url))
const sources = readdirSync(rules, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts")).sort()

/** Every module specifier of a source: static imports and re-exports, type-only ones too, and dynamic imports. */
const specifiersOf = (source: string): ReadonlyArray<string> =>
  [...readFileSync(join(rules, source), "utf8").matchAll(/^\s*(?:import|export)\b[^"'`]*?\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']/gm)]
    .map((match) => match[1] ?? match[2] ?? "")

describe("the shared rules", () => {
  it("are there to check", () => {
    expect(sources.length).toBeGreaterThan(30)
  })

  it("import nothing of Effect", () => {
    const offending = sources.flatMap((source) =>
      specifiersOf(source).filter((specifier) => /^(effect|@effect\/)/.test(specifier)).map((specifier) => `${source}: ${specifier}`)
    )
    expect(offending).toEqual([])
  })

  it("import no file outside rules/src", () => {
    const outside = sources.flatMap((source) =>
      specifiersOf(source)
        .filter((specifier) => specifier.startsWith("."))
        .filter((specifier) => relative(rules, join(rules, dirname(source), specifier)).startsWith(".."))
        .map((specifier) => `${source}: ${specifier}`)
    )
    expect(outside).toEqual([])
  })
})
