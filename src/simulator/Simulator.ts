/**
 * A faithful simulator of the Catalog Service, as a `Layer` for tests and
 * applications: a real HTTP server on loopback that answers every operation
 * of the contract with generated data, enforces the account limits, and can
 * inject faults.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Simulator } from "effect-catalog/simulator"
 *
 * const program = Effect.gen(function*() {
 *   const simulator = yield* Simulator.Simulator
 *   console.log(simulator.baseUrl) // http://127.0.0.1:PORT/api/v1
 * })
 *
 * Effect.runPromise(program.pipe(Effect.provide(Simulator.layer({ sizes: { models: 500 } }))))
 * ```
 * @since 0.1.0
 */
import type { ServeError } from "@effect/platform/HttpServerError"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import type { ConfigError, Layer } from "effect"
import type * as CatalogClient from "../../common/src/client/CatalogClient.js"
import { type ClientSettings, layerClientOver } from "../../common/src/simulator/ClientLayer.js"
import type { Simulator } from "../../common/src/simulator/Service.js"
import { layer } from "./internal/Service.js"

export type { Collation } from "./data/Collation.js"
export type { Answered, Faults, KeyName, Options, Settings } from "./Settings.js"
export { layer, make, resolve, type Service, Simulator } from "./internal/Service.js"
export type { ClientSettings } from "../../common/src/simulator/ClientLayer.js"

/**
 * A simulator and a `CatalogClient` of it, with its own HTTP client
 * (undici): one layer for the tests of an application, or for trying the
 * library. It provides `Simulator` too, for the tests that flip its
 * switches.
 *
 * It never waits on a clock that nothing moves, so it works under
 * `@effect/vitest`'s `it.effect`, `it.scoped` and `it.layer` with their
 * `TestClock`. The client keeps real time (`CatalogClient.Options.clock`):
 * its time limit, its retries and their `Retry-After`s pass on the real
 * clock, whatever a test does with the `TestClock`. By default the
 * simulator enforces no limits, the client sends each request at once, and
 * retries a fault at once, twice at most: a test of a fault is as fast as
 * one of a success. With `enforceLimits: true` the simulator refuses what
 * the account's limits refuse and the client keeps to them: that pacing,
 * and the simulator's windows, follow the clock the layer is built on, the
 * `TestClock` in a test, which the test moves with `TestClock.adjust`.
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { CatalogClient } from "effect-catalog"
 * import { Simulator } from "effect-catalog/simulator"
 *
 * const reasoning = Effect.flatMap(CatalogClient.CatalogClient, (catalog) => Stream.runCount(catalog.models({ reasoning: true })))
 *
 * Effect.runPromise(reasoning.pipe(Effect.provide(Simulator.layerClient({ sizes: { models: 300 } })))).then(console.log)
 * ```
 * @category layers
 * @since 0.5.0
 */
export const layerClient: (
  settings?: ClientSettings
) => Layer.Layer<Simulator | CatalogClient.Provided, ServeError | ConfigError.ConfigError> = layerClientOver(layer, NodeHttpClient.layerUndici)
