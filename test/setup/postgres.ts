/**
 * Starts a private PostgreSQL server (`scripts/postgres.ts`) for the tests of
 * the mirror, and stops it afterwards. The tests read its address with
 * `inject("postgresUrl")` and create databases of their own in it. A server
 * that cannot start ends the run at once with one line saying what is
 * missing and how to install it.
 */
import type { TestProject } from "vitest/node"
import { startPostgres } from "../../scripts/postgres.js"

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string
  }
}

export default async function setup(project: TestProject) {
  const server = await startPostgres("the tests of the mirror need it")
  project.provide("postgresUrl", server.url)
  return server.stop
}
