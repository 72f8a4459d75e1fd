/**
 * Vitest's global setup: the simulator's standalone form bundled where both
 * editions' `Simulator` imports it from, so that every test file, example
 * and README block starts the simulator the package ships; and the
 * `catalog` command bundled from the sources, as `npm run build` ships it,
 * for the tests that run it as a process (`inject("catalogCommand")`; a
 * bundle starts in a fraction of the time the sources take under a
 * TypeScript loader).
 */
import type { TestProject } from "vitest/node"
import { bundleForTestRun } from "../../scripts/bundle.js"

declare module "vitest" {
  export interface ProvidedContext {
    catalogCommand: string
  }
}

export default async function setup(project: TestProject) {
  const { command, remove } = await bundleForTestRun()
  project.provide("catalogCommand", command)
  return remove
}
