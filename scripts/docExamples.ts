/**
 * The ```ts examples of a package's docs, typechecked: the blocks of the
 * repository's documents (README.md and every page of docs/) and of the
 * `@example`s of the sources' doc comments, each compiled as a module of its
 * own against the package's tsconfig.json, every diagnostic placed at its
 * line in its source. Both editions' docs tests use it (it imports nothing
 * of Effect). A document's fence says which edition a block is written for:
 * ```ts the Effect 3 edition's, ```ts effect4 the Effect 4 edition's, and
 * ```ts effect4 effect3 a block that is the same in both, which both tests
 * typecheck. The `@example`s of an edition's sources are fenced ```ts; those
 * of the sources both editions share (`common/src`) are ```ts where the
 * code holds under either Effect, and ```ts effect3 or ```ts effect4 where
 * it is one edition's.
 */
import { spawnSync } from "node:child_process"
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises"
import { join, relative } from "node:path"

/** A ```ts block of a text. */
export interface Block {
  /** Where the block is, relative to the package. */
  readonly source: string
  /** The line in `source` of the block's first line of code. */
  readonly line: number
  readonly code: string
}

/** A diagnostic of typechecking blocks: located in the source of its block, or of the whole run (`source` null). */
export interface Failure {
  readonly source: string | null
  readonly message: string
}

/** The words of a ```ts fence after its language: none for ```ts, `["effect4"]` for ```ts effect4. */
export type Fence = ReadonlyArray<string>

/** A fence with no word after the language: the blocks of the sources' `@example`s, and the Effect 3 edition's in the documents. */
export const plain = (fence: Fence): boolean => fence.length === 0

/** The blocks of the Effect 3 edition in the documents: ```ts, and ```ts effect4 effect3 (the same in both editions). */
export const effect3 = (fence: Fence): boolean => fence.length === 0 || fence.includes("effect3")

/** The blocks of the Effect 4 edition in the documents: ```ts effect4, and ```ts effect4 effect3 (the same in both editions). */
export const effect4 = (fence: Fence): boolean => fence.includes("effect4")

/** The `@example`s of the shared sources (`common/src`) that hold under Effect 3: ```ts, and ```ts effect3. */
export const sharedEffect3 = (fence: Fence): boolean => plain(fence) || (fence.length === 1 && fence[0] === "effect3")

/** The `@example`s of the shared sources (`common/src`) that hold under Effect 4: ```ts, and ```ts effect4. */
export const sharedEffect4 = (fence: Fence): boolean => plain(fence) || (fence.length === 1 && fence[0] === "effect4")

/** The blocks written the same for both editions: ```ts effect4 effect3. */
export const both = (fence: Fence): boolean => effect3(fence) && effect4(fence)

/** The words of a line that opens a ```ts (or ```typescript) block, or null for any other line. */
export const fenceOf = (text: string): Fence | null => {
  const match = /^```(ts|typescript)((?:\s+\S+)*)\s*$/.exec(text)
  return match === null ? null : (match[2] ?? "").split(/\s+/).filter((word) => word !== "")
}

/**
 * The ```ts (or ```typescript) blocks of a text, one line of it per line of
 * `source`, whose fence `accepts` takes: by default those whose fence says
 * nothing after the language.
 */
export const tsBlocks = (source: string, lines: ReadonlyArray<string>, accepts: (fence: Fence) => boolean = plain): ReadonlyArray<Block> => {
  const blocks: Array<Block> = []
  let open: { readonly line: number; readonly code: Array<string> } | null = null
  lines.forEach((text, index) => {
    if (open === null) {
      const fence = fenceOf(text)
      if (fence !== null && accepts(fence)) open = { line: index + 2, code: [] }
    } else if (/^```\s*$/.test(text)) {
      blocks.push({ source, line: open.line, code: `${open.code.join("\n")}\n` })
      open = null
    } else {
      open.code.push(text)
    }
  })
  return blocks
}

/** The repository's documents whose blocks are typechecked, relative to it: README.md, then every page of docs/ by name. */
export const documents = async (repository: string): Promise<ReadonlyArray<string>> => {
  const pages = await readdir(join(repository, "docs")).catch(() => [])
  return ["README.md", ...pages.filter((page) => page.endsWith(".md")).sort().map((page) => join("docs", page))]
}

/** The blocks of the repository's documents that `accepts` takes, each located as `README.md` or `docs/PAGE.md`. */
export const documentBlocks = async (repository: string, accepts: (fence: Fence) => boolean): Promise<ReadonlyArray<Block>> =>
  (await Promise.all((await documents(repository)).map(async (document) =>
    tsBlocks(document, (await readFile(join(repository, document), "utf8")).split("\n"), accepts)
  ))).flat()

/** The helpers over a package whose root (with its tsconfig.json and TypeScript) is `root`. */
export const of = (root: string) => {
  /** The files under `dir` whose names end with `.ts`, relative to the package. */
  const sourcesUnder = async (dir: string): Promise<ReadonlyArray<string>> =>
    (await readdir(join(root, dir), { recursive: true })).filter((file) => file.endsWith(".ts")).map((file) => join(dir, file)).sort()

  /** The blocks of `@example`s in a source's doc comments whose fence `accepts` takes, their ` * ` margins taken off. */
  const exampleBlocks = async (source: string, accepts: (fence: Fence) => boolean = plain): Promise<ReadonlyArray<Block>> =>
    tsBlocks(source, (await readFile(join(root, source), "utf8")).split("\n").map((line) => line.replace(/^\s*\* ?/, "")), accepts)

  /** The diagnostics of typechecking every block, each located in its source; none when all compile. */
  const typecheck = async (blocks: ReadonlyArray<Block>): Promise<ReadonlyArray<Failure>> => {
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
      const failures = diagnostics.flatMap((diagnostic): ReadonlyArray<Failure> => {
        const block = written.find((candidate) => diagnostic.startsWith(`${candidate.file}(`))
        if (block === undefined) {
          return diagnostic.includes(relative(root, dir)) || !/^[^(]+\(\d+,\d+\)/.test(diagnostic) ? [{ source: null, message: diagnostic }] : []
        }
        const at = /\((\d+),(\d+)\)/.exec(diagnostic)
        const line = block.line + Number(at?.[1] ?? 1) - 1
        return [{
          source: block.source,
          message: `${block.source}:${line} (block starting at line ${block.line}): ${diagnostic.slice(diagnostic.indexOf("error"))}`
        }]
      })
      // tsc failed without saying where (it did not run, or crashed).
      return diagnostics.length === 0 && tsc.status !== 0 ? [{ source: null, message: output }] : failures
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }
  return { exampleBlocks, sourcesUnder, tsBlocks, typecheck }
}
