/**
 * The retry policy in Effect 4, on the test clock: what is worth another
 * attempt (where waiting cannot help, a request fails at once), the
 * jittered exponential backoff bounded in attempts and in elapsed time,
 * never sooner than `Retry-After`; and `Retry.step` over an `HttpClient`
 * that answers at once, telling each attempt which one it is
 * (`Retry.currentAttempt`). Which errors are worth another attempt and the
 * arithmetic of the longest wait, rules both editions share, are tested
 * once in rules/test/client/RetryRules.test.ts.
 */
import { describe, expect, it } from "@effect/vitest"
import { Cause, Clock, Duration, Effect, Exit, Fiber, Pull, Random, Schedule } from "effect"
import { HttpClient, HttpClientResponse } from "effect/http"
import { TestClock } from "effect/testing"
import * as Errors from "../../common/src/client/Errors.js"
import * as Retry from "../../common/src/client/Retry.js"

const url = "https://catalog.example/api/v1/stats/"

/** An attempt as the service saw it: what the retry step said of it, and when it came. */
interface Seen {
  readonly attempt: Retry.Attempt
  readonly at: number
}

/** The refusal of an answer, as the client maps it. */
const refusalOf = (status: number, headers: Readonly<Record<string, string | undefined>>) =>
  Errors.fromAnswer({ status, headers, body: "" }, { now: 0, scope: null, redact: (text) => text })

/**
 * A service that answers at once: with these statuses in turn (the last
 * one for every later request), each refusal the client's error; and the
 * attempts it saw.
 */
const answering = (statuses: ReadonlyArray<number>, headers: Readonly<Record<string, string>> = {}) => {
  const seen: Array<Seen> = []
  const http = HttpClient.make((request) =>
    Effect.gen(function*() {
      const status = statuses[Math.min(seen.length, statuses.length - 1)] ?? 200
      seen.push({ attempt: yield* Retry.currentAttempt, at: yield* Clock.currentTimeMillis })
      return HttpClientResponse.fromWeb(request, new Response(status === 200 ? "{}" : "", { status, headers }))
    })
  )
  const client = HttpClient.transform(http, (response) =>
    Effect.flatMap(response, (answer) => answer.status === 200 ? Effect.succeed(answer) : Effect.fail(refusalOf(answer.status, answer.headers))))
  return { client, seen }
}

/** A service that is never reached: every attempt fails in transit for `reason`; and the attempts made. */
const unreachable = (reason: Errors.TransportError["reason"]) => {
  const seen: Array<Seen> = []
  const client = HttpClient.makeWith<never, never, Errors.TransportError, never>(
    (request) =>
      Effect.flatMap(request, () =>
        Effect.gen(function*() {
          seen.push({ attempt: yield* Retry.currentAttempt, at: yield* Clock.currentTimeMillis })
          return yield* Effect.fail(new Errors.TransportError({ reason, detail: `${reason} failed` }))
        })),
    Effect.succeed
  )
  return { client, seen }
}

/** Jitter at its least (× 0.8) or at its most (× 1.2). */
const jitterAt = (random: 0 | 1) => Effect.provideService(Random.Random, { nextDoubleUnsafe: () => random, nextIntUnsafe: () => 0 })

const first: Retry.Attempt = { number: 1, reason: null }

describe("Retry.longestWait and the default policy", () => {
  it("the default policy's longest wait, as a Duration: 5 retries from 500 ms at the largest jitter, 18.6 s", () => {
    expect(Retry.defaultPolicy.retries).toBe(5)
    expect(Duration.toMillis(Retry.defaultPolicy.maxWait)).toBe(60_000)
    expect(Duration.toMillis(Retry.longestWait(Retry.defaultPolicy))).toBe(18_600)
  })
})

describe("Retry.schedule", () => {
  const limited = (seconds: number) => refusalOf(429, { "retry-after": String(seconds) })
  /** The delays the schedule gives for these errors, at these moments, until it is done. */
  const delays = (policy: Retry.Policy, inputs: ReadonlyArray<readonly [number, Errors.ResponseError | Errors.TransportError]>) =>
    Effect.gen(function*() {
      const step = yield* Schedule.toStep(Retry.schedule<Errors.ResponseError | Errors.TransportError>(policy))
      const given: Array<number | "done"> = []
      for (const [now, error] of inputs) {
        const delay = yield* Pull.matchEffect(step(now, error), {
          onSuccess: ([, delay]) => Effect.succeed(Duration.toMillis(delay)),
          onFailure: Effect.failCause,
          onDone: () => Effect.succeed("done" as const)
        })
        given.push(delay)
        if (delay === "done") break
      }
      return given
    })
  const connection = new Errors.TransportError({ reason: "Connection", detail: "reset" })

  it.effect("exponential from the base, jittered between × 0.8 and × 1.2, at most `retries` times", () =>
    Effect.gen(function*() {
      const policy = { ...Retry.defaultPolicy, retries: 3, base: Duration.millis(100) }
      const inputs = [0, 1, 2, 3].map((now) => [now, connection] as const)
      expect(yield* delays(policy, inputs).pipe(jitterAt(0))).toEqual([80, 160, 320, "done"])
      expect(yield* delays(policy, inputs).pipe(jitterAt(1))).toEqual([120, 240, 480, "done"])
    }))

  it.effect("never sooner than Retry-After, and stopped by the first error that is not retryable", () =>
    Effect.gen(function*() {
      const policy = { ...Retry.defaultPolicy, base: Duration.millis(100) }
      expect(yield* delays(policy, [[0, limited(3)], [1, limited(0)], [2, connection], [3, refusalOf(404, {})]]).pipe(jitterAt(1))).toEqual([
        3_000,
        240,
        480,
        "done"
      ])
      expect(yield* delays(policy, [[0, new Errors.TransportError({ reason: "Certificate", detail: "self-signed" })]])).toEqual(["done"])
    }))

  it.effect("no retry is scheduled once maxElapsed has passed since the first failure", () =>
    Effect.gen(function*() {
      const policy = { ...Retry.defaultPolicy, retries: 10, base: Duration.millis(100), maxElapsed: Duration.seconds(1) }
      // Failures at 5 s (the first), 5.6 s, 6 s (1 s since the first: still retried) and 6.001 s (past it).
      const given = yield* delays(policy, [[5_000, connection], [5_600, connection], [6_000, connection], [6_001, connection]])
      expect(given.map((delay) => delay === "done")).toEqual([false, false, false, true])
    }))
})

