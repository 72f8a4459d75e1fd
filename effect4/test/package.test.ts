/**
 * The Effect 4 edition as its users get it: `npm pack` (which builds `dist/`
 * through `prepack`), then the tarball installed into a fresh project
 * outside the repository by README's install line for the edition, beside
 * the consumer's own `vitest` 5, `@effect/vitest` 4, `typescript` and
 * `@types/node` (from the registry or npm's cache). There, under Node 22:
 *
 * 1. README's first program, with Effect 4's names, runs against a simulator;
 * 2. README's "Testing your application" file, with Effect 4's names, passes
 *    under the project's own vitest with `it.layer(Simulator.layerClient())`;
 * 3. `tsc` checks both under `strict` with `skipLibCheck: false`;
 * 4. one `effect` is installed, Effect 4: the edition brings no Effect 3
 *    along (its simulator holds its own, bundled);
 * 5. `effect-catalog` loads without `ioredis`, the optional peer, and
 *    `effect-catalog/redis` fails with a message naming it until it is
 *    installed;
 * 6. the `catalog` command (the one program both editions ship) prints this
 *    package's version and scans a simulator;
 * 7. with its SQLite driver (better-sqlite3, by README's line) installed
 *    too, README's mirror mirrors the models into SQLite: the first sync
 *    inserts every model, the second reports no change. The driver's
 *    native addon is the one the edition's own install built, of the same
 *    version for the same Node 22, rather than built again (80 s of a
 *    core, a test of better-sqlite3's build rather than of this package).
 */
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Redacted } from "effect"
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { cleanEnv } from "../../scripts/cleanEnv.js"
import { type Installed, installPacked, pack } from "../../scripts/packed.js"
import { Simulator } from "../src/simulator/index.js"
import { type Ran, run, runNode } from "./support/Process.js"

const edition = fileURLToPath(new URL("..", import.meta.url))
const fixtures = join(edition, "test", "package", "consumer")

/** The SQLite driver README's Effect 4 mirror installs: `npm install better-sqlite3@…` on a line of its own. */
const readmeMirrorDriver = (readme: string): string | undefined => readme.match(/^npm install (better-sqlite3@\S+)$/m)?.[1]

const succeeded = (what: string, ran: Ran) => {
  expect(ran.code, `${what} exited with ${ran.code}\n${ran.stdout}\n${ran.stderr}`).toBe(0)
  return ran
}

/** `name@version` as the edition's lock installs it, for the consumer's own dev dependencies. */
const locked = async (name: string) => {
  const lock: { packages: Record<string, { version?: string }> } = JSON.parse(await readFile(join(edition, "package-lock.json"), "utf8"))
  const version = lock.packages[`node_modules/${name}`]?.version
  if (version === undefined) throw new Error(`${name} is not in effect4/package-lock.json`)
  return `${name}@${version}`
}

class ConsumerProject extends Context.Service<ConsumerProject, Installed>()("test/ConsumerProject") {}

