/**
 * Child processes of the tests: run a command to its end and collect what it
 * printed, in an environment without vitest's or npm's own variables
 * (`cleanEnv`). An interrupted run kills its process.
 */
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { createInterface } from "node:readline"
import { cleanEnv } from "../../scripts/cleanEnv.js"

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
) =>
  Effect.async<Ran>((resume) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? cleanEnv(), stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => (stdout += chunk))
    child.stderr.on("data", (chunk) => (stderr += chunk))
    child.once("error", (error) => resume(Effect.succeed({ code: null, stdout, stderr: `${stderr}${error.message}` })))
    child.once("close", (code) => resume(Effect.succeed({ code, stdout, stderr })))
    return Effect.sync(() => child.kill("SIGKILL"))
  })

/** Runs `node ...args` in `cwd` to its end. */
export const runNode = (args: ReadonlyArray<string>, options: { readonly cwd: string; readonly env?: NodeJS.ProcessEnv }) =>
  run(process.execPath, args, options)

/**
 * Starts `command ...args` for the life of the scope and gives its first line
 * of stdout (a server announcing where it listens); the process is killed
 * when the scope closes. Fails if it exits before printing a line.
 */
export const startedLine = (
  command: string,
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly env?: NodeJS.ProcessEnv }
) =>
  Effect.acquireRelease(
    Effect.sync(() => spawn(command, args, { cwd: options.cwd, env: options.env ?? cleanEnv(), stdio: ["ignore", "pipe", "pipe"] })),
    (child) => Effect.sync(() => child.kill("SIGKILL"))
  ).pipe(
    Effect.flatMap((child) =>
      Effect.async<string, Error>((resume) => {
        let stderr = ""
        child.stderr.on("data", (chunk) => (stderr += chunk))
        createInterface({ input: child.stdout }).once("line", (line) => resume(Effect.succeed(line)))
        child.once("error", (error) => resume(Effect.fail(error)))
        child.once("exit", (code) => resume(Effect.fail(new Error(`${command} exited with ${code} before printing a line\n${stderr}`))))
      })
    )
  )
