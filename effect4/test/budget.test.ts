/**
 * The budget in Effect 4, on the test clock: units reserved before a
 * request and settled at what the service charged, a daily budget that
 * refuses the request past it, the account's figures from `/usage/` that
 * bound the day too (less the requests under way), a new UTC day; and
 * `Budget.step` over an `HttpClient` that answers at once: a request sent
 * outside any call counts its bytes only, under its path; one with a
 * charge reserves its units, is refused unsent past the budget, and keeps
 * its units and its whole byte reservation when it never completes.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { HttpClient, HttpClientRequest, HttpClientResponse } from "effect/http"
import { TestClock } from "effect/testing"
import * as Limits from "../../common/src/contract/Limits.js"
import * as Budget from "../../common/src/client/Budget.js"
import * as Errors from "../../common/src/client/Errors.js"

const day = 86_400_000

/** The account's usage as `/usage/` reports it: `used` of `limit` units today, and `bytesUsed` of 250 MiB. */
const usage = (limit: number, used: number, bytesUsed = 0) => ({
  daily_limit: limit,
  daily_units: used,
  daily_byte_limit: Limits.dailyTransferBytes,
  daily_bytes: bytesUsed
})

/** A request of `units`, reserved and settled at what the service charged. */
const spend = (budget: Budget.Service, operation: string, units: number, charged = units, bytes = 100) =>
  Effect.andThen(budget.reserve(units), budget.settle(operation, units, { units: charged, bytes }))

describe("Budget.layer", () => {
  it.effect("spending is counted per operation; a request past the daily budget is refused with BudgetExceeded", () =>
    Effect.gen(function*() {
      const budget = yield* Budget.Budget
      yield* spend(budget, "search", 5, 5, 2_048)
      yield* spend(budget, "models", 1, 1, 512)
      yield* spend(budget, "models", 1, 0, 0)
      const spent = yield* budget.spent
      expect({ requests: spent.requests, units: spent.units, bytes: spent.bytes, unitsToday: spent.unitsToday }).toEqual({
        requests: 3,
        units: 6,
        bytes: 2_560,
        unitsToday: 6
      })
      expect(spent.byOperation.get("models")).toEqual({ requests: 2, units: 1, bytes: 512 })
      expect(Option.isNone(spent.accountLeft)).toBe(true)
      yield* spend(budget, "models", 4)
      const refused = yield* Effect.flip(budget.reserve(1))
      expect(refused).toBeInstanceOf(Errors.BudgetExceeded)
      expect({ of: refused.of, units: refused.units, spent: refused.spent, budget: refused.budget }).toEqual({ of: "budget", units: 1, spent: 10, budget: 10 })
      expect(refused.message).toBe("The request would cost 1 unit; 10 of the daily budget of 10 are spent")
      // A request that costs nothing is never held back.
      yield* budget.reserve(0)
    }).pipe(Effect.provide(Budget.layer({ dailyUnits: 10 }))))

  it.effect("a reservation counts until it is settled; a refund gives its units back", () =>
    Effect.gen(function*() {
      const budget = yield* Budget.Budget
      yield* budget.reserve(5)
      expect((yield* budget.spent).unitsToday).toBe(5)
      expect((yield* Effect.flip(budget.reserve(1))).spent).toBe(5)
      yield* budget.settle("search", 5, { units: 0, bytes: 0 })
      expect((yield* budget.spent).unitsToday).toBe(0)
      yield* budget.reserve(5)
    }).pipe(Effect.provide(Budget.layer({ dailyUnits: 5 }))))

  it.effect("the account's daily units, read from /usage/, bound the requests: the one past them is BudgetExceeded of the account", () =>
    Effect.gen(function*() {
      const budget = yield* Budget.Budget
      yield* budget.account(usage(12, 10, 1_000))
      expect(Option.getOrUndefined((yield* budget.spent).accountLeft)).toEqual({ units: 2, bytes: Limits.dailyTransferBytes - 1_000 })
      yield* spend(budget, "models", 1, 1, 4_000)
      yield* spend(budget, "models", 1, 1, 4_000)
      const refused = yield* Effect.flip(budget.reserve(1))
      expect({ of: refused.of, units: refused.units, spent: refused.spent, budget: refused.budget }).toEqual({ of: "account", units: 1, spent: 12, budget: 12 })
      expect(refused.message).toBe("The request would cost 1 unit; 12 of the account's daily 12 are used (per /usage/)")
      // What the client counts as left is what the account would say is left.
      expect(Option.getOrUndefined((yield* budget.spent).accountLeft)).toEqual({ units: 0, bytes: Limits.dailyTransferBytes - 9_000 })
    }).pipe(Effect.provide(Budget.layer())))

  it.effect("requests under way when the account is read are counted as spent: the service may not have counted them yet", () =>
    Effect.gen(function*() {
      const budget = yield* Budget.Budget
      yield* budget.reserve(5)
      yield* budget.account(usage(20, 10))
      expect(Option.map((yield* budget.spent).accountLeft, (left) => left.units)).toEqual(Option.some(5))
      // Settled at a refund, the reservation comes back.
      yield* budget.settle("search", 5, { units: 0, bytes: 0 })
      expect(Option.map((yield* budget.spent).accountLeft, (left) => left.units)).toEqual(Option.some(10))
    }).pipe(Effect.provide(Budget.layer())))

  it.effect("a new UTC day starts with nothing spent today and no read of the account; the totals stay", () =>
    Effect.gen(function*() {
      const budget = yield* Budget.Budget
      yield* TestClock.setTime(day * 20_000 + day - 1_000)
      yield* spend(budget, "models", 3)
      yield* budget.account(usage(10, 9))
      expect((yield* Effect.flip(budget.reserve(2))).of).toBe("account")
      yield* TestClock.adjust("1 second")
      const spent = yield* budget.spent
      expect({ unitsToday: spent.unitsToday, units: spent.units, left: Option.isNone(spent.accountLeft) }).toEqual({ unitsToday: 0, units: 3, left: true })
      yield* budget.reserve(5)
    }).pipe(Effect.provide(Budget.layer({ dailyUnits: 5 }))))
})

