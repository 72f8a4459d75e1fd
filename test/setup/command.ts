/**
 * Bundles the `catalog` command from the sources, as `npm run build` ships
 * it, into a temporary folder of the repository (where it finds the
 * repository's `node_modules`, as an installed command finds its package's)
 * for the tests that run it as a process; they read its path with
 * `inject("catalogCommand")`. A bundle starts in a fraction of the time the
 * sources take under a TypeScript loader.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { TestProject } from "vitest/node"
import { bundleCommand } from "../../scripts/bundle.js"

declare module "vitest" {
  export interface ProvidedContext {
    catalogCommand: string
  }
}

export default async function setup(project: TestProject) {
  const scratch = fileURLToPath(new URL("../../.tmp", import.meta.url))
  await mkdir(scratch, { recursive: true })
  const outdir = await mkdtemp(join(scratch, "command-"))
  project.provide("catalogCommand", await bundleCommand(outdir))
  return () => rm(outdir, { recursive: true, force: true })
}
