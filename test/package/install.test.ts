/**
 * README's install commands name every peer at the range package.json asks
 * for, and the peers stay on Effect 3: `effect` 4 is npm's `latest`, a bare
 * `npm install effect @effect/platform-node` brings Effect 4 and the package
 * then fails to install beside it, and a bare `npm install @effect/sql-pg`
 * brings a release for Effect 4. The consumer tests install the packed
 * package with README's own command (`installPacked`).
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { readmeInstall } from "../../scripts/packed.js"

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), "utf8")

const manifest: { peerDependencies: Record<string, string>; peerDependenciesMeta: Record<string, { optional?: boolean }> } = JSON.parse(
  read("package.json")
)
const readme = read("README.md")

/** Every `name@range` of README's `npm install` lines. */
const installed = [...readme.matchAll(/^npm install (.+)$/gm)]
  .flatMap((line) => (line[1] ?? "").replace(/\s+#.*$/, "").split(/\s+/))
  .filter((word) => word.lastIndexOf("@") > 0)

const peers = Object.keys(manifest.peerDependencies)
const optionalPeers = peers.filter((name) => manifest.peerDependenciesMeta[name]?.optional === true)
const requiredPeers = peers.filter((name) => !optionalPeers.includes(name))

describe("README's install commands", () => {
  it("the install line names the package, then every required peer at the range of package.json's peerDependencies", () => {
    const [first, ...rest] = readmeInstall(readme)
    expect(first).toBe("effect-catalog")
    expect(rest.sort()).toEqual(requiredPeers.map((name) => `${name}@${manifest.peerDependencies[name]}`).sort())
  })

  it.each(optionalPeers)("install %s at the range of package.json's peerDependencies", (name) => {
    const named = installed.filter((word) => word.startsWith(`${name}@`))
    expect(named.length, `README installs no ${name}`).toBeGreaterThan(0)
    for (const word of named) expect(word).toBe(`${name}@${manifest.peerDependencies[name]}`)
  })

  it("the peers stay on Effect 3: effect 3, and the 0.x releases of @effect/*", () => {
    for (const name of peers) {
      if (name === "effect") expect(manifest.peerDependencies[name]).toMatch(/^\^3\.\d+\.\d+$/)
      else if (name.startsWith("@effect/")) expect(manifest.peerDependencies[name], name).toMatch(/^\^0\.\d+\.\d+$/)
    }
  })
})
