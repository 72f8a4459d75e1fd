/**
 * A faithful simulator of the Catalog Service, as a `Layer` for tests and
 * applications: a real HTTP server on loopback that answers every operation
 * of the contract with generated data, enforces the account limits, and can
 * inject faults.
 *
 * The simulator is a program of its own (`tools/`), written in Effect 3;
 * this module, one text for both editions, is its face over the
 * simulator's standalone form (`SimulatorStandalone`), bundled with the
 * Effect 3 it runs on (`./StandaloneBundle.js`, built by `scripts/bundle.ts`
 * for the tests and for each package), which is started and stopped with
 * Promises and has plain switches and keys, declared in plain types
 * (`./StandaloneBundle.d.ts`, over `rules/src/simulator/Settings.ts`). The
 * service wraps each switch in an `Effect` and each key in `Redacted`, and
 * the layer gives the simulator the clock of the fiber that builds it, read
 * synchronously: under `@effect/vitest` that is the `TestClock`, so
 * `TestClock.adjust` moves the account's windows. No value of the bundle's
 * Effect reaches the edition's code.
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
 * @since 0.1.0 (1.x: 1.0.0)
 */
import { clockNow, type ConfigFailure, Effect, type Layer, Redacted, type Scope, scopedLayer } from "#edition/internal/Edition.js"
import { ServeError, undiciLayer } from "#edition/internal/NodePlatform.js"
import type * as Plain from "../../../rules/src/simulator/Settings.js"
import type * as CatalogClient from "../client/CatalogClient.js"
import { type ClientSettings, layerClientOver } from "./ClientLayer.js"
import { type Service, Simulator } from "./Service.js"
import * as Standalone from "./StandaloneBundle.js"

/**
 * Options of a simulator; every member has a default. They are the Effect 3
 * edition's, the same simulator reading them: the port, the seed, the
 * sizes of the catalog, the time scale, the account's limits and whether
 * they are enforced, the faults, churn, and the collation of ids.
 *
 * @example
 * ```ts
 * import { Simulator } from "effect-catalog/simulator"
 *
 * const settings: Simulator.Settings = { seed: 7, sizes: { models: 200 }, timeScale: 0.01, churn: 0.05 }
 * const SimulatorLive = Simulator.layer(settings)
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type Settings = Plain.Settings

/**
 * How a simulator is set up: its settings with every default filled in.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Simulator } from "effect-catalog/simulator"
 *
 * const perMinute = Effect.gen(function*() {
 *   const simulator = yield* Simulator.Simulator
 *   return simulator.options.limits.perMinute // 60
 * })
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type Options = Plain.Options

/**
 * Faults the simulator can inject: shares (0 to 1) of requests answered 503,
 * dropped without an answer, or answered slowly, and of requests with a
 * cursor answered 409 `cursor_expired` however young the cursor.
 *
 * @example
 * ```ts
 * import { Simulator } from "effect-catalog/simulator"
 *
 * const flaky: Partial<Simulator.Faults> = { unavailable: 0.1, slow: 0.05, slowMillis: 200 }
 * const SimulatorLive = Simulator.layer({ faults: flaky })
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type Faults = Plain.Faults

/**
 * The simulator's keys, by what they may do: every scope (`full`), models
 * only (`models_only`), all but Skill content (`no_content`), and none
 * (`revoked`, refused with 401).
 *
 * @example
 * ```ts
 * import { Effect, Redacted } from "effect"
 * import { Simulator } from "effect-catalog/simulator"
 *
 * const key: Simulator.KeyName = "models_only"
 * const header = Effect.gen(function*() {
 *   const simulator = yield* Simulator.Simulator
 *   return `Bearer ${Redacted.value(simulator.keys[key])}`
 * })
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type KeyName = Plain.KeyName

/**
 * One answered request, for tests that check pacing and limits: when it
 * arrived (the moment the account's windows count it at), when it was
 * answered, its operation and its status.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Simulator } from "effect-catalog/simulator"
 *
 * const refused = Effect.gen(function*() {
 *   const simulator = yield* Simulator.Simulator
 *   const answered = yield* simulator.answered
 *   return answered.filter((request: Simulator.Answered) => request.status === 429)
 * })
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type Answered = Plain.Answered

/**
 * The order of ids in lists: one a service's database might use.
 *
 * @example
 * ```ts
 * import { Simulator } from "effect-catalog/simulator"
 *
 * const collation: Simulator.Collation = "case-insensitive"
 * const SimulatorLive = Simulator.layer({ collation })
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type Collation = Plain.Collation

/**
 * How records change over time (`Settings.changes`).
 *
 * @example
 * ```ts
 * import { Simulator } from "effect-catalog/simulator"
 *
 * const pattern: Simulator.ChangePattern = "daily"
 * const SimulatorLive = Simulator.layer({ changes: pattern, timeScale: 0.001 })
 * ```
 * @category models
 * @since 0.7.3
 */
