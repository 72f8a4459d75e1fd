/**
 * Vitest's global setup: bundles the simulator's standalone form to the
 * path both editions' `Simulator` imports it from, so that every test file,
 * example and README block starts the simulator the package ships; and
 * bundles the `catalog` command (the tools, as each package ships it) into
 * a scratch folder for the tests that run it (`inject("catalogCommand")`).
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { TestProject } from "vitest/node"
import { bundleCommand, bundleStandaloneSimulator } from "../../../scripts/bundle.js"

declare module "vitest" {
  export interface ProvidedContext {
    catalogCommand: string
  }
}

export default async function setup(project: TestProject) {
  await bundleStandaloneSimulator()
  const scratch = fileURLToPath(new URL("../../../.tmp", import.meta.url))
  await mkdir(scratch, { recursive: true })
  const outdir = await mkdtemp(join(scratch, "command-"))
  project.provide("catalogCommand", await bundleCommand(outdir))
  return () => rm(outdir, { recursive: true, force: true })
}
