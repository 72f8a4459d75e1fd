/**
 * The simulator for programs that do not run Effect 3: started and stopped
 * with Promises, its switches plain functions, its keys plain strings, and
 * its time read from a clock the caller may give (`Clock.now`), so that a
 * test on another runtime's test clock moves the simulator's windows with
 * its own. Bundled with what it uses of its dependencies into one module
 * (`scripts/bundle.ts`), it is the one simulator both editions' `Simulator`
 * starts: the simulator is written once.
 *
 * @example
 * ```ts
 * import { SimulatorStandalone } from "effect-catalog/simulator"
 *
 * const running = await SimulatorStandalone.start({ sizes: { models: 50 } })
 * const answer = await fetch(`${running.baseUrl}/models/`, { headers: { authorization: `Bearer ${running.keys.full}` } })
 * await running.stop()
 * ```
 * @since 0.7.0
 */
import { Clock as EffectClock, Context, Duration, Effect, Exit, Layer, Redacted, Scope } from "effect"
import type { CollectionId } from "../../../common/src/contract/Operations.js"
import * as Simulator from "./Simulator.js"
import type { WireItems } from "./data/Catalog.js"
import type * as Plain from "../../../rules/src/simulator/Settings.js"

/**
 * Where the simulator reads the time: milliseconds since the epoch.
 *
 * @example
 * ```ts
 * import type { SimulatorStandalone } from "effect-catalog/simulator"
 *
 * let now = Date.now()
 * const clock: SimulatorStandalone.Clock = { now: () => now }
 * now += 100 // the simulator's windows move on by 100 ms
 * ```
 * @category models
 * @since 0.7.0
 */
export type Clock = Plain.Clock

/**
 * A running simulator: `Simulator.Service` with plain values, the items of
 * each collection typed by this edition's schemas.
 *
 * @example
 * ```ts
 * import type { SimulatorStandalone } from "effect-catalog/simulator"
 *
 * const refused = (running: SimulatorStandalone.Running) => running.statusCounts().get(429) ?? 0
 * ```
 * @category models
 * @since 0.7.0
 */
export interface Running extends Plain.Running<{ readonly [Id in CollectionId]: WireItems[Id] }> {}

/**
 * Settings with every default filled in.
 *
 * @example
 * ```ts
 * import { SimulatorStandalone } from "effect-catalog/simulator"
 *
 * SimulatorStandalone.resolve({ timeScale: 0.01 }).limits.perMinute // 60
 * ```
 * @category utils
 * @since 0.7.3
 */
export const resolve: (settings?: Simulator.Settings) => Plain.Options = Simulator.resolve

/** An Effect clock that reads the time from `clock` and sleeps in real time. */
const effectClock = (clock: Clock): EffectClock.Clock => {
  const real = EffectClock.make()
  return {
    ...real,
    unsafeCurrentTimeMillis: clock.now,
    currentTimeMillis: Effect.sync(clock.now),
    unsafeCurrentTimeNanos: () => BigInt(Math.round(clock.now() * 1_000_000)),
    currentTimeNanos: Effect.sync(() => BigInt(Math.round(clock.now() * 1_000_000))),
    sleep: (duration: Duration.Duration) => real.sleep(duration)
  }
}

/** The service's switches and reads, run at once on the simulator's clock (`now`). */
const plain = (service: Simulator.Service, now: EffectClock.Clock, stop: () => Promise<void>): Running => {
  const run = <A>(effect: Effect.Effect<A>): A => Effect.runSync(Effect.withClock(effect, now))
  return {
    baseUrl: service.baseUrl,
    keys: {
      full: Redacted.value(service.keys.full),
      models_only: Redacted.value(service.keys.models_only),
      no_content: Redacted.value(service.keys.no_content),
      revoked: Redacted.value(service.keys.revoked)
    },
    options: service.options,
    setFaults: (faults) => run(service.setFaults(faults)),
    injectRateLimit: (count, retryAfterMillis) => run(service.injectRateLimit(count, retryAfterMillis)),
    spendDailyUnits: (units) => run(service.spendDailyUnits(units)),
    statusCounts: () => run(service.statusCounts),
    answered: () => run(service.answered),
    peakConcurrency: () => run(service.peakConcurrency),
    epoch: () => run(service.epoch),
    advance: (epochs) => run(service.advance(epochs)),
    listed: (collection) => run(service.listed(collection)),
    lifetimeOf: (collection, id) => run(service.lifetimeOf(collection, id)),
    truth: (family, id) => run(service.truth(family, id)),
    stop
  }
}

/**
 * Starts a simulator with `settings` (those of `Simulator.layer`), reading
 * the time from `clock` (the system's by default); it runs until `stop`.
 *
 * @example
 * ```ts
 * import { SimulatorStandalone } from "effect-catalog/simulator"
 *
 * let now = 0
 * const running = await SimulatorStandalone.start({ enforceLimits: true, timeScale: 0.01 }, { now: () => now })
 * // ten requests fill the 10 s window (100 ms at this time scale); the eleventh waits until now += 100
 * await running.stop()
 * ```
 * @category constructors
 * @since 0.7.0
 */
export const start = (settings: Simulator.Settings = {}, clock: Clock = { now: Date.now }): Promise<Running> => {
  const now = effectClock(clock)
  return Effect.runPromise(
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      const context = yield* Layer.buildWithScope(Simulator.layer(settings), scope).pipe(Effect.onError(() => Scope.close(scope, Exit.void)))
      return plain(Context.get(context, Simulator.Simulator), now, () => Effect.runPromise(Scope.close(scope, Exit.void)))
    }).pipe(Effect.withClock(now))
  )
}
