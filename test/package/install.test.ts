/**
 * README's install commands name every peer at the range package.json asks
 * for, and the peers stay on Effect 3: `effect` 4 is npm's `latest`, a bare
 * `npm install effect @effect/platform-node` brings Effect 4 and the package
 * then fails to install beside it, and a bare `npm install @effect/sql-pg`
 * brings a release for Effect 4. The test tools README has applications
 * install (`npm install -D …`) are at the ranges this package is tested
 * with, for the same reason: the latest `@effect/vitest` is for Effect 4.
 * The consumer tests install the packed package with README's own command
 * (`installPacked`). Every example README links to ships in the package,
 * as `npm pack` lists it.
 */
import { describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { cleanEnv } from "../../scripts/cleanEnv.js"
import { readmeInstall } from "../../scripts/packed.js"

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), "utf8")

const manifest: {
  peerDependencies: Record<string, string>
  peerDependenciesMeta: Record<string, { optional?: boolean }>
  devDependencies: Record<string, string>
} = JSON.parse(read("package.json"))
const readme = read("README.md")

/** README without the Effect 4 edition's install section, whose lines name that edition's peers. */
const readmeOfThisLine = readme.replace(/^### Effect 4: the 1\.x line\n[\s\S]*?(?=^#{2,3} )/m, "")

/** Every `name@range` of README's `npm install` lines for this line (`-D` ones apart). */
const installed = [...readmeOfThisLine.matchAll(/^npm install (?!-D )(.+)$/gm)]
  .flatMap((line) => (line[1] ?? "").replace(/\s+#.*$/, "").split(/\s+/))
  .filter((word) => word.lastIndexOf("@") > 0)

/**
 * The `name@range`s of README's `npm install -D` line for this edition: the
 * tools an application tests with (the other line is the Effect 4 edition's,
 * with `@effect/vitest` 4).
 */
const installedForTests = [...readme.matchAll(/^npm install -D (.+)$/gm)]
  .map((line) => (line[1] ?? "").replace(/\s+#.*$/, "").trim().split(/\s+/))
  .filter((words) => words.some((word) => word.startsWith("@effect/vitest@^0.")))

const peers = Object.keys(manifest.peerDependencies)
const optionalPeers = peers.filter((name) => manifest.peerDependenciesMeta[name]?.optional === true)
const requiredPeers = peers.filter((name) => !optionalPeers.includes(name))

describe("README's install commands", () => {
  it("the install line names the package, then every required peer at the range of package.json's peerDependencies", () => {
    const [first, ...rest] = readmeInstall(readme)
    expect(first).toBe("effect-catalog@0")
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

  it("the test tools are at the ranges of package.json's devDependencies: vitest 3 and @effect/vitest 0.30, for Effect 3", () => {
    expect(installedForTests.length, "README has one `npm install -D` line with @effect/vitest 0.x").toBe(1)
    const [tools = []] = installedForTests
    expect(tools.map((word) => word.slice(0, word.lastIndexOf("@"))).sort()).toEqual(["@effect/vitest", "vitest"])
    for (const word of tools) {
      const name = word.slice(0, word.lastIndexOf("@"))
      expect(word).toBe(`${name}@${manifest.devDependencies[name]}`)
    }
    expect(manifest.devDependencies["vitest"]).toMatch(/^\^3\.\d+\.\d+$/)
    expect(manifest.devDependencies["@effect/vitest"]).toMatch(/^\^0\.30\.\d+$/)
  })
})

describe("README's examples", () => {
  const root = fileURLToPath(new URL("../..", import.meta.url))
  /** The targets of README's links into examples/, as `[text](examples/NAME.ts)` writes them. */
  const linked = [...readme.matchAll(/\]\((examples\/[^)#\s]+)\)/g)].map((link) => link[1] ?? "")

  it("every link to examples/ names a file the package ships, as `npm pack` lists it", () => {
    // The listing alone: the files are chosen by package.json's `files`, so nothing needs building.
    const pack = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, env: cleanEnv(), encoding: "utf8" })
    expect(pack.status, pack.stderr).toBe(0)
    const [listing]: ReadonlyArray<{ readonly files: ReadonlyArray<{ readonly path: string }> }> = JSON.parse(pack.stdout)
    const shipped = new Set(listing?.files.map((file) => file.path))
    expect(linked.length).toBeGreaterThan(5)
    for (const target of linked) {
      expect(existsSync(new URL(`../../${target}`, import.meta.url)), `${target} does not exist`).toBe(true)
      expect(shipped.has(target), `${target} is not in the package`).toBe(true)
    }
  }, 60_000)
})
