/**
 * Account limits and accounting of the simulator, against the contract's
 * Limits, Unit cost and Conditional requests sections. Every test runs its own
 * simulator with a small time scale so windows are short: on the `TestClock`
 * where a test waits out a window (so that however long the requests take, they
 * fall in one window), on the real clock where requests are slowed by a fault.
 */
import type { HttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema, TestClock } from "effect"
import { maxResponseBytes as reservedBytes } from "../../../common/src/contract/Limits.js"
import * as Simulator from "../../src/simulator/Simulator.js"
import { Resources } from "../../../src/index.js"
import * as Http from "../../../test/support/Http.js"

// Decoding ------------------------------------------------------------------

const Usage = Resources.Usage

const UsageBody = Schema.Struct({ data: Usage })

const Problem = Resources.Problem

const Item = Schema.Struct({ id: Schema.String, api_url: Schema.String })
const Page = Schema.Struct({ data: Schema.Array(Item) })

// Helpers -------------------------------------------------------------------

type Env = Simulator.Simulator | HttpClient.HttpClient

/** Runs `effect` against a fresh simulator with these settings (real clock). */
const withSimulator = (settings: Simulator.Settings) => <A, E>(effect: Effect.Effect<A, E, Env>) =>
  Effect.provide(effect, Http.simulator(settings))

/** The seconds of a reply's Retry-After header, checked to be a number > 0. */
const retryAfterSeconds = (reply: Http.Reply): number => {
  const header = reply.headers["retry-after"]
  expect(header).toMatch(/^\d+(\.\d+)?$/)
  const seconds = Number(header)
  expect(seconds).toBeGreaterThan(0)
  return seconds
}

/** The problem of a refusal with this status and code. */
const expectProblem = (reply: Http.Reply, status: number, code: string) => {
  expect(reply.status).toBe(status)
  expect(reply.headers["content-type"]).toContain("application/problem+json")
  const problem = Schema.decodeUnknownSync(Problem)(reply.json)
  expect(problem.status).toBe(status)
  expect(problem.code).toBe(code)
  return problem
}

const usageReply = Effect.gen(function*() {
  const reply = yield* Http.get("/usage/")
  expect(reply.status).toBe(200)
  return { reply, usage: Schema.decodeUnknownSync(UsageBody)(reply.json).data }
})

const usage = Effect.map(usageReply, ({ usage }) => usage)

const firstApiUrl = (path: string) =>
  Effect.gen(function*() {
    const reply = yield* Http.get(path)
    expect(reply.status).toBe(200)
    const first = Schema.decodeUnknownSync(Page)(reply.json).data[0]
    expect(first).toBeDefined()
    return first?.api_url ?? ""
  })

const okCount = (replies: ReadonlyArray<Http.Reply>) => replies.filter((reply) => reply.status === 200).length

/** Frequency limits far above what a test sends. */
const unthrottled = { perTenSeconds: 100_000, perMinute: 100_000, usagePerMinute: 100_000 }

// Frequency -----------------------------------------------------------------

