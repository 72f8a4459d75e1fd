/**
 * First call: the catalog's counts, then one model read in full.
 *
 *   CATALOG_API_KEY=cat_live_… CATALOG_BASE_URL=https://host/api/v1 node first-call.ts
 *
 * (Node 22.18 and later run a TypeScript file as it is, stripping its types,
 * in an application that installed effect-catalog@1; `npx tsx` works too.)
 *
 * `CatalogClient.layerConfig()` reads its configuration from the environment:
 * CATALOG_API_KEY and CATALOG_BASE_URL (required), CATALOG_TIME_SCALE (to
 * match a simulator started with `--time-scale`), CATALOG_TIMEOUT and
 * CATALOG_DAILY_BUDGET (optional). A missing or malformed value fails at
 * start with a ConfigError that names it.
 */
import { NodeHttpClient, NodeRuntime } from "@effect/platform-node"
import { Console, Effect, Layer, Option, Stream } from "effect"
import { CatalogClient } from "effect-catalog"

const program = Effect.gen(function*() {
  const catalog = yield* CatalogClient.CatalogClient

  // A detail read is an Effect; `stats` costs 1 unit and needs no scope.
  const stats = yield* catalog.stats()
  yield* Console.log(`The catalog holds ${stats.models} models, ${stats.skills} Skills and ${stats.mcps} MCP servers`)

  // A list is a Stream over every page; take only its first item.
  const first = yield* catalog.models({ limit: 1 }).pipe(Stream.runHead)
  if (Option.isNone(first)) return yield* Console.log("The catalog has no models")

  // Every resource carries an `api_url`; `follow` reads it (only below the
  // configured base URL: a foreign link fails with UnsafeLink, unsent).
  const followed = yield* catalog.follow(first.value.api_url)
  if (followed.operation !== "model") return yield* Console.log(`Unexpected resource: ${followed.operation}`)

  // Exact values stay exact: a bigint, a CalendarDate, and null when unknown.
  const model = followed.value
  yield* Console.log(`First model: ${model.name} (${model.id})`)
  yield* Console.log(`  context tokens: ${model.context_tokens?.toString() ?? "unknown"}`)
  yield* Console.log(`  released on:    ${model.released_on?.toString() ?? "unknown"}`)
  yield* Console.log(`  offers:         ${model.offer_count}`)
})

// The client from the environment, over Node's undici HTTP client.
const CatalogLive = CatalogClient.layerConfig().pipe(Layer.provide(NodeHttpClient.layerUndici))

// runMain reports a failure (a typed error or a ConfigError) and exits with code 1.
program.pipe(Effect.provide(CatalogLive), NodeRuntime.runMain)
