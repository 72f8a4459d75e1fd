/**
 * Where the CPU of the Effect 4 edition's rows of benchmark 2 goes, one way
 * at a time, under Node 22:
 *
 *   CATALOG_BENCH_KEY=<key> node --import tsx bench/profile.ts <base_url> <client|floor> [scans] [profile.cpuprofile]
 *
 * (from effect4/, against a simulator with limits off). It scans the first
 * 3,000 models at page size 100 `scans` times (30 by default) the way named,
 * as `overhead-child.ts` does, and prints the CPU per 100-item page of the
 * last two thirds (the first third warms the JIT up) as one JSON line. Given
 * a file, it writes V8's CPU profile of those last two thirds alone to it
 * (sampled every 100 µs), without the loading of modules and the warm-up that
 * `node --cpu-prof` would also record.
 */
import { writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { measure, models, pageSize, type Sample } from "../../bench/overheadScan.js"
import { clientScan, clientsOf, floorScan, targetOf } from "./scans.js"

const main = async () => {
  const target = targetOf("profile.ts")
  const [, way = "client", count = "30", file] = process.argv.slice(2)
  if (way !== "client" && way !== "floor") throw new Error(`unknown way: ${way} (use client or floor)`)
  const scans = Number(count)
  const warmup = Math.floor(scans / 3)
  const clients = await clientsOf(target)
  const session = new Session()
  session.connect()
  await session.post("Profiler.enable")
  await session.post("Profiler.setSamplingInterval", { interval: 100 })
  const samples: Array<Sample> = []
  for (let scan = 0; scan < scans; scan++) {
    if (scan === warmup && file !== undefined) await session.post("Profiler.start")
    samples.push(way === "client" ? await clientScan(clients.layer) : await measure(floorScan(clients.http, target)))
  }
  if (file !== undefined) writeFileSync(file, JSON.stringify((await session.post("Profiler.stop")).profile))
  session.disconnect()
  await clients.close()
  const counted = samples.slice(warmup)
  const cpuMicros = counted.reduce((sum, s) => sum + s.cpuMicros, 0)
  const pages = counted.reduce((sum, s) => sum + s.items, 0) / pageSize
  process.stdout.write(`${JSON.stringify({ way, scans, models, pages, cpuPerPageMs: cpuMicros / 1000 / pages })}\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(`profile: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
  process.exit(1)
})
