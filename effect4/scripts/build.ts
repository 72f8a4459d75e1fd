/**
 * `npm run build` (and `npm pack`, through `prepack`): compiles the Effect 4
 * edition to `dist/` as the package ships it, ES modules with declarations.
 *
 * The edition imports what it shares with the Effect 3 edition (the rules,
 * with nothing of Effect in them, in `rules/src`, and the modules written
 * once for either Effect, in `common/src`) by relative paths, so `tsc`
 * compiles from the root (`rootDir: ".."`) and its output keeps the trees
 * side by side: `dist/effect4/src/…` for this edition, `dist/rules/…` and
 * `dist/common/…` for what it shares.
 * Then:
 *
 * - the modules both editions share (`common/src`, in `dist/common`) have
 *   their `#edition/…` imports bound to this edition's compiled modules
 *   (`scripts/editionImports.ts`);
 * - the simulator's standalone form (`tools/src/simulator/Standalone.ts`,
 *   written in Effect 3) is bundled (`scripts/bundle.ts`), holding its own
 *   Effect 3, to the path `Simulator` imports it from, beside its
 *   declaration;
 * - every file that no entry point reaches is removed (the Effect 3 modules
 *   the bundle now holds among them);
 * - the `catalog` command is bundled into `dist/bin` as the Effect 3
 *   edition's build bundles it (one program, which holds what it uses of its
 *   dependencies), reporting this package's version;
 * - a shared module that imports `effect` or `@effect/*` fails the build:
 *   in this package those names are Effect 4.
 */
import { spawnSync } from "node:child_process"
import { copyFile, readFile, readdir, rm } from "node:fs/promises"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { bundleCommand, bundleStandaloneSimulator } from "../../scripts/bundle.js"
import { bindEdition } from "../../scripts/editionImports.js"

const edition = fileURLToPath(new URL("..", import.meta.url))
const root = join(edition, "..")
const dist = join(edition, "dist")

/** The entry points of the package, as `exports` and `bin` name them, compiled. */
const entries = [
  ...["index", "simulator/index", "redis/index", "mirror/index"].map((entry) => join(dist, "effect4", "src", `${entry}.js`)),
  join(dist, "bin", "catalog.js")
]

const specifiers = /(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g

/** The files a compiled module (or a declaration) names by relative path: modules and their maps (or declarations). */
const namedBy = async (file: string): Promise<ReadonlyArray<string>> => {
  const text = await readFile(file, "utf8")
  return [...text.matchAll(specifiers)].flatMap((match) => {
    const target = resolve(dirname(file), match[1] ?? "")
    return file.endsWith(".d.ts") ? [target.replace(/\.js$/, ".d.ts")] : [target, `${target}.map`]
  })
}

/** Every file reachable from the entry points and their declarations. */
const reachable = async (): Promise<ReadonlySet<string>> => {
  const seen = new Set<string>()
  const pending = entries.flatMap((entry) => [entry, entry.replace(/\.js$/, ".d.ts"), `${entry}.map`])
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue
    const present = await readFile(file, "utf8").then(() => true, () => false)
    if (!present) continue
    seen.add(file)
    if (!file.endsWith(".map")) pending.push(...await namedBy(file))
  }
  return seen
}

/**
 * The shared rules (`dist/rules`), the bundled simulator and the command
 * (`dist/bin`) that import Effect, which would load the user's Effect 4; the
 * other modules both editions share (`dist/common`) are written against
 * either Effect, and take it from this edition
 * (`dist/effect4/src/internal/Edition.js`).
 */
const importingEffect = async (files: ReadonlySet<string>) => {
  const shared = [...files].filter((file) =>
    !file.startsWith(join(dist, "effect4")) && (!file.startsWith(join(dist, "common")) || file.endsWith("StandaloneBundle.js")) &&
    !file.endsWith(".map")
  )
  const texts = await Promise.all(shared.map(async (file) => [file, await readFile(file, "utf8")] as const))
  return texts.filter(([, text]) => /(?:from|import)\s*\(?\s*"(?:effect|@effect\/[^"]+)(?:\/[^"]*)?"/.test(text)).map(([file]) => relative(edition, file))
}

await rm(dist, { recursive: true, force: true })
const tsc = spawnSync(process.execPath, [join(edition, "node_modules", "typescript", "bin", "tsc"), "-p", join(edition, "tsconfig.build.json")], {
  cwd: edition,
  stdio: "inherit"
})
if (tsc.status !== 0) process.exit(tsc.status ?? 1)
await bindEdition(join(dist, "common"), join(dist, "effect4", "src"))

// The standalone simulator, bundled, where this edition imports it from, with its declaration.
await bundleStandaloneSimulator(join(dist, "common", "src", "simulator", "StandaloneBundle.js"))
await copyFile(join(root, "common", "src", "simulator", "StandaloneBundle.d.ts"), join(dist, "common", "src", "simulator", "StandaloneBundle.d.ts"))

// The `catalog` command, the one program both editions ship, under this package's version.
const manifest: { version: string } = JSON.parse(await readFile(join(edition, "package.json"), "utf8"))
await bundleCommand(join(dist, "bin"), manifest.version)

const kept = await reachable()
const emitted = (await readdir(dist, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name))
await Promise.all(emitted.filter((file) => !kept.has(file)).map((file) => rm(file)))

const offending = await importingEffect(kept)
if (offending.length > 0) {
  console.error(`shared modules must not import Effect, but these do:\n${offending.join("\n")}`)
  process.exit(1)
}
console.error(`built dist/ (${[...kept].filter((file) => file.endsWith(".js")).length} modules) from ${relative(root, edition)}/src, the shared modules of common/src and the shared rules of rules/src`)
