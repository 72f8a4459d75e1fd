/**
 * A folder for the package packed once for the whole run, shared by the test
 * files that install it (`test/support/Packed.ts`); they read its path with
 * `inject("packedFolder")`. Nothing is packed here: a run without those files
 * does not pay for it.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { TestProject } from "vitest/node"

declare module "vitest" {
  export interface ProvidedContext {
    packedFolder: string
  }
}

export default async function setup(project: TestProject) {
  const scratch = fileURLToPath(new URL("../../.tmp", import.meta.url))
  await mkdir(scratch, { recursive: true })
  const folder = await mkdtemp(join(scratch, "packed-"))
  project.provide("packedFolder", folder)
  return () => rm(folder, { recursive: true, force: true })
}
