/**
 * 10. Mirror: the time of `Mirror.sync` into a new SQLite file and into a
 * new PostgreSQL database (a private server, `scripts/postgres.ts`) under
 * the account's limits, against the bare scan of the same items
 * (`CatalogClient.wire`, the wire items the mirror stores, written nowhere):
 * each on a fresh in-process simulator with the contract's limits, by a
 * client under them, both at time scale 0.1, where a page is read when the
 * windows allow and the database writes it in the wait. Then the throughput
 * of the same three with limits off on one simulator, 30,000 models, in
 * alternating rounds, for information (on loopback the database's
 * milliseconds a page are all the difference); and the peak RSS of a sync of
 * 1,000,000 models into SQLite, compiled and alone in its process
 * (`bench/mirror-child.ts`), after 10,000 items and at the end.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Effect, Layer, Schema, Stream } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { databaseUrl, runOn, startPostgres } from "../scripts/postgres.js"
import { Admission, CatalogClient } from "../src/index.js"
import { Mirror, MirrorDatabase } from "../src/mirror/index.js"
import { Simulator } from "../src/simulator/index.js"
import { clientOf } from "./client.js"
import { cappedHeap } from "./memory.js"
import { atMost, type Benchmark, figure, median, megabytes, runNode, secondsSince, type SimulatorProcess, startSimulator } from "./support.js"
import { clientUnderLimits } from "./timedScan.js"

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

/** Models of the syncs under the account's limits: 30 pages of 100 and the client's read of /usage/, four windows of 10. */
const limitedModels = 3_000
/** Windows of 1 s and 6 s: a sync under the account's limits in about 3 s. */
const limitedScale = 0.1

/** What the client under the limits provides: the client and the services it shares (its budget, …). */
type ClientServices = Layer.Layer.Success<ReturnType<typeof clientUnderLimits>>

/**
 * Seconds of `program` (which gives the items it read) against a fresh
 * in-process simulator of `limitedModels` with the contract's limits, by a
 * client under them, both at `limitedScale`, with `database`; timed from the
 * first request, the client and the database ready before.
 */
const timeUnderLimits = <E, R>(
  program: Effect.Effect<number, E, ClientServices | R>,
  database: Layer.Layer<R, unknown>
): Promise<number> =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function*() {
        const simulator = yield* Simulator.make({ sizes: { models: limitedModels }, timeScale: limitedScale })
        const client = clientUnderLimits(simulator, limitedScale).pipe(Layer.provide(NodeHttpClient.layerUndici))
        return yield* Effect.gen(function*() {
          const start = performance.now()
          const items = yield* program
          if (items !== limitedModels) return yield* Effect.dieMessage(`expected ${limitedModels} items, got ${items}`)
          return secondsSince(start)
        }).pipe(Effect.provide(Layer.merge(client, database)))
      })
    )
  )

/** The bare scan and the syncs under the account's limits, in alternating rounds, each on a fresh account: the median seconds of each. */
const underLimits = async (postgresUrl: string) => {
  const bare = Effect.flatMap(CatalogClient.CatalogClient, (catalog) => Stream.runCount(catalog.wire("models", {})))
  const sync = Stream.runCount(Mirror.sync("models"))
  const directory = mkdtempSync(path.join(tmpdir(), "bench-mirror-"))
  const seconds = { bare: [] as Array<number>, sqlite: [] as Array<number>, postgres: [] as Array<number> }
  try {
    for (let round = 0; round < rounds; round++) {
      seconds.bare.push(await timeUnderLimits(bare, Layer.empty))
      seconds.sqlite.push(await timeUnderLimits(sync, MirrorDatabase.layerFrom(path.join(directory, `limited-${round}.sqlite`))))
      await Effect.runPromise(runOn(postgresUrl, `CREATE DATABASE limited_${round}`))
      seconds.postgres.push(await timeUnderLimits(sync, MirrorDatabase.layerFrom(databaseUrl(postgresUrl, `limited_${round}`))))
    }
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
  return { bare: median(seconds.bare), sqlite: median(seconds.sqlite), postgres: median(seconds.postgres) }
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
  let limited: Awaited<ReturnType<typeof underLimits>>
  try {
    limited = await underLimits(postgres.url)
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
    setup: `Mirror.sync of ${limitedModels.toLocaleString("en")} models into a new SQLite file and a new PostgreSQL database against the bare scan of the same wire items, each on a fresh in-process simulator with the contract's limits, by a client under them, both at time scale ${limitedScale}, timed from the first request, median of ${rounds} rounds; then the same three with limits off, ${models.toLocaleString("en")} models on one simulator in its own process, median of ${rounds} rounds after a warm-up; then a sync of 1,000,000 models into SQLite, compiled, alone in its process, with default V8 flags and with a capped heap`,
    seconds: secondsSince(start),
    figures: [
      figure("under the account's limits: bare scan time", limited.bare, "s"),
      figure("under the account's limits: sync into SQLite time", limited.sqlite, "s"),
      figure("under the account's limits: sync into PostgreSQL time", limited.postgres, "s"),
      figure("under the account's limits: sync into SQLite time / bare scan time", limited.sqlite / limited.bare, "ratio", atMost(1.05)),
      figure("under the account's limits: sync into PostgreSQL time / bare scan time", limited.postgres / limited.bare, "ratio", atMost(1.05)),
      figure("limits off: bare scan", rates.bare, "items/s"),
      figure("limits off: sync into SQLite", rates.sqlite, "items/s"),
      figure("limits off: sync into PostgreSQL", rates.postgres, "items/s"),
      figure("limits off: sync into SQLite / bare scan", rates.sqlite / rates.bare, "ratio", undefined, "on loopback without limits the database's milliseconds a page are all the difference"),
      figure("limits off: sync into PostgreSQL / bare scan", rates.postgres / rates.bare, "ratio"),
      figure("sync of 1,000,000 models: peak RSS after 10,000 items", megabytes(at10k), "MB"),
      figure(`sync of 1,000,000 models: peak RSS after ${synced.items.toLocaleString("en")} items`, megabytes(atEnd), "MB"),
      figure("sync of 1,000,000 models: peak RSS after all items / after 10,000", atEnd / at10k, "ratio", atMost(1.1), `${synced.seconds.toFixed(0)} s for the 1,000,000-item sync`),
      figure("sync of 1,000,000 models: live heap after 10,000 items", megabytes(synced.samples[0]?.heapUsed ?? Number.NaN), "MB", undefined, `${megabytes(synced.samples.at(-1)?.heapUsed ?? Number.NaN).toFixed(1)} MB at the end`),
      figure("sync of 1,000,000 models, heap capped: peak RSS after all items / after 10,000", cappedAtEnd / cappedAt10k, "ratio", undefined, `${cappedHeap.join(" ")}: ${megabytes(cappedAt10k).toFixed(1)} → ${megabytes(cappedAtEnd).toFixed(1)} MB`)
    ]
  }
}
