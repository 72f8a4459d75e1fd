/**
 * Every TypeScript block of README.md compiles as written: each is written to
 * its own module in a temporary folder of the repository (so that
 * `effect-catalog` resolves to this package) and typechecked with the
 * project's settings, unused names aside.
 */
import { describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))

interface Block {
  readonly file: string
  /** The README line of the block's first line of code. */
  readonly line: number
  readonly code: string
}

/** The ```ts (or ```typescript) blocks of a Markdown text. */
const tsBlocks = (markdown: string): ReadonlyArray<Omit<Block, "file">> => {
  const blocks: Array<Omit<Block, "file">> = []
  const lines = markdown.split("\n")
  let open: { readonly line: number; readonly code: Array<string> } | null = null
  lines.forEach((text, index) => {
    if (open === null) {
      if (/^```(ts|typescript)\s*$/.test(text)) open = { line: index + 2, code: [] }
    } else if (/^```\s*$/.test(text)) {
      blocks.push({ line: open.line, code: `${open.code.join("\n")}\n` })
      open = null
    } else {
      open.code.push(text)
    }
  })
  return blocks
}

describe("README.md", () => {
  it("every ts block typechecks", async () => {
    const blocks = tsBlocks(await readFile(join(root, "README.md"), "utf8"))
    expect(blocks.length).toBeGreaterThan(0)
    await mkdir(join(root, ".tmp"), { recursive: true })
    const dir = await mkdtemp(join(root, ".tmp", "readme-"))
    try {
      const written: Array<Block> = []
      for (const [index, block] of blocks.entries()) {
        const file = join(dir, `block${index + 1}.ts`)
        await writeFile(file, block.code)
        written.push({ ...block, file })
      }
      await writeFile(
        join(dir, "tsconfig.json"),
        JSON.stringify({
          extends: relative(dir, join(root, "tsconfig.json")),
          compilerOptions: {
            // Snippets may declare names only to show them.
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
        const block = written.find((candidate) => diagnostic.startsWith(`${relative(root, candidate.file)}(`))
        if (block === undefined) return diagnostic.includes(relative(root, dir)) || !/^[^(]+\(\d+,\d+\)/.test(diagnostic) ? [diagnostic] : []
        const at = /\((\d+),(\d+)\)/.exec(diagnostic)
        const line = block.line + Number(at?.[1] ?? 1) - 1
        return [`README.md:${line} (block ${written.indexOf(block) + 1}, starting at line ${block.line}): ${diagnostic.slice(diagnostic.indexOf("error"))}`]
      })
      expect(failures, failures.join("\n")).toEqual([])
      // tsc failed without saying where (it did not run, or crashed).
      if (diagnostics.length === 0) expect(tsc.status, output).toBe(0)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 120_000)
})
