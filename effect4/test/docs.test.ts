/**
 * Every ```ts example of the edition's doc comments, and every block of the
 * repository's documents (README.md and every page of docs/) fenced
 * ```ts effect4 (the Effect 4 versions of their examples; their plain ```ts
 * blocks are the Effect 3 edition's), typechecks against the edition (its
 * `effect-catalog` is `src/index.ts`), each block a module of its own; a
 * failure names the source line. A block fenced ```ts effect4 effect3 is
 * the same in both editions: the Effect 3 edition's docs test typechecks it
 * too. The machinery is shared with the Effect 3 edition's docs test
 * (`scripts/docExamples.ts`).
 */
import { describe, expect, it } from "@effect/vitest"
import { fileURLToPath } from "node:url"
import * as DocExamples from "../../scripts/docExamples.js"

const edition = fileURLToPath(new URL("..", import.meta.url))
const repository = fileURLToPath(new URL("../..", import.meta.url))
const { exampleBlocks, sourcesUnder, typecheck } = DocExamples.of(edition)

/** The documents' blocks of this edition, located as `README.md` or `docs/PAGE.md` (the repository's). */
const documentBlocks = () => DocExamples.documentBlocks(repository, DocExamples.effect4)

/** The documents' blocks written the same for both editions (```ts effect4 effect3), at their lines. */
const sameBlocks = () => DocExamples.documentBlocks(repository, DocExamples.both)

/** The edition's sources and those both editions share (`../common/src`), whose examples hold under either Effect. */
const sources = async () => [...await sourcesUnder("src"), ...await sourcesUnder("../common/src")]

const sourceExampleBlocks = async () =>
  (await Promise.all((await sources()).map((source) => exampleBlocks(source, source.startsWith("../common/src/") ? DocExamples.sharedEffect4 : DocExamples.plain)))).flat()

/**
 * The documents' blocks and the sources' examples, typechecked as one program (the
 * libraries' types are read and checked once for both); each test reads the
 * diagnostics of its own blocks, and those of the whole run.
 */
const typechecked = (() => {
  let started: Promise<ReadonlyArray<DocExamples.Failure>> | undefined
  return () => (started ??= Promise.all([documentBlocks(), sourceExampleBlocks()]).then((blocks) => typecheck(blocks.flat())))
})()

/** The diagnostics of the shared typecheck that concern blocks of `sources`, or the whole run. */
const failuresOf = async (sources: (source: string) => boolean) =>
  (await typechecked()).filter((failure) => failure.source === null || sources(failure.source)).map((failure) => failure.message)

/** The diagnostics of the shared typecheck that concern these blocks of the documents, or the whole run. */
const failuresIn = async (blocks: ReadonlyArray<DocExamples.Block>) =>
  (await typechecked())
    .filter((failure) =>
      failure.source === null ||
      blocks.some((block) => failure.source === block.source && failure.message.includes(`(block starting at line ${block.line})`))
    )
    .map((failure) => failure.message)

describe("documentation", () => {
  it("every ```ts effect4 block of README.md and docs/ typechecks", async () => {
    const blocks = await documentBlocks()
    expect(blocks.length).toBeGreaterThan(0)
    expect(blocks.map((block) => block.source)).toContain("README.md")
    const failures = await failuresIn(blocks)
    expect(failures, failures.join("\n")).toEqual([])
  })

  it("the blocks README.md and docs/ show as the same in both editions (```ts effect4 effect3) compile unchanged", async () => {
    const blocks = await sameBlocks()
    expect(blocks.length).toBeGreaterThanOrEqual(5)
    const failures = await failuresIn(blocks)
    expect(failures, failures.join("\n")).toEqual([])
  })

  it("every @example of the edition's sources, and of those both editions share, typechecks", async () => {
    expect((await sourceExampleBlocks()).length).toBeGreaterThan(100)
    const failures = await failuresOf((source) => source.startsWith("src/") || source.startsWith("../common/src/"))
    expect(failures, failures.join("\n")).toEqual([])
  })
})
