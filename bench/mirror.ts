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
 *
 * The Effect 4 edition's rows come from `effect4/bench/mirror-child.ts`
 * under the edition's Node 22: its timed runs from a process of its own
 * under tsx, asked for one run at a time, so that each round runs the
 * Effect 3 edition's three runs and then the Effect 4 edition's, each into
 * a database of its own, timed as these are; its sync of 1,000,000 models
 * compiled with the edition's TypeScript and alone in its process, sampled
 * as the Effect 3 edition's is (`bench/mirror-child.ts`).
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Effect, Layer, Redacted, Schema, Stream } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { databaseUrl, startPostgres } from "../scripts/postgres.js"
import { runOn } from "../scripts/postgresStatement.js"
import { Admission, CatalogClient } from "../src/index.js"
import { Mirror, MirrorDatabase } from "../src/mirror/index.js"
import { Simulator } from "../src/simulator/index.js"
import { clientOf } from "./client.js"
import { cappedHeap, compile } from "./memory.js"
import {
  atMost,
  type Benchmark,
  compileEffect4,
  compiledByEffect4,
  type Effect4Child,
  effect4Node,
  type Figure,
  figure,
  median,
  megabytes,
  nodeName,
  runNode,
  secondsSince,
  type SimulatorProcess,
  startEffect4Child,
  startSimulator
} from "./support.js"
import { clientUnderLimits } from "./timedScan.js"

/** Models of the syncs with limits off. */
const models = 30_000
const rounds = 3
/** Models of the syncs under the account's limits: 30 pages of 100 and the client's read of /usage/, four windows of 10. */
const limitedModels = 3_000
/** Windows of 1 s and 6 s: a sync under the account's limits in about 3 s. */
const limitedScale = 0.1

/** What a run reads into: nowhere (the bare scan), a new SQLite file or a new PostgreSQL database. */
type Into =
  | { readonly _tag: "Bare" }
  | { readonly _tag: "Sqlite"; readonly file: string }
  | { readonly _tag: "Postgres"; readonly url: string }

/**
 * One timed run, as `effect4/bench/mirror-child.ts` takes it too: under the
 * account's limits on a fresh simulator of its own, or with limits off on
 * the simulator of the round; it must read every model.
 */
type Run =
  | { readonly _tag: "UnderLimits"; readonly models: number; readonly timeScale: number; readonly into: Into }
  | { readonly _tag: "LimitsOff"; readonly models: number; readonly into: Into }

/** Runs a run and gives its seconds. */
type Runner = (run: Run) => Promise<number>

/** Seconds of an effect, from when it starts. */
const timed = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<number, E, R> =>
  Effect.suspend(() => {
    const start = performance.now()
    return Effect.map(self, () => secondsSince(start))
  })

/** Every one of `count` items, or a defect. */
const all = (count: number) => <E, R>(items: Effect.Effect<number, E, R>): Effect.Effect<number, E, R> =>
  Effect.flatMap(items, (read) => read === count ? Effect.succeed(read) : Effect.dieMessage(`expected ${count} items, got ${read}`))

/** What the client under the limits provides: the client and the services it shares (its budget, …). */
type ClientServices = Layer.Layer.Success<ReturnType<typeof clientUnderLimits>>

/**
 * The items a run reads into its database, with the database provided:
 * `read` applies to the reading alone, so that what it measures starts
 * once the database is ready.
 */
const reading = (
  into: Into,
  read: <E, R>(items: Effect.Effect<number, E, R>) => Effect.Effect<number, E, R>
): Effect.Effect<number, unknown, ClientServices> => {
  const synced = () => read(Stream.runCount(Mirror.sync("models")))
  switch (into._tag) {
    case "Bare":
      return read(Effect.flatMap(CatalogClient.CatalogClient, (catalog) => Stream.runCount(catalog.wire("models", {}))))
    case "Sqlite":
      return Effect.provide(synced(), MirrorDatabase.layerSqlite(into.file))
    case "Postgres":
      return Effect.provide(synced(), MirrorDatabase.layerPostgres(Redacted.make(into.url)))
  }
}

