/**
 * The modules an edition loads, and what each imports: from the edition's
 * sources, every relative import and `#edition/…` (bound to the edition's
 * `src`, as the repository's package.json binds it), followed into the
 * shared rules and the shared modules. The structure tests of both editions
 * hold it to no circle and to no file of the other edition (it imports
 * nothing of Effect).
 *
 * @example
 * ```ts
 * import { circles, importGraph } from "../scripts/importGraph.js"
 *
 * const graph = importGraph("/repository", "src")
 * circles(graph) // [] when no module imports itself through others
 * ```
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"

/** Each module, relative to the repository, with the modules it imports (type-only imports too: a circle of types is one to read as well). */
export type ImportGraph = ReadonlyMap<string, ReadonlyArray<string>>

/** Every module specifier of a text: static imports and re-exports, type-only ones too, and dynamic imports. */
export const specifiersOf = (text: string): ReadonlyArray<string> =>
  [...text.matchAll(/^\s*(?:import|export)\b[^"'`]*?\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']/gm)]
    .map((match) => match[1] ?? match[2] ?? "")

/** The `.ts` files under a folder of the repository, relative to it. */
const sourcesUnder = (repository: string, folder: string): ReadonlyArray<string> =>
  readdirSync(join(repository, folder), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .map((file) => join(folder, file))

/**
 * The graph of the modules the edition whose sources are `editionSource`
 * (`src`, `effect4/src`) loads: its sources and all they import, each
 * relative to `repository`. A specifier leading to no file is left out.
 */
export const importGraph = (repository: string, editionSource: string): ImportGraph => {
  const graph = new Map<string, ReadonlyArray<string>>()
  const resolve = (module: string, specifier: string): string | null => {
    const path = specifier.startsWith("#edition/")
      ? join(editionSource, specifier.slice("#edition/".length))
      : specifier.startsWith(".")
      ? join(dirname(module), specifier)
      : null
    // As tsc resolves `X.js`: `X.ts`, else the declaration `X.d.ts` (a module bundled apart, such as the standalone simulator).
    const candidates = path === null ? [] : [path.replace(/\.js$/, ".ts"), path.replace(/\.js$/, ".d.ts")]
    return candidates.find((source) => existsSync(join(repository, source))) ?? null
  }
  const pending = [...sourcesUnder(repository, editionSource)]
  for (let module = pending.pop(); module !== undefined; module = pending.pop()) {
    if (graph.has(module)) continue
    const imported = specifiersOf(readFileSync(join(repository, module), "utf8")).flatMap((specifier) => resolve(module, specifier) ?? [])
    graph.set(module, [...new Set(imported)])
    pending.push(...imported)
  }
  return graph
}

/** The circles of a graph (its strongly connected components of more than one module, or of one that imports itself), each sorted. */
export const circles = (graph: ImportGraph): ReadonlyArray<ReadonlyArray<string>> => {
  // Tarjan's algorithm, with an explicit stack of frames so that a long chain of imports cannot overflow the call stack.
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const found: Array<ReadonlyArray<string>> = []
  for (const root of graph.keys()) {
    if (index.has(root)) continue
    const frames: Array<{ readonly module: string; next: number }> = [{ module: root, next: 0 }]
    index.set(root, index.size)
    low.set(root, index.get(root) ?? 0)
    stack.push(root)
    onStack.add(root)
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]
      if (frame === undefined) break
      const imports = graph.get(frame.module) ?? []
      const next = imports[frame.next]
      if (next !== undefined) {
        frame.next += 1
        if (!index.has(next)) {
          index.set(next, index.size)
          low.set(next, index.get(next) ?? 0)
          stack.push(next)
          onStack.add(next)
          frames.push({ module: next, next: 0 })
        } else if (onStack.has(next)) {
          low.set(frame.module, Math.min(low.get(frame.module) ?? 0, index.get(next) ?? 0))
        }
        continue
      }
      frames.pop()
      const parent = frames[frames.length - 1]
      if (parent !== undefined) low.set(parent.module, Math.min(low.get(parent.module) ?? 0, low.get(frame.module) ?? 0))
      if (low.get(frame.module) !== index.get(frame.module)) continue
      const component: Array<string> = []
      for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
        onStack.delete(member)
        component.push(member)
        if (member === frame.module) break
      }
      if (component.length > 1 || imports.includes(frame.module)) found.push(component.sort())
    }
  }
  return found
}

/** The imports of a graph from a module `from` takes to one `to` takes: `module → imported` for each. */
export const importsBetween = (graph: ImportGraph, from: (module: string) => boolean, to: (module: string) => boolean): ReadonlyArray<string> =>
  [...graph].flatMap(([module, imported]) => from(module) ? imported.filter(to).map((target) => `${module} → ${target}`) : [])
