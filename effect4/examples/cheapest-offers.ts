/**
 * The cheapest offer of each reasoning model, by input price.
 *
 *   node cheapest-offers.ts
 *
 * (configured from CATALOG_API_KEY, CATALOG_BASE_URL and optionally
 * CATALOG_TIME_SCALE, as in first-call.ts)
 *
 * Reads run 4 at a time; the client's admission layer still keeps the
 * account's limits (2 concurrent requests, an even pace), so asking for more
 * concurrency never provokes a 429, it only queues.
 */
import { NodeHttpClient, NodeRuntime } from "@effect/platform-node"
import { Array, BigDecimal, Console, Effect, Layer, Option, Order, Result, Stream } from "effect"
import { CatalogClient, Primitives, type Resources } from "effect-catalog"

/** An offer with a known input price. */
interface Priced {
  readonly offer: Resources.Offer
  readonly input: BigDecimal.BigDecimal
}

/** Cheapest first; prices are BigDecimal, compared exactly. */
const byInputPrice = Order.mapInput(BigDecimal.Order, (priced: Priced) => priced.input)

const cheapestOffer = (model: Resources.Model) =>
  Effect.gen(function*() {
    const catalog = yield* CatalogClient.CatalogClient
    const offers = yield* catalog.modelOffers(model).pipe(Stream.runCollect)
    // Effect 4's filterMap keeps the successes of a Result (Effect 3's, the Somes of an Option).
    const priced = Array.filterMap(offers, (offer) =>
      Result.map(Result.fromNullishOr(offer.pricing.input, () => undefined), (input): Priced => ({ offer, input })))
    return { model, cheapest: Array.isReadonlyArrayNonEmpty(priced) ? Option.some(Array.min(priced, byInputPrice)) : Option.none() }
  })

const program = Effect.gen(function*() {
  const catalog = yield* CatalogClient.CatalogClient
  const models = yield* catalog.models({ reasoning: true }).pipe(Stream.take(20), Stream.runCollect)
  const rows = yield* Effect.forEach(models, cheapestOffer, { concurrency: 4 })

  const line = (model: string, provider: string, price: string) => `${model.padEnd(40)} ${provider.padEnd(24)} ${price.padStart(14)}`
  yield* Console.log(line("model", "cheapest provider", "input $/Mtok"))
  for (const { model, cheapest } of rows) {
    yield* Console.log(Option.match(cheapest, {
      onNone: () => line(model.id, "(no priced offer)", "-"),
      onSome: ({ offer, input }) => line(model.id, offer.provider_id, Primitives.plainDecimal(input))
    }))
  }
  yield* Console.log(`${rows.length} reasoning models`)
})

const CatalogLive = CatalogClient.layerConfig().pipe(Layer.provide(NodeHttpClient.layerUndici))

program.pipe(Effect.provide(CatalogLive), NodeRuntime.runMain)
