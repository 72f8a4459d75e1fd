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
 */
const [baseUrl, key, file] = process.argv.slice(2)
if (baseUrl === undefined || key === undefined || file === undefined) {
  process.stderr.write("usage: mirror-child <base_url> <key> <sqlite file>\n")
  process.exit(2)
}

/** The peak RSS so far, and the live heap after a full collection. */
const sample = (items: number) => {
  globalThis.gc?.()
  return { items, peakRss: process.resourceUsage().maxRSS * 1024, heapUsed: process.memoryUsage().heapUsed }
}

const { Effect, Stream } = await import("effect")
const { Admission } = await import("../src/index.js")
const { Mirror, MirrorDatabase } = await import("../src/mirror/index.js")
const { clientOf } = await import("./client.js")

const samples: Array<ReturnType<typeof sample>> = []
const started = performance.now()
const items = await Effect.runPromise(
  Mirror.sync("models", {
    onPage: (progress) => Effect.sync(() => {
      if (samples.length === 0 && progress.items >= 10_000) samples.push(sample(progress.items))
    })
  }).pipe(
    Stream.runCount,
    Effect.provide(MirrorDatabase.layerSqlite(file)),
    Effect.provide(clientOf(baseUrl, key, { limits: Admission.noLimits }))
  )
)
samples.push(sample(items))
process.stdout.write(`${JSON.stringify({ items, seconds: (performance.now() - started) / 1000, samples })}\n`)
