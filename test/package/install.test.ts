/**
 * README's install commands name every optional peer at the range
 * package.json asks for: a bare `npm install @effect/sql-pg` would bring a
 * release for another major version of Effect.
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), "utf8")

const manifest: { peerDependencies: Record<string, string>; peerDependenciesMeta: Record<string, { optional?: boolean }> } = JSON.parse(
  read("package.json")
)
const readme = read("README.md")

/** Every `name@range` of README's `npm install` lines. */
const installed = [...readme.matchAll(/^npm install (.+)$/gm)]
  .flatMap((line) => (line[1] ?? "").replace(/\s+#.*$/, "").split(/\s+/))
  .filter((word) => word.lastIndexOf("@") > 0)

const optionalPeers = Object.entries(manifest.peerDependenciesMeta).filter(([, meta]) => meta.optional === true).map(([name]) => name)

describe("README's install commands", () => {
  it.each(optionalPeers)("install %s at the range of package.json's peerDependencies", (name) => {
    const named = installed.filter((word) => word.startsWith(`${name}@`))
    expect(named.length, `README installs no ${name}`).toBeGreaterThan(0)
    for (const word of named) expect(word).toBe(`${name}@${manifest.peerDependencies[name]}`)
  })
})
