import { describe, expect, it } from "@effect/vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { createInterface } from "node:readline"
import * as ExitCodes from "../../src/cli/ExitCodes.js"

const root = new URL("../../..", import.meta.url).pathname

interface Started {
  readonly child: ChildProcess
  readonly line: string
}

/** The simulator's process, as `npm run simulator` starts it. */
const simulator = (args: ReadonlyArray<string>, env: Readonly<Record<string, string>> = {}) =>
  spawn(process.execPath, ["--import", "tsx", "tools/src/simulator/bin.ts", ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })

/** Starts a process and waits for its first stdout line. */
const start = (child: ChildProcess): Promise<Started> =>
  new Promise((resolve, reject) => {
    if (child.stdout === null) return reject(new Error("no stdout"))
    const lines = createInterface({ input: child.stdout })
    lines.once("line", (line) => resolve({ child, line }))
    child.once("exit", (code) => reject(new Error(`exited with ${code} before printing`)))
  })

const stop = async (child: ChildProcess, signal: NodeJS.Signals) => {
  const exited = once(child, "exit")
  child.kill(signal)
  const [code] = await exited
  return code
}

const run = (
  args: ReadonlyArray<string>,
  env: Readonly<Record<string, string>> = {}
): Promise<{ readonly code: number | null; readonly stderr: string; readonly stdout: string }> =>
  new Promise((resolve) => {
    const child = simulator(args, env)
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => (stdout += chunk))
    child.stderr.on("data", (chunk) => (stderr += chunk))
    child.once("exit", (code) => resolve({ code, stderr, stdout }))
  })

interface Announcement {
  readonly base_url: string
  readonly keys: Readonly<Record<string, string>>
}

const isAnnouncement = (value: unknown): value is Announcement =>
  typeof value === "object" && value !== null && "base_url" in value && typeof value.base_url === "string" &&
  "keys" in value && typeof value.keys === "object" && value.keys !== null

describe("npm run simulator", () => {
  // How long it takes to print that line is benchmark 6 (`npm run bench startup`).
  it("prints its line when started through npm", async () => {
    const child = spawn("npm", ["run", "--silent", "simulator", "--", "--port", "0"], { cwd: root, stdio: ["ignore", "pipe", "pipe"], detached: true })
    const { line } = await start(child)
    const exited = once(child, "exit")
    if (child.pid !== undefined) process.kill(-child.pid, "SIGTERM")
    await exited
    expect(isAnnouncement(JSON.parse(line))).toBe(true)
  })

  it("prints one JSON line with its base URL and keys, serves, and stops cleanly on SIGTERM", async () => {
    const { child, line } = await start(simulator(["--port", "0", "--models", "500", "--seed", "3"]))
    try {
      const announcement: unknown = JSON.parse(line)
      if (!isAnnouncement(announcement)) throw new Error(`unexpected line: ${line}`)
      expect(announcement.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/)
      expect(Object.keys(announcement.keys).sort()).toEqual(["full", "models_only", "no_content", "revoked"])
      const stats = await fetch(`${announcement.base_url}/stats/`, { headers: { authorization: `Bearer ${announcement.keys.full}` } })
      expect(stats.status).toBe(200)
      expect(await stats.json()).toMatchObject({ data: { models: 500 } })
      const models = await fetch(`${announcement.base_url}/models/?limit=3`, { headers: { authorization: `Bearer ${announcement.keys.models_only}` } })
      expect(models.status).toBe(200)
      const refused = await fetch(`${announcement.base_url}/models/`, { headers: { authorization: `Bearer ${announcement.keys.revoked}` } })
      expect(refused.status).toBe(401)
    } finally {
      expect(await stop(child, "SIGTERM")).toBe(0)
    }
  })

  it("stops cleanly on SIGINT too", async () => {
    const { child } = await start(simulator(["--port", "0"]))
    expect(await stop(child, "SIGINT")).toBe(0)
  })

  it("applies the time scale, limits and faults given on the command line", async () => {
    const { child, line } = await start(simulator(["--port", "0", "--time-scale", "0.01", "--per-ten-seconds", "2", "--faults", "slow=0"]))
    try {
      const announcement: unknown = JSON.parse(line)
      if (!isAnnouncement(announcement)) throw new Error(`unexpected line: ${line}`)
      const get = () => fetch(`${announcement.base_url}/stats/`, { headers: { authorization: `Bearer ${announcement.keys.full}` } })
      expect((await get()).status).toBe(200)
      expect((await get()).status).toBe(200)
      const limited = await get()
      expect(limited.status).toBe(429)
      expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(0.1)
    } finally {
      await stop(child, "SIGTERM")
    }
  })

  // Every refusal in its words is a test of the catalog command (test/cli/messages.test.ts): this entry is the same program.
  it("refuses a bad option as the catalog command does: one line in words that name it, exit code 2, nothing on stdout", async () => {
    const refusals: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
      [
        ["--faults", "unavailble=0.5"],
        "--faults unavailble=0.5: unknown fault \"unavailble\"; did you mean `unavailable`? (faults: unavailable, drop, slow, slow-ms, expire)"
      ],
      [["--faults", "unavailable=2"], "--faults unavailable=2: a fault's rate is a number from 0 to 1"],
      [["--time-scale", "0"], "--time-scale 0: the time scale must be more than 0"]
    ]
    const results = await Promise.all(refusals.map(([args]) => run(args)))
    for (const [index, [args, detail]] of refusals.entries()) {
      const result = results[index]
      expect(result?.stderr, args.join(" ")).toBe(`catalog: UsageError: ${detail}\n`)
      expect(result?.stdout).toBe("")
      expect(result?.code).toBe(ExitCodes.usage)
    }
  }, 120_000)

  it("--help is the command's help: plain text, no escape sequence, in a pipe and with NO_COLOR", async () => {
    const [piped, colourless] = await Promise.all([run(["--help"]), run(["--help"], { NO_COLOR: "1" })])
    expect(piped.code).toBe(0)
    expect(piped.stdout).toMatch(/^Usage: catalog simulator \[options\]\n/)
    expect(piped.stdout).toContain("--faults")
    expect(piped.stdout).not.toContain("\u001b")
    expect(colourless.stdout).toBe(piped.stdout)
  }, 60_000)
})
