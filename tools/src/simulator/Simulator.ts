/**
 * The simulator as an Effect 3 service (`common/src/simulator/Service.ts`),
 * in the program's own runtime: its settings with their defaults, and its
 * layer. The `simulator` command and the standalone form
 * (`Standalone.ts`) run it, and the tools' tests; it loads nothing of the
 * client, so that the standalone bundle holds none. Applications and their
 * tests take `Simulator` of `effect-catalog/simulator`, the face over the
 * standalone form.
 *
 * @internal
 */
import * as HttpServer from "@effect/platform/HttpServer"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Clock, Context, Effect, Layer, Redacted } from "effect"
import { createServer } from "node:http"
import { type Service, Simulator } from "../../../common/src/simulator/Service.js"
import * as Server from "./Server.js"
import type { Options, Settings } from "../../../rules/src/simulator/Settings.js"
import { defaultOptions, State } from "./State.js"

export type { Answered, Faults, KeyName, Options, Settings } from "../../../rules/src/simulator/Settings.js"

export { type Service, Simulator } from "../../../common/src/simulator/Service.js"

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
  changes: settings.changes ?? defaultOptions.changes,
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
      listed: (operation) =>
        Effect.clockWith((clock) =>
          Effect.sync(() => [...(state.catalogAt(clock.unsafeCurrentTimeMillis()).lists[operation]({ path: {}, query: {} }, null) ?? [])])
        ),
      lifetimeOf: (collection, id) => Effect.sync(() => state.catalog.lifetimeOf(collection, id)),
      truth: (family, id) =>
        Effect.clockWith((clock) =>
          Effect.sync(() => {
            const history = state.catalogAt(clock.unsafeCurrentTimeMillis()).historyOf(family, id)
            return history && {
              perDay: history.perSecond * 86_400,
              changes: history.changes.map((seconds) => state.clockTime(seconds)),
              born: history.born === null ? null : state.clockTime(history.born),
              died: history.died === null ? null : state.clockTime(history.died)
            }
          })
        )
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
