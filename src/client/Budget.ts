/**
 * The units and bytes the client spends, per operation, and an optional
 * daily budget: a request that would pass it fails with `BudgetExceeded`
 * before it is sent.
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
import { Clock, Context, Effect, Exit, Layer, Ref } from "effect"
import { maxResponseBytes } from "../contract/Parameters.js"
import { BudgetExceeded } from "./Errors.js"
import { Call } from "./internal/Call.js"
import { bodyOf } from "./internal/Exchange.js"

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
 * @since 0.1.0
 */
export interface Spending {
  readonly requests: number
  readonly units: number
  readonly bytes: number
}

/**
 * What the client has spent.
 *
 * @example
 * ```ts
 * import type { Budget } from "effect-catalog"
 *
 * const searchUnits = (spent: Budget.Spent): number => spent.byOperation.get("search")?.units ?? 0
 * ```
 * @since 0.1.0
 */
export interface Spent extends Spending {
  /** Units spent since the last UTC midnight (what the budget is checked against). */
  readonly unitsToday: number
  readonly byOperation: ReadonlyMap<string, Spending>
}

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
 *   return yield* budget.spent
 * }).pipe(Effect.provide(Budget.layer({ dailyUnits: 100 })))
 * ```
 * @since 0.1.0
 */
export interface Service {
  /** Reserves the units of a request, or refuses it when the budget would pass. */
  readonly reserve: (units: number) => Effect.Effect<void, BudgetExceeded>
  /** Settles a reservation of `reserved` units at the `units` and `bytes` actually charged. */
  readonly settle: (operation: string, reserved: number, charged: { readonly units: number; readonly bytes: number }) => Effect.Effect<void>
  readonly spent: Effect.Effect<Spent>
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
 * @since 0.1.0
 */
export class Budget extends Context.Tag("effect-catalog/Budget")<Budget, Service>() {}


const day = 86_400_000

const none: Spending = { requests: 0, units: 0, bytes: 0 }

/**
 * A budget of `dailyUnits` (none by default: spending is only counted).
 *
 * @example
 * ```ts
 * import { Budget } from "effect-catalog"
 *
 * const BudgetLive = Budget.layer({ dailyUnits: 2_000 })
 * ```
 * @since 0.1.0
 */
export const layer = (options: { readonly dailyUnits?: number } = {}): Layer.Layer<Budget> =>
  Layer.effect(
    Budget,
    Effect.gen(function*() {
      const state = yield* Ref.make({ day: -1, today: 0, total: none, byOperation: new Map<string, Spending>() })
      const budget = options.dailyUnits ?? Number.POSITIVE_INFINITY
      const rolled = Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Ref.updateAndGet(state, (s) => Math.floor(now / day) === s.day ? s : { ...s, day: Math.floor(now / day), today: 0 }))
      const service: Service = {
        reserve: (units) =>
          Effect.flatMap(rolled, () =>
            Ref.modify(state, (s) =>
              s.today + units > budget
                ? [new BudgetExceeded({ units, spent: s.today, budget }), s] as const
                : [undefined, { ...s, today: s.today + units }] as const)
          ).pipe(Effect.flatMap((refused) => refused === undefined ? Effect.void : Effect.fail(refused))),
        settle: (operation, reserved, charged) =>
          Ref.update(state, (s) => {
            const add = (spending: Spending): Spending => ({
              requests: spending.requests + 1,
              units: spending.units + charged.units,
              bytes: spending.bytes + charged.bytes
            })
            const byOperation = new Map(s.byOperation)
            byOperation.set(operation, add(byOperation.get(operation) ?? none))
            return { ...s, today: s.today - reserved + charged.units, total: add(s.total), byOperation }
          }),
        spent: Effect.map(rolled, (s) => ({ ...s.total, unitsToday: s.today, byOperation: s.byOperation }))
      }
      return service
    })
  )

/** Statuses whose requests the service charges although they failed. */
const chargedStatuses = new Set([404, 409, 422])

/**
 * The step of the request path that keeps the budget: it reserves a
 * request's units before it is sent (refusing it with `BudgetExceeded` past
 * the daily budget; an operation that costs nothing is never held back) and
 * settles them at what the service charged: the units of a 200, 404, 409 or
 * 422, none otherwise, and the bytes of the answer. A request that never
 * completes keeps its units and its whole byte reservation.
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
 * @since 0.2.0
 */
export const step = (budget: Service) =>
<E, R>(client: HttpClient.HttpClient.With<E, R>): HttpClient.HttpClient.With<E | BudgetExceeded, R | Call> =>
  HttpClient.transform(client, (response) =>
    Effect.flatMap(Call, (call) => {
      // What the service keeps of a request that never completes: its units and its whole byte reservation.
      const settle = (charged: { readonly units: number; readonly bytes: number }) =>
        Effect.zipRight(Effect.annotateCurrentSpan("catalog.units", charged.units), budget.settle(call.operation, call.units, charged))
      const sent = Effect.onExit(response, (exit) =>
        Exit.isSuccess(exit)
          ? Effect.flatMap(bodyOf(exit.value), (body) =>
            settle({
              units: exit.value.status === 200 || chargedStatuses.has(exit.value.status) ? call.units : 0,
              bytes: Buffer.byteLength(body)
            }))
          : settle({ units: call.units, bytes: maxResponseBytes }))
      return call.units > 0 ? Effect.zipRight(budget.reserve(call.units), sent) : sent
    }))