export type ChangePattern = Plain.ChangePattern

/**
 * A kind of record that changes over time.
 *
 * @category models
 * @since 0.7.3
 */
export type ChangingFamily = Plain.ChangingFamily

/**
 * A record's history under a change pattern (`Service.truth`).
 *
 * @category models
 * @since 0.7.3
 */
export type Truth = Plain.Truth

export { type Service, Simulator } from "./Service.js"

/** The running standalone simulator's switches and reads, as effects; its keys redacted. */
const service = (running: Standalone.Running): Service => ({
  baseUrl: running.baseUrl,
  keys: {
    full: Redacted.make(running.keys.full),
    models_only: Redacted.make(running.keys.models_only),
    no_content: Redacted.make(running.keys.no_content),
    revoked: Redacted.make(running.keys.revoked)
  },
  options: running.options,
  setFaults: (faults) => Effect.sync(() => running.setFaults(faults)),
  injectRateLimit: (count, retryAfterMillis) => Effect.sync(() => running.injectRateLimit(count, retryAfterMillis)),
  spendDailyUnits: (units) => Effect.sync(() => running.spendDailyUnits(units)),
  statusCounts: Effect.sync(() => running.statusCounts()),
  answered: Effect.sync(() => running.answered()),
  peakConcurrency: Effect.sync(() => running.peakConcurrency()),
  epoch: Effect.sync(() => running.epoch()),
  advance: (epochs) => Effect.sync(() => running.advance(epochs)),
  listed: (operation) => Effect.sync(() => running.listed(operation)),
  lifetimeOf: (collection, id) => Effect.sync(() => running.lifetimeOf(collection, id)),
  truth: (family, id) => Effect.sync(() => running.truth(family, id))
})

/**
 * Settings with every default filled in.
 *
 * @example
 * ```ts
 * import { Simulator } from "effect-catalog/simulator"
 *
 * Simulator.resolve({ timeScale: 0.01 }).limits.perMinute // 60
 * ```
 * @category utils
 * @since 0.1.0 (1.x: 1.1.1)
 */
export const resolve: (settings?: Settings) => Options = Standalone.resolve

/**
 * Starts a simulator in the current scope and gives its service; it stops
 * when the scope closes. Its time is the clock of the fiber that runs this
 * effect, read when the simulator needs it: the `TestClock` in a test.
 * It fails with `ServeError` when the server cannot listen (a port in use).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Simulator } from "effect-catalog/simulator"
 *
 * const program = Effect.scoped(
 *   Effect.gen(function*() {
 *     const simulator = yield* Simulator.make({ sizes: { models: 100 } })
 *     return simulator.baseUrl
 *   })
 * )
 * ```
 * @category constructors
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const make = (settings: Settings = {}): Effect.Effect<Service, ServeError, Scope.Scope> =>
  Effect.gen(function*() {
    const now = yield* clockNow
    const running = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => Standalone.start(settings, { now }),
        catch: (cause) => new ServeError({ cause })
      }),
      (running) => Effect.promise(() => running.stop())
    )
    return service(running)
  })

/**
 * A simulator listening on `127.0.0.1` (a free port unless one is given),
 * for as long as the layer is in use; its time is the clock of the fiber
 * that builds the layer.
 *
 * @example
 * ```ts
 * import { Simulator } from "effect-catalog/simulator"
 *
 * const SimulatorLive = Simulator.layer({ timeScale: 0.01, faults: { unavailable: 0.15 } })
 * ```
 * @category layers
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const layer = (settings: Settings = {}): Layer.Layer<Simulator, ServeError> => scopedLayer(Simulator, make(settings))

export type { ClientSettings } from "./ClientLayer.js"

/**
 * A simulator and a `CatalogClient` of it, with its own HTTP client
 * (undici): one layer for the tests of an application, or for trying the
 * library. It provides `Simulator` too, for the tests that flip its
 * switches.
 *
 * It never waits on a clock that nothing moves, so it works under
 * `@effect/vitest`'s `it.effect` and `it.layer` with their
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
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const layerClient: (
  settings?: ClientSettings
) => Layer.Layer<Simulator | CatalogClient.Provided, ServeError | ConfigFailure> = layerClientOver(layer, undiciLayer)
