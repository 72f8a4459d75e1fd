/**
 * The `catalog` command as it ships: one ES module bundled with what it uses
 * of its dependencies (tree-shaken, the HTTP client and the simulator in
 * chunks loaded when needed), written to `outdir` as `catalog.js`. Used by
 * `npm run build` for `dist/bin`, and by the test setup, which runs the
 * command's tests against a fresh bundle of the sources.
 */
import { build } from "esbuild"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const src = fileURLToPath(new URL("../src", import.meta.url))

/** Bundles `src/cli/bin.ts` into `outdir`. */
export const bundleCommand = async (outdir: string): Promise<string> => {
  await build({
    entryPoints: { catalog: join(src, "cli", "bin.ts") },
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    minifySyntax: true,
    minifyWhitespace: true,
    // An optional peer: `--redis` loads the one the user installed.
    external: ["ioredis"],
    // CommonJS dependencies bundled into ES modules call require.
    banner: { js: `import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);` },
    logLevel: "warning"
  })
  return join(outdir, "catalog.js")
}
