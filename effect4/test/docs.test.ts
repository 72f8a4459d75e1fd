/**
 * Every ```ts example of the edition's doc comments typechecks against the
 * edition (its `effect-catalog` is `src/index.ts`), each block a module of
 * its own; a failure names the source line. The machinery is shared with
 * the Effect 3 edition's docs test (`scripts/docExamples.ts`).
 */
import { describe, expect, it } from "@effect/vitest"
import { fileURLToPath } from "node:url"
import * as DocExamples from "../../scripts/docExamples.js"

const edition = fileURLToPath(new URL("..", import.meta.url))
const { exampleBlocks, sourcesUnder, typecheck } = DocExamples.of(edition)

describe("documentation", () => {
  it("every @example of the edition's sources typechecks", async () => {
    const blocks = (await Promise.all((await sourcesUnder("src")).map(exampleBlocks))).flat()
    expect(blocks.length).toBeGreaterThan(100)
    expect((await typecheck(blocks)).map((failure) => failure.message)).toEqual([])
  })
})
