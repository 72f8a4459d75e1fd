/**
 * The `catalog` command as it ships: one ES module bundled with what it uses
 * of its dependencies (tree-shaken, the HTTP client and the simulator in
 * chunks loaded when needed), written to `outdir` as `catalog.js`. Used by
 * `npm run build` for `dist/bin`, and by the test setup, which runs the
 * command's tests against a fresh bundle of the sources.
 */
import { build, type Plugin } from "esbuild"
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const tools = fileURLToPath(new URL("../tools/src", import.meta.url))

/** CommonJS dependencies bundled into an ES module call require. */
const requireInEsm = { js: `import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);` }

/** Gives `tools/src/internal/version.ts` (the package's version) as `version`. */
const versionOf = (version: string): Plugin => ({
  name: "version",
  setup: (build) => {
    build.onLoad({ filter: /[\\/]src[\\/]internal[\\/]version\.ts$/ }, () => ({
      contents: `export const version = ${JSON.stringify(version)}`,
      loader: "ts"
    }))
  }
})

/**
 * Gives the bundled Effect a global store of its own (`effect/GlobalValue`
 * names the one every copy of Effect shares in a process): the simulator's
 * Effect 3 then keeps its fiber references, clocks and caches apart from the
 * Effect of the program that starts it, whichever major that is and however
 * many test files share the process.
 */
const ownGlobalStore: Plugin = {
  name: "own-global-store",
  setup: (build) => {
    build.onLoad({ filter: /[\\/]effect[\\/]dist[\\/](?:esm|cjs)[\\/]GlobalValue\.js$/ }, async (args) => {
      const text = await readFile(args.path, "utf8")
      if (!text.includes("`effect/GlobalValue`")) throw new Error(`${args.path} no longer names its store \`effect/GlobalValue\``)
      return { contents: text.replace("`effect/GlobalValue`", "`effect-catalog/simulator/GlobalValue`"), loader: "js" }
    })
  }
}

/**
 * Bundles `tools/src/cli/bin.ts` into `outdir`. The command reports `version`
 * (the root package's by default): the Effect 4 edition ships the same
 * program under its own version.
 */
export const bundleCommand = async (outdir: string, version?: string): Promise<string> => {
  await build({
    entryPoints: { catalog: join(tools, "cli", "bin.ts") },
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    minifySyntax: true,
    minifyWhitespace: true,
    // Optional peers, loaded from the user's installation when a subcommand needs them: ioredis for `--redis`,
    // the native SQLite driver for `mirror` (pg's native binding is never used).
    external: ["ioredis", "better-sqlite3", "pg-native"],
    banner: requireInEsm,
    plugins: version === undefined ? [] : [versionOf(version)],
    logLevel: "warning"
  })
  return join(outdir, "catalog.js")
}

/** Where both editions' `Simulator` imports the bundled simulator from (gitignored; the tests' setup and `npm start` build it). */
export const standaloneBundle = fileURLToPath(new URL("../common/src/simulator/StandaloneBundle.js", import.meta.url))

/**
 * The simulator's standalone form (`tools/src/simulator/Standalone.ts`):
 * one module holding all it uses, its own Effect 3 among it, written to
 * `outfile`, an ES module or (for the Effect 3 package's CommonJS build) a
 * CommonJS one. Both editions' `Simulator` starts this module
 * (`common/src/simulator/StandaloneBundle.d.ts` declares it): one simulator
 * serves both editions.
 */
export const bundleStandaloneSimulator = async (outfile: string = standaloneBundle, format: "esm" | "cjs" = "esm"): Promise<void> => {
  await build({
    entryPoints: [join(tools, "simulator", "Standalone.ts")],
    outfile,
    bundle: true,
    format,
    platform: "node",
    target: "node20",
    // As the command's bundle: no comments of its dependencies' sources in a generated module.
    minifyWhitespace: true,
    ...(format === "esm" ? { banner: requireInEsm } : {}),
    plugins: [ownGlobalStore],
    logLevel: "warning"
  })
}

/**
 * The bundles a test run uses: the simulator's standalone form where both
 * editions' `Simulator` imports it from, and the command in a new folder
 * of the repository's `.tmp` (where it finds the repository's
 * `node_modules`, as an installed command finds its package's). Gives the
 * command's path and the removal of its folder, for a vitest global setup.
 */
export const bundleForTestRun = async (): Promise<{ readonly command: string; readonly remove: () => Promise<void> }> => {
  await bundleStandaloneSimulator()
  const scratch = fileURLToPath(new URL("../.tmp", import.meta.url))
  await mkdir(scratch, { recursive: true })
  const outdir = await mkdtemp(join(scratch, "command-"))
  return { command: await bundleCommand(outdir), remove: () => rm(outdir, { recursive: true, force: true }) }
}
