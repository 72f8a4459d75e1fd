/**
 * Refreshing what you already read costs nothing when it has not changed.
 *
 *   node refresh.ts
 *
 * (configured from CATALOG_API_KEY, CATALOG_BASE_URL and optionally
 * CATALOG_TIME_SCALE, as in first-call.ts)
 *
 * The client keeps every answer that has an ETag. Reading it again sends
 * `If-None-Match`; a 304 gives back the kept value and costs 0 units. The
 * `Budget` service counts what the client spends; to read it, build the
 * client from its parts so that the shared services are exposed too.
 */
import { NodeHttpClient, NodeRuntime } from "@effect/platform-node"
import { Console, Effect, Layer, Stream } from "effect"
import { Budget, CatalogClient } from "effect-catalog"

const program = Effect.gen(function*() {
  const catalog = yield* CatalogClient.CatalogClient
  const budget = yield* Budget.Budget
  const unitsSpent = Effect.map(budget.spent, (spent) => spent.units)

  const listed = yield* catalog.models({ limit: 20 }).pipe(Stream.take(20), Stream.runCollect)
  const readAll = Effect.forEach(listed, (model) => catalog.model(model))

  const start = yield* unitsSpent
  const first = yield* readAll
  const afterFirst = yield* unitsSpent
  const second = yield* readAll
  const afterSecond = yield* unitsSpent

  yield* Console.log(`First pass:  ${first.length} models, ${afterFirst - start} units`)
  yield* Console.log(`Second pass: ${second.length} models, ${afterSecond - afterFirst} units`)

  // What changed in between: compare the `updated_at` of both reads.
  const changed = first.flatMap((before, i) => {
    const after = second[i]
    return after !== undefined && after.updated_at !== before.updated_at ? [after] : []
  })
  yield* Console.log(`Changed: ${changed.length}`)
  for (const model of changed) yield* Console.log(`  ${model.id}: updated at ${model.updated_at ?? "unknown"}`)
})

// CatalogClient.layerConfig() provides the client and its shared services, Budget
// among them, configured from the environment.
const CatalogLive = CatalogClient.layerConfig().pipe(Layer.provide(NodeHttpClient.layerUndici))

program.pipe(Effect.provide(CatalogLive), NodeRuntime.runMain)