describe("frequency limits", () => {
  it.effect("10 requests per 10 seconds: the 11th waits for Retry-After", () =>
    Effect.gen(function*() {
      // 10 s scale to 500 ms.
      const window = 10 * 0.05
      for (let n = 0; n < 10; n++) {
        const reply = yield* Http.get("/stats/")
        expect(reply.status).toBe(200)
      }
      const refused = yield* Http.get("/stats/")
      expectProblem(refused, 429, "rate_limited")
      const wait = retryAfterSeconds(refused)
      expect(wait).toBeLessThanOrEqual(window)
      yield* TestClock.adjust(Math.ceil(wait * 1000))
      const again = yield* Http.get("/stats/")
      expect(again.status).toBe(200)
    }).pipe(withSimulator({ timeScale: 0.05 })))

  it.effect("60 requests per minute: the 61st waits for Retry-After", () =>
    Effect.gen(function*() {
      // A minute scales to 1.2 s.
      const minute = 60 * 0.02
      for (let n = 0; n < 60; n++) {
        const reply = yield* Http.get("/stats/")
        expect(reply.status).toBe(200)
      }
      const refused = yield* Http.get("/stats/")
      expectProblem(refused, 429, "rate_limited")
      const wait = retryAfterSeconds(refused)
      expect(wait).toBeLessThanOrEqual(minute)
      yield* TestClock.adjust(Math.ceil(wait * 1000))
      const again = yield* Http.get("/stats/")
      expect(again.status).toBe(200)
    }).pipe(withSimulator({ timeScale: 0.02, limits: { perTenSeconds: 1000 } })))

  it.live("unscaled: Retry-After is a whole number of seconds within the 10 s window", () =>
    Effect.gen(function*() {
      for (let n = 0; n < 10; n++) expect((yield* Http.get("/stats/")).status).toBe(200)
      const refused = yield* Http.get("/stats/")
      expectProblem(refused, 429, "rate_limited")
      expect(refused.headers["retry-after"]).toMatch(/^\d+$/)
      expect(retryAfterSeconds(refused)).toBeLessThanOrEqual(10)
    }).pipe(withSimulator({ sizes: { models: 50 } })))

  it.live("frequency counters stay consumed by 304 and 503 answers", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const first = yield* Http.get("/stats/")
      expect(first.status).toBe(200)
      const etag = first.headers["etag"] ?? ""
      for (let n = 0; n < 4; n++) {
        expect((yield* Http.get("/stats/", { headers: { "if-none-match": etag } })).status).toBe(304)
      }
      yield* simulator.setFaults({ unavailable: 1 })
      for (let n = 0; n < 5; n++) expect((yield* Http.get("/stats/")).status).toBe(503)
      yield* simulator.setFaults({ unavailable: 0 })
      expectProblem(yield* Http.get("/stats/"), 429, "rate_limited")
    }).pipe(withSimulator({ timeScale: 0.05 })))

  it.live("2 concurrent requests: a third in parallel is refused", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const replies = yield* Effect.all([Http.get("/stats/"), Http.get("/stats/"), Http.get("/stats/")], { concurrency: "unbounded" })
      const refused = replies.filter((reply) => reply.status === 429)
      expect(refused).toHaveLength(1)
      expect(okCount(replies)).toBe(2)
      for (const reply of refused) {
        expectProblem(reply, 429, "concurrency_limited")
        retryAfterSeconds(reply)
      }
      expect(yield* simulator.peakConcurrency).toBe(2)
    }).pipe(withSimulator({ timeScale: 0.01, faults: { slow: 1, slowMillis: 300 } })))

  it.effect("/usage/ answers at most 5 calls per minute", () =>
    Effect.gen(function*() {
      for (let n = 0; n < 5; n++) {
        const reply = yield* Http.get("/usage/")
        expect(reply.status).toBe(200)
      }
      const refused = yield* Http.get("/usage/")
      expectProblem(refused, 429, "usage_rate_limited")
      const wait = retryAfterSeconds(refused)
      expect(wait).toBeLessThanOrEqual(60 * 0.02)
      // Data requests are not held back by the /usage/ rate.
      expect((yield* Http.get("/stats/")).status).toBe(200)
      yield* TestClock.adjust(Math.ceil(wait * 1000))
      expect((yield* Http.get("/usage/")).status).toBe(200)
    }).pipe(withSimulator({ timeScale: 0.02 })))
})

// Units ---------------------------------------------------------------------

