/**
 * A private `redis-server` for the tests and benchmarks of shared
 * admission: on a free loopback port, without persistence, stopped
 * afterwards. A server that is missing or does not answer within 10
 * seconds is an error of one line saying what is missing and how to
 * install it.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process"
import { freePort, setupFailure } from "./localServer.js"

const install = "install it with `apt-get install -y redis-server` (or `brew install redis`)"

/** Whether the server answers yet (redis-cli's complaints while it starts are not shown). */
const ping = (port: number) => {
  try {
    return execFileSync("redis-cli", ["-p", String(port), "ping"], { encoding: "utf8", timeout: 2_000, stdio: ["ignore", "pipe", "ignore"] }).trim() === "PONG"
  } catch {
    return false
  }
}

/** A running private server: its port, and how to stop it. */
export interface Server {
  readonly port: number
  readonly url: string
  readonly stop: () => Promise<void>
}

/**
 * Starts a private Redis, or fails with one line saying what is missing and
 * how to install it; `purpose` says who needs it.
 */
export const startRedis = async (purpose: string): Promise<Server> => {
  for (const command of ["redis-server", "redis-cli"]) {
    if (spawnSync(command, ["--version"], { stdio: "ignore", timeout: 5_000 }).error !== undefined) {
      throw setupFailure(`${command} is not installed, and ${purpose}: ${install}`)
    }
  }
  const port = await freePort()
  const server = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: ["ignore", "ignore", "pipe"]
  })
  let exited: string | undefined
  server.once("error", (error) => (exited = error.message))
  server.once("exit", (code, signal) => (exited = `it exited with ${signal ?? `code ${code}`}`))
  const deadline = Date.now() + 10_000
  while (!ping(port)) {
    if (exited !== undefined || Date.now() > deadline) {
      server.kill("SIGKILL")
      throw setupFailure(`redis-server could not be started on port ${port} (${exited ?? "no answer within 10 seconds"}); ${purpose}: ${install}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (server.exitCode !== null || server.signalCode !== null) return resolve()
        server.once("exit", () => resolve())
        server.kill("SIGTERM")
      })
  }
}
