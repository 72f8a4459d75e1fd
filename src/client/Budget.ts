/**
 * The units and bytes the client spends, per operation, and an optional
 * daily budget: a request that would pass it fails with `BudgetExceeded`
 * before it is sent. Once the client has read the account's usage from
 * `/usage/` (a client that follows the live allowance does, before its
 * second request), what the account has left today bounds it too, less
 * what the client spends after the read.
 *
 * Units are counted as the contract charges them: 1 or 5 by operation, 0 for
 * `/usage/`, a 304, a 429 and a 503 (refunded). Bytes are the bodies
 * received; a request without a complete answer counts the whole 512 KiB the
 * service reserved for it, since it may keep that reservation until the daily
 * reset.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import { Clock, Context, Effect, Exit, Layer, Option, Ref } from "effect"
import { maxResponseBytes } from "../../common/src/contract/Limits.js"
import type * as Resources from "../../common/src/contract/Resources.js"
import { BudgetExceeded } from "../../common/src/client/Errors.js"
import * as Call from "./internal/Call.js"
import { bodyOf } from "./internal/Exchange.js"
import * as BudgetLedger from "../../rules/src/client/BudgetLedger.js"

/**
 * What one operation has cost.
 *
 * @example
 * ```ts
 * import type { Budget } from "effect-catalog"
 *
 * const describe = (spending: Budget.Spending): string =>
 *   `${spending.requests} requests, ${spending.units} units, ${spending.bytes} bytes`
 * ```
 * @category models
 * @since 0.1.0
 */
export interface Spending extends BudgetLedger.Spending {}

/**
 * What the client has spent.
 *
 * @example
 * ```ts
 * import type { Budget } from "effect-catalog"
 *
 * const searchUnits = (spent: Budget.Spent): number => spent.byOperation.get("search")?.units ?? 0
 * ```
 * @category models
 * @since 0.1.0
 */
export interface Spent extends Spending {
  /** Units spent since the last UTC midnight (what the budget is checked against). */
  readonly unitsToday: number
  readonly byOperation: ReadonlyMap<string, Spending>
  /**
   * What the account has left today: its last read of `/usage/` less what
   * the client has spent since; none before a read today (since 0.5.0).
   */
  readonly accountLeft: Option.Option<Left>
}

/**
 * Units and bytes the account has left today.
 *
 * @example
 * ```ts
 * import type { Budget } from "effect-catalog"
 *
 * const searchesLeft = (left: Budget.Left): number => Math.floor(left.units / 5)
 * ```
 * @category models
 * @since 0.5.0
 */
export interface Left extends BudgetLedger.Left {}

/** The usage figures of `/usage/` that bound the day. */
type DailyUsage = Pick<Resources.Usage, "daily_limit" | "daily_units" | "daily_byte_limit" | "daily_bytes">

/**
 * What the client reserves, settles and reports through.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Budget } from "effect-catalog"
 *
 * const program = Effect.gen(function*() {
 *   const budget: Budget.Service = yield* Budget.Budget
 *   yield* budget.reserve(5) // fails with BudgetExceeded past the daily budget
 *   yield* budget.settle("search", 5, { units: 5, bytes: 2_048 })
 *   yield* budget.account({ daily_limit: 10_000, daily_units: 9_990, daily_byte_limit: 262_144_000, daily_bytes: 0 })
 *   return yield* budget.spent
 * }).pipe(Effect.provide(Budget.layer({ dailyUnits: 100 })))
 * ```
 * @category models
 * @since 0.1.0
 */
export interface Service {
  /** Reserves the units of a request, or refuses it when the budget would pass. */
  readonly reserve: (units: number) => Effect.Effect<void, BudgetExceeded>
  /** Settles a reservation of `reserved` units at the `units` and `bytes` actually charged. */
  readonly settle: (operation: string, reserved: number, charged: { readonly units: number; readonly bytes: number }) => Effect.Effect<void>
  readonly spent: Effect.Effect<Spent>
  /**
   * Takes the account's usage as `/usage/` reports it now: what is left
   * today, less the units of the client's requests under way, bounds the
   * requests after it (since 0.5.0).
   */
  readonly account: (usage: DailyUsage) => Effect.Effect<void>
}

/**
 * The budget service; a client layer provides it, to read what was spent.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Budget } from "effect-catalog"
 *
 * const unitsToday = Budget.Budget.pipe(
 *   Effect.flatMap((budget) => budget.spent),
 *   Effect.map((spent) => spent.unitsToday)
 * )
 * ```
 * @category services
 * @since 0.1.0
 */