describe("unit cost", () => {
  it.live("/usage/ reports the contract's allowances and the next UTC resets", () =>
    Effect.gen(function*() {
      const now = yield* usage
      expect(now.daily_limit).toBe(10_000)
      expect(now.monthly_limit).toBe(100_000)
      expect(now.daily_byte_limit).toBe(250 * 1024 * 1024)
      expect(now.minute_limit).toBe(60)
      expect(now.daily_units).toBe(0)
      expect(now.monthly_units).toBe(0)
      const daily = new Date(now.daily_reset_at ?? "")
      const monthly = new Date(now.monthly_reset_at ?? "")
      const nowMillis = Date.now()
      expect(now.daily_reset_at).toMatch(/T00:00:00(\.000)?Z$/)
      expect(daily.getTime()).toBeGreaterThan(nowMillis)
      expect(daily.getTime() - nowMillis).toBeLessThanOrEqual(24 * 3600 * 1000)
      expect(monthly.getUTCDate()).toBe(1)
      expect(now.monthly_reset_at).toMatch(/T00:00:00(\.000)?Z$/)
      expect(monthly.getTime()).toBeGreaterThan(nowMillis)
      expect(monthly.getTime() - nowMillis).toBeLessThanOrEqual(31 * 24 * 3600 * 1000)
    }).pipe(withSimulator({ sizes: { models: 50 } })))

  it.live("each operation costs its units; /usage/, 304 and 503 cost nothing; a 404 costs 1", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      /** The daily and monthly units one request adds. */
      const costOf = (request: Effect.Effect<Http.Reply, unknown, Env>, status: number) =>
        Effect.gen(function*() {
          const before = yield* usage
          const reply = yield* request
          expect(reply.status).toBe(status)
          const after = yield* usage
          expect(after.monthly_units - before.monthly_units).toBe(after.daily_units - before.daily_units)
          return after.daily_units - before.daily_units
        })

      const model = yield* firstApiUrl("/models/?limit=1")
      const skill = yield* firstApiUrl("/skills/?limit=1")
      const mcp = yield* firstApiUrl("/mcps/?limit=1")

      expect(yield* costOf(Http.get("/models/?limit=3"), 200)).toBe(1)
      expect(yield* costOf(Http.get(model), 200)).toBe(1)
      expect(yield* costOf(Http.get("/stats/"), 200)).toBe(1)
      expect(yield* costOf(Http.get("/search/?q=ai&type=models"), 200)).toBe(5)
      expect(yield* costOf(Http.get(`${skill}document/`), 200)).toBe(5)
      expect(yield* costOf(Http.get(`${mcp}connection/`), 200)).toBe(5)
      expect(yield* costOf(Http.get(`${model}benchmarks/`), 200)).toBe(5)
      expect(yield* costOf(Http.get(`${model}activity/`), 200)).toBe(5)
      expect(yield* costOf(Http.get(`${model}applications/`), 200)).toBe(5)
      expect(yield* costOf(Http.get("/usage/"), 200)).toBe(0)

      // 304: revalidating with the ETag of an earlier 200 costs nothing.
      const first = yield* Http.get(model)
      expect(first.status).toBe(200)
      const etag = first.headers["etag"]
      expect(etag).toBeDefined()
      const revalidate = Http.get(model, { headers: { "if-none-match": etag ?? "" } })
      expect(yield* costOf(revalidate, 304)).toBe(0)
      const notModified = yield* revalidate
      expect(notModified.status).toBe(304)
      expect(notModified.text).toBe("")

      // The last page of a list (no cursor in it) revalidates alike.
      const topics = yield* Http.get("/topics/?limit=100")
      expect(topics.status).toBe(200)
      const topicsAgain = Http.get("/topics/?limit=100", { headers: { "if-none-match": topics.headers["etag"] ?? "" } })
      expect(yield* costOf(topicsAgain, 304)).toBe(0)

      // A 404 accepted for processing consumes its unit.
      expect(yield* costOf(Http.get("/models/nobody/nothing/"), 404)).toBe(1)

      // A server failure is refunded (/usage/ itself answers 503 meanwhile, so it is read around the failures).
      const failing = (path: string) =>
        Effect.acquireUseRelease(simulator.setFaults({ unavailable: 1 }), () => Http.get(path), () => simulator.setFaults({ unavailable: 0 }))
      expect(yield* costOf(failing("/models/?limit=3"), 503)).toBe(0)
      expect(yield* costOf(failing(`${model}benchmarks/`), 503)).toBe(0)
      expect(yield* costOf(Http.get("/models/?limit=3"), 200)).toBe(1)
    }).pipe(withSimulator({ timeScale: 0.01, sizes: { models: 50, skills: 30, mcps: 20 }, limits: unthrottled })))

  it.live("the daily allowance: data is refused until the daily reset, /usage/ still answers", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      expect((yield* Http.get("/stats/")).status).toBe(200)
      yield* simulator.spendDailyUnits()
      const refused = yield* Http.get("/stats/")
      const sentAt = Date.now()
      expectProblem(refused, 429, "daily_quota_exhausted")
      const wait = retryAfterSeconds(refused)
      // A day scales to 864 s.
      expect(wait).toBeLessThanOrEqual(864)
      const now = yield* usage
      expect(now.daily_units).toBe(now.daily_limit)
      expect(now.daily_limit).toBe(10_000)
      expect(now.daily_reset_at).not.toBeNull()
      const reset = Date.parse(now.daily_reset_at ?? "")
      expect(reset).toBeGreaterThan(Date.now())
      // Retry-After is the time to that reset.
      expect(Math.abs(sentAt + wait * 1000 - reset)).toBeLessThan(250)
      // A more expensive request is refused alike.
      expectProblem(yield* Http.get("/search/?q=ai&type=models"), 429, "daily_quota_exhausted")
    }).pipe(withSimulator({ timeScale: 0.01, sizes: { models: 50 } })))

  it.effect("the daily allowance comes back at the daily reset given by Retry-After", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      // A day scales to 864 ms; the TestClock starts at the start of one: step inside it.
      yield* TestClock.adjust(100)
      expect((yield* Http.get("/stats/")).status).toBe(200)
      yield* simulator.spendDailyUnits()
      const refused = yield* Http.get("/stats/")
      expectProblem(refused, 429, "daily_quota_exhausted")
      const wait = retryAfterSeconds(refused)
      expect(wait).toBeLessThanOrEqual(0.864)
      yield* TestClock.adjust(Math.ceil(wait * 1000))
      expect((yield* Http.get("/stats/")).status).toBe(200)
      const now = yield* usage
      expect(now.daily_units).toBe(1)
      // The monthly count keeps what was spent the day before.
      expect(now.monthly_units).toBeGreaterThanOrEqual(now.daily_limit + 1)
    }).pipe(withSimulator({ timeScale: 0.00001, sizes: { models: 50 } })))

  it.live("the monthly allowance: refused until the monthly reset", () =>
    Effect.gen(function*() {
      for (let n = 0; n < 3; n++) expect((yield* Http.get("/stats/")).status).toBe(200)
      const refused = yield* Http.get("/stats/")
      const sentAt = Date.now()
      expectProblem(refused, 429, "monthly_quota_exhausted")
      const wait = retryAfterSeconds(refused)
      const now = yield* usage
      expect(now.monthly_units).toBe(3)
      expect(now.monthly_limit).toBe(3)
      expect(now.monthly_reset_at).not.toBeNull()
      const reset = Date.parse(now.monthly_reset_at ?? "")
      expect(reset).toBeGreaterThan(Date.now())
      expect(Math.abs(sentAt + wait * 1000 - reset)).toBeLessThan(250)
    }).pipe(withSimulator({ timeScale: 0.01, sizes: { models: 50 }, limits: { monthlyUnits: 3 } })))
})

