/**
 * The order the test files start in: the typecheck of the repository, then
 * the files of the installed package (`test/package/`, which pack, install
 * and typecheck it), the longest of the run; then vitest's own order
 * (the files slowest last time first when it remembers, the largest first
 * when it does not, as on CI). A long file started last would keep one
 * worker busy after the others are done.
 *
 * @example
 * export default defineConfig({ test: { sequence: { sequencer: PackageFirst } } })
 */
import { relative } from "node:path"
import { BaseSequencer, type TestSpecification } from "vitest/node"

/** How early a file starts: the typecheck first (the compiler works while the first package file packs), then the package's files, then the rest. */
const rank = (spec: TestSpecification) => {
  const file = relative(spec.project.config.root, spec.moduleId)
  return file === "test/typecheck.test.ts" ? 0 : file.startsWith("test/package/") ? 1 : 2
}

export class PackageFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const sorted = await super.sort(files)
    return [0, 1, 2].flatMap((first) => sorted.filter((spec) => rank(spec) === first))
  }
}
