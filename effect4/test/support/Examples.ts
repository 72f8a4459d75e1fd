/**
 * The edition's `examples/` run as a user runs them: each program in its own
 * Node 22 process (this Node, which strips the types itself), in the
 * edition's folder, to its end. In an application `effect-catalog` is the
 * installed package; here a resolve hook, loaded with `--import`, makes it
 * the edition's sources and finds the `.ts` module behind each relative
 * `.js` specifier, as tsc's `paths` and NodeNext resolution do.
 */
import type { Effect } from "effect"
import { fileURLToPath } from "node:url"
import { editionCondition, type Ran, runNode } from "./Process.js"

/** The edition's folder (`effect4/`), where the examples run. */
export const edition = fileURLToPath(new URL("../..", import.meta.url))

/** The resolve hook of the examples' processes, as a module of its own. */
const sourcesHook = `
import { registerHooks } from "node:module"
import { existsSync } from "node:fs"
const sources = ${JSON.stringify(new URL("../../src/", import.meta.url).href)}
registerHooks({
  resolve(specifier, context, next) {
    if (specifier === "effect-catalog") return next(new URL("index.ts", sources).href, context)
    const entry = /^effect-catalog\\/(.+)$/.exec(specifier)
    if (entry !== null) return next(new URL(entry[1] + "/index.ts", sources).href, context)
    // The shared modules take the edition's sources as #edition/… (the repository's package.json, under --conditions=effect4).
    if (specifier.startsWith("#edition/") && specifier.endsWith(".js")) return next(new URL(specifier.slice(9, -3) + ".ts", sources).href, context)
    if (/^\\.\\.?\\//.test(specifier) && specifier.endsWith(".js") && context.parentURL?.endsWith(".ts")) {
      const typescript = new URL(specifier.slice(0, -3) + ".ts", context.parentURL)
      if (existsSync(typescript)) return next(typescript.href, context)
    }
    return next(specifier, context)
  }
})
`

/** Runs `examples/NAME.ts ...args` with the resolve hook, in the edition's folder, in `env`, to its end; an interrupted run kills its process. */
export const runExample = (name: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv): Effect.Effect<Ran> =>
  runNode([editionCondition, "--import", `data:text/javascript,${encodeURIComponent(sourcesHook)}`, `examples/${name}.ts`, ...args], { cwd: edition, env })