// Bytes ---------------------------------------------------------------------

describe("daily transfer", () => {
  it.live("a request whose 512 KiB reservation would pass the allowance is refused while another holds its reservation", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      yield* simulator.setFaults({ slow: 1, slowMillis: 300 })
      const slow = yield* Effect.fork(Http.get("/models/?limit=5"))
      yield* Effect.sleep(100)
      // 512 KiB reserved by the slow request + 512 KiB for this one > 600 KiB.
      const refused = yield* Http.get("/stats/")
      expectProblem(refused, 429, "daily_transfer_exhausted")
      const refusedAt = Date.now()
      const wait = retryAfterSeconds(refused)
      expect(wait).toBeLessThanOrEqual(864)
      const first = yield* slow.await.pipe(Effect.flatten)
      expect(first.status).toBe(200)
      yield* simulator.setFaults({ slow: 0 })

      // Settled: the first request now counts its actual size, so there is room again.
      const before = yield* usageReply
      expect(before.usage.daily_byte_limit).toBe(600 * 1024)
      expect(before.usage.daily_bytes).toBeLessThanOrEqual(600 * 1024)
      // The transfer allowance comes back at the daily reset.
      expect(Math.abs(refusedAt + wait * 1000 - Date.parse(before.usage.daily_reset_at ?? ""))).toBeLessThan(250)
      const stats = yield* Http.get("/stats/")
      expect(stats.status).toBe(200)
      const after = yield* usageReply
      // Between two /usage/ answers: the first /usage/ body and the /stats/ body, as sent.
      expect(after.usage.daily_bytes - before.usage.daily_bytes).toBe(
        Buffer.byteLength(before.reply.text) + Buffer.byteLength(stats.text)
      )
    }).pipe(withSimulator({ timeScale: 0.01, sizes: { models: 50 }, limits: { dailyBytes: 600 * 1024, ...unthrottled } })))

  it.live("sequential requests are refused once the used bytes leave no room for a reservation", () =>
    Effect.gen(function*() {
      const limit = 600 * 1024
      const replies: Array<Http.Reply> = []
      let used = 0
      // Pages of 100 models until one is refused.
      for (let n = 0; n < 40; n++) {
        const reply = yield* Http.get("/models/?limit=100")
        replies.push(reply)
        if (reply.status !== 200) break
        used += Buffer.byteLength(reply.text)
      }
      const last = replies[replies.length - 1]
      expect(last).toBeDefined()
      if (last === undefined) return
      expectProblem(last, 429, "daily_transfer_exhausted")
      // Refused because used + 512 KiB would pass the limit, not because the limit was used.
      expect(used + reservedBytes).toBeGreaterThan(limit)
      expect(used).toBeLessThan(limit)
      // Before the last accepted page there was room for its reservation.
      const lastAccepted = replies[replies.length - 2]
      expect(lastAccepted?.status).toBe(200)
      expect(used - Buffer.byteLength(lastAccepted?.text ?? "") + reservedBytes).toBeLessThanOrEqual(limit)
      // /usage/ reports the settled sizes (plus its own reservation while it is answered).
      const now = yield* usage
      expect(now.daily_bytes).toBe(used + reservedBytes)
    }).pipe(withSimulator({ timeScale: 0.01, sizes: { models: 4000 }, limits: { dailyBytes: 600 * 1024, ...unthrottled } })))
})

