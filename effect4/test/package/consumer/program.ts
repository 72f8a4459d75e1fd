// README's "First call", with Effect 4's own names: the program an
// application of the Effect 4 edition starts from.
import { NodeHttpClient } from "@effect/platform-node"
import { Effect, Layer, Stream } from "effect"
import { CatalogClient } from "effect-catalog"

const program = Effect.gen(function*() {
  const catalog = yield* CatalogClient.CatalogClient
  const stats = yield* catalog.stats()
  const [first] = yield* catalog.models({ reasoning: true, limit: 100 }).pipe(Stream.take(1), Stream.runCollect)
  const followed = first === undefined ? undefined : yield* catalog.follow(first.api_url)
  return { models: stats.models, first: followed?.operation === "model" ? followed.value.name : null }
})

// CATALOG_API_KEY and CATALOG_BASE_URL from the environment; a missing or
// malformed value fails the layer with a ConfigError.
const CatalogLive = CatalogClient.layerConfig().pipe(Layer.provide(NodeHttpClient.layerUndici))

program.pipe(Effect.provide(CatalogLive), Effect.runPromise).then((result) => console.log(JSON.stringify(result)))
