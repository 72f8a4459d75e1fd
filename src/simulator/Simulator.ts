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
import { Clock, type ConfigError, Duration, Effect, Layer } from "effect"
import * as Admission from "../../common/src/client/Admission.js"
import * as AdmissionWindows from "../../rules/src/client/AdmissionWindows.js"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import { layer, Simulator } from "./internal/Service.js"
import type { KeyName, Options, Settings } from "./Settings.js"

export type { Collation } from "./data/Collation.js"
export type { Answered, Faults, KeyName, Options, Settings } from "./Settings.js"
export { layer, make, resolve, type Service, Simulator } from "./internal/Service.js"

/**
 * What `layerClient` takes: the simulator's settings, and of its client the
 * key it sends and how long one request may take.
 *
 * @example
 * ```ts
 * import { Simulator } from "effect-catalog/simulator"
 *
 * // The account's limits on, read with the key that may not read Skill content.
 * const settings: Simulator.ClientSettings = { sizes: { models: 50 }, enforceLimits: true, key: "no_content" }
 * const CatalogTest = Simulator.layerClient(settings)
 * ```
 * @category models
 * @since 0.5.0
 */
export interface ClientSettings extends Settings {
  /** The key the client sends (default `"full"`). */
  readonly key?: KeyName
  /** How long one request may take, on the real clock (default 1 second: the simulator is on loopback). */
  readonly timeout?: Duration.DurationInput
}

/** What `layerClient` changes of `layer`'s defaults: no limits, and a service 100 times faster (its `Retry-After`s are tens of milliseconds). */
const clientDefaults = { enforceLimits: false, timeScale: 0.01 } satisfies Settings

/** Retries at once, twice at most: the simulator is on loopback. */
const immediateRetries = { retries: 2, base: Duration.zero }

/**
 * The limits of a simulator's account, for the client's admission, with no
 * margin: the simulator counts each request on the client's own clock, when
 * it arrives, before the client hears its answer; so a test moves the clock
 * by exactly the scaled window to release the next request.
 */
const accountLimits = (options: Options): Admission.Limits =>
  AdmissionWindows.resolve({
    marginMillis: 0,
    perTenSeconds: options.limits.perTenSeconds,
    perMinute: options.limits.perMinute,
    concurrent: options.limits.concurrent,
    timeScale: options.timeScale
  })

/**
 * Admission in memory under `limits` whose waits, and the clock they read,
 * are `clock`'s; the request it admits runs on the sender's clock again.
 */
const admissionOn = (clock: Clock.Clock, limits: Admission.Limits): Layer.Layer<Admission.Admission> =>
  Layer.effect(
    Admission.Admission,
    Effect.map(Effect.flatMap(Admission.memoryStore(limits), Admission.make), (admission): Admission.Service => ({
      admit: (request) => Effect.clockWith((sender) => Effect.withClock(admission.admit(Effect.withClock(request, sender)), clock)),
      pause: (retryAfter) => Effect.withClock(admission.pause(retryAfter), clock),
      waiting: admission.waiting,
      limits
    }))
  )

/**
 * A simulator and a `CatalogClient` of it, with its own HTTP client: one
 * layer for the tests of an application, or for trying the library. It
 * provides `Simulator` too, for the tests that flip its switches.
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
export const layerClient = (
  settings: ClientSettings = {}
): Layer.Layer<Simulator | CatalogClient.Provided, ServeError | ConfigError.ConfigError> => {
  const { key = "full", timeout = "1 second", ...simulatorSettings } = settings
  const client = Layer.unwrapEffect(
    Effect.gen(function*() {
      const simulator = yield* Simulator
      const paced = yield* Effect.clock
      return CatalogClient.layer({
        baseUrl: simulator.baseUrl,
        apiKey: simulator.keys[key],
        timeout,
        clock: Clock.make(),
        retry: immediateRetries,
        admission: simulator.options.enforceLimits ? admissionOn(paced, accountLimits(simulator.options)) : Admission.layerMemory(Admission.noLimits)
      })
    })
  )
  return client.pipe(Layer.provideMerge(layer({ ...clientDefaults, ...simulatorSettings })), Layer.provide(NodeHttpClient.layerUndici))
}
