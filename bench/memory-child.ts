/**
 * One scanner of benchmark 3, alone in its process so that its memory is
 * measured alone. `bench/memory.ts` compiles it (and the library it imports)
 * to JavaScript and runs it as an application ships, without a TypeScript
 * loader:
 *
 *   node --expose-gc .tmp/bench-memory/bench/memory-child.js <mode> <base_url> <key> [items]
 *
 * (`node --expose-gc --import tsx bench/memory-child.ts …` runs it from
 * source). It scans the models (limits off, page size 100) and samples its
 * memory once its modules are loaded and when 10,000, 100,000 and 1,000,000
 * items have come (after a full collection when `gc` is exposed), then prints
 * one JSON line. Modes: `client` (default options, over undici) and `plain`
 * (fetch, JSON.parse, a Set of ids). It imports the library by relative path,
 * through its main entry point as an application would, and nothing of the
 * other benchmarks but the plain loop.
 */
import type { Sample } from "./memory.js"

const pageSize = 100
/** 0: once the modules are loaded, before the first request. */
const thresholds = [0, 10_000, 100_000, 1_000_000]

const [mode, baseUrl, key, limit] = process.argv.slice(2)
const total = limit === undefined ? 1_000_000 : Number(limit)
const samples: Array<Sample> = []
const started = performance.now()
const cpuAtStart = process.cpuUsage()
let nextThreshold = 0

/** Samples memory for every threshold `items` has passed. */
const sample = (items: number) => {
  while (nextThreshold < thresholds.length && items >= (thresholds[nextThreshold] ?? Number.POSITIVE_INFINITY)) {
    globalThis.gc?.()
    const memory = process.memoryUsage()
    const cpu = process.cpuUsage(cpuAtStart)
    samples.push({
      items: thresholds[nextThreshold] ?? items,
      rss: memory.rss,
      peakRss: process.resourceUsage().maxRSS * 1024,
      heapUsed: memory.heapUsed,
      heapTotal: memory.heapTotal,
      external: memory.external,
      seconds: (performance.now() - started) / 1000,
      cpuSeconds: (cpu.user + cpu.system) / 1e6
    })
    nextThreshold++
  }
}

const client = async (): Promise<number> => {
  const { Chunk, Effect, Stream } = await import("effect")
  const { Admission, CatalogClient } = await import("../src/index.js")
  const { clientOf } = await import("./client.js")
  const layer = clientOf(baseUrl ?? "", key ?? "", { limits: Admission.noLimits })
  let items = 0
  sample(0)
  await Effect.runPromise(
    CatalogClient.CatalogClient.pipe(
      Effect.flatMap((catalog) =>
        catalog.models({ limit: pageSize }).pipe(
          Stream.take(total),
          Stream.runForEachChunk((chunk) =>
            Effect.sync(() => {
              items += Chunk.size(chunk)
              sample(items)
            })
          )
        )
      ),
      Effect.provide(layer)
    )
  )
  return items
}

/** The plain loop: fetch, `JSON.parse`, a `Set` of the ids seen to drop repeats, follow `links.next`. */
const plain = async (): Promise<number> => {
  const { idOf, plainPages } = await import("./plain.js")
  const seen = new Set<string>()
  sample(0)
  for await (const page of plainPages(`${baseUrl}/models/?limit=${pageSize}`, key ?? "")) {
    for (const item of page.data) seen.add(idOf(item))
    sample(seen.size)
    if (seen.size >= total) break
  }
  return seen.size
}

if ((mode !== "client" && mode !== "plain") || baseUrl === undefined || key === undefined || !(total > 0)) {
  process.stderr.write("usage: memory-child.ts <client|plain> <base_url> <key> [items]\n")
  process.exit(2)
}

const items = await (mode === "plain" ? plain() : client())
const cpu = process.cpuUsage(cpuAtStart)
process.stdout.write(
  `${JSON.stringify({
    mode,
    items,
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    gc: globalThis.gc !== undefined,
    samples
  })}\n`
)
