/**
 * 9. Printing: CPU per 100-item page of `catalog scan models` (the built
 * command, under plain `node`) against a plain `fetch` + `JSON.parse` +
 * `console.log` loop, on the same simulator without limits, output to
 * /dev/null. Each program scans 50 and then 200 pages; the difference of
 * their CPU times over the 150 pages between cancels what starting costs.
 */
import { spawn } from "node:child_process"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import path from "node:path"
import { atMost, type Benchmark, figure, median, root, runNode, secondsSince, type SimulatorProcess } from "./support.js"

const pageSize = 100
const small = 50
const large = 200
const rounds = 3

/** CPU seconds (user + system) of a command, from GNU time, its output discarded. */
const cpuSeconds = async (command: ReadonlyArray<string>, env: NodeJS.ProcessEnv): Promise<number> => {
  const dir = await mkdtemp(path.join(tmpdir(), "catalog-bench-"))
  try {
    const report = path.join(dir, "time")
    await new Promise<void>((resolve, reject) => {
      const child = spawn("/usr/bin/time", ["-f", "%U %S", "-o", report, ...command], { cwd: root, env, stdio: ["ignore", "ignore", "inherit"] })
      child.once("error", reject)
      child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command.join(" ")} exited with ${code}`))))
    })
    const [user = 0, system = 0] = (await readFile(report, "utf8")).trim().split(/\s+/).map(Number)
    return user + system
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

export const run = async (simulator: SimulatorProcess): Promise<Benchmark> => {
  const start = performance.now()
  await runNode(["--import", "tsx", path.join("scripts", "build.ts")])
  const state = await mkdtemp(path.join(tmpdir(), "catalog-state-"))
  // The simulator enforces no limits; the command's windows shrink to nothing too.
  const env = {
    ...process.env,
    CATALOG_BASE_URL: simulator.baseUrl,
    CATALOG_API_KEY: simulator.key,
    CATALOG_TIME_SCALE: "0.000001",
    CATALOG_STATE_DIR: state,
    NO_COLOR: "1"
  }
  const catalog = (pages: number) =>
    cpuSeconds([process.execPath, path.join("dist", "bin", "catalog.js"), "scan", "models", "--max", String(pages * pageSize), "--retries", "0"], env)
  const plain = (pages: number) =>
    cpuSeconds([process.execPath, "--import", "tsx", path.join("bench", "plain-print.ts"), simulator.baseUrl, simulator.key, String(pages * pageSize)], env)
  const perPage = async (program: (pages: number) => Promise<number>) => {
    const marginal: Array<number> = []
    for (let round = 0; round < rounds; round++) marginal.push(((await program(large)) - (await program(small))) / (large - small))
    return median(marginal) * 1000
  }
  const catalogMillis = await perPage(catalog)
  const plainMillis = await perPage(plain)
  await rm(state, { recursive: true, force: true })
  return {
    name: "9. printing",
    setup:
      `catalog scan models (dist/bin, plain node) and a plain fetch + JSON.parse + console.log loop (bench/plain-print.ts), each scanning ${small} and ${large} pages of ${pageSize} from a simulator of 1,000,000 models without limits, output to /dev/null; CPU (user + system, GNU time) of the ${large - small} pages between, median of ${rounds}`,
    seconds: secondsSince(start),
    figures: [
      figure("catalog scan: CPU per page", catalogMillis, "ms"),
      figure("plain loop: CPU per page", plainMillis, "ms"),
      figure("catalog scan / plain loop", catalogMillis / plainMillis, "ratio", atMost(1.5))
    ]
  }
}
