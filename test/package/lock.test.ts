/**
 * package-lock.json states what package.json asks for: the lock's own entry
 * for this package repeats every dependency range, the bin and the engines,
 * so a change to package.json that was not followed by `npm install` fails
 * here, before `npm ci` would refuse the lock or install other versions.
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"

const read = (file: string): Record<string, unknown> => JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), "utf8"))

const manifest = read("package.json")
const lock = read("package-lock.json")
const packages = lock.packages
const root: Record<string, unknown> = typeof packages === "object" && packages !== null && "" in packages && typeof packages[""] === "object" &&
    packages[""] !== null
  ? { ...packages[""] }
  : {}

/** A bin as the lock writes it: paths without their leading `./`. */
const binOf = (bin: unknown) =>
  typeof bin === "object" && bin !== null
    ? Object.fromEntries(Object.entries(bin).map(([name, path]) => [name, String(path).replace(/^\.\//, "")]))
    : bin

describe("package-lock.json", () => {
  it("is of the same package and version", () => {
    expect(lock.name).toBe(manifest.name)
    expect(lock.version).toBe(manifest.version)
    expect(root.name).toBe(manifest.name)
    expect(root.version).toBe(manifest.version)
  })

  it.each(["dependencies", "devDependencies", "peerDependencies", "peerDependenciesMeta", "optionalDependencies", "engines", "license"])(
    "repeats package.json's %s",
    (field) => {
      expect(root[field], `package-lock.json's ${field} differs from package.json's: run npm install`).toEqual(manifest[field])
    }
  )

  it("repeats package.json's bin", () => {
    expect(binOf(root.bin)).toEqual(binOf(manifest.bin))
  })
})
