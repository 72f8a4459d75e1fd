/**
 * Starts a private `redis-server` on a free loopback port for the tests that
 * share admission and the cache through Redis, and stops it afterwards. The
 * tests read its port with `inject("redisPort")`.
 *
 * A server that is missing or does not answer within 10 seconds ends the run
 * at once with one line saying what is missing and how to install it.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process"
import type { TestProject } from "vitest/node"
import { freePort, setupFailure } from "../../scripts/localServer.js"

declare module "vitest" {
  export interface ProvidedContext {
    redisPort: number
  }
}

const install = "install it with `apt-get install -y redis-server` (or `brew install redis`)"

/** Whether the server answers yet (redis-cli's complaints while it starts are not shown). */
const ping = (port: number) => {
  try {
    return execFileSync("redis-cli", ["-p", String(port), "ping"], { encoding: "utf8", timeout: 2_000, stdio: ["ignore", "pipe", "ignore"] }).trim() === "PONG"
  } catch {
    return false
  }
}

let server: ChildProcess | undefined

export default async function setup(project: TestProject) {
  for (const command of ["redis-server", "redis-cli"]) {
    if (spawnSync(command, ["--version"], { stdio: "ignore", timeout: 5_000 }).error !== undefined) {
      throw setupFailure(`${command} is not installed, and the tests of shared admission need it: ${install}`)
    }
  }
  const port = await freePort()
  const started = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: ["ignore", "ignore", "pipe"]
  })
  server = started
  let exited: string | undefined
  started.once("error", (error) => (exited = error.message))
  started.once("exit", (code, signal) => (exited = `it exited with ${signal ?? `code ${code}`}`))
  const deadline = Date.now() + 10_000
  while (!ping(port)) {
    if (exited !== undefined || Date.now() > deadline) {
      started.kill("SIGKILL")
      throw setupFailure(
        `redis-server could not be started on port ${port} (${exited ?? "no answer within 10 seconds"}); the tests of shared admission need it: ${install}`
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  project.provide("redisPort", port)
  return () => {
    server?.kill("SIGTERM")
  }
}
