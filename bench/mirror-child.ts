/**
 * The sync of benchmark 10's memory figures, alone in its process so that
 * its memory is measured alone. `bench/mirror.ts` compiles it (and the
 * library it imports) to JavaScript and runs it without a TypeScript loader:
 *
 *   node --expose-gc [V8 flags] .tmp/bench-memory/bench/mirror-child.js <base_url> <key> <sqlite file>
 *
 * It syncs the models (limits off) into a new SQLite mirror and samples its
 * peak RSS and its live heap (after a full collection) when 10,000 items are
 * committed and at the end, then prints one JSON line.
 *
 * The sampling and the report (`sampledSync`) have nothing of Effect: the
 * Effect 4 edition's process (`effect4/bench/mirror-child.ts`, compiled,
 * under its Node 22) runs them with the Effect 4 mirror.
 */
import { realpathSync } from "node:fs"
import { fileURLToPath } from "node:url"

/** Where a sync reads and writes. */
export interface SyncTarget {
  readonly baseUrl: string
  readonly key: string
  /** The new SQLite file. */
  readonly file: string
}

/**
 * A sync of the models into a new SQLite mirror, limits off, that calls
 * `committed` with the items committed so far after each page; it gives
 * the items synced.
 */
export type Sync = (target: SyncTarget, committed: (items: number) => void) => Promise<number>

/** Loads the modules of a sync, and gives it. */
export type LoadSync = () => Promise<Sync>

/** The peak RSS so far, and the live heap after a full collection. */
const sample = (items: number) => {
  globalThis.gc?.()
  return { items, peakRss: process.resourceUsage().maxRSS * 1024, heapUsed: process.memoryUsage().heapUsed }
}

/**
 * Loads a sync and runs it on `args` (`<base_url> <key> <sqlite file>`),
 * sampling its memory, then prints its report as one JSON line; its
 * seconds are the sync's, from once its modules are loaded.
 */
export const sampledSync = async (usage: string, args: ReadonlyArray<string>, load: LoadSync): Promise<void> => {
  const [baseUrl, key, file] = args
  if (baseUrl === undefined || key === undefined || file === undefined) {
    process.stderr.write(`usage: ${usage} <base_url> <key> <sqlite file>\n`)
    process.exit(2)
  }
  const sync = await load()
  const samples: Array<ReturnType<typeof sample>> = []
  const started = performance.now()
  const items = await sync({ baseUrl, key, file }, (committed) => {
    if (samples.length === 0 && committed >= 10_000) samples.push(sample(committed))
  })
  samples.push(sample(items))
  process.stdout.write(`${JSON.stringify({ items, seconds: (performance.now() - started) / 1000, samples })}\n`)
}

/** The Effect 3 edition's sync, over undici. */
const effect3: LoadSync = async () => {
  const { Effect, Stream } = await import("effect")
  const { Admission } = await import("../src/index.js")
  const { Mirror, MirrorDatabase } = await import("../src/mirror/index.js")
  const { clientOf } = await import("./client.js")
  return ({ baseUrl, file, key }, committed) =>
    Effect.runPromise(
      Mirror.sync("models", { onPage: (progress) => Effect.sync(() => committed(progress.items)) }).pipe(
        Stream.runCount,
        Effect.provide(MirrorDatabase.layerSqlite(file)),
        Effect.provide(clientOf(baseUrl, key, { limits: Admission.noLimits }))
      )
    )
}

/** Whether this module is the process's program, rather than imported by the Effect 4 edition's. */
const isProgram = (): boolean => {
  const program = process.argv[1]
  return program !== undefined && realpathSync(program) === fileURLToPath(import.meta.url)
}

if (isProgram()) await sampledSync("mirror-child", process.argv.slice(2), effect3)