/**
 * The Effect 3 edition's runs, in this process. Under the account's limits:
 * a fresh in-process simulator of the run's models with the contract's
 * limits, by a client under them, both at the run's time scale, timed from
 * the first request, the client and the database ready before. Limits off:
 * against `simulator`, by a new client, timed with the client and the
 * database built.
 */
const effect3Runs = (simulator: SimulatorProcess): Runner => (run) => {
  switch (run._tag) {
    case "UnderLimits":
      return Effect.runPromise(
        Effect.scoped(
          Effect.gen(function*() {
            const own = yield* Simulator.make({ sizes: { models: run.models }, timeScale: run.timeScale })
            const client = clientUnderLimits(own, run.timeScale).pipe(Layer.provide(NodeHttpClient.layerUndici))
            return yield* reading(run.into, (items) => timed(all(run.models)(items))).pipe(Effect.provide(client))
          })
        )
      )
    case "LimitsOff":
      return Effect.runPromise(
        timed(reading(run.into, all(run.models)).pipe(Effect.provide(clientOf(simulator.baseUrl, simulator.key, { limits: Admission.noLimits }))))
      )
  }
}

const Hello = Schema.parseJson(Schema.Struct({ node: Schema.String }))
const Seconds = Schema.parseJson(Schema.Struct({ seconds: Schema.Number }))

/** The Effect 4 edition's runs, in its process. */
const effect4Runs = (child: Effect4Child): Runner => async (run) => Schema.decodeUnknownSync(Seconds)(await child.ask(JSON.stringify(run))).seconds

/** What the runs of an edition read into: the bare scan, a new SQLite file and a new PostgreSQL database of their own. */
type Destination = Into["_tag"]
const destinations: ReadonlyArray<Destination> = ["Bare", "Sqlite", "Postgres"]

/** The seconds of each of an edition's runs, by destination. */
type Timings = Record<Destination, Array<number>>
const noTimings = (): Timings => ({ Bare: [], Sqlite: [], Postgres: [] })

/** Where the runs write: a directory for the SQLite files, a server for a PostgreSQL database each. */
interface Databases {
  readonly directory: string
  readonly postgresUrl: string
}

/** What a run of `destination` reads into: nothing, or a new database named `name`. */
const newDatabase = async (databases: Databases, destination: Destination, name: string): Promise<Into> => {
  switch (destination) {
    case "Bare":
      return { _tag: "Bare" }
    case "Sqlite":
      return { _tag: "Sqlite", file: path.join(databases.directory, `${name}.sqlite`) }
    case "Postgres":
      await Effect.runPromise(runOn(databases.postgresUrl, `CREATE DATABASE ${name}`))
      return { _tag: "Postgres", url: databaseUrl(databases.postgresUrl, name) }
  }
}

/**
 * Rounds of each edition's runs, an edition after the other in each round,
 * each run into a new database: the seconds of the counted rounds (those
 * after `warmup`), by edition and destination.
 */
const roundsOf = async (
  name: string,
  editions: { readonly effect3: Runner; readonly effect4: Runner },
  runOf: (into: Into) => Run,
  databases: Databases,
  warmup: number
): Promise<{ readonly effect3: Timings; readonly effect4: Timings }> => {
  const timings = { effect3: noTimings(), effect4: noTimings() }
  for (let round = 0; round < warmup + rounds; round++) {
    for (const edition of ["effect3", "effect4"] as const) {
      for (const destination of destinations) {
        const seconds = await editions[edition](runOf(await newDatabase(databases, destination, `${name}_${edition}_${round}`)))
        if (round >= warmup) timings[edition][destination].push(seconds)
      }
    }
  }
  return timings
}

const Report = Schema.parseJson(Schema.Struct({
  items: Schema.Number,
  seconds: Schema.Number,
  samples: Schema.Array(Schema.Struct({ items: Schema.Number, peakRss: Schema.Number, heapUsed: Schema.Number }))
}))

/** A compiled sync of the memory figures: the Node it runs under and its arguments before the simulator's. */
interface SyncProcess {
  readonly node: string
  readonly args: ReadonlyArray<string>
}

