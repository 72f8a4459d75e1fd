/**
 * The live allowance (`LiveAllowance`): one reader of `/usage/`, a request
 * of its own under admission, kept for the contract's spacing, read again
 * when due before an attempt of the request path (`LiveAllowance.step`),
 * over `HttpClient.make` stubs that answer at once, on the TestClock: no
 * read before a client's first request, one before its second, not twice
 * within 12 s, again after a 429 the admission did not expect once the
 * spacing allows it; `resetsAt`; the budget's `account` fed from the read.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { HttpClient, HttpClientResponse } from "effect/http"
import { TestClock } from "effect/testing"
import * as Send from "../../common/src/client/internal/Send.js"
import * as LiveAllowance from "../../common/src/client/LiveAllowance.js"
import { decodeStats, json, pathOver, type Received, statsPurpose, statsUrl, stub, wireStats, wireUsage, withServices } from "./support/RequestPath.js"

// Tests -------------------------------------------------------------------------------

const usageReads = (received: ReadonlyArray<Received>) => received.filter((request) => request.path.endsWith("/usage/")).length

describe("LiveAllowance", () => {
  it.effect("no read before the first request, one before the second, not twice within 12 s", () =>
    Effect.gen(function*() {
      const { client, received } = stub(() => json(200, { data: wireStats }))
      const { allowance, path } = yield* pathOver(client, { live: true })
      const read = Send.send(path, statsPurpose, decodeStats, statsUrl)
      yield* read
      expect(received.map((request) => request.path)).toEqual(["/api/v1/stats/"])
      yield* read
      expect(received.map((request) => request.path)).toEqual(["/api/v1/stats/", "/api/v1/usage/", "/api/v1/stats/"])
      // A 429 the admission did not expect: the read may be out of date, but the spacing holds.
      yield* TestClock.adjust("1 second")
      yield* allowance.outdated
      yield* TestClock.adjust("10 seconds")
      yield* read
      yield* allowance.read
      expect(usageReads(received)).toBe(1)
      yield* TestClock.adjust("1 second")
      yield* read
      expect(usageReads(received)).toBe(2)
      expect(received.at(-2)?.path).toBe("/api/v1/usage/")
    }).pipe(withServices))

  it.effect("read is kept for 12 s, and those who ask within it share one read", () =>
    Effect.gen(function*() {
      const { client, received } = stub(() => json(200, { data: wireStats }))
      const { allowance } = yield* pathOver(client)
      const usage = yield* allowance.read
      expect(usage.minute_limit).toBe(60)
      yield* Effect.all([allowance.read, allowance.read, allowance.read], { concurrency: "unbounded" })
      yield* TestClock.adjust("11999 millis")
      yield* allowance.read
      expect(usageReads(received)).toBe(1)
      yield* TestClock.adjust("1 millis")
      yield* allowance.read
      expect(usageReads(received)).toBe(2)
      // An admission with explicit limits never reads before a request.
      expect(received.filter((request) => request.path.endsWith("/stats/"))).toHaveLength(0)
    }).pipe(withServices))

  it.effect("resetsAt: the daily reset, or the monthly one for a monthly code", () =>
    Effect.gen(function*() {
      const { client } = stub(() => json(200, { data: wireStats }))
      const { allowance } = yield* pathOver(client)
      const daily = yield* allowance.resetsAt(null)
      const monthly = yield* allowance.resetsAt("monthly_quota_exhausted")
      expect(Option.map(daily, (date) => date.toISOString())).toEqual(Option.some("2026-01-02T00:00:00.000Z"))
      expect(Option.map(monthly, (date) => date.toISOString())).toEqual(Option.some("2026-02-01T00:00:00.000Z"))
    }).pipe(withServices))

  it.effect("resetsAt is none when /usage/ cannot be read", () =>
    Effect.gen(function*() {
      const refusing = HttpClient.make((request) => Effect.succeed(HttpClientResponse.fromWeb(request, new Response("{}", { status: 401 }))))
      const { allowance } = yield* pathOver(refusing)
      expect(Option.isNone(yield* allowance.resetsAt(null))).toBe(true)
      const error = yield* Effect.flip(allowance.read)
      expect(error._tag).toBe("InvalidApiKey")
    }).pipe(withServices))

  it.effect("the read feeds the budget's account: what the account has left today, less its own bytes", () =>
    Effect.gen(function*() {
      const { client } = stub(() => json(200, { data: wireStats }))
      const { allowance, budget } = yield* pathOver(client)
      expect(Option.isNone((yield* budget.spent).accountLeft)).toBe(true)
      yield* allowance.read
      const left = (yield* budget.spent).accountLeft
      expect(Option.map(left, (account) => account.units)).toEqual(Option.some(wireUsage.daily_limit - wireUsage.daily_units))
      const bytes = new TextEncoder().encode(JSON.stringify({ data: wireUsage })).byteLength
      expect(Option.map(left, (account) => account.bytes)).toEqual(Option.some(wireUsage.daily_byte_limit - bytes))
    }).pipe(withServices))

  it.effect("step reads when due before each attempt, outside the attempt's own request", () =>
    Effect.gen(function*() {
      const before: Array<string> = []
      const allowance: LiveAllowance.Service = {
        read: Effect.die("unused"),
        resetsAt: () => Effect.succeedNone,
        beforeRequest: Effect.sync(() => before.push("read")),
        outdated: Effect.void,
        readAt: Effect.succeedNone
      }
      const { client } = stub(() => json(200, { data: wireStats }))
      // Client first or last (`dual`): the same step.
      const stepped = LiveAllowance.step(HttpClient.tap(client, () => Effect.sync(() => before.push("sent"))), allowance)
      yield* stepped.get(statsUrl)
      yield* stepped.get(statsUrl)
      expect(before).toEqual(["read", "sent", "read", "sent"])
    }).pipe(withServices))
})
