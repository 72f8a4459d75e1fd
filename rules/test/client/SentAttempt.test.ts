/**
 * What the exchange records of an attempt (`rules/src/client/SentAttempt`),
 * tested once for both editions: what the ETag cache did, read from
 * whether a kept answer was offered and what the service answered.
 */
import { describe, expect, it } from "vitest"
import * as SentAttempt from "../../src/client/SentAttempt.js"

const redact = (text: string) => text

describe("SentAttempt", () => {
  it("a kept answer offered and a 304 is a hit; offered and anything else, revalidated; none offered, a miss", () => {
    const offered = SentAttempt.sent(7, true, redact)
    expect(offered).toMatchObject({ sentAt: 7, cache: "revalidated", status: null, requestId: null })
    expect(SentAttempt.answered(offered, 304, "req_1")).toMatchObject({ sentAt: 7, cache: "hit", status: 304, requestId: "req_1" })
    expect(SentAttempt.answered(offered, 200, null).cache).toBe("revalidated")
    const fresh = SentAttempt.sent(7, false, redact)
    expect(fresh.cache).toBe("miss")
    expect(SentAttempt.answered(fresh, 304, null).cache).toBe("miss")
  })

  it("scrubs with the key its attempt was sent with, and not at all before anything was sent", () => {
    const attempt = SentAttempt.sent(0, false, (text) => text.replaceAll("key", "[redacted]"))
    expect(SentAttempt.redactOf(attempt)("a key")).toBe("a [redacted]")
    expect(SentAttempt.redactOf(undefined)("a key")).toBe("a key")
  })
})
