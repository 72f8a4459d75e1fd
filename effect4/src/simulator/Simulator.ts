/**
 * A faithful simulator of the Catalog Service, as a `Layer` for tests and
 * applications: a real HTTP server on loopback that answers every operation
 * of the contract with generated data, enforces the account limits, and can
 * inject faults.
 *
 * The simulator is written once, in the Effect 3 edition; this module is
 * the Effect 4 face of its standalone form (`SimulatorStandalone`), which
 * is started and stopped with Promises and has plain switches and keys.
 * The service wraps each switch in an `Effect` and each key in `Redacted`,
 * and the layer gives the simulator the clock of the fiber that builds it,
 * read synchronously (`Clock.currentTimeMillisUnsafe`): under
 * `@effect/vitest` that is the `TestClock`, so `TestClock.adjust` moves the
 * account's windows.
 *
 * The standalone simulator is loaded as one bundled module that holds its
 * own Effect 3 (`scripts/bundle.ts`'s `bundleStandaloneSimulator`), built
 * by the tests' setup and by the package's build at the path this module
 * imports, and declared in plain types (`src/simulator/StandaloneBundle.d.ts`):
 * strings, numbers, maps, arrays and `Promise`s, the settings of
 * `src/simulator/Settings.ts`, and the items `listed` gives, JSON values
 * that the declaration types by this edition's schemas. Neither tsc nor
 * Vitest follows this edition into the modules written on Effect 3, and no
 * value of Effect 3 reaches Effect 4 code.
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
 * @since 1.0.0
 */
import { NodeHttpClient } from "@effect/platform-node"
import { Clock, Effect, Layer, Redacted, type Scope } from "effect"
import { type Config, Duration } from "effect"
import { HttpServerError } from "effect/http"
import * as Admission from "../../../common/src/client/Admission.js"
import * as AdmissionWindows from "../client/AdmissionWindows.js"
import * as CatalogClient from "../../../common/src/client/CatalogClient.js"
import * as Standalone from "../../../src/simulator/StandaloneBundle.js"
import type * as Plain from "../../../src/simulator/Settings.js"
import type { Collation as PlainCollation } from "../../../src/simulator/data/Collation.js"
import { type Service, Simulator } from "../../../common/src/simulator/Service.js"

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
 * @since 1.0.0
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
 * const perMinute = Simulator.Simulator.use((simulator) => Effect.succeed(simulator.options.limits.perMinute)) // 60
 * ```
 * @category models
 * @since 1.0.0
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
 * @since 1.0.0
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
 * const header = Simulator.Simulator.use((simulator) => Effect.succeed(`Bearer ${Redacted.value(simulator.keys[key])}`))
 * ```
 * @category models
 * @since 1.0.0
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
 * const refused = Simulator.Simulator.use((simulator) =>
 *   Effect.map(simulator.answered, (answered) => answered.filter((request: Simulator.Answered) => request.status === 429))
 * )
 * ```
 * @category models
 * @since 1.0.0
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
 * @since 1.0.0
 */
export type Collation = PlainCollation

export { type Service, Simulator } from "../../../common/src/simulator/Service.js"

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
  lifetimeOf: (collection, id) => Effect.sync(() => running.lifetimeOf(collection, id))
})

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
 * @since 1.0.0
 */
export const make = (settings: Settings = {}): Effect.Effect<Service, HttpServerError.ServeError, Scope.Scope> =>
  Effect.gen(function*() {
    const clock = yield* Clock.Clock
    const running = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => Standalone.start(settings, { now: () => clock.currentTimeMillisUnsafe() }),
        catch: (cause) => new HttpServerError.ServeError({ cause })
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
 * @since 1.0.0
 */
export const layer = (settings: Settings = {}): Layer.Layer<Simulator, HttpServerError.ServeError> => Layer.effect(Simulator, make(settings))

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
 * @since 1.0.0
 */
export interface ClientSettings extends Settings {
  /** The key the client sends (default `"full"`). */
  readonly key?: KeyName
  /** How long one request may take, on the real clock (default 1 second: the simulator is on loopback). */
  readonly timeout?: Duration.Input
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
 * Effect 4 has no `Effect.withClock`: the `Clock` reference is provided.
 */
const admissionOn = (clock: Clock.Clock, limits: Admission.Limits): Layer.Layer<Admission.Admission> =>
  Layer.effect(
    Admission.Admission,
    Effect.map(Effect.flatMap(Admission.memoryStore(limits), Admission.make), (admission): Admission.Service => ({
      admit: (request) =>
        Effect.clockWith((sender) =>
          Effect.provideService(admission.admit(Effect.provideService(request, Clock.Clock, sender)), Clock.Clock, clock)
        ),
      pause: (retryAfter) => Effect.provideService(admission.pause(retryAfter), Clock.Clock, clock),
      waiting: admission.waiting,
      limits
    }))
  )

/**
 * A simulator and a `CatalogClient` of it, with its own HTTP client
 * (undici): one layer for the tests of an application, or for trying the
 * library. It provides `Simulator` too, for the tests that flip its
 * switches.
 *
 * It never waits on a clock that nothing moves, so it works under
 * `@effect/vitest`'s `it.effect` and `it.layer` with their `TestClock`.
 * The client keeps real time (`CatalogClient.Options.clock`, the live
 * clock): its time limit, its retries and their `Retry-After`s pass on the
 * real clock, whatever a test does with the `TestClock`. By default the
 * simulator enforces no limits, the client sends each request at once, and
 * retries a fault at once, twice at most. With `enforceLimits: true` the
 * simulator refuses what the account's limits refuse and the client keeps
 * to them: that pacing, and the simulator's windows, follow the clock the
 * layer is built on, the `TestClock` in a test, which the test moves with
 * `TestClock.adjust`.
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
 * @since 1.0.0
 */
export const layerClient = (
  settings: ClientSettings = {}
): Layer.Layer<Simulator | CatalogClient.Provided, HttpServerError.ServeError | Config.ConfigError> => {
  const { key = "full", timeout = "1 second", ...simulatorSettings } = settings
  const client = Layer.unwrap(
    Effect.gen(function*() {
      const simulator = yield* Simulator
      const paced = yield* Clock.Clock
      return CatalogClient.layer({
        baseUrl: simulator.baseUrl,
        apiKey: simulator.keys[key],
        timeout,
        clock: Clock.Clock.defaultValue(),
        retry: immediateRetries,
        admission: simulator.options.enforceLimits ? admissionOn(paced, accountLimits(simulator.options)) : Admission.layerMemory(Admission.noLimits)
      })
    })
  )
  return client.pipe(Layer.provideMerge(layer({ ...clientDefaults, ...simulatorSettings })), Layer.provide(NodeHttpClient.layerUndici))
}
