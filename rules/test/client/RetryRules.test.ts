/**
 * What is worth another attempt, and how long the retries may wait
 * (`rules/src/client/RetryRules`), tested once for both editions, whose
 * `Retry.isRetryable` and `Retry.longestWait` are these rules over their
 * own error classes and `Duration`s: among a transport error's reasons only
 * Resolution and Certificate are not retried; among the refusals only 429
 * and 503 are; the longest wait is every backoff at its largest jitter,
 * bounded by the policy's elapsed time. The editions' tests check the
 * schedule and the retry step on their clocks.
 */
import { describe, expect, it } from "vitest"
import * as RetryRules from "../../src/client/RetryRules.js"

/** Every reason a `TransportError` of either edition can give. */
const transportReasons = ["Connection", "Timeout", "Body", "Resolution", "Certificate"] as const

/** The tag of each refused status, as both editions' `Errors.fromAnswer` give them. */
const refusals = [
  [400, "InvalidRequest"],
  [401, "InvalidApiKey"],
  [403, "ScopeMissing"],
  [404, "NotFound"],
  [409, "CursorExpired"],
  [422, "ResponseTooLarge"],
  [429, "RateLimited"],
  [500, "UnexpectedResponse"],
  [503, "ServiceUnavailable"]
] as const

describe("RetryRules.retryable", () => {
  it("only Resolution and Certificate among a TransportError's reasons are not worth another attempt", () => {
    expect(transportReasons.filter((reason) => RetryRules.retryable({ _tag: "TransportError", reason }))).toEqual([
      "Connection",
      "Timeout",
      "Body"
    ])
    expect(RetryRules.transientReasons).toEqual(["Connection", "Body", "Timeout"])
  })

  it("429 and 503 are worth another attempt; the other refusals are not", () => {
    expect(refusals.filter(([, tag]) => RetryRules.retryable({ _tag: tag })).map(([status]) => status)).toEqual([429, 503])
  })
})

describe("RetryRules.longestWaitMillis", () => {
  it("every backoff at its largest jitter, no more than maxElapsed", () => {
    expect(RetryRules.jitter).toEqual({ min: 0.8, max: 1.2 })
    // The default policy: 5 retries from 500 ms, within 2 minutes: (0.5 + 1 + 2 + 4 + 8) s × 1.2.
    expect(RetryRules.longestWaitMillis(500, 5, 120_000)).toBe(18_600)
    expect(RetryRules.longestWaitMillis(500, 10, 120_000)).toBe(120_000)
    expect(RetryRules.longestWaitMillis(500, 0, 120_000)).toBe(0)
  })
})
