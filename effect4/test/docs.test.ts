/**
 * Every ```ts example of the edition's doc comments, and every block of the
 * repository's README.md fenced ```ts effect4 (the Effect 4 versions of its
 * examples; its plain ```ts blocks are the Effect 3 edition's), typechecks
 * against the edition (its `effect-catalog` is `src/index.ts`), each block a
 * module of its own; a failure names the source line. So do the Effect 3
 * blocks of the sections README says are the same in Effect 4. The
 * machinery is shared with the Effect 3 edition's docs test
 * (`scripts/docExamples.ts`).
 */
import { describe, expect, it } from "@effect/vitest"
import { readFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"
import * as DocExamples from "../../scripts/docExamples.js"

const edition = fileURLToPath(new URL("..", import.meta.url))
const { exampleBlocks, sourcesUnder, tsBlocks, typecheck } = DocExamples.of(edition)

const readmeLines = async () => (await readFile(fileURLToPath(new URL("../../README.md", import.meta.url)), "utf8")).split("\n")

/** README's blocks of this edition, located as `README.md` (the repository's). */
const readmeBlocks = async () => tsBlocks("README.md", await readmeLines(), "effect4")

/** The sections of README whose Effect 3 code README says is the same in Effect 4, by heading. */
const sameInEffect4 = ["### First call", "### Errors", "### Scanning a whole catalog", "## The mirror", "### As a Layer, in tests"]

/** The plain ```ts blocks of those sections (up to the next heading), at their lines of README. */
const sameBlocks = async () => {
  let heading = ""
  const lines = (await readmeLines()).map((line) => {
    if (/^#{1,4} /.test(line)) heading = line
    return sameInEffect4.includes(heading) ? line : ""
  })
  return tsBlocks("README.md", lines)
}

const sourceExampleBlocks = async () => (await Promise.all((await sourcesUnder("src")).map(exampleBlocks))).flat()

/**
 * README's blocks and the sources' examples, typechecked as one program (the
 * libraries' types are read and checked once for both); each test reads the
 * diagnostics of its own blocks, and those of the whole run.
 */
const typechecked = (() => {
  let started: Promise<ReadonlyArray<DocExamples.Failure>> | undefined
  return () => (started ??= Promise.all([readmeBlocks(), sameBlocks(), sourceExampleBlocks()]).then((blocks) => typecheck(blocks.flat())))
})()

/** The diagnostics of the shared typecheck that concern blocks of `sources`, or the whole run. */
const failuresOf = async (sources: (source: string) => boolean) =>
  (await typechecked()).filter((failure) => failure.source === null || sources(failure.source)).map((failure) => failure.message)

/** The diagnostics of the shared typecheck that concern these blocks of README, or the whole run. */
const failuresIn = async (blocks: ReadonlyArray<DocExamples.Block>) =>
  (await failuresOf((source) => source === "README.md"))
    .filter((message) => !message.startsWith("README.md:") || blocks.some((block) => message.includes(`(block starting at line ${block.line})`)))

describe("documentation", () => {
  it("every ```ts effect4 block of README.md typechecks", async () => {
    const blocks = await readmeBlocks()
    expect(blocks.length).toBeGreaterThan(0)
    const failures = await failuresIn(blocks)
    expect(failures, failures.join("\n")).toEqual([])
  })

  it("README's Effect 3 blocks of First call, Errors, Scanning, the mirror and the simulator as a Layer compile unchanged", async () => {
    const blocks = await sameBlocks()
    expect(blocks.length).toBeGreaterThanOrEqual(sameInEffect4.length)
    const failures = await failuresIn(blocks)
    expect(failures, failures.join("\n")).toEqual([])
  })

  it("every @example of the edition's sources typechecks", async () => {
    expect((await sourceExampleBlocks()).length).toBeGreaterThan(100)
    const failures = await failuresOf((source) => source.startsWith("src/"))
    expect(failures, failures.join("\n")).toEqual([])
  })
})
