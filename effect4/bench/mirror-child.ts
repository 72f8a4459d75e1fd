/**
 * The Effect 4 edition's rows of benchmark 10 (mirror), under Node 22 in
 * processes of their own, driven by `bench/mirror.ts`. Two ways:
 *
 *   CATALOG_BENCH_KEY=<key> node --import tsx bench/mirror-child.ts <base_url>
 *
 * (from effect4/, with its own Node 22 and tsx) runs the timed runs one at
 * a time, so that they alternate with the Effect 3 edition's. It first
 * prints one JSON line with its Node version. Then, for each run asked on
 * its standard input (one JSON line, `bench/mirror.ts`'s `Run`), it prints
 * the run's seconds as one JSON line:
 *
 * - under the account's limits: a fresh in-process simulator (the edition's
 *   `Simulator.make`) of that many models with the contract's limits, by a
 *   client under them, both at that time scale; timed from the first
 *   request, the client and the database ready before;
 * - limits off: the simulator at `<base_url>`, by a new client with limits
 *   off; timed with the client and the database built, as the Effect 3
 *   edition's rows are.
 *
 * Each run is the bare scan of the wire items the mirror stores
 * (`CatalogClient.wire`, written nowhere), or `Mirror.sync` into the new
 * SQLite file or PostgreSQL database named, and must read every model. It
 * ends when its standard input does.
 *
 *   node --expose-gc [V8 flags] effect4/.tmp/bench/effect4/bench/mirror-child.js sync <base_url> <key> <sqlite file>
 *
 * (compiled by `bench/mirror.ts`, without a TypeScript loader) is the
 * sync of the memory figures, alone in its process: the models (limits
 * off) into a new SQLite mirror, sampled by `bench/syncSampling.ts`'s
 * `sampledSync`. The simulator and what only the runs need are loaded by
 * the runs alone.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Duration, Effect, Layer, Redacted, Schema, Stream } from "effect"
import { type LoadSync, sampledSync } from "../../bench/syncSampling.js"
import type { Target } from "../../bench/overheadScan.js"
import { Admission, CatalogClient, Retry } from "../src/index.js"
import { Mirror, MirrorDatabase } from "../src/mirror/index.js"

/** A client with these options, over undici. */
const clientOf = (options: CatalogClient.Options) => CatalogClient.layer(options).pipe(Layer.provide(NodeHttpClient.layerUndici))

/** What a run reads into: nowhere (the bare scan), a new SQLite file or a new PostgreSQL database. */
const Into = Schema.Union([
  Schema.TaggedStruct("Bare", {}),
  Schema.TaggedStruct("Sqlite", { file: Schema.String }),
  Schema.TaggedStruct("Postgres", { url: Schema.String })
])
type Into = typeof Into.Type

/** One run, as `bench/mirror.ts` asks it. */
const Run = Schema.fromJsonString(Schema.Union([
  Schema.TaggedStruct("UnderLimits", { models: Schema.Number, timeScale: Schema.Number, into: Into }),
  Schema.TaggedStruct("LimitsOff", { models: Schema.Number, into: Into })
]))
type Run = typeof Run.Type

/** Seconds of an effect, from when it starts. */
const timed = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<number, E, R> =>
  Effect.suspend(() => {
    const start = performance.now()
    return Effect.map(self, () => (performance.now() - start) / 1000)
  })

/** Every one of `models` items, or a defect. */
const all = (models: number) => <E, R>(items: Effect.Effect<number, E, R>): Effect.Effect<number, E, R> =>
  Effect.flatMap(items, (count) => count === models ? Effect.succeed(count) : Effect.die(new Error(`expected ${models} items, got ${count}`)))

/**
 * The items a run reads into its database, with the database provided:
 * `read` applies to the reading alone, so that what it measures starts
 * once the database is ready.
 */
const reading = (
  into: Into,
  read: <E, R>(items: Effect.Effect<number, E, R>) => Effect.Effect<number, E, R>
): Effect.Effect<number, unknown, CatalogClient.Provided> => {
  const synced = () => read(Stream.runCount(Mirror.sync("models")))
  switch (into._tag) {
    case "Bare":
      return read(CatalogClient.CatalogClient.use((catalog) => Stream.runCount(catalog.wire("models", {}))))
    case "Sqlite":
      return Effect.provide(synced(), MirrorDatabase.layerSqlite(into.file))
    case "Postgres":
      return Effect.provide(synced(), MirrorDatabase.layerPostgres(Redacted.make(into.url)))
  }
}

/** The seconds of a run against `target` (limits off) or a simulator of its own (under the limits). */
const seconds = (run: Run, target: Target): Promise<number> => {
  switch (run._tag) {
    case "UnderLimits":
      return Effect.runPromise(
        Effect.scoped(
          Effect.gen(function*() {
            const { Simulator } = yield* Effect.promise(() => import("../src/simulator/index.js"))
            const simulator = yield* Simulator.make({ sizes: { models: run.models }, timeScale: run.timeScale })
            const client = clientOf({
              baseUrl: simulator.baseUrl,
              apiKey: simulator.keys.full,
              limits: { ...Admission.contractLimits, timeScale: run.timeScale },
              retry: { base: Duration.times(Retry.defaultPolicy.base, run.timeScale) }
            })
            return yield* reading(run.into, (items) => timed(all(run.models)(items))).pipe(Effect.provide(client))
          })
        )
      )
    case "LimitsOff": {
      const client = clientOf({ baseUrl: target.baseUrl, apiKey: Redacted.make(target.key), limits: Admission.noLimits })
      return Effect.runPromise(timed(reading(run.into, all(run.models)).pipe(Effect.provide(client))))
    }
  }
}

/** The timed runs, asked one at a time on the standard input. */
const runs = async () => {
  const { targetOf } = await import("./scans.js")
  const { createInterface } = await import("node:readline")
  const target = targetOf("mirror-child.ts")
  process.stdout.write(`${JSON.stringify({ node: process.version })}\n`)
  const decodeRun = Schema.decodeUnknownSync(Run)
  for await (const line of createInterface({ input: process.stdin })) {
    process.stdout.write(`${JSON.stringify({ seconds: await seconds(decodeRun(line), target) })}\n`)
  }
}

/** The sync of the memory figures. */
const sync: LoadSync = async () => ({ baseUrl, file, key }, committed) =>
  Effect.runPromise(
    Mirror.sync("models", { onPage: (progress) => Effect.sync(() => committed(progress.items)) }).pipe(
      Stream.runCount,
      Effect.provide(MirrorDatabase.layerSqlite(file)),
      Effect.provide(clientOf({ baseUrl, apiKey: Redacted.make(key), limits: Admission.noLimits }))
    )
  )

const [way, ...args] = process.argv.slice(2)
const main = way === "sync" ? sampledSync("mirror-child.js sync", args, sync) : runs()

main.catch((error: unknown) => {
  process.stderr.write(`mirror-child: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
  process.exit(1)
})
