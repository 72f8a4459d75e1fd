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
 *
 * The sampling, the plain loop and the report are `bench/scanSampling.ts`'s,
 * which the Effect 4 edition's process (`effect4/bench/memory-child.ts`)
 * runs with its own client.
 */
import { type ClientScan, scanner } from "./scanSampling.js"

/** The Effect 3 client's scan: default options but the limits, over undici. */
const client: ClientScan = async ({ baseUrl, items, key, pageSize }, progress) => {
  const { Chunk, Effect, Stream } = await import("effect")
  const { Admission, CatalogClient } = await import("../src/index.js")
  const { clientOf } = await import("./client.js")
  const layer = clientOf(baseUrl, key, { limits: Admission.noLimits })
  let read = 0
  progress(0)
  await Effect.runPromise(
    CatalogClient.CatalogClient.pipe(
      Effect.flatMap((catalog) =>
        catalog.models({ limit: pageSize }).pipe(
          Stream.take(items),
          Stream.runForEachChunk((chunk) =>
            Effect.sync(() => {
              read += Chunk.size(chunk)
              progress(read)
            })
          )
        )
      ),
      Effect.provide(layer)
    )
  )
  return read
}

await scanner("memory-child.ts", client)
