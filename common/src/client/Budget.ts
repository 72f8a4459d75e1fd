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
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Budget } from "effect-catalog"
 *
 * const program = Effect.gen(function*() {
 *   const budget = yield* Budget.Budget
 *   yield* budget.reserve(5)
 *   yield* budget.settle("search", 5, { units: 5, bytes: 2_048 })
 *   return (yield* budget.spent).unitsToday // 5
 * }).pipe(Effect.provide(Budget.layer({ dailyUnits: 100 })))
 * ```
 * @since 0.1.0 (1.x: 1.0.0)
 */
import { Clock, Effect, Exit, fromNullable, Function, HttpClient, type HttpClientRequest, type HttpClientResponse, isHttpClient, Layer, Option, Ref, ServiceTag } from "#edition/internal/Edition.js"
import { maxResponseBytes } from "../contract/Limits.js"
import type * as Resources from "../contract/Resources.js"
import { BudgetExceeded } from "./Errors.js"
import * as BudgetLedger from "../../../rules/src/client/BudgetLedger.js"
import { bodyOf } from "#edition/client/internal/Exchange.js"

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
 * @since 0.1.0 (1.x: 1.0.0)
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
 * @since 0.1.0 (1.x: 1.0.0)
 */
export interface Spent extends Spending {
  /** Units spent since the last UTC midnight (what the budget is checked against). */
  readonly unitsToday: number
  readonly byOperation: ReadonlyMap<string, Spending>
  /** What the account has left today: its last read of `/usage/` less what the client has spent since; none before a read today. */
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
 * @since 0.5.0 (1.x: 1.0.0)
 */
export interface Left extends BudgetLedger.Left {}

/** The figures of `/usage/` that bound the day: the account's daily units and bytes, and what it has used of them. */
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
 * @since 0.1.0 (1.x: 1.0.0)
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
   * requests after it.
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
 * @since 0.1.0 (1.x: 1.0.0)
 */
export class Budget extends ServiceTag<Budget, Service>()("effect-catalog/Budget") {}

/** A budget of `budget` units a day, over its own state. */
const makeService = (budget: number): Effect.Effect<Service> =>
  Effect.map(Ref.make(BudgetLedger.initial), (state): Service => {
    const rolled = Effect.flatMap(Clock.currentTimeMillis, (now) => Ref.updateAndGet(state, (s) => BudgetLedger.rolledOver(s, now)))
    return {
      reserve: (units) =>
        Effect.andThen(
          rolled,
          Ref.modify(state, (s): readonly [BudgetExceeded | undefined, BudgetLedger.Ledger] => {
            const refused = BudgetLedger.refusal(s, units, budget)
            return refused === undefined ? [undefined, BudgetLedger.reserved(s, units)] : [new BudgetExceeded(refused), s]
          })
        ).pipe(Effect.flatMap((refused) => refused === undefined ? Effect.void : Effect.fail(refused))),
      settle: (operation, units, charged) => Ref.update(state, (s) => BudgetLedger.settled(s, operation, units, charged)),
      spent: Effect.map(rolled, (s) => ({
        ...s.total,
        unitsToday: s.today,
        byOperation: s.byOperation,
        accountLeft: fromNullable(BudgetLedger.accountLeft(s))
      })),
      account: (usage) => Effect.andThen(rolled, Ref.update(state, (s) => BudgetLedger.accounted(s, usage)))
    }
  })

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
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const layer = (options: { readonly dailyUnits?: number } = {}): Layer.Layer<Budget> =>
  Layer.effect(Budget, makeService(options.dailyUnits ?? Number.POSITIVE_INFINITY))

/**
 * What a request costs, as `Budget.step` counts it: the operation its
 * spending is counted under, and the units the service charges for it.
 *
 * @example
 * ```ts
 * import type { Budget } from "effect-catalog"
 *
 * const search: Budget.Charge = { operation: "search", units: 5 }
 * ```
 * @category models
 * @since 0.8.0 (1.x: 1.0.0)
 */
export interface Charge {
  readonly operation: string
  readonly units: number
}

/** What `step` asks the cost of a request of: a `Charge`, or an effect that gives one. */
type ChargeOf = (request: HttpClientRequest.HttpClientRequest) => Charge | Effect.Effect<Charge>

/** The path of a URL, or the URL itself when it cannot be parsed. */
const pathOf = (url: string): string => {
  try {
    return new URL(url).pathname
  } catch {
    return url
  }
}

/**
 * What a request sent outside any call of the client costs, as far as the
 * step can know from the request alone: no units, its bytes counted under
 * its URL's path.
 *
 * @example
 * ```ts effect4
 * import { HttpClientRequest } from "effect/http"
 * import { Budget } from "effect-catalog"
 *
 * Budget.uncharged(HttpClientRequest.get("https://catalog.example/api/v1/stats/")) // { operation: "/api/v1/stats/", units: 0 }
 * ```
 *
 * In Effect 3:
 *
 * ```ts effect3
 * import { HttpClientRequest } from "@effect/platform"
 * import { Budget } from "effect-catalog"
 *
 * Budget.uncharged(HttpClientRequest.get("https://catalog.example/api/v1/stats/")) // { operation: "/api/v1/stats/", units: 0 }
 * ```
 * @category utils
 * @since 0.8.0 (1.x: 1.0.0)
 */
export const uncharged = (request: HttpClientRequest.HttpClientRequest): Charge => ({ operation: pathOf(request.url), units: 0 })

/** The bytes of an answer's body, read as the client reads it (as text, once); none when it cannot be read. */
const bytesOf = (answer: HttpClientResponse.HttpClientResponse): Effect.Effect<number> => Effect.map(bodyOf(answer), (body) => Buffer.byteLength(body))

/**
 * The step of the request path that keeps the budget: it reserves a
 * request's units before it is sent (refusing it with `BudgetExceeded` past
 * the daily budget; an operation that costs nothing is never held back) and
 * settles them at what the service charged: the units of a 200, 404, 409 or
 * 422, none otherwise, and the bytes of the answer. A request that never
 * completes keeps its units and its whole byte reservation.
 *
 * What a request costs is `charge`'s (a `Charge`, or an effect that gives
 * one, such as one that reads the request's call): by default (`uncharged`), over an
 * `HttpClient` of one's own, a request has no cost the step can know, and
 * only its bytes are counted, under its path.
 *
 * @example
 * ```ts effect4
 * import { Effect } from "effect"
 * import { HttpClient } from "effect/http"
 * import { Budget } from "effect-catalog"
 *
 * const budgeted = Effect.gen(function*() {
 *   const budget = yield* Budget.Budget
 *   const client = yield* HttpClient.HttpClient
 *   // Every request to /search/ costs 5 units; the others count their bytes only.
 *   return Budget.step(budget, (request) =>
 *     new URL(request.url).pathname.endsWith("/search/") ? { operation: "search", units: 5 } : Budget.uncharged(request))(client)
 * })
 * ```
 *
 * In Effect 3:
 *
 * ```ts effect3
 * import { Effect } from "effect"
 * import { HttpClient } from "@effect/platform"
 * import { Budget } from "effect-catalog"
 *
 * const budgeted = Effect.gen(function*() {
 *   const budget = yield* Budget.Budget
 *   const client = yield* HttpClient.HttpClient
 *   // Every request to /search/ costs 5 units; the others count their bytes only.
 *   return Budget.step(budget, (request) =>
 *     new URL(request.url).pathname.endsWith("/search/") ? { operation: "search", units: 5 } : Budget.uncharged(request))(client)
 * })
 * ```
 * @category combinators
 * @since 0.2.0 (1.x: 1.0.0)
 */
export const step: {
  (budget: Service, charge?: ChargeOf): <E, R>(client: HttpClient.HttpClient.With<E, R>) => HttpClient.HttpClient.With<E | BudgetExceeded, R>
  <E, R>(client: HttpClient.HttpClient.With<E, R>, budget: Service, charge?: ChargeOf): HttpClient.HttpClient.With<E | BudgetExceeded, R>
} = Function.dual(
  (args) => isHttpClient(args[0]),
  <E, R>(client: HttpClient.HttpClient.With<E, R>, budget: Service, charge: ChargeOf = uncharged): HttpClient.HttpClient.With<E | BudgetExceeded, R> =>
    HttpClient.transform(client, (response, request) => {
      const charged = charge(request)
      const known = Effect.isEffect(charged) ? charged : Effect.succeed(charged)
      return Effect.flatMap(known, ({ operation, units }) => budgeted(budget, response, operation, units))
    })
)

/** Reserves a request's `units`, sends it, and settles them at what the service charged. */
const budgeted = <A extends HttpClientResponse.HttpClientResponse, E, R>(
  budget: Service,
  response: Effect.Effect<A, E, R>,
  operation: string,
  units: number
): Effect.Effect<A, E | BudgetExceeded, R> => {
  const settle = (charged: { readonly units: number; readonly bytes: number }) =>
    Effect.andThen(Effect.annotateCurrentSpan("catalog.units", charged.units), budget.settle(operation, units, charged))
  // What the service keeps of a request that never completes: its units and its whole byte reservation.
  const sent = Effect.onExit(response, (exit) =>
    Exit.isSuccess(exit)
      ? Effect.flatMap(bytesOf(exit.value), (bytes) => settle({ units: BudgetLedger.chargedUnits(exit.value.status, units), bytes }))
      : settle({ units, bytes: maxResponseBytes }))
  return units > 0 ? Effect.andThen(budget.reserve(units), sent) : sent
}
