/**
 * Every example compiles as written: each TypeScript block of README.md and
 * each `@example` of the sources is written to its own module in a temporary
 * folder of the repository (so that `effect-catalog` resolves to this
 * package) and typechecked with the project's settings, unused names aside.
 */
import { describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))

interface Block {
  /** Where the block is, relative to the repository. */
  readonly source: string
  /** The line in `source` of the block's first line of code. */
  readonly line: number
  readonly code: string
}

/** The ```ts (or ```typescript) blocks of a text, one line of it per line of `source`. */
const tsBlocks = (source: string, lines: ReadonlyArray<string>): ReadonlyArray<Block> => {
  const blocks: Array<Block> = []
  let open: { readonly line: number; readonly code: Array<string> } | null = null
  lines.forEach((text, index) => {
    if (open === null) {
      if (/^```(ts|typescript)\s*$/.test(text)) open = { line: index + 2, code: [] }
    } else if (/^```\s*$/.test(text)) {
      blocks.push({ source, line: open.line, code: `${open.code.join("\n")}\n` })
      open = null
    } else {
      open.code.push(text)
    }
  })
  return blocks
}

/** The files under `dir` whose names end with `.ts`, relative to the repository. */
const sourcesUnder = async (dir: string): Promise<ReadonlyArray<string>> =>
  (await readdir(join(root, dir), { recursive: true })).filter((file) => file.endsWith(".ts")).map((file) => join(dir, file)).sort()

/** The blocks of `@example`s in a source's doc comments, their ` * ` margins taken off. */
const exampleBlocks = async (source: string): Promise<ReadonlyArray<Block>> =>
  tsBlocks(source, (await readFile(join(root, source), "utf8")).split("\n").map((line) => line.replace(/^\s*\* ?/, "")))

/** The diagnostics of typechecking every block, each located in its source; none when all compile. */
const typecheck = async (blocks: ReadonlyArray<Block>): Promise<ReadonlyArray<string>> => {
  await mkdir(join(root, ".tmp"), { recursive: true })
  const dir = await mkdtemp(join(root, ".tmp", "examples-"))
  try {
    const written = await Promise.all(blocks.map(async (block, index) => {
      const file = relative(root, join(dir, `block${index + 1}.ts`))
      await writeFile(join(root, file), block.code)
      return { ...block, file }
    }))
    await writeFile(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        extends: relative(dir, join(root, "tsconfig.json")),
        compilerOptions: {
          // Examples may declare names only to show them.
          noUnusedLocals: false,
          noUnusedParameters: false,
          // Each block is its own module, with or without imports.
          moduleDetection: "force"
        },
        include: ["*.ts"]
      })
    )
    const tsc = spawnSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "--pretty", "false", "-p", join(dir, "tsconfig.json")], {
      cwd: root,
      encoding: "utf8"
    })
    const output = `${tsc.stdout}${tsc.stderr}`
    // Errors located in a block, by block; any other error of the run is kept as is.
    const diagnostics = output.split("\n").filter((line) => /error TS\d+/.test(line))
    const failures = diagnostics.flatMap((diagnostic) => {
      const block = written.find((candidate) => diagnostic.startsWith(`${candidate.file}(`))
      if (block === undefined) return diagnostic.includes(relative(root, dir)) || !/^[^(]+\(\d+,\d+\)/.test(diagnostic) ? [diagnostic] : []
      const at = /\((\d+),(\d+)\)/.exec(diagnostic)
      const line = block.line + Number(at?.[1] ?? 1) - 1
      return [`${block.source}:${line} (block starting at line ${block.line}): ${diagnostic.slice(diagnostic.indexOf("error"))}`]
    })
    // tsc failed without saying where (it did not run, or crashed).
    return diagnostics.length === 0 && tsc.status !== 0 ? [output] : failures
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

describe("documentation", () => {
  it("every ts block of README.md typechecks", async () => {
    const blocks = tsBlocks("README.md", (await readFile(join(root, "README.md"), "utf8")).split("\n"))
    expect(blocks.length).toBeGreaterThan(0)
    const failures = await typecheck(blocks)
    expect(failures, failures.join("\n")).toEqual([])
  }, 120_000)

  it("every @example of the sources typechecks", async () => {
    const blocks = (await Promise.all((await sourcesUnder("src")).map(exampleBlocks))).flat()
    expect(blocks.length).toBeGreaterThan(50)
    const failures = await typecheck(blocks)
    expect(failures, failures.join("\n")).toEqual([])
  }, 120_000)
})
