/**
 * 10. Mirror: the throughput of `Mirror.sync` into a new SQLite file and
 * into a new PostgreSQL database (a private server, `scripts/postgres.ts`)
 * against the bare scan of the same items (`CatalogClient.wire`, the wire
 * items the mirror stores, written nowhere), limits off, 30,000 models, in
 * alternating rounds on one simulator; and the peak RSS of a sync of
 * 1,000,000 models into SQLite, compiled and alone in its process
 * (`bench/mirror-child.ts`), after 10,000 items and at the end.
 */
import { Effect, Schema, Stream } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { databaseUrl, runOn, startPostgres } from "../scripts/postgres.js"
import { Admission, CatalogClient } from "../src/index.js"
import { Mirror, MirrorDatabase } from "../src/mirror/index.js"
import { clientOf } from "./client.js"
import { cappedHeap } from "./memory.js"
import { atLeast, atMost, type Benchmark, figure, median, megabytes, runNode, secondsSince, type SimulatorProcess, startSimulator } from "./support.js"

const models = 30_000
const rounds = 3

const Report = Schema.parseJson(Schema.Struct({
  items: Schema.Number,
  seconds: Schema.Number,
  samples: Schema.Array(Schema.Struct({ items: Schema.Number, peakRss: Schema.Number, heapUsed: Schema.Number }))
}))

/** Items per second of one run of `program`. */
const rate = async (program: Effect.Effect<number, unknown>) => {
  const start = performance.now()
  const items = await Effect.runPromise(program)
  if (items !== models) throw new Error(`expected ${models} items, got ${items}`)
  return items / secondsSince(start)
}

const throughput = async (simulator: SimulatorProcess, postgresUrl: string) => {
  const client = clientOf(simulator.baseUrl, simulator.key, { limits: Admission.noLimits })
  const bare = Effect.flatMap(CatalogClient.CatalogClient, (catalog) => Stream.runCount(catalog.wire("models", {}))).pipe(Effect.provide(client))
  const synced = (database: string) => Mirror.sync("models").pipe(Stream.runCount, Effect.provide(MirrorDatabase.layerFrom(database)), Effect.provide(client))
  const directory = mkdtempSync(path.join(tmpdir(), "bench-mirror-"))
  const rates = { bare: [] as Array<number>, sqlite: [] as Array<number>, postgres: [] as Array<number> }
  try {
    for (let round = 0; round <= rounds; round++) {
      const sample = {
        bare: await rate(bare),
        sqlite: await rate(synced(path.join(directory, `round-${round}.sqlite`))),
        postgres: await rate(
          Effect.zipRight(runOn(postgresUrl, `CREATE DATABASE bench_${round}`), synced(databaseUrl(postgresUrl, `bench_${round}`)))
        )
      }
      // Round 0 warms the JIT and the servers; it is not counted.
      if (round > 0) for (const name of ["bare", "sqlite", "postgres"] as const) rates[name].push(sample[name])
    }
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
  return { bare: median(rates.bare), sqlite: median(rates.sqlite), postgres: median(rates.postgres) }
}

const memory = async (simulator: SimulatorProcess, flags: ReadonlyArray<string>) => {
  const directory = mkdtempSync(path.join(tmpdir(), "bench-mirror-"))
  try {
    const child = path.join(".tmp", "bench-memory", "bench", "mirror-child.js")
    const output = await runNode(["--expose-gc", ...flags, child, simulator.baseUrl, simulator.key, path.join(directory, "catalog.sqlite")])
    return Schema.decodeUnknownSync(Report)(output.trim().split("\n").pop() ?? "")
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
}

export const run = async (): Promise<Benchmark> => {
  const start = performance.now()
  const postgres = await startPostgres("benchmark 10 (mirror) needs it")
  const small = await startSimulator(["--no-limits", "--models", String(models)])
  let rates: Awaited<ReturnType<typeof throughput>>
  try {
    rates = await throughput(small, postgres.url)
  } finally {
    await small.stop()
    await postgres.stop()
  }
  const large = await startSimulator(["--no-limits", "--models", "1000000"])
  let synced: Awaited<ReturnType<typeof memory>>
  let capped: Awaited<ReturnType<typeof memory>>
  try {
    await runNode([path.join("node_modules", "typescript", "bin", "tsc"), "-p", path.join("bench", "tsconfig.memory.json")])
    synced = await memory(large, [])
    capped = await memory(large, cappedHeap)
  } finally {
    await large.stop()
  }
  const at10k = synced.samples[0]?.peakRss ?? Number.NaN
  const atEnd = synced.samples.at(-1)?.peakRss ?? Number.NaN
  const cappedAt10k = capped.samples[0]?.peakRss ?? Number.NaN
  const cappedAtEnd = capped.samples.at(-1)?.peakRss ?? Number.NaN
  return {
    name: "10. mirror",
    setup: `Mirror.sync of ${models.toLocaleString("en")} models into a new SQLite file and a new PostgreSQL database against the bare scan of the same wire items, limits off, median of ${rounds} rounds after a warm-up; then a sync of 1,000,000 models into SQLite, compiled, alone in its process, with default V8 flags and with a capped heap`,
    seconds: secondsSince(start),
    figures: [
      figure("bare scan", rates.bare, "items/s"),
      figure("sync into SQLite", rates.sqlite, "items/s"),
      figure("sync into PostgreSQL", rates.postgres, "items/s"),
      figure("SQLite / bare scan", rates.sqlite / rates.bare, "ratio", atLeast(0.8)),
      figure("PostgreSQL / bare scan", rates.postgres / rates.bare, "ratio", atLeast(0.8)),
      figure("peak RSS after 10,000 items", megabytes(at10k), "MB"),
      figure(`peak RSS after ${synced.items.toLocaleString("en")} items`, megabytes(atEnd), "MB"),
      figure("1,000,000 / 10,000 peak RSS", atEnd / at10k, "ratio", atMost(1.1), `${synced.seconds.toFixed(0)} s for the 1,000,000-item sync`),
      figure("live heap after 10,000 / all items", megabytes(synced.samples[0]?.heapUsed ?? Number.NaN), "MB", undefined, `${megabytes(synced.samples.at(-1)?.heapUsed ?? Number.NaN).toFixed(1)} MB at the end`),
      figure("heap capped: 1,000,000 / 10,000 peak RSS", cappedAtEnd / cappedAt10k, "ratio", undefined, `${cappedHeap.join(" ")}: ${megabytes(cappedAt10k).toFixed(1)} → ${megabytes(cappedAtEnd).toFixed(1)} MB`)
    ]
  }
}
