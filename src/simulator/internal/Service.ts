/**
 * The simulator as an Effect service: its tag, its settings with their
 * defaults, and its layer. It is apart from `Simulator.layerClient`, which
 * needs the client, so that the standalone simulator (`Standalone.ts`),
 * which the Effect 4 edition runs, loads nothing of this edition's client.
 *
 * @internal
 */
import * as HttpServer from "@effect/platform/HttpServer"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Clock, Context, Effect, Layer, Redacted } from "effect"
import { createServer } from "node:http"
import type { CollectionId } from "../../../common/src/contract/Operations.js"
import type { WireItems } from "../data/Catalog.js"
import * as Server from "../Server.js"
import type { Lifetime } from "../data/Slots.js"
import type { Answered, Faults, KeyName, Options, Settings } from "../Settings.js"
import { defaultOptions, State } from "../State.js"

export type { Answered, Faults, KeyName, Options, Settings } from "../Settings.js"

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
