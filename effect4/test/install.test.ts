/**
 * README's install line for the Effect 4 edition (`npm install
 * effect-catalog@1 …`) names every required peer of the edition at the range
 * its package.json asks for, on Effect 4; each optional peer (ioredis, the
 * mirror's SQL drivers) is named at its range wherever README's section
 * "Effect 4: the 1.x line" installs it; and its line of test tools names
 * vitest 5 and `@effect/vitest` 4 at the versions the edition is tested
 * with. The consumer test (`package.test.ts`) installs the packed edition
 * with that same line.
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { readmeInstall } from "../../scripts/packed.js"

const read = (file: string) => readFileSync(new URL(file, import.meta.url), "utf8")

const manifest: {
  peerDependencies: Record<string, string>
  peerDependenciesMeta: Record<string, { optional?: boolean }>
  devDependencies: Record<string, string>
} = JSON.parse(read("../package.json"))
const readme = read("../../README.md")

/** README's install section of this edition, up to the next heading. */
const editionSection = /^### Effect 4: the 1\.x line\n([\s\S]*?)(?=^#{2,3} )/m.exec(readme)?.[1] ?? ""

const peers = Object.keys(manifest.peerDependencies)
const optionalPeers = peers.filter((name) => manifest.peerDependenciesMeta[name]?.optional === true)
const requiredPeers = peers.filter((name) => !optionalPeers.includes(name))

/** The name of `name@range`. */
const nameOf = (word: string) => word.slice(0, word.lastIndexOf("@"))

describe("README's install commands for the Effect 4 edition", () => {
  it("the install line names the 1.x line, then every required peer at the range of the edition's peerDependencies", () => {
    const [first, ...rest] = readmeInstall(readme, "effect-catalog@1")
    expect(first).toBe("effect-catalog@1")
    expect(rest.sort()).toEqual(requiredPeers.map((name) => `${name}@${manifest.peerDependencies[name]}`).sort())
    expect(manifest.peerDependencies["effect"]).toMatch(/^\^4\.\d+\.\d+$/)
  })

  it.each(optionalPeers)("installs %s at the range of the edition's peerDependencies", (name) => {
    const named = [...editionSection.matchAll(/`?npm install ([^`\n]+)`?/g)]
      .flatMap((line) => (line[1] ?? "").replace(/\s+#.*$/, "").split(/\s+/))
      .filter((word) => nameOf(word) === name)
    expect(named.length, `README installs no ${name}`).toBeGreaterThan(0)
    for (const word of named) expect(word).toBe(`${name}@${manifest.peerDependencies[name]}`)
  })

  it("the test tools are vitest 5 and @effect/vitest 4, from the versions the edition is tested with", () => {
    const lines = [...readme.matchAll(/^npm install -D (.+)$/gm)]
      .map((line) => (line[1] ?? "").trim().split(/\s+/))
      .filter((words) => words.some((word) => word.startsWith("@effect/vitest@^4.")))
    expect(lines.length, "README has one `npm install -D` line with @effect/vitest 4").toBe(1)
    const [tools = []] = lines
    expect(tools.map(nameOf).sort()).toEqual(["@effect/vitest", "vitest"])
    for (const word of tools) expect(word).toBe(`${nameOf(word)}@^${manifest.devDependencies[nameOf(word)]}`)
  })
})
