/**
 * The package installed as README says, from its packed tarball: the project
 * depends on exactly the packages of README's install line; the command is
 * installed under both its names, `catalog` and `effect-catalog`, one
 * program; and outside any project `npx effect-catalog` runs it (npx runs the
 * bin named after the package), where `npx catalog` would fetch an unrelated
 * package.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Schema } from "effect"
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { cleanEnv } from "../../scripts/cleanEnv.js"
import { type Installed, installPacked, readmeInstall } from "../../scripts/packed.js"
import { packedOnce } from "../support/Packed.js"
import { run, type Ran } from "../support/Process.js"

const root = fileURLToPath(new URL("../..", import.meta.url))

const succeeded = (what: string, ran: Ran) => {
  expect(ran.code, `${what} exited with ${ran.code}\n${ran.stdout}\n${ran.stderr}`).toBe(0)
  return ran
}

/** A JSON file, decoded with `schema`. */
const readJson = <A, I>(file: string, schema: Schema.Schema<A, I>) =>
  Effect.flatMap(Effect.promise(() => readFile(file, "utf8")), Schema.decodeUnknown(Schema.parseJson(schema)))

const packageVersion = Effect.map(readJson(join(root, "package.json"), Schema.Struct({ version: Schema.String })), ({ version }) => version)

const Dependencies = Schema.Struct({ dependencies: Schema.Record({ key: Schema.String, value: Schema.String }) })

/** The numbers of `X.Y.Z`. */
const numbers = (version: string) => version.split(".").map(Number)

/**
 * Whether the caret range `^floor` admits the caret range `^saved`: the same
 * leftmost non-zero number, and `saved` no lower than `floor`.
 */
const admits = (floor: string, saved: string) => {
  if (!floor.startsWith("^") || !saved.startsWith("^")) return floor === saved
  const [low, high] = [numbers(floor.slice(1)), numbers(saved.slice(1))]
  const fixed = low.findIndex((n) => n !== 0)
  const sameFixed = low.slice(0, fixed + 1).every((n, i) => high[i] === n)
  const notLower = low.reduceRight<boolean>((rest, n, i) => (high[i] ?? 0) > n || ((high[i] ?? 0) === n && rest), true)
  return sameFixed && notLower
}

/** A new folder for the life of the scope. */
const temporaryFolder = (prefix: string) =>
  Effect.acquireRelease(
    Effect.promise(() => mkdtemp(join(tmpdir(), prefix))),
    (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
  )

class InstalledProject extends Context.Tag("test/InstalledProject")<InstalledProject, Installed>() {}

const InstalledProjectLive = Layer.scoped(
  InstalledProject,
  Effect.flatMap(
    Effect.zip(temporaryFolder("effect-catalog-bin-"), packedOnce),
    ([dir, packed]) => Effect.promise(() => installPacked(dir, [], packed))
  )
)

const npm = (args: ReadonlyArray<string>, cwd: string) => run("npm", args, { cwd, env: cleanEnv() })

/**
 * `npx --yes SPEC ...args` run in `cwd`, outside any project, as a user runs
 * a package by its name; npx's cache entry for SPEC is removed with the scope.
 */
const npxOutside = (spec: string, args: ReadonlyArray<string>, cwd: string) =>
  Effect.acquireRelease(
    run("npx", ["--yes", "--prefer-offline", spec, ...args], { cwd, env: cleanEnv() }),
    () =>
      Effect.gen(function*() {
        const entries = yield* npm(["cache", "npx", "ls"], cwd)
        const keys = entries.stdout.split("\n").flatMap((line) => {
          const [key, entry] = line.split(": ")
          return key !== undefined && entry === spec ? [key] : []
        })
        if (keys.length > 0) yield* npm(["cache", "npx", "rm", ...keys], cwd)
      })
  )

describe("the command's names, installed by README's install line", () => {
  layer(InstalledProjectLive, { timeout: "3 minutes", excludeTestServices: true })((it) => {
    it.effect("the project depends on exactly README's install line, with the packed tarball for effect-catalog", () =>
      Effect.gen(function*() {
        const { dir, tarball } = yield* InstalledProject
        const readme = yield* Effect.promise(() => readFile(join(root, "README.md"), "utf8"))
        const named = readmeInstall(readme).map((spec) => [spec.slice(0, spec.lastIndexOf("@")), spec.slice(spec.lastIndexOf("@") + 1)] as const)
        const { dependencies } = yield* readJson(join(dir, "package.json"), Dependencies)
        expect(Object.keys(dependencies).sort()).toEqual(named.map(([name]) => name).sort())
        expect(dependencies["effect-catalog"]).toBe(`file:${tarball}`)
        // npm saves the caret of the version it resolved, which a release since README's floor may have raised
        for (const [name, range] of named.filter(([name]) => name !== "effect-catalog")) {
          expect(admits(range, dependencies[name] ?? ""), `${name}: README asks ${range}, the project saved ${dependencies[name]}`).toBe(true)
        }
      }))

    it.effect("installs the command as catalog and as effect-catalog, one program that prints the package's version", () =>
      Effect.gen(function*() {
        const { dir } = yield* InstalledProject
        const version = yield* packageVersion
        const program = join(dir, "node_modules", "effect-catalog", "dist", "bin", "catalog.js")
        for (const name of ["catalog", "effect-catalog"]) {
          expect(yield* Effect.promise(() => realpath(join(dir, "node_modules", ".bin", name))), name).toBe(yield* Effect.promise(() => realpath(program)))
          const printed = succeeded(`npx ${name} --version`, yield* run("npx", ["--no-install", name, "--version"], { cwd: dir, env: cleanEnv() }))
          expect(printed.stdout.trim()).toBe(version)
        }
      }), 60_000)

    it.scoped("npx effect-catalog, outside any project, runs the package's command", () =>
      Effect.gen(function*() {
        const { dir, tarball } = yield* InstalledProject
        const version = yield* packageVersion
        const outside = yield* temporaryFolder("effect-catalog-npx-")
        const printed = succeeded("npx effect-catalog --version", yield* npxOutside(`file:${join(dir, tarball)}`, ["--version"], outside))
        expect(printed.stdout.trim()).toBe(version)
      }), 120_000)
  })
})
