/**
 * The simulator as each edition's programs see it: a running simulator's
 * address, keys and switches as effects (`Service`), and its tag. One text
 * for both editions; each edition's `Simulator` module gives the layer that
 * starts it (the Effect 3 edition in process, the Effect 4 edition over the
 * standalone simulator), and the settings are the simulator's own plain
 * types (`src/simulator/Settings.ts`).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Simulator } from "effect-catalog/simulator"
 *
 * // Every request answered 503 from now on, until the switch is reset.
 * const unavailable = Effect.gen(function*() {
 *   const simulator = yield* Simulator.Simulator
 *   yield* simulator.setFaults({ unavailable: 1 })
 * })
 * ```
 * @since 0.8.0 (1.x: 1.0.0)
 */
import { type Effect, type Redacted, ServiceTag } from "#edition/internal/Edition.js"
import type { CollectionId } from "../contract/Operations.js"
import type { Answered, ChangingFamily, Faults, KeyName, Lifetime, Options, Truth } from "../../../rules/src/simulator/Settings.js"
import type { WireItems } from "./StandaloneBundle.js"

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
 * @since 0.1.0 (1.x: 1.0.0)
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
  /**
   * Under a change pattern (`Settings.changes`), the history of a record up
   * to now on the simulator's clock: its hidden rate and when it changed,
   * appeared and went (a model's id for `modelOffers`), the truth a
   * mirror's freshness is measured against; `undefined` for no such record,
   * or when records do not change.
   */
  readonly truth: (family: ChangingFamily, id: string) => Effect.Effect<Truth | undefined>
}

/**
 * The running simulator.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Simulator } from "effect-catalog/simulator"
 *
 * const baseUrl = Effect.gen(function*() {
 *   const simulator = yield* Simulator.Simulator
 *   return simulator.baseUrl
 * })
 * ```
 * @category services
 * @since 0.1.0 (1.x: 1.0.0)
 */
export class Simulator extends ServiceTag<Simulator, Service>()("effect-catalog/Simulator") {}
