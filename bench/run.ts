/**
 * `npm run bench`: every benchmark against the simulator, then an aligned
 * table on stdout and `bench/results.json` (each figure with its target and
 * whether it is met).
 *
 *   npx tsx bench/run.ts [limits] [overhead] [memory] [units] [resilience] [startup] [installed] [scans] [printing] [mirror] [keeper]
 *
 * With no names, all eleven run, in that order.
 */
import { writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import * as FullScans from "./fullScans.js"
import * as Installed from "./installed.js"
import * as Keeper from "./keeper.js"
import * as Limits from "./limits.js"
import * as Memory from "./memory.js"
import * as Mirror from "./mirror.js"
import * as Overhead from "./overhead.js"
import * as Printing from "./printing.js"
import * as Resilience from "./resilience.js"
import * as Startup from "./startup.js"
import { type Benchmark, machine, root, round, type SimulatorProcess, startSimulator, table } from "./support.js"
import type { ScanRun } from "./timedScan.js"
import * as Units from "./units.js"

const names = ["limits", "overhead", "memory", "units", "resilience", "startup", "installed", "scans", "printing", "mirror", "keeper"] as const
type Name = (typeof names)[number]
const isName = (value: string): value is Name => names.some((name) => name === value)

const asked = process.argv.slice(2)
const unknown = asked.filter((name) => !isName(name))
if (unknown.length > 0) {
  process.stderr.write(`unknown benchmark: ${unknown.join(", ")} (use ${names.join(", ")})\n`)
  process.exit(2)
}
const selected = new Set<Name>(asked.length === 0 ? names : asked.filter(isName))

const log = (line: string) => process.stderr.write(`${line}\n`)

/**
 * Writes `bench/results.json` (the machine, the load average before and
 * after, each figure with its target) and prints the table, each
 * benchmark's setup and the targets met.
 */
const report = (benchmarks: Array<Benchmark>, start: number, loadBefore: ReadonlyArray<number>) => {
  // Benchmarks in their numbered order, whatever order they ran in.
  benchmarks.sort((a, b) => Number.parseInt(a.name, 10) - Number.parseInt(b.name, 10))
  const seconds = (performance.now() - start) / 1000
  const figures = benchmarks.flatMap((b) => b.figures)
  const results = {
    machine: { ...machine(), loadAverage: { before: loadBefore.map(round), after: os.loadavg().map(round) } },
    date: new Date().toISOString(),
    totalSeconds: round(seconds),
    summary: {
      targets: figures.filter((f) => f.met !== undefined).length,
      met: figures.filter((f) => f.met === true).length,
      missed: figures.filter((f) => f.met === false).map((f) => f.name)
    },
    benchmarks
  }
  const file = path.join(root, "bench", "results.json")
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`)

  const info = results.machine
  process.stdout.write(`\n${table(benchmarks)}\n\n`)
  for (const benchmark of benchmarks) process.stdout.write(`${benchmark.name}: ${benchmark.setup}\n`)
  for (const { detail, name } of benchmarks) if (detail !== undefined) process.stdout.write(`\n${name}\n\n${detail}\n`)
  process.stdout.write("\n")
  process.stdout.write(`${results.summary.met} of ${results.summary.targets} targets met`)
  process.stdout.write(results.summary.missed.length === 0 ? "\n" : `; missed: ${results.summary.missed.join("; ")}\n`)
  process.stdout.write(`${info.cpus} × ${info.cpuModel}, ${info.memory}, Node ${info.node}; load average ${info.loadAverage.before[0]} before, ${info.loadAverage.after[0]} after\n`)
  process.stdout.write(`total ${seconds.toFixed(0)} s; written to ${path.relative(process.cwd(), file)}\n`)
}

const main = async () => {
  const start = performance.now()
  const loadBefore = os.loadavg()
  const benchmarks: Array<Benchmark> = []
  const done = (benchmark: Benchmark) => {
    benchmarks.push(benchmark)
    log(`  ${benchmark.name}: ${benchmark.seconds.toFixed(1)} s`)
  }

  let clean: ScanRun | undefined
  if (selected.has("limits")) {
    log("1. limit efficiency: a scan of 3,000 models under the contract's limits, then on an account of 20 requests a minute, time-scaled…")
    const { benchmark, scan } = await Limits.run()
    clean = scan
    done(benchmark)
  }

  if (selected.has("overhead") || selected.has("memory") || selected.has("printing")) {
    log("starting a simulator of 1,000,000 models, limits off, in its own process…")
    const simulator: SimulatorProcess = await startSimulator(["--no-limits", "--models", "1000000"])
    try {
      if (selected.has("overhead")) {
        log("2. client overhead: client (its spans by Effect's tracer, disabled, recorded), plain fetch loop and zod loop, alternating rounds with the Effect 4 edition's plain loop, floor and client under Node 22…")
        done(await Overhead.run(simulator))
      }
      if (selected.has("memory")) {
        log("3. memory: a scan of 1,000,000 models by the client and by a plain loop with a Set, each compiled and in its own process, then the Effect 4 edition's client and the same loop under Node 22, then each client with a capped heap and the Effect 3 client from source under tsx…")
        done(await Memory.run(simulator))
      }
      if (selected.has("printing")) {
        log("9. printing: CPU per page of catalog scan and of a plain fetch + JSON.parse + console.log loop…")
        done(await Printing.run(simulator))
      }
    } finally {
      await simulator.stop()
    }
  }

  if (selected.has("units")) {
    log("4. units: a full scan, then 1,000 details read twice, by the client and by a plain loop…")
    done(await Units.run())
  }

  if (selected.has("resilience")) {
    log("5. resilience cost: the scan of benchmark 1 with 15% 503s and churn…")
    done(await Resilience.run(clean))
  }

  if (selected.has("startup")) {
    log("6. startup: npm run simulator, five starts…")
    done(await Startup.run())
  }

  if (selected.has("installed")) {
    log("7. installed package: npm pack, installed into a new project; catalog --version and the memory of import('effect-catalog')…")
    done(await Installed.run())
  }

  if (selected.has("scans")) {
    log("8. full scans: 5, 30 and 120 pages under the contract's limits, unscaled, over a 40 ms network then on loopback (about 5 minutes), then 120 pages on an account of 20 requests a minute, time-scaled…")
    done(await FullScans.run())
  }

  if (selected.has("mirror")) {
    log("10. mirror: syncs of 3,000 models into SQLite and PostgreSQL against the bare scan under the account's limits, time-scaled, then of 30,000 models with limits off, each round by the Effect 3 edition and then by the Effect 4 edition under Node 22, then a sync of 1,000,000 models into SQLite by each…")
    done(await Mirror.run())
  }

  if (selected.has("keeper")) {
    log("11. keeper: the keeper's planning against the simulator's change process in a discrete-event run, two simulated days a case, beside cron, uniform, proportional and oracle policies under the same budgets…")
    done(await Keeper.run())
  }

  report(benchmarks, start, loadBefore)
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
  process.exit(1)
})
