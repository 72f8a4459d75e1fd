/**
 * What the benchmarks share: figures and their targets, the machine, the
 * table, and processes: a simulator in its own process, the first line of a
 * process, and `node` runs.
 */
import { Schema } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import os from "node:os"
import path from "node:path"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"

/** The repository's root: every process is started from there. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")

// Figures ---------------------------------------------------------------------

/** A goal for a figure, and how to check a value against it. */
export interface Target {
  readonly text: string
  readonly check: (value: number) => boolean
}

export const atLeast = (bound: number, unit = ""): Target => ({ text: `>= ${bound}${unit}`, check: (value) => value >= bound })
export const atMost = (bound: number, unit = ""): Target => ({ text: `<= ${bound}${unit}`, check: (value) => value <= bound })
export const exactly = (expected: number, unit = ""): Target => ({ text: `= ${expected}${unit}`, check: (value) => value === expected })

/** One measured figure, as written to results.json. */
export interface Figure {
  readonly name: string
  readonly value: number
  readonly unit: string
  readonly target?: string
  readonly met?: boolean
  readonly note?: string
}

export interface Benchmark {
  readonly name: string
  /** How it was run: sizes, scales, processes. */
  readonly setup: string
  readonly seconds: number
  readonly figures: ReadonlyArray<Figure>
}

/** A figure, checked against its target when it has one. */
export const figure = (name: string, value: number, unit: string, target?: Target, note?: string): Figure => ({
  name,
  value: round(value),
  unit,
  ...(target === undefined ? {} : { target: target.text, met: target.check(value) }),
  ...(note === undefined ? {} : { note })
})

/** Four significant digits are plenty for a benchmark. */
export const round = (value: number): number =>
  Number.isFinite(value) && value !== 0 ? Number(value.toPrecision(Math.max(4, Math.ceil(Math.log10(Math.abs(value))) + 1))) : value

export const megabytes = (bytes: number): number => bytes / (1024 * 1024)

// The machine -----------------------------------------------------------------

export interface Machine {
  readonly cpus: number
  readonly cpuModel: string
  readonly memory: string
  readonly node: string
  readonly platform: string
}

export const machine = (): Machine => ({
  cpus: os.availableParallelism(),
  cpuModel: os.cpus()[0]?.model ?? "unknown",
  memory: `${Math.round(os.totalmem() / 1024 ** 3)} GiB`,
  node: process.version,
  platform: `${os.platform()} ${os.release()} ${os.arch()}`
})

// The table -------------------------------------------------------------------

const show = (value: number): string => value.toLocaleString("en-US", { maximumFractionDigits: 4 })

/** Every figure of every benchmark, in aligned columns. */
export const table = (benchmarks: ReadonlyArray<Benchmark>): string => {
  const rows: Array<ReadonlyArray<string>> = [["benchmark", "figure", "value", "unit", "target", "met"]]
  for (const benchmark of benchmarks) {
    benchmark.figures.forEach((f, index) => {
      rows.push([
        index === 0 ? benchmark.name : "",
        f.name,
        show(f.value),
        f.unit,
        f.target ?? "",
        f.met === undefined ? "" : f.met ? "yes" : "NO"
      ])
    })
  }
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length))) ?? []
  const numeric = new Set([2])
  const line = (row: ReadonlyArray<string>) =>
    row.map((cell, column) => numeric.has(column) ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0)).join("  ").trimEnd()
  const [header, ...body] = rows
  return [line(header ?? []), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n")
}

// A simulator in its own process ----------------------------------------------

const Announcement = Schema.parseJson(Schema.Struct({
  base_url: Schema.String,
  keys: Schema.Struct({ full: Schema.String })
}))

export interface SimulatorProcess {
  readonly baseUrl: string
  readonly key: string
  /** Stops the process and waits for it to exit. */
  readonly stop: () => Promise<void>
}

/** Waits for a process to exit (at once when it already has). */
export const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once("exit", () => resolve()))

/** The first line a process writes to its standard output; fails if it exits first. */
export const firstLine = (child: ChildProcess): Promise<string> =>
  new Promise((resolve, reject) => {
    if (child.stdout === null) return reject(new Error("the process has no standard output"))
    createInterface({ input: child.stdout }).once("line", resolve)
    child.once("error", reject)
    child.once("exit", (code) => reject(new Error(`the process exited (${code ?? "signal"}) before its first line`)))
  })

/**
 * `node --import tsx src/simulator/bin.ts --port 0 <args>`, once it has
 * printed the line with its base URL and keys.
 */
export const startSimulator = async (args: ReadonlyArray<string>): Promise<SimulatorProcess> => {
  const child = spawn(process.execPath, ["--import", "tsx", "src/simulator/bin.ts", "--port", "0", ...args], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"]
  })
  try {
    const { base_url, keys } = Schema.decodeUnknownSync(Announcement)(await firstLine(child))
    return {
      baseUrl: base_url,
      key: keys.full,
      stop: () => {
        child.kill("SIGTERM")
        return exited(child)
      }
    }
  } catch (error) {
    child.kill("SIGTERM")
    throw error
  }
}

/** Runs `node <args>` from the root and gives its standard output once it exits with 0 (and with the error otherwise). */
export const runNode = (args: ReadonlyArray<string>): Promise<string> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args], { cwd: root, stdio: ["ignore", "pipe", "inherit"] })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")))
    child.once("error", reject)
    child.once("exit", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`node ${args.join(" ")} exited with ${code ?? "a signal"}${output === "" ? "" : `:\n${output}`}`))
    )
  })

/** Seconds since `start` (from `performance.now()`). */
export const secondsSince = (start: number): number => (performance.now() - start) / 1000

/** The median of some numbers. */
export const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] ?? Number.NaN : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2
}