// Switches ------------------------------------------------------------------

describe("switches", () => {
  it.live("enforceLimits false: 30 rapid requests all answer 200 and units are still counted", () =>
    Effect.gen(function*() {
      const replies = yield* Effect.all(Array.from({ length: 30 }, () => Http.get("/stats/")), { concurrency: 10 })
      expect(okCount(replies)).toBe(30)
      for (let n = 0; n < 8; n++) expect((yield* Http.get("/usage/")).status).toBe(200)
      const now = yield* usage
      expect(now.daily_units).toBe(30)
      expect(now.monthly_units).toBe(30)
    }).pipe(withSimulator({ timeScale: 0.01, sizes: { models: 50 }, enforceLimits: false })))

  it.live("injectRateLimit: the next two requests get 429 with Retry-After, then 200; statusCounts counts them", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      expect((yield* Http.get("/stats/")).status).toBe(200)
      yield* simulator.injectRateLimit(2, 50)
      for (let n = 0; n < 2; n++) {
        const refused = yield* Http.get("/stats/")
        expectProblem(refused, 429, "rate_limited")
        expect(retryAfterSeconds(refused)).toBeCloseTo(0.05, 3)
      }
      yield* Effect.sleep(55)
      for (let n = 0; n < 3; n++) expect((yield* Http.get("/stats/")).status).toBe(200)
      const counts = yield* simulator.statusCounts
      expect(counts.get(429)).toBe(2)
      expect(counts.get(200)).toBe(4)
    }).pipe(withSimulator({ timeScale: 0.01, sizes: { models: 50 } })))

  it.live("statusCounts and answered report the refusals of the frequency limit", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const replies: Array<Http.Reply> = []
      for (let n = 0; n < 13; n++) replies.push(yield* Http.get("/stats/"))
      expect(okCount(replies)).toBe(10)
      const counts = yield* simulator.statusCounts
      expect(counts.get(200)).toBe(10)
      expect(counts.get(429)).toBe(3)
      const answered = yield* simulator.answered
      expect(answered.filter((entry) => entry.status === 429 && entry.operation === "stats")).toHaveLength(3)
    }).pipe(withSimulator({ timeScale: 0.05, sizes: { models: 50 } })))
})