export class Budget extends Context.Tag("effect-catalog/Budget")<Budget, Service>() {}


/**
 * A budget of `dailyUnits` (none by default: spending is only counted).
 *
 * @example
 * ```ts
 * import { Budget } from "effect-catalog"
 *
 * const BudgetLive = Budget.layer({ dailyUnits: 2_000 })
 * ```
 * @category layers
 * @since 0.1.0
 */
export const layer = (options: { readonly dailyUnits?: number } = {}): Layer.Layer<Budget> =>
  Layer.effect(
    Budget,
    Effect.gen(function*() {
      const state = yield* Ref.make(BudgetLedger.initial)
      const budget = options.dailyUnits ?? Number.POSITIVE_INFINITY
      const rolled = Effect.flatMap(Clock.currentTimeMillis, (now) => Ref.updateAndGet(state, (s) => BudgetLedger.rolledOver(s, now)))
      const service: Service = {
        reserve: (units) =>
          Effect.flatMap(rolled, () =>
            Ref.modify(state, (s): readonly [BudgetExceeded | undefined, BudgetLedger.Ledger] => {
              const refused = BudgetLedger.refusal(s, units, budget)
              return refused === undefined ? [undefined, BudgetLedger.reserved(s, units)] : [new BudgetExceeded(refused), s]
            })
          ).pipe(Effect.flatMap((refused) => refused === undefined ? Effect.void : Effect.fail(refused))),
        settle: (operation, reserved, charged) => Ref.update(state, (s) => BudgetLedger.settled(s, operation, reserved, charged)),
        spent: Effect.map(rolled, (s) => ({
          ...s.total,
          unitsToday: s.today,
          byOperation: s.byOperation,
          accountLeft: Option.fromNullable(BudgetLedger.accountLeft(s))
        })),
        account: (usage) => Effect.zipRight(rolled, Ref.update(state, (s) => BudgetLedger.accounted(s, usage)))
      }
      return service
    })
  )

/**
 * The step of the request path that keeps the budget: it reserves a
 * request's units before it is sent (refusing it with `BudgetExceeded` past
 * the daily budget; an operation that costs nothing is never held back) and
 * settles them at what the service charged: the units of a 200, 404, 409 or
 * 422, none otherwise, and the bytes of the answer. A request that never
 * completes keeps its units and its whole byte reservation. The cost is the
 * operation's, from the call the client sends the request for; over an
 * `HttpClient` of one's own, a request has no cost the step can know, and
 * only its bytes are counted, under its path.
 *
 * @example
 * ```ts
 * import { HttpClient } from "@effect/platform"
 * import { Effect } from "effect"
 * import { Budget } from "effect-catalog"
 *
 * const budgeted = Effect.gen(function*() {
 *   const budget = yield* Budget.Budget
 *   const client = yield* HttpClient.HttpClient
 *   return Budget.step(budget)(client)
 * })
 * ```
 * @category combinators
 * @since 0.2.0
 */
export const step = (budget: Service) =>
<E, R>(client: HttpClient.HttpClient.With<E, R>): HttpClient.HttpClient.With<E | BudgetExceeded, R> =>
  HttpClient.transform(client, (response, request) =>
    Effect.flatMap(Call.current, (call) => {
      // A request sent outside a call of the client has no cost the step can know: its bytes are counted, under its path.
      const operation = Option.match(call, { onNone: () => new URL(request.url).pathname, onSome: (call) => call.operation.id })
      const units = Option.match(call, { onNone: () => 0, onSome: (call) => call.operation.units })
      // What the service keeps of a request that never completes: its units and its whole byte reservation.
      const settle = (charged: { readonly units: number; readonly bytes: number }) =>
        Effect.zipRight(Effect.annotateCurrentSpan("catalog.units", charged.units), budget.settle(operation, units, charged))
      const sent = Effect.onExit(response, (exit) =>
        Exit.isSuccess(exit)
          ? Effect.flatMap(bodyOf(exit.value), (body) =>
            settle({
              units: BudgetLedger.chargedUnits(exit.value.status, units),
              bytes: Buffer.byteLength(body)
            }))
          : settle({ units, bytes: maxResponseBytes }))
      return units > 0 ? Effect.zipRight(budget.reserve(units), sent) : sent
    }))
