// A consumer written in plain JavaScript: starts the simulator, scans a list
// and reads `stats` through the client, and prints what it found as one JSON
// line. The test runs it as an ES module, and as CommonJS with each import
// turned into a require.
import { NodeHttpClient } from "@effect/platform-node"
import { Effect, Layer, Stream } from "effect"
import { CatalogClient } from "effect-catalog"
import { Simulator } from "effect-catalog/simulator"

const timeScale = 0.01

const program = Effect.gen(function*() {
  const simulator = yield* Simulator.Simulator
  const CatalogLive = CatalogClient.layer({
    baseUrl: simulator.baseUrl,
    apiKey: simulator.keys.full,
    limits: { timeScale }
  }).pipe(Layer.provide(NodeHttpClient.layerUndici))
  const found = yield* Effect.gen(function*() {
    const catalog = yield* CatalogClient.CatalogClient
    const ids = yield* Stream.runCollect(Stream.map(catalog.models(), (model) => model.id))
    const stats = yield* catalog.stats()
    return { scanned: ids.length, distinct: new Set(ids).size, stats: stats.models }
  }).pipe(Effect.provide(CatalogLive))
  console.log(JSON.stringify(found))
}).pipe(Effect.provide(Simulator.layer({ sizes: { models: 230 }, timeScale })))

Effect.runPromise(program).catch((error) => {
  console.error(error)
  process.exitCode = 1
})