/** The Effect 3 edition's, compiled with `bench/tsconfig.memory.json`, under this process's Node. */
const effect3Sync: SyncProcess = { node: process.execPath, args: [path.join(".tmp", "bench-memory", "bench", "mirror-child.js")] }

/** The Effect 4 edition's process, relative to the root. */
const effect4Child = path.join("effect4", "bench", "mirror-child.ts")

/** The Effect 4 edition's sync of the memory figures: its process of the runs, compiled, under its Node 22. */
const effect4Sync = (node: string): SyncProcess => ({ node, args: [compiledByEffect4(effect4Child), "sync"] })

/** A sync of the models on `simulator` into a new SQLite file, alone in its process, with V8's `flags`. */
const memory = async (simulator: SimulatorProcess, sync: SyncProcess, flags: ReadonlyArray<string>) => {
  const directory = mkdtempSync(path.join(tmpdir(), "bench-mirror-"))
  try {
    const output = await runNode(["--expose-gc", ...flags, ...sync.args, simulator.baseUrl, simulator.key, path.join(directory, "catalog.sqlite")], sync.node)
    return Schema.decodeUnknownSync(Report)(output.trim().split("\n").pop() ?? "")
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
}

type Report = typeof Report.Type

/** An edition's memory figures of a sync of 1,000,000 models, with default V8 flags and with a capped heap; `prefix` names the edition. */
const memoryFigures = (prefix: string, synced: Report, capped: Report): ReadonlyArray<Figure> => {
  const at10k = synced.samples[0]?.peakRss ?? Number.NaN
  const atEnd = synced.samples.at(-1)?.peakRss ?? Number.NaN
  const cappedAt10k = capped.samples[0]?.peakRss ?? Number.NaN
  const cappedAtEnd = capped.samples.at(-1)?.peakRss ?? Number.NaN
  return [
    figure(`${prefix}sync of 1,000,000 models: peak RSS after 10,000 items`, megabytes(at10k), "MB"),
    figure(`${prefix}sync of 1,000,000 models: peak RSS after ${synced.items.toLocaleString("en")} items`, megabytes(atEnd), "MB"),
    figure(`${prefix}sync of 1,000,000 models: peak RSS after all items / after 10,000`, atEnd / at10k, "ratio", atMost(1.1), `${synced.seconds.toFixed(0)} s for the 1,000,000-item sync`),
    figure(`${prefix}sync of 1,000,000 models: live heap after 10,000 items`, megabytes(synced.samples[0]?.heapUsed ?? Number.NaN), "MB", undefined, `${megabytes(synced.samples.at(-1)?.heapUsed ?? Number.NaN).toFixed(1)} MB at the end`),
    figure(`${prefix}sync of 1,000,000 models, heap capped: peak RSS after all items / after 10,000`, cappedAtEnd / cappedAt10k, "ratio", undefined, `${cappedHeap.join(" ")}: ${megabytes(cappedAt10k).toFixed(1)} → ${megabytes(cappedAtEnd).toFixed(1)} MB`)
  ]
}

/** An edition's figures under the account's limits, each the median of its rounds; `prefix` names the edition. */
const underLimitsFigures = (prefix: string, timings: Timings): ReadonlyArray<Figure> => {
  const bare = median(timings.Bare)
  const sqlite = median(timings.Sqlite)
  const postgres = median(timings.Postgres)
  return [
    figure(`${prefix}under the account's limits: bare scan time`, bare, "s"),
    figure(`${prefix}under the account's limits: sync into SQLite time`, sqlite, "s"),
    figure(`${prefix}under the account's limits: sync into PostgreSQL time`, postgres, "s"),
    figure(`${prefix}under the account's limits: sync into SQLite time / bare scan time`, sqlite / bare, "ratio", atMost(1.05)),
    figure(`${prefix}under the account's limits: sync into PostgreSQL time / bare scan time`, postgres / bare, "ratio", atMost(1.05))
  ]
}

/** An edition's rates with limits off, each the median of its rounds' rates; `prefix` names the edition. */
const limitsOffFigures = (prefix: string, timings: Timings): ReadonlyArray<Figure> => {
  const rate = (destination: Destination) => median(timings[destination].map((seconds) => models / seconds))
  const bare = rate("Bare")
  const sqlite = rate("Sqlite")
  const postgres = rate("Postgres")
  return [
    figure(`${prefix}limits off: bare scan`, bare, "items/s"),
    figure(`${prefix}limits off: sync into SQLite`, sqlite, "items/s"),
    figure(`${prefix}limits off: sync into PostgreSQL`, postgres, "items/s"),
    figure(`${prefix}limits off: sync into SQLite / bare scan`, sqlite / bare, "ratio", undefined, "on loopback without limits the database's milliseconds a page are all the difference"),
    figure(`${prefix}limits off: sync into PostgreSQL / bare scan`, postgres / bare, "ratio")
  ]
}

export const run = async (): Promise<Benchmark> => {
  const start = performance.now()
  const postgres = await startPostgres("benchmark 10 (mirror) needs it")
  const directory = mkdtempSync(path.join(tmpdir(), "bench-mirror-"))
  const databases: Databases = { directory, postgresUrl: postgres.url }
  const small = await startSimulator(["--no-limits", "--models", String(models)])
  let child: Effect4Child | undefined
  let limited: Awaited<ReturnType<typeof roundsOf>>
  let unlimited: Awaited<ReturnType<typeof roundsOf>>
  let node: string
  try {
    child = await startEffect4Child(path.relative("effect4", effect4Child), small)
    node = Schema.decodeUnknownSync(Hello)(child.hello).node
    const editions = { effect3: effect3Runs(small), effect4: effect4Runs(child) }
    limited = await roundsOf("limited", editions, (into) => ({ _tag: "UnderLimits", models: limitedModels, timeScale: limitedScale, into }), databases, 0)
    // Round 0 warms the JIT and the servers; it is not counted.
    unlimited = await roundsOf("bench", editions, (into) => ({ _tag: "LimitsOff", models, into }), databases, 1)
  } finally {
    await child?.stop()
    await small.stop()
    await postgres.stop()
    rmSync(directory, { recursive: true, force: true })
  }
  const effect4Syncs = effect4Sync(await effect4Node())
  await compile()
  await compileEffect4([effect4Child])
  const large = await startSimulator(["--no-limits", "--models", "1000000"])
  let synced: { readonly effect3: Report; readonly effect4: Report }
  let capped: { readonly effect3: Report; readonly effect4: Report }
  try {
    synced = { effect3: await memory(large, effect3Sync, []), effect4: await memory(large, effect4Syncs, []) }
    capped = { effect3: await memory(large, effect3Sync, cappedHeap), effect4: await memory(large, effect4Syncs, cappedHeap) }
  } finally {
    await large.stop()
  }
  const effect4Prefix = `Effect 4 edition (${nodeName(node)}), `
  return {
    name: "10. mirror",
    setup: `Mirror.sync of ${limitedModels.toLocaleString("en")} models into a new SQLite file and a new PostgreSQL database against the bare scan of the same wire items, each on a fresh in-process simulator with the contract's limits, by a client under them, both at time scale ${limitedScale}, timed from the first request, median of ${rounds} rounds; then the same three with limits off, ${models.toLocaleString("en")} models on one simulator in its own process, median of ${rounds} rounds after a warm-up; each round runs the Effect 3 edition's three (Node ${process.version.replace(/^v/, "")}, in this process) and then the Effect 4 edition's (Node ${node.replace(/^v/, "")}, in a process of its own under tsx, effect4/bench/mirror-child.ts, with the edition's simulator, client and mirror), each into a new database of its own; then a sync of 1,000,000 models into SQLite by each edition, compiled (the Effect 4 edition's with its TypeScript into ${compiledByEffect4("")}, under its Node), alone in its process, with default V8 flags and with a capped heap`,
    seconds: secondsSince(start),
    figures: [
      ...underLimitsFigures("", limited.effect3),
      ...underLimitsFigures(effect4Prefix, limited.effect4),
      ...limitsOffFigures("", unlimited.effect3),
      ...limitsOffFigures(effect4Prefix, unlimited.effect4),
      ...memoryFigures("", synced.effect3, capped.effect3),
      ...memoryFigures(effect4Prefix, synced.effect4, capped.effect4)
    ]
  }
}
