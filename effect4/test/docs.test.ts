/**
 * Every ```ts example of the edition's doc comments, and every block of the
 * repository's README.md fenced ```ts effect4 (the Effect 4 versions of its
 * examples; its plain ```ts blocks are the Effect 3 edition's), typechecks
 * against the edition (its `effect-catalog` is `src/index.ts`), each block a
 * module of its own; a failure names the source line. The machinery is
 * shared with the Effect 3 edition's docs test (`scripts/docExamples.ts`).
 */
import { describe, expect, it } from "@effect/vitest"
import { readFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"
import * as DocExamples from "../../scripts/docExamples.js"

const edition = fileURLToPath(new URL("..", import.meta.url))
const { exampleBlocks, sourcesUnder, tsBlocks, typecheck } = DocExamples.of(edition)

/** README's blocks of this edition, located as `README.md` (the repository's). */
const readmeBlocks = async () =>
  tsBlocks("README.md", (await readFile(fileURLToPath(new URL("../../README.md", import.meta.url)), "utf8")).split("\n"), "effect4")

const sourceExampleBlocks = async () => (await Promise.all((await sourcesUnder("src")).map(exampleBlocks))).flat()

/**
 * README's blocks and the sources' examples, typechecked as one program (the
 * libraries' types are read and checked once for both); each test reads the
 * diagnostics of its own blocks, and those of the whole run.
 */
const typechecked = (() => {
  let started: Promise<ReadonlyArray<DocExamples.Failure>> | undefined
  return () => (started ??= Promise.all([readmeBlocks(), sourceExampleBlocks()]).then((blocks) => typecheck(blocks.flat())))
})()

/** The diagnostics of the shared typecheck that concern blocks of `sources`, or the whole run. */
const failuresOf = async (sources: (source: string) => boolean) =>
  (await typechecked()).filter((failure) => failure.source === null || sources(failure.source)).map((failure) => failure.message)

describe("documentation", () => {
  it("every ```ts effect4 block of README.md typechecks", async () => {
    expect((await readmeBlocks()).length).toBeGreaterThan(0)
    const failures = await failuresOf((source) => source === "README.md")
    expect(failures, failures.join("\n")).toEqual([])
  })

  it("every @example of the edition's sources typechecks", async () => {
    expect((await sourceExampleBlocks()).length).toBeGreaterThan(100)
    const failures = await failuresOf((source) => source.startsWith("src/"))
    expect(failures, failures.join("\n")).toEqual([])
  })
})
