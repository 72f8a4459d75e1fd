/**
 * A simulator and a client of it in one layer, for tests
 * (`Simulator.layerClient`): the simulator without limits and 100 times
 * faster than the service unless asked otherwise, and a client of it that
 * retries at once, on the real clock for its time limit and on the fiber's
 * for the account's windows when the simulator enforces them. One text for
 * both editions, over the simulator layer and the HTTP client each gives.
 *
 * @internal
 */
import { type Clock, type DurationInput, Duration, Effect, type HttpClient, Layer, realClock, unwrapLayer, withClock } from "#edition/internal/Edition.js"
import * as AdmissionWindows from "../../../rules/src/client/AdmissionWindows.js"
import * as Admission from "../client/Admission.js"
import * as CatalogClient from "../client/CatalogClient.js"
import type { KeyName, Options, Settings } from "../../../rules/src/simulator/Settings.js"
import { Simulator } from "./Service.js"

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
 * @since 0.5.0 (1.x: 1.0.0)
 */
export interface ClientSettings extends Settings {
  /** The key the client sends (default `"full"`). */
  readonly key?: KeyName
  /** How long one request may take, on the real clock (default 1 second: the simulator is on loopback). */
  readonly timeout?: DurationInput
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
      admit: (request) => Effect.clockWith((sender) => withClock(admission.admit(withClock(request, sender)), clock)),
      pause: (retryAfter) => withClock(admission.pause(retryAfter), clock),
      waiting: admission.waiting,
      limits
    }))
  )

/**
 * `Simulator.layerClient` over an edition's simulator layer and HTTP
 * client: the client's layer built on the simulator's, and both on the HTTP
 * client.
 */
export const layerClientOver = <E>(
  layer: (settings: Settings) => Layer.Layer<Simulator, E>,
  httpClient: Layer.Layer<HttpClient.HttpClient>
) =>
(settings: ClientSettings = {}) => {
  const { key = "full", timeout = "1 second", ...simulatorSettings } = settings
  const client = unwrapLayer(
    Effect.gen(function*() {
      const simulator = yield* Simulator
      const paced = yield* Effect.clockWith(Effect.succeed)
      return CatalogClient.layer({
        baseUrl: simulator.baseUrl,
        apiKey: simulator.keys[key],
        timeout,
        clock: realClock(),
        retry: immediateRetries,
        admission: simulator.options.enforceLimits ? admissionOn(paced, accountLimits(simulator.options)) : Admission.layerMemory(Admission.noLimits)
      })
    })
  )
  return client.pipe(Layer.provideMerge(layer({ ...clientDefaults, ...simulatorSettings })), Layer.provide(httpClient))
}