/** A service that answers at once with `status` and `body`; the requests it received. */
const answering = (status: number, body: string | null = "{}") => {
  const received: Array<string> = []
  const client = HttpClient.make((request) =>
    Effect.sync(() => {
      received.push(request.url)
      return HttpClientResponse.fromWeb(request, new Response(body, { status }))
    })
  )
  return { client, received }
}

/** A service never reached: each request fails in transit. */
const unreachable = HttpClient.makeWith<never, never, Errors.TransportError, never>(
  (request) => Effect.flatMap(request, () => Effect.fail(new Errors.TransportError({ reason: "Connection", detail: "connection reset" }))),
  Effect.succeed
)

const statsUrl = "https://catalog.example/api/v1/stats/"

/** Every request costs as a search does. */
const search = (): Budget.Charge => ({ operation: "search", units: 5 })

describe("Budget.step", () => {
  it.effect("outside any call, a request costs no units and is never held back; its bytes are counted under its URL's path", () =>
    Effect.gen(function*() {
      const budget = yield* Budget.Budget
      const { client, received } = answering(200, "{\"data\":\"é\"}")
      const answer = yield* Budget.step(budget)(client).get(statsUrl)
      expect(yield* answer.text).toBe("{\"data\":\"é\"}")
      const spent = yield* budget.spent
      expect(spent.byOperation.get("/api/v1/stats/")).toEqual({ requests: 1, units: 0, bytes: 13 })
      expect(received).toEqual([statsUrl])
      expect(Budget.uncharged(HttpClientRequest.get(statsUrl))).toEqual({ operation: "/api/v1/stats/", units: 0 })
    }).pipe(Effect.provide(Budget.layer({ dailyUnits: 0 }))))

  it.effect("with a charge: a 200, 404, 409 or 422 costs its units, a 304, 429 or 503 none", () =>
    Effect.gen(function*() {
      const budget = yield* Budget.Budget
      for (const status of [200, 404, 409, 422, 304, 429, 503]) {
        const { client } = answering(status, status === 304 ? null : "{}")
        yield* Budget.step(budget, search)(client).get(statsUrl)
      }
      expect((yield* budget.spent).byOperation.get("search")).toEqual({ requests: 7, units: 20, bytes: 12 })
      expect((yield* budget.spent).unitsToday).toBe(20)
    }).pipe(Effect.provide(Budget.layer())))

  it.effect("a request past the budget is refused with BudgetExceeded and never sent", () =>
    Effect.gen(function*() {
      const budget = yield* Budget.Budget
      const { client, received } = answering(200)
      yield* Budget.step(budget, search)(client).get(statsUrl)
      // Client first or last (`dual`): the same step.
      const refused = yield* Effect.flip(Budget.step(client, budget, search).get(statsUrl))
      expect(refused._tag).toBe("BudgetExceeded")
      expect(received).toHaveLength(1)
    }).pipe(Effect.provide(Budget.layer({ dailyUnits: 9 }))))

  it.effect("a request that never completes keeps its units and the whole 512 KiB the service reserved for it", () =>
    Effect.gen(function*() {
      const budget = yield* Budget.Budget
      const error = yield* Effect.flip(Budget.step(budget, search)(unreachable).get(statsUrl))
      expect(error._tag).toBe("TransportError")
      expect((yield* budget.spent).byOperation.get("search")).toEqual({ requests: 1, units: 5, bytes: Limits.maxResponseBytes })
      // Outside any call, only the bytes.
      yield* Effect.flip(unreachable.pipe(Budget.step(budget)).get(statsUrl))
      expect((yield* budget.spent).byOperation.get("/api/v1/stats/")).toEqual({ requests: 1, units: 0, bytes: Limits.maxResponseBytes })
    }).pipe(Effect.provide(Budget.layer())))
})
