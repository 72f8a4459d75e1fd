/**
 * `npm run build` (and `npm pack`, through `prepack`): compiles `src` and
 * the shared rules it imports (`rules/src`) to `dist/` as the package ships
 * it, side by side as in the repository (`dist/esm/src`, `dist/esm/rules/src`,
 * `dist/esm/common/src`).
 *
 * - `dist/esm`: ES modules, `.d.ts` declarations and source maps, by `tsc`
 *   (which also typechecks the sources);
 * - `dist/cjs`: the same modules as CommonJS, by esbuild from the same
 *   sources, with a copy of the declarations (read as CommonJS there, thanks
 *   to its own `package.json`), so that `require` consumers get types that
 *   describe what they load;
 * - the modules both editions share (`common/src`, in `dist/esm/common` and `dist/cjs/common`) have
 *   their `#edition/…` imports bound to this edition's compiled modules
 *   (`scripts/editionImports.ts`);
 * - `dist/bin`: the `catalog` command (`scripts/bundle.ts`), installed as
 *   the bins `catalog` and `effect-catalog`. A command is a program of its
 *   own: it shares no `Context` with an application, and it starts without
 *   loading every module of `effect` and `@effect/*`.
 */
import { build } from "esbuild"
import { spawnSync } from "node:child_process"
import { copyFile, mkdir, readdir, rm, writeFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { bundleCommand, bundleStandaloneSimulator } from "./bundle.js"
import { bindEdition } from "./editionImports.js"

const root = fileURLToPath(new URL("..", import.meta.url))
const esm = join(root, "dist", "esm")
const cjs = join(root, "dist", "cjs")

const filesUnder = async (dir: string, suffix: string) =>
  (await readdir(dir, { recursive: true })).filter((file) => file.endsWith(suffix)).sort()

await rm(join(root, "dist"), { recursive: true, force: true })

const tsc = spawnSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", join(root, "tsconfig.build.json")], {
  cwd: root,
  stdio: "inherit"
})
if (tsc.status !== 0) process.exit(tsc.status ?? 1)
await bindEdition(join(esm, "common"), join(esm, "src"))

// Exactly the modules tsc emitted.
const modules = (await filesUnder(esm, ".js")).map((file) => file.slice(0, -".js".length))
await build({
  entryPoints: modules.map((module) => join(root, `${module}.ts`)),
  outbase: root,
  outdir: cjs,
  format: "cjs",
  platform: "node",
  target: "node20",
  sourcemap: true,
  // The one use of import.meta.url (createRequire's base) means this file in CommonJS.
  define: { "import.meta.url": "__filename" },
  logLevel: "warning"
})
await bindEdition(join(cjs, "common"), join(cjs, "src"))
await writeFile(join(cjs, "package.json"), `${JSON.stringify({ type: "commonjs" }, null, 2)}\n`)
for (const declaration of await filesUnder(esm, ".d.ts")) {
  await mkdir(dirname(join(cjs, declaration)), { recursive: true })
  await copyFile(join(esm, declaration), join(cjs, declaration))
  await copyFile(join(esm, `${declaration}.map`), join(cjs, `${declaration}.map`))
}

// The simulator's standalone form, bundled where `Simulator` imports it from, in each module format, beside its declaration.
const standalone = join("common", "src", "simulator", "StandaloneBundle")
await bundleStandaloneSimulator(join(esm, `${standalone}.js`), "esm")
await bundleStandaloneSimulator(join(cjs, `${standalone}.js`), "cjs")
for (const dist of [esm, cjs]) await copyFile(join(root, `${standalone}.d.ts`), join(dist, `${standalone}.d.ts`))

await bundleCommand(join(root, "dist", "bin"))

console.error(`built dist/esm and dist/cjs (${modules.length} modules) and dist/bin/catalog.js`)
