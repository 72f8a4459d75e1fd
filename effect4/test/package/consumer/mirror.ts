// README's mirror in SQLite, with Effect 4's names: the models synced into
// catalog.sqlite twice; the first sync inserts every model, the second,
// of an unchanged catalog, reports no change.
import { NodeHttpClient } from "@effect/platform-node"
import { Effect, Layer, Stream } from "effect"
import { CatalogClient } from "effect-catalog"
import { Change, Mirror, MirrorDatabase } from "effect-catalog/mirror"

const syncModels = Mirror.syncDecoded("models").pipe(
  Stream.filter(Change.$is("Inserted")),
  Stream.runCount
)

const program = Effect.gen(function*() {
  const first = yield* syncModels
  const second = yield* Mirror.sync("models").pipe(Stream.runCount)
  const [run] = yield* Mirror.runs(["models"], 1)
  return { first, second, status: run?.status ?? null }
})

const CatalogLive = CatalogClient.layerConfig().pipe(Layer.provide(NodeHttpClient.layerUndici))

program.pipe(
  Effect.provide(Layer.merge(CatalogLive, MirrorDatabase.layerSqlite("catalog.sqlite"))),
  Effect.runPromise
).then((result) => console.log(JSON.stringify(result)))
