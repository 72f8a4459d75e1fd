/**
 * The main job (`npm start`): starts the embedded simulator on a free port,
 * scans the whole models catalog through the client with a progress display,
 * follows a few `api_url`s, handles a refused call exhaustively, re-reads a
 * page for free thanks to its ETag, and prints a summary.
 *
 * @since 0.1.0
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Console, Duration, Effect, Layer, Stream } from "effect"
import * as Budget from "../common/src/client/Budget.js"
import * as CatalogClient from "../common/src/client/CatalogClient.js"
import * as Simulator from "../common/src/simulator/Simulator.js"

/** The simulator runs 100 times faster than the service, so the account's limits cost seconds, not minutes. */
const timeScale = 0.01

const progress = (line: string) =>
  Effect.sync(() => {
    if (process.stderr.isTTY) process.stderr.write(`\r${line}\u001b[K`)
  })

const program = Effect.gen(function*() {
  const simulator = yield* Simulator.Simulator
  const catalog = yield* CatalogClient.CatalogClient
  const budget = yield* Budget.Budget
  yield* Console.log(`Simulator listening at ${simulator.baseUrl} (time scale ${timeScale})`)
  const started = Date.now()

  // 1. A full scan of the models catalog, page by page, within the account's limits.
  const stats = yield* catalog.stats()
  let items = 0
  let largeContexts = 0
  yield* catalog.models({ limit: 100 }).pipe(
    Stream.tap((model) =>
      Effect.suspend(() => {
        items++
        if (model.context_tokens !== null && model.context_tokens > BigInt(Number.MAX_SAFE_INTEGER)) largeContexts++
        return items % 100 === 0 ? progress(`scanning models: ${items}/${stats.models}`) : Effect.void
      })
    ),
    Stream.runDrain
  )
  yield* progress("")
  yield* Console.log(`Scanned ${items} models of ${stats.models}; ${largeContexts} have a context above 2^53 tokens, kept exact as bigint`)

  // 2. Follow a few api_urls, as the contract asks, rather than building paths.
  const first = yield* catalog.modelsPage({ limit: 3 })
  for (const model of first.items) {
    const followed = yield* catalog.follow(model.api_url)
    const name = followed.operation === "model" ? followed.value.name : followed.operation
    yield* Console.log(`  followed ${model.api_url} -> ${name}`)
  }

  // 3. A refused call, handled tag by tag: the compiler checks every case is covered.
  const refused = yield* catalog.model({ organization: "no-such-organization", model: "no-such-model" }).pipe(
    Effect.map((model) => `found ${model.id}`),
    Effect.catchTags({
      InvalidRequest: (error) => Effect.succeed(`fix the request: ${error.detail}`),
      InvalidApiKey: () => Effect.succeed("replace the key"),
      ScopeMissing: (error) => Effect.succeed(`use a key with ${error.requiredScope}`),
      NotFound: (error) => Effect.succeed(`absent, as expected (request ${error.requestId})`),
      ResponseTooLarge: () => Effect.succeed("ask for less"),
      RateLimited: (error) => Effect.succeed(`wait ${Duration.format(error.retryAfter)}`),
      QuotaExhausted: (error) => Effect.succeed(`allowance back at ${error.resetsAt.toISOString()}`),
      BudgetExceeded: (error) => Effect.succeed(`budget of ${error.budget} units spent`),
      ServiceUnavailable: (error) => Effect.succeed(`wait ${Duration.format(error.retryAfter)}`),
      TransportError: (error) => Effect.succeed(`network trouble: ${error.reason}`),
      AdmissionUnavailable: (error) => Effect.succeed(`admission's store failed: ${error.detail}`),
      UnexpectedResponse: (error) => Effect.succeed(`report request ${error.requestId}`)
    })
  )
  yield* Console.log(`A model that does not exist: ${refused}`)

  // 4. Re-reading an unchanged page costs nothing: the client sends its ETag and gets a 304.
  yield* catalog.modelsPage({ limit: 3 })

  const spent = yield* budget.spent
  const retries = yield* CatalogClient.metricTotal(CatalogClient.metrics.retries)
  const notModified = yield* CatalogClient.metricTotal(CatalogClient.metrics.notModified)
  const pages = spent.byOperation.get("models")?.requests ?? 0
  yield* Console.log(
    `Summary: ${items} items, ${pages} pages, ${spent.units} units, ${notModified} answered 304, ` +
      `${retries} retries, ${((Date.now() - started) / 1000).toFixed(1)} s`
  )
})

/** The client of the embedded simulator, with the account's limits scaled like the simulator's. */
const ClientLive = Layer.unwrapEffect(
  Effect.map(Simulator.Simulator, (simulator) =>
    CatalogClient.layer({ baseUrl: simulator.baseUrl, apiKey: simulator.keys.full, limits: { timeScale } }))
).pipe(
  Layer.provideMerge(Simulator.layer({ timeScale })),
  Layer.provide(NodeHttpClient.layerUndici)
)

program.pipe(Effect.provide(ClientLive), NodeRuntime.runMain)
