/**
 * The order the test files start in: those of the installed package
 * (`test/package/`, which pack, install and typecheck it, the longest of the
 * run) first, then vitest's own order (the files slowest last time first when
 * it remembers, the largest first when it does not, as on CI). A long file
 * started last would keep one worker busy after the others are done.
 *
 * @example
 * export default defineConfig({ test: { sequence: { sequencer: PackageFirst } } })
 */
import { relative } from "node:path"
import { BaseSequencer, type TestSpecification } from "vitest/node"

const isPackageTest = (spec: TestSpecification) => relative(spec.project.config.root, spec.moduleId).startsWith("test/package/")

export class PackageFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const sorted = await super.sort(files)
    return [...sorted.filter(isPackageTest), ...sorted.filter((spec) => !isPackageTest(spec))]
  }
}
