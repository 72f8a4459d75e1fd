/**
 * Vitest's global setup, as the Effect 3 edition's (`test/setup/bundles.ts`):
 * the simulator's standalone form bundled where both editions' `Simulator`
 * imports it from, and the `catalog` command bundled for the tests that run
 * it (`inject("catalogCommand")`).
 */
import type { TestProject } from "vitest/node"
import { bundleForTestRun } from "../../../scripts/bundle.js"

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