describe("Retry.step", () => {
  it.effect("a 503 with Retry-After: 2 is sent again exactly 2 s later, as attempt 2 after ServiceUnavailable", () =>
    Effect.gen(function*() {
      const { client, seen } = answering([503, 200], { "retry-after": "2" })
      const reading = yield* Effect.forkChild(Retry.step(Retry.defaultPolicy)(client).get(url))
      yield* TestClock.adjust("1999 millis")
      expect(seen, "no attempt a millisecond early").toHaveLength(1)
      yield* TestClock.adjust("1 millis")
      expect((yield* Fiber.join(reading)).status).toBe(200)
      expect(seen).toEqual([{ attempt: first, at: 0 }, { attempt: { number: 2, reason: "ServiceUnavailable" }, at: 2_000 }])
    }))

  it.effect("the backoffs double from the base, and after `retries` the last error is the request's", () =>
    Effect.gen(function*() {
      const { client, seen } = answering([503], { "retry-after": "0" })
      const policy = { ...Retry.defaultPolicy, retries: 3, base: Duration.millis(100) }
      const reading = yield* Effect.forkChild(Effect.flip(Retry.step(policy)(client).get(url)).pipe(jitterAt(0)))
      yield* TestClock.adjust("10 seconds")
      const error = yield* Fiber.join(reading)
      expect(error._tag).toBe("ServiceUnavailable")
      expect(seen.map((attempt) => attempt.at)).toEqual([0, 80, 240, 560])
      expect(seen.map((attempt) => attempt.attempt)).toEqual([
        first,
        { number: 2, reason: "ServiceUnavailable" },
        { number: 3, reason: "ServiceUnavailable" },
        { number: 4, reason: "ServiceUnavailable" }
      ])
    }))

  it.effect("each attempt is told the error it follows: a 429, then a 503, then the answer", () =>
    Effect.gen(function*() {
      const { client, seen } = answering([429, 503, 200], { "retry-after": "1" })
      // The second backoff (1 s at the least with jitter) is no shorter than Retry-After.
      const reading = yield* Effect.forkChild(Retry.step(Retry.defaultPolicy)(client).get(url).pipe(jitterAt(0)))
      yield* TestClock.adjust("2 seconds")
      expect((yield* Fiber.join(reading)).status).toBe(200)
      expect(seen).toEqual([
        { attempt: first, at: 0 },
        { attempt: { number: 2, reason: "RateLimited" }, at: 1_000 },
        { attempt: { number: 3, reason: "ServiceUnavailable" }, at: 2_000 }
      ])
    }))

  it.effect("where waiting cannot help, the request fails at once after one attempt: a 404, a name that does not resolve, a certificate", () =>
    Effect.gen(function*() {
      const notFound = answering([404])
      // Client first or last (`dual`): the same step.
      expect((yield* Effect.flip(Retry.step(notFound.client, Retry.defaultPolicy).get(url)))._tag).toBe("NotFound")
      expect(notFound.seen).toEqual([{ attempt: first, at: 0 }])
      for (const reason of ["Resolution", "Certificate"] as const) {
        const { client, seen } = unreachable(reason)
        const error = yield* Effect.flip(Retry.step(Retry.defaultPolicy)(client).get(url))
        expect(error._tag === "TransportError" ? error.reason : error._tag).toBe(reason)
        expect(seen).toHaveLength(1)
      }
    }))

  it.effect("a refused connection keeps the policy's retries", () =>
    Effect.gen(function*() {
      const { client, seen } = unreachable("Connection")
      const quick = { ...Retry.defaultPolicy, base: Duration.millis(5) }
      const reading = yield* Effect.forkChild(Effect.exit(Retry.step(quick)(client).get(url)))
      yield* TestClock.adjust("1 second")
      const exit = yield* Fiber.join(reading)
      expect(Exit.isFailure(exit) && Cause.squash(exit.cause)).toBeInstanceOf(Errors.TransportError)
      expect(seen).toHaveLength(quick.retries + 1)
      expect(seen.at(-1)?.attempt).toEqual({ number: quick.retries + 1, reason: "TransportError" })
    }))

  it.effect("outside the retry step, and for a request that needs no retry, the attempt is the first", () =>
    Effect.gen(function*() {
      expect(yield* Retry.currentAttempt).toEqual(first)
      const { client, seen } = answering([200])
      expect((yield* Retry.step(Retry.defaultPolicy)(client).get(url)).status).toBe(200)
      expect(seen).toEqual([{ attempt: first, at: 0 }])
    }))
})
