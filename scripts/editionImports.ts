/**
 * The modules both editions share (`common/src`) name their edition's
 * modules as `#edition/…`, which the repository's package.json resolves to
 * either edition's sources while they are developed (the Effect 4 edition's
 * under the condition `effect4`). Once compiled into an edition's output,
 * each such import becomes the relative path of that edition's compiled
 * module, so that the output resolves by itself: a package needs no
 * `imports` of its own, and its declarations read the same under every
 * `moduleResolution`. Nothing of Effect: both editions' builds use it.
 */
import { readdir, readFile, writeFile } from "node:fs/promises"
import { dirname, join, relative } from "node:path"

const editionImport = /((?:from|import|require)\s*\(?\s*)"#edition\/([^"]+)"/g

/** The specifier of `target` from `file`: relative, with its leading `./` when it stays in the folder. */
const relativeSpecifier = (file: string, target: string): string => {
  const path = relative(dirname(file), target)
  return path.startsWith(".") ? path : `./${path}`
}

/**
 * Rewrites every `#edition/PATH` import of the compiled modules and
 * declarations under `folder` (the output of `common/src`, or a declaration
 * that names it, such as the simulator bundle's) to `edition/PATH` (the
 * output of the edition's `src`), and gives the number of files changed.
 */
export const bindEdition = async (folder: string, edition: string): Promise<number> => {
  const files = (await readdir(folder, { recursive: true }))
    .filter((file) => file.endsWith(".js") || file.endsWith(".d.ts"))
    .map((file) => join(folder, file))
  const changed = await Promise.all(files.map(async (file) => {
    const text = await readFile(file, "utf8")
    const bound = text.replace(editionImport, (_, keyword: string, path: string) => `${keyword}"${relativeSpecifier(file, join(edition, path))}"`)
    if (bound === text) return false
    await writeFile(file, bound)
    return true
  }))
  return changed.filter((file) => file).length
}