const ConsumerProjectLive = Layer.effect(
  ConsumerProject,
  Effect.gen(function*() {
    const dir = yield* Effect.acquireRelease(
      Effect.promise(() => mkdtemp(join(tmpdir(), "effect-catalog-effect4-consumer-"))),
      (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
    )
    return yield* Effect.promise(async () => {
      const devDependencies = await Promise.all(["vitest", "@effect/vitest", "typescript", "@types/node"].map(locked))
      const installed = await installPacked(dir, devDependencies, await pack(dir, edition), "effect-catalog@1")
      for (const file of ["program.ts", "app.test.ts", "mirror.ts", "tsconfig.json"]) await copyFile(join(fixtures, file), join(dir, file))
      return installed
    })
  })
)

/** The versions of every `effect` package installed in `dir`, nested ones included. */
const installedEffects = async (dir: string): Promise<ReadonlyArray<string>> => {
  const manifests = (await readdir(join(dir, "node_modules"), { recursive: true }))
    .filter((path) => path === join("effect", "package.json") || path.endsWith(`${join("node_modules", "effect", "package.json")}`))
  return Promise.all(manifests.map(async (path) => JSON.parse(await readFile(join(dir, "node_modules", path), "utf8")).version))
}

describe("the Effect 4 edition, packed and installed by README's install line", () => {
  layer(ConsumerProjectLive, { timeout: "4 minutes", excludeTestServices: true })((it) => {
    it.effect("ships ES modules with declarations, and nothing of the tests or the sources", () =>
      Effect.gen(function*() {
        const { packed } = yield* ConsumerProject
        expect(packed).toContain("dist/effect4/src/index.js")
        expect(packed).toContain("dist/effect4/src/index.d.ts")
        expect(packed).toContain("dist/effect4/src/simulator/index.d.ts")
        expect(packed).toContain("dist/common/src/simulator/StandaloneBundle.js")
        expect(packed).toContain("dist/common/src/simulator/StandaloneBundle.d.ts")
        expect(packed).toContain("README.md")
        expect(packed).toContain("dist/bin/catalog.js")
        expect(packed.filter((file) => /(^|\/)test\/|\.test\.|^src\/|^effect4\/src\//.test(file))).toEqual([])
      }))

    it.effect("installs beside one effect, Effect 4", () =>
      Effect.gen(function*() {
        const { dir } = yield* ConsumerProject
        const versions = yield* Effect.promise(() => installedEffects(dir))
        expect(versions.length).toBe(1)
        expect(versions[0]).toMatch(/^4\.\d+\.\d+$/)
      }))

    it.effect("runs README's first program against a simulator", () =>
      Effect.gen(function*() {
        const { dir } = yield* ConsumerProject
        const simulator = yield* Simulator.Simulator
        const env = cleanEnv({ CATALOG_BASE_URL: simulator.baseUrl, CATALOG_API_KEY: Redacted.value(simulator.keys.full) })
        const ran = succeeded("node program.ts", yield* runNode(["program.ts"], { cwd: dir, env }))
        const result: { models: number; first: string | null } = JSON.parse(ran.stdout)
        expect(result.models).toBe(simulator.options.sizes.models)
        expect(typeof result.first).toBe("string")
      }).pipe(Effect.provide(Simulator.layer({ sizes: { models: 400 } }))))

    it.effect("passes README's test file under the project's vitest, with it.layer(Simulator.layerClient())", () =>
      Effect.gen(function*() {
        const { dir } = yield* ConsumerProject
        const ran = succeeded("vitest run", yield* runNode([join("node_modules", "vitest", "vitest.mjs"), "run"], { cwd: dir }))
        expect(ran.stdout).toMatch(/Tests\s+4 passed \(4\)/)
      }))

    it.effect("loads effect-catalog without ioredis, and effect-catalog/redis fails naming it; with ioredis installed it loads", () =>
      Effect.gen(function*() {
        const { dir } = yield* ConsumerProject
        const load = (entry: string) => runNode(["--input-type=module", "-e", `await import(${JSON.stringify(entry)})`], { cwd: dir })
        succeeded("import effect-catalog", yield* load("effect-catalog"))
        const refused = yield* load("effect-catalog/redis")
        expect(refused.code).not.toBe(0)
        expect(refused.stderr).toContain("effect-catalog/redis needs the optional peer dependency ioredis, which is not installed: npm install ioredis")
        const ioredis = yield* Effect.promise(() => locked("ioredis"))
        succeeded("npm install ioredis", yield* run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", ioredis], { cwd: dir }))
        succeeded("import effect-catalog/redis", yield* load("effect-catalog/redis"))
      }))

    it.effect("installs the catalog command, the one both editions ship, which prints this package's version and scans a simulator", () =>
      Effect.gen(function*() {
        const { dir } = yield* ConsumerProject
        const manifest: { version: string } = JSON.parse(yield* Effect.promise(() => readFile(join(edition, "package.json"), "utf8")))
        const catalog = join(dir, "node_modules", ".bin", "catalog")
        expect(succeeded("catalog --version", yield* run(catalog, ["--version"], { cwd: dir })).stdout.trim()).toBe(manifest.version)
        const simulator = yield* Simulator.Simulator
        const env = cleanEnv({ CATALOG_BASE_URL: simulator.baseUrl, CATALOG_API_KEY: Redacted.value(simulator.keys.full) })
        const scan = succeeded("catalog scan models", yield* run(catalog, ["scan", "models"], { cwd: dir, env }))
        const ids = scan.stdout.trim().split("\n").map((line): string => JSON.parse(line).id)
        expect(ids).toHaveLength(40)
        expect(new Set(ids).size).toBe(40)
      }).pipe(Effect.provide(Simulator.layer({ sizes: { models: 40 }, enforceLimits: false }))))

    it.effect("with better-sqlite3 installed by README's line, mirrors the models into SQLite: the first sync inserts every model, the second reports no change", () =>
      Effect.gen(function*() {
        const { dir } = yield* ConsumerProject
        const driver = yield* Effect.promise(() => locked("better-sqlite3"))
        expect(readmeMirrorDriver(yield* Effect.promise(() => readFile(join(edition, "..", "README.md"), "utf8")))).toBe(driver)
        succeeded("npm install better-sqlite3", yield* run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--ignore-scripts", driver], { cwd: dir }))
        // The addon the edition's install built: the same version (README pins the locked one), for the Node 22 that runs the consumer.
        const addon = join("node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node")
        yield* Effect.promise(async () => {
          await mkdir(join(dir, dirname(addon)), { recursive: true })
          await copyFile(join(edition, addon), join(dir, addon))
        })
        const simulator = yield* Simulator.Simulator
        const env = cleanEnv({ CATALOG_BASE_URL: simulator.baseUrl, CATALOG_API_KEY: Redacted.value(simulator.keys.full) })
        const ran = succeeded("node mirror.ts", yield* runNode(["mirror.ts"], { cwd: dir, env }))
        expect(JSON.parse(ran.stdout)).toEqual({ first: 250, second: 0, status: "complete" })
      }).pipe(Effect.provide(Simulator.layer({ sizes: { models: 250 }, enforceLimits: false }))), 300_000)

    it.effect("typechecks the program, the test and the mirror under strict, with skipLibCheck false", () =>
      Effect.gen(function*() {
        const { dir } = yield* ConsumerProject
        succeeded("tsc", yield* runNode([join("node_modules", "typescript", "bin", "tsc"), "-p", "."], { cwd: dir }))
      }))
  })
})
