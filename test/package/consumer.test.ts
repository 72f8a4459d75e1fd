/**
 * The package as its users get it: `npm pack` (which builds `dist/` through
 * `prepack`), then the tarball installed into a fresh project outside the
 * repository, with the peers npm installs for it (from the registry or npm's
 * cache). Without `ioredis`, the optional peer. In that project:
 *
 * 1. a plain ES module and 2. the same program as CommonJS start the
 *    simulator, scan a list and read `stats` through the client;
 * 3. `tsc --build` checks a TypeScript consumer (strict, `skipLibCheck: false`)
 *    that handles an operation's error union exhaustively, under `nodenext`
 *    (as ES module and as CommonJS), `bundler` and `node10` resolution, each
 *    its own program;
 * 4. the installed `catalog` command prints its version, runs a simulator and
 *    scans it, with plain `node`;
 * 5. `effect-catalog` loads without `ioredis` (nor `@effect/cli`, nor the
 *    simulator), and `effect-catalog/redis` fails with a message naming it;
 * 6. once `ioredis` is installed, `effect-catalog/redis` works, as ES module
 *    and as CommonJS, against the test setup's redis-server;
 * 7. README's "Testing your application" test file (`consumer/app.test.ts`)
 *    passes under the project's own `vitest` and `@effect/vitest`.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { copyFile, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { cleanEnv } from "../../scripts/cleanEnv.js"
import { type Installed, installPacked } from "../../scripts/packed.js"
import { requireNode22 } from "../support/Node22.js"
import { packedOnce } from "../support/Packed.js"
import { run, runNode, type Ran, startedLine } from "../support/Process.js"
import * as Servers from "../support/Servers.js"

const redis = Servers.redis("the test of effect-catalog/redis installed needs it")

const root = fileURLToPath(new URL("../..", import.meta.url))
const fixtures = join(root, "test", "package", "consumer")

const succeeded = (what: string, ran: Ran) => {
  expect(ran.code, `${what} exited with ${ran.code}\n${ran.stdout}\n${ran.stderr}`).toBe(0)
  return ran
}

/** The version of a package this repository's lock installs, for the consumer's own dev dependencies. */
const lockedVersion = async (name: string) => {
  const lock: { packages: Record<string, { version?: string }> } = JSON.parse(await readFile(join(root, "package-lock.json"), "utf8"))
  const version = lock.packages[`node_modules/${name}`]?.version
  if (version === undefined) throw new Error(`${name} is not in package-lock.json`)
  return version
}

class ConsumerProject extends Context.Tag("test/ConsumerProject")<ConsumerProject, Installed>() {}

