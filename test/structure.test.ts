/**
 * The shape of the code that the next edition is ported from: no function
 * of the client or the mirror longer than 80 lines (a screen), so that each
 * can be read, and ported, whole.
 */
import { describe, expect, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import path from "node:path"
import ts from "typescript"

const longest = 80

const sources = (folder: string): ReadonlyArray<string> =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name)
    return entry.isDirectory() ? sources(file) : file.endsWith(".ts") ? [file] : []
  })

/** Every function of a file longer than `longest` lines: where it starts, and its length. */
const tooLong = (file: string): ReadonlyArray<string> => {
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

describe("the code's shape", () => {
  it("no function in src/client or src/mirror is longer than 80 lines", () => {
    expect(["src/client", "src/mirror"].flatMap(sources).flatMap(tooLong)).toEqual([])
  })
})
