/**
 * The functions of a source tree longer than a screen, so that a test can
 * hold a package to functions that can be read, and ported, whole. Both
 * editions' tests use it (it imports nothing of Effect).
 */
import { readdirSync, readFileSync } from "node:fs"
import path from "node:path"
import ts from "typescript"

/** The `.ts` files under `folder`. */
const sources = (folder: string): ReadonlyArray<string> =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name)
    return entry.isDirectory() ? sources(file) : file.endsWith(".ts") ? [file] : []
  })

/** Every function of a file longer than `longest` lines: where it starts, and its length. */
const longIn = (file: string, longest: number): ReadonlyArray<string> => {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true)
  const found: Array<string> = []
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line
      const lines = source.getLineAndCharacterOfPosition(node.getEnd()).line - first + 1
      if (lines > longest) found.push(`${file}:${first + 1} (${lines} lines)`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/** The functions under `folders` longer than `longest` lines. */
export const longerThan = (longest: number, folders: ReadonlyArray<string>): ReadonlyArray<string> =>
  folders.flatMap(sources).flatMap((file) => longIn(file, longest))
