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
import * as HttpServer from "@effect/platform/HttpServer"
import type { ServeError } from "@effect/platform/HttpServerError"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Clock, type ConfigError, Context, Duration, Effect, Layer, Redacted } from "effect"
import { createServer } from "node:http"
import * as Admission from "../client/Admission.js"
import * as AdmissionWindows from "../../rules/src/client/AdmissionWindows.js"
import * as CatalogClient from "../client/CatalogClient.js"
import type { CollectionId } from "../contract/Operations.js"
import type { WireItems } from "./data/Catalog.js"
import * as Server from "./Server.js"
import type { Lifetime } from "./data/Slots.js"
import type { Answered, Faults, KeyName, Options, Settings } from "./Settings.js"
import { defaultOptions, State } from "./State.js"

export type { Collation } from "./data/Collation.js"
export type { Answered, Faults, KeyName, Options, Settings } from "./Settings.js"

/**
 * A running simulator: where it listens, its keys, and switches for tests.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Simulator } from "effect-catalog/simulator"
 *
 * const tooManyRequests = (simulator: Simulator.Service) =>
 *   Effect.gen(function*() {
 *     yield* simulator.injectRateLimit(1, 500)
 *     // ... send requests ...
 *     const counts = yield* simulator.statusCounts
 *     return counts.get(429) ?? 0
 *   })
 * ```
 * @category models
 * @since 0.1.0
 */
export interface Service {
  /** `http://127.0.0.1:PORT/api/v1` */
  readonly baseUrl: string
  readonly keys: Readonly<Record<KeyName, Redacted.Redacted<string>>>
  readonly options: Options
  /** Changes the fault switches from now on. */
  readonly setFaults: (faults: Partial<Faults>) => Effect.Effect<void>
  /** Answers the next `count` admitted requests with 429 and this `Retry-After`. */
  readonly injectRateLimit: (count: number, retryAfterMillis: number) => Effect.Effect<void>
  /** Uses up `units` of today's allowance (all of it by default). */
  readonly spendDailyUnits: (units?: number) => Effect.Effect<void>
  /** How many responses had each status. */
  readonly statusCounts: Effect.Effect<ReadonlyMap<number, number>>
  /** Every answered request, oldest first. */
  readonly answered: Effect.Effect<ReadonlyArray<Answered>>
  /** The most requests that were ever in flight at once. */
  readonly peakConcurrency: Effect.Effect<number>
  /** The catalog's epoch: the count of list pages served under churn, or of epochs advanced by hand. */
  readonly epoch: Effect.Effect<number>
  /**
   * Moves churn on by `epochs` (with `churnClock: "manual"`, the only thing
   * that does). Each changing record changes at one epoch from 1 to
   * `churnHorizon` (default 40), so `advance(3)` makes only the changes drawn
   * for the epochs it passes, and none at all without `churn`; advancing by
   * `churnHorizon` makes every change.
   */
  readonly advance: (epochs: number) => Effect.Effect<void>
  /**
   * Every item of a collection (`Operations.collections`) as it is now, in
   * its wire form and order, typed as the encoded side of the collection's
   * resource (`typeof Resources.Model.Encoded` for `listed("models")`).
   */
  readonly listed: <Id extends CollectionId>(operation: Id) => Effect.Effect<ReadonlyArray<WireItems[Id]>>
  /** The epochs during which a model, Skill or MCP server exists. */
  readonly lifetimeOf: (collection: "models" | "skills" | "mcps", id: string) => Effect.Effect<Lifetime | undefined>
}

/**
 * The running simulator.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Simulator } from "effect-catalog/simulator"
 *
 * // Every request answered 503 from now on, until the switch is reset.
 * const unavailable = Effect.flatMap(Simulator.Simulator, (simulator) => simulator.setFaults({ unavailable: 1 }))
 * ```
 * @category services
 * @since 0.1.0
 */
export class Simulator extends Context.Tag("effect-catalog/Simulator")<Simulator, Service>() {}

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
 * @since 0.1.0
 */
export const resolve = (settings: Settings = {}): Options => ({
  seed: settings.seed ?? defaultOptions.seed,
  sizes: { ...defaultOptions.sizes, ...settings.sizes },
  timeScale: settings.timeScale ?? defaultOptions.timeScale,
  limits: { ...defaultOptions.limits, ...settings.limits },
  enforceLimits: settings.enforceLimits ?? defaultOptions.enforceLimits,
  faults: { ...defaultOptions.faults, ...settings.faults },
  churn: { rate: settings.churn ?? defaultOptions.churn.rate, horizon: settings.churnHorizon ?? defaultOptions.churn.horizon },
  churnClock: settings.churnClock ?? defaultOptions.churnClock,
  collation: settings.collation ?? defaultOptions.collation
})

const serve = (options: Options) =>
  Effect.gen(function*() {
    const server = yield* HttpServer.HttpServer
    const port = server.address._tag === "TcpAddress" ? server.address.port : 0
    const state = new State(options, `http://127.0.0.1:${port}/api/v1`, yield* Clock.currentTimeMillis)
    yield* HttpServer.serveEffect(Server.make(state))
    const service: Service = {
      baseUrl: state.baseUrl,
      keys: {
        full: Redacted.make(state.keys.full),
        models_only: Redacted.make(state.keys.models_only),
        no_content: Redacted.make(state.keys.no_content),
        revoked: Redacted.make(state.keys.revoked)
      },
      options,
      setFaults: (faults) => Effect.sync(() => (state.faults = { ...state.faults, ...faults })),
      injectRateLimit: (count, retryAfterMillis) => Effect.sync(() => (state.injected = { remaining: count, retryAfterMillis })),
      spendDailyUnits: (units) => Effect.clockWith((clock) => Effect.sync(() => state.account.spendDailyUnits(clock.unsafeCurrentTimeMillis(), units))),
      statusCounts: Effect.sync(() => new Map(state.statusCounts)),
      answered: Effect.sync(() => [...state.answered]),
      peakConcurrency: Effect.sync(() => state.account.peakInFlight),
      epoch: Effect.sync(() => state.catalog.epoch),
      advance: (epochs) => Effect.sync(() => (state.catalog.epoch += epochs)),
      listed: (operation) => Effect.sync(() => [...(state.catalog.lists[operation]({ path: {}, query: {} }, null) ?? [])]),
      lifetimeOf: (collection, id) => Effect.sync(() => state.catalog.lifetimeOf(collection, id))
    }
    return service
  })

/**
 * A simulator listening on `127.0.0.1` (a free port unless one is given),
 * for as long as the layer is in use.
 *
 * @example
 * ```ts
 * import { Simulator } from "effect-catalog/simulator"
 *
 * const SimulatorLive = Simulator.layer({ timeScale: 0.01, faults: { unavailable: 0.15 } })
 * ```
 * @category layers
 * @since 0.1.0
 */
export const layer = (settings: Settings = {}) => {
  const options = resolve(settings)
  return Layer.scoped(Simulator, serve(options)).pipe(
    Layer.provide(NodeHttpServer.layer(() => createServer(), { port: settings.port ?? 0, host: "127.0.0.1" }))
  )
}

/**
 * Starts a simulator in the current scope and gives its service; it stops
 * when the scope closes.
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
 * @since 0.1.0
 */
export const make = (settings: Settings = {}) => Layer.build(layer(settings)).pipe(Effect.map(Context.get(Simulator)))

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
