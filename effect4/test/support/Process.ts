/**
 * Child processes of the tests: run a command to its end and collect what it
 * printed, in an environment without vitest's or npm's own variables
 * (`cleanEnv`). An interrupted run kills its process.
 */
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { cleanEnv } from "../../../scripts/cleanEnv.js"

/**
 * Node's flag under which the repository's `#edition/*`, the imports of the
 * modules both editions share (`common/src`), name this edition's sources.
 */
export const editionCondition = "--conditions=effect4"

/** What a finished process printed, and its exit code. */
export interface Ran {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs `command ...args` in `cwd` to its end. */
export const run = (
  command: string,
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly env?: NodeJS.ProcessEnv }
): Effect.Effect<Ran> =>
  Effect.callback<Ran>((resume) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? cleanEnv(), stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => (stdout += chunk))
    child.stderr.on("data", (chunk) => (stderr += chunk))
    child.once("error", (error) => resume(Effect.succeed({ code: null, stdout, stderr: `${stderr}${error.message}` })))
    child.once("close", (code) => resume(Effect.succeed({ code, stdout, stderr })))
    return Effect.sync(() => child.kill("SIGKILL"))
  })

/** Runs `node ...args` (this process's Node) in `cwd` to its end. */
export const runNode = (args: ReadonlyArray<string>, options: { readonly cwd: string; readonly env?: NodeJS.ProcessEnv }) =>
  run(process.execPath, args, options)
