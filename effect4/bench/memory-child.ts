/**
 * The Effect 4 edition's scanner of benchmark 3 (memory), under Node 22 in a
 * process of its own, against the simulator the Effect 3 edition's scanners
 * read. `bench/memory.ts` compiles it (with the edition and the scanner of
 * `bench/scanSampling.ts`, which has nothing of Effect) into
 * `effect4/.tmp/bench-memory`, where `effect` is this edition's, and runs it
 * without a TypeScript loader:
 *
 *   node --expose-gc effect4/.tmp/bench-memory/effect4/bench/memory-child.js <client|plain> <base_url> <key> [items]
 *
 * `client` scans with the Effect 4 client (default options but the limits,
 * over @effect/platform-node's `NodeHttpClient.layerUndici`), imported
 * through the edition's main entry point; `plain` runs the plain loop under
 * this Node, loading nothing of Effect.
 */
import { type ClientScan, scanner } from "../../bench/scanSampling.js"

const client: ClientScan = async ({ baseUrl, items, key, pageSize }, progress) => {
  const { Effect, Layer, Redacted, Stream } = await import("effect")
  const NodeHttpClient = await import("@effect/platform-node/NodeHttpClient")
  const { Admission, CatalogClient } = await import("../src/index.js")
  const layer = CatalogClient.layer({ baseUrl, apiKey: Redacted.make(key), limits: Admission.noLimits }).pipe(
    Layer.provide(NodeHttpClient.layerUndici)
  )
  let read = 0
  progress(0)
  await Effect.runPromise(
    CatalogClient.CatalogClient.use((catalog) =>
      catalog.models({ limit: pageSize }).pipe(
        Stream.take(items),
        Stream.runForEachArray((array) =>
          Effect.sync(() => {
            read += array.length
            progress(read)
          })
        )
      )
    ).pipe(Effect.provide(layer))
  )
  return read
}

await scanner("memory-child.ts", client)
