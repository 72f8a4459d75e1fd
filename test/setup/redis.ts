/**
 * Starts a private `redis-server` on a free loopback port for the tests that
 * share admission through Redis, and stops it afterwards. The tests read its
 * port with `inject("redisPort")`.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { createServer } from "node:net"
import type { TestProject } from "vitest/node"

declare module "vitest" {
  export interface ProvidedContext {
    redisPort: number
  }
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

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
  const port = await freePort()
  server = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" })
  server.once("error", (error) => {
    throw new Error(`redis-server could not be started (install it: apt-get install -y redis-server): ${error.message}`)
  })
  const deadline = Date.now() + 10_000
  while (!ping(port)) {
    if (Date.now() > deadline) throw new Error("redis-server did not answer within 10 seconds")
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  project.provide("redisPort", port)
  return () => {
    server?.kill("SIGTERM")
  }
}