const ConsumerProjectLive = Layer.scoped(
  ConsumerProject,
  Effect.gen(function*() {
    const dir = yield* Effect.acquireRelease(
      Effect.promise(() => mkdtemp(join(tmpdir(), "effect-catalog-consumer-"))),
      (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
    )
    const devDependencies = yield* Effect.forEach(["@types/node", "vitest", "@effect/vitest"], (name) =>
      Effect.promise(() => lockedVersion(name)).pipe(Effect.map((version) => `${name}@${version}`)))
    const packed = yield* packedOnce
    const installed = yield* Effect.promise(() => installPacked(dir, devDependencies, packed))
    yield* Effect.promise(async () => {
      for (const file of ["errors.ts", "app.test.ts", "tsconfig.nodenext.json", "tsconfig.bundler.json", "tsconfig.node10.json"]) {
        await copyFile(join(fixtures, file), join(dir, file))
      }
      // The same programs in the other module system.
      await copyFile(join(fixtures, "errors.ts"), join(dir, "errors.cts"))
      for (const program of ["scan", "redis"]) {
        const esm = await readFile(join(fixtures, `${program}.mjs`), "utf8")
        await copyFile(join(fixtures, `${program}.mjs`), join(dir, `${program}.mjs`))
        await writeFile(
          join(dir, `${program}.cjs`),
          esm.replace(/^import \{ (.+) \} from ("[^"]+")$/gm, (_, names: string, from: string) => `const { ${names} } = require(${from})`)
        )
      }
    })
    return installed
  })
)

const inProject = (args: ReadonlyArray<string>, extra: Readonly<Record<string, string>> = {}) =>
  Effect.flatMap(ConsumerProject, ({ dir }) => runNode(args, { cwd: dir, env: cleanEnv(extra) }))

const sizes = { models: 230 }

/** `catalog simulator` of the installed command, without limits, for the life of the scope: its base URL and full key. */
const installedSimulator = (dir: string, models: number) =>
  Effect.map(
    startedLine(join(dir, "node_modules", ".bin", "catalog"), ["simulator", "--port", "0", "--models", String(models), "--no-limits"], {
      cwd: dir,
      env: cleanEnv()
    }),
    (line): { base_url: string; keys: { full: string } } => JSON.parse(line)
  )

describe("the package, packed and installed into a new project", () => {
  layer(ConsumerProjectLive, { timeout: "3 minutes", excludeTestServices: true })((it) => {
    it.effect("ships dist/, the sources its maps point to (src, the tools, the shared rules and the modules both editions share), the docs and the examples; no tests, benchmarks or scripts", () =>
      Effect.gen(function*() {
        const { packed } = yield* ConsumerProject
        for (const file of packed) expect(file).toMatch(/^(dist\/|src\/|tools\/src\/|rules\/src\/|common\/src\/|examples\/|package\.json$|README\.md$|CHANGELOG\.md$|LICENSE$)/)
        for (const entry of ["index", "simulator/index", "cli/index", "redis/index"]) {
          for (const format of ["esm", "cjs"]) {
            expect(packed).toContain(`dist/${format}/src/${entry}.js`)
            expect(packed).toContain(`dist/${format}/src/${entry}.d.ts`)
          }
        }
        expect(packed).toContain("dist/bin/catalog.js")
        for (const format of ["esm", "cjs"]) expect(packed).toContain(`dist/${format}/common/src/simulator/StandaloneBundle.js`)
        expect(packed).not.toContain("src/main.ts")
        expect(packed).not.toContain("tools/src/cli/bin.ts")
      }))

    it.effect("npm installs the peers with it: effect 3, whatever the registry's latest effect is", () =>
      Effect.gen(function*() {
        const { dir } = yield* ConsumerProject
        const effect: { version: string } = JSON.parse(yield* Effect.promise(() => readFile(join(dir, "node_modules", "effect", "package.json"), "utf8")))
        expect(effect.version).toMatch(/^3\./)
        for (const peer of ["@effect/platform", "@effect/platform-node", "@effect/cli"]) {
          expect(yield* Effect.promise(() => stat(join(dir, "node_modules", peer)).then(() => true, () => false)), peer).toBe(true)
        }
      }))

    for (const program of ["scan.mjs", "scan.cjs"]) {
      it.effect(`${program}: starts the simulator, scans every model once and reads stats`, () =>
        Effect.gen(function*() {
          const ran = succeeded(program, yield* inProject([program]))
          expect(JSON.parse(ran.stdout)).toEqual({ scanned: sizes.models, distinct: sizes.models, stats: sizes.models })
        }))
      it.effect(`${program} under Node 22: the same`, () =>
        Effect.gen(function*() {
          const { dir } = yield* ConsumerProject
          const ran = succeeded(`${program} under Node 22`, yield* run(requireNode22(), [program], { cwd: dir, env: cleanEnv() }))
          expect(JSON.parse(ran.stdout)).toEqual({ scanned: sizes.models, distinct: sizes.models, stats: sizes.models })
        }))
    }

    // One tsc --build over the three projects: each is checked as its own program, and the libraries' files are read once.
    it.effect("accepts the exhaustive error handling under nodenext, bundler and node10 resolution, strict, with every library checked", () =>
      Effect.gen(function*() {
        const projects = ["nodenext", "bundler", "node10"].map((resolution) => `tsconfig.${resolution}.json`)
        succeeded(
          `tsc --build ${projects.join(" ")}`,
          yield* inProject([join(root, "node_modules", "typescript", "bin", "tsc"), "--build", ...projects, "--pretty", "false"])
        )
      }), 180_000)

    it.effect("the installed catalog command prints its version, runs a simulator, and scans it", () =>
      Effect.gen(function*() {
        const { dir } = yield* ConsumerProject
        const version: { version: string } = JSON.parse(yield* Effect.promise(() => readFile(join(root, "package.json"), "utf8")))
        const printed = succeeded("npx catalog --version", yield* run("npx", ["--no-install", "catalog", "--version"], { cwd: dir, env: cleanEnv() }))
        expect(printed.stdout.trim()).toBe(version.version)
        const simulator = yield* installedSimulator(dir, 40)
        const scan = succeeded(
          "npx catalog scan models",
          yield* run("npx", ["--no-install", "catalog", "scan", "models"], {
            cwd: dir,
            env: cleanEnv({ CATALOG_BASE_URL: simulator.base_url, CATALOG_API_KEY: simulator.keys.full })
          })
        )
        const ids = scan.stdout.trim().split("\n").map((item) => JSON.parse(item).id)
        expect(new Set(ids).size).toBe(40)
        expect(ids).toHaveLength(40)
      }).pipe(Effect.scoped))

    it.effect("README's test file passes under the project's vitest, against Simulator.layerClient, in seconds", () =>
      Effect.gen(function*() {
        const { dir } = yield* ConsumerProject
        const started = performance.now()
        const ran = succeeded(
          "vitest run app.test.ts",
          yield* run(join(dir, "node_modules", ".bin", "vitest"), ["run", "app.test.ts"], { cwd: dir, env: cleanEnv() })
        )
        expect(ran.stdout).toContain("4 passed")
        expect(performance.now() - started).toBeLessThan(20_000)
      }), 60_000)

    it.effect("effect-catalog loads without ioredis, @effect/cli or the simulator; effect-catalog/redis names what is missing", () =>
      Effect.gen(function*() {
        const { dir } = yield* ConsumerProject
        const ioredis = yield* Effect.promise(() => stat(join(dir, "node_modules", "ioredis")).then(() => true, () => false))
        expect(ioredis, "ioredis is an optional peer: npm must not install it").toBe(false)
        succeeded("import('effect-catalog')", yield* inProject(["--input-type=module", "-e", "await import('effect-catalog')"]))
        const loaded = succeeded(
          "require('effect-catalog')",
          yield* inProject(["-e", "require('effect-catalog'); console.log(JSON.stringify(Object.keys(require.cache)))"])
        )
        const modules: ReadonlyArray<string> = JSON.parse(loaded.stdout)
        expect(modules.some((file) => file.includes("/effect-catalog/dist/cjs/common/src/client/CatalogClient.js"))).toBe(true)
        expect(modules.filter((file) => /\/(ioredis|@effect\/cli)\/|\/effect-catalog\/dist\/cjs\/src\/(simulator|cli|redis)\//.test(file))).toEqual([])
        for (const args of [["--input-type=module", "-e", "await import('effect-catalog/redis')"], ["-e", "require('effect-catalog/redis')"]]) {
          const failed = yield* inProject(args)
          expect(failed.code).toBe(1)
          expect(failed.stderr).toContain(
            "effect-catalog/redis needs the optional peer dependency ioredis, which is not installed: npm install ioredis"
          )
        }
      }))

    it.effect("once ioredis is installed, effect-catalog/redis stores, reads and admits through Redis, from both module systems", () =>
      Effect.gen(function*() {
        const { dir } = yield* ConsumerProject
        const version = yield* Effect.promise(() => lockedVersion("ioredis"))
        succeeded("npm install ioredis", yield* run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", `ioredis@${version}`], {
          cwd: dir,
          env: cleanEnv()
        }))
        for (const program of ["redis.mjs", "redis.cjs"]) {
          const ran = succeeded(program, yield* inProject([program], { REDIS_PORT: String(redis.port) }))
          expect(ran.stdout.trim()).toBe("hello")
        }
        // The installed command loads the project's ioredis for --redis.
        const simulator = yield* installedSimulator(dir, 30)
        const scan = succeeded(
          "catalog scan models --redis",
          yield* run(join(dir, "node_modules", ".bin", "catalog"), ["scan", "models", "--redis", redis.url], {
            cwd: dir,
            env: cleanEnv({ CATALOG_BASE_URL: simulator.base_url, CATALOG_API_KEY: simulator.keys.full })
          })
        )
        expect(scan.stdout.trim().split("\n")).toHaveLength(30)
      }).pipe(Effect.scoped), 90_000)
  })
})
