/**
 * 9. Printing: CPU per 100-item page of `catalog scan models --no-limits`
 * (the built command, under plain `node`) against a plain `fetch` +
 * `JSON.parse` + `console.log` loop, on the same simulator without limits,
 * output to /dev/null. Each program scans 50, 200 and 1,000 pages; the
 * differences of their CPU times cancel what starting costs. Pages 50 to
 * 200 still pay for the JIT compiling the client's code; pages 200 to
 * 1,000, a long scan's steady state, carry the target.
 *
 * The command checks every page it prints: each number must be one
 * `JSON.parse` holds exactly (a scan of the body's text), each item's fields
 * of the types its schema gives them on the wire. What these checks cost is
 * measured apart, in this process, on a real page of the same simulator,
 * next to `JSON.parse` of that page.
 */
import { spawn } from "node:child_process"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import path from "node:path"
import * as ExactJson from "../rules/src/client/ExactJson.js"
import * as WireCheck from "../src/client/internal/WireCheck.js"
import { Model } from "../common/src/contract/Resources.js"
import { get } from "./plain.js"
import { atMost, type Benchmark, figure, median, root, runNode, secondsSince, type SimulatorProcess } from "./support.js"

const pageSize = 100
const sizes = { small: 50, medium: 200, large: 1_000 }
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

/** Microseconds per call of `work`, median of rounds of many calls, after a warm-up as long as a round. */
const microseconds = (work: () => unknown): number => {
  const calls = 2_000
  const round = () => {
    const start = performance.now()
    for (let call = 0; call < calls; call++) work()
    return ((performance.now() - start) * 1000) / calls
  }
  round()
  return median(Array.from({ length: 5 }, round))
}

/** What the wire path's checks cost on one page of models, next to parsing it. */
const checks = async (simulator: SimulatorProcess) => {
  const body = await (await get(`${simulator.baseUrl}/models/?limit=${pageSize}`, simulator.key)).text()
  const page: unknown = JSON.parse(body)
  const items: ReadonlyArray<unknown> = typeof page === "object" && page !== null && "data" in page && Array.isArray(page.data) ? page.data : []
  const check = WireCheck.checker(Model)
  return {
    parse: microseconds(() => JSON.parse(body)),
    numbers: microseconds(() => ExactJson.firstInexact(body)),
    fields: microseconds(() => items.every((item) => check(item) === undefined))
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
    cpuSeconds(
      [process.execPath, path.join("dist", "bin", "catalog.js"), "scan", "models", "--no-limits", "--max", String(pages * pageSize), "--retries", "0"],
      env
    )
  const plain = (pages: number) =>
    cpuSeconds([process.execPath, "--import", "tsx", path.join("bench", "plain-print.ts"), simulator.baseUrl, simulator.key, String(pages * pageSize)], env)
  /** Milliseconds of CPU per page from `small` to `medium` pages and from `medium` to `large`, medians of the rounds. */
  const perPage = async (program: (pages: number) => Promise<number>) => {
    const warming: Array<number> = []
    const steady: Array<number> = []
    for (let round = 0; round < rounds; round++) {
      const [small, medium, large] = [await program(sizes.small), await program(sizes.medium), await program(sizes.large)]
      warming.push((medium - small) / (sizes.medium - sizes.small))
      steady.push((large - medium) / (sizes.large - sizes.medium))
    }
    return { warming: median(warming) * 1000, steady: median(steady) * 1000 }
  }
  const catalogMillis = await perPage(catalog)
  const plainMillis = await perPage(plain)
  const checked = await checks(simulator)
  await rm(state, { recursive: true, force: true })
  return {
    name: "9. printing",
    setup:
      `catalog scan models --no-limits (dist/bin, plain node) and a plain fetch + JSON.parse + console.log loop (bench/plain-print.ts), each scanning ${sizes.small}, ${sizes.medium} and ${sizes.large} pages of ${pageSize} from a simulator of 1,000,000 models without limits, output to /dev/null; CPU (user + system, GNU time) of the pages between, median of ${rounds}; the checks and JSON.parse of one page timed in this process, median of 5 rounds of 2,000 calls`,
    seconds: secondsSince(start),
    figures: [
      figure(`catalog scan: CPU per page, pages ${sizes.small} to ${sizes.medium}`, catalogMillis.warming, "ms"),
      figure(`plain loop: CPU per page, pages ${sizes.small} to ${sizes.medium}`, plainMillis.warming, "ms"),
      figure(`catalog scan / plain loop, pages ${sizes.small} to ${sizes.medium} (JIT warming up)`, catalogMillis.warming / plainMillis.warming, "ratio"),
      figure(`catalog scan: CPU per page, pages ${sizes.medium} to ${sizes.large}`, catalogMillis.steady, "ms"),
      figure(`plain loop: CPU per page, pages ${sizes.medium} to ${sizes.large}`, plainMillis.steady, "ms"),
      figure(`catalog scan / plain loop, pages ${sizes.medium} to ${sizes.large}`, catalogMillis.steady / plainMillis.steady, "ratio", atMost(1.5)),
      figure(`a page of ${pageSize} models: JSON.parse`, checked.parse, "µs"),
      figure(`a page of ${pageSize} models: its numbers checked exact (ExactJson)`, checked.numbers, "µs"),
      figure(`a page of ${pageSize} models: its items' fields checked (WireCheck)`, checked.fields, "µs"),
      figure(
        `both checks' share of the command's CPU per page, pages ${sizes.medium} to ${sizes.large}`,
        (checked.numbers + checked.fields) / (catalogMillis.steady * 1000),
        "ratio"
      )
    ]
  }
}
