/**
 * The sampling and the report of benchmark 10's 1,000,000-model sync, with
 * nothing of Effect: each edition's sync process (`bench/mirror-child.ts`,
 * `effect4/bench/mirror-child.ts`) runs `sampledSync` with its own mirror.
 */
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
