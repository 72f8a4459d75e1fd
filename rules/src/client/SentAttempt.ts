/**
 * What the exchange observed of an attempt it sent: when, what the ETag
 * cache offered, the answer's status and request id, and the scrubbing of
 * the key the request carried. The exchange leaves it in the call's
 * `Observation`, which the steps above it read once the attempt has ended.
 */
/**
 * What the ETag cache did: `hit`, a 304 answered with the kept body;
 * `revalidated`, the kept answer was offered (`If-None-Match`) and the
 * service sent a new one; `miss`, none was offered.
 */
export type Cache = "hit" | "revalidated" | "miss"

/** What the exchange observed of an attempt it sent. */
export interface SentAttempt {
  /** When the request was sent, after its admission, in milliseconds on the fiber's clock. */
  readonly sentAt: number
  readonly cache: Cache
  /** The answer's status; null when no answer came. */
  readonly status: number | null
  readonly requestId: string | null
  /**
   * Scrubs text kept from the answer of the key the request was sent with:
   * the key is read once per attempt, by the exchange, so that its header
   * and every scrubbing of its answer use the same key while it rotates.
   */
  readonly redact: (text: string) => string
}

/**
 * What the exchange has observed of the attempt of a call being sent: one
 * per call, made as the call begins (`Call.within`) and carried down with
 * it, emptied by the attempt step as each attempt begins, and filled by the
 * exchange when the attempt has been sent. The steps above the exchange
 * read it once the attempt has ended; empty, the attempt was never sent
 * (refused by the budget or by admission, interrupted while it waited).
 */
export interface Observation {
  latest: SentAttempt | undefined
}

/** What is known of an attempt as it is sent: when, and whether the ETag cache offered the answer it keeps (`If-None-Match`). */
export const sent = (sentAt: number, conditional: boolean, redact: (text: string) => string): SentAttempt => ({
  sentAt,
  cache: conditional ? "revalidated" : "miss",
  status: null,
  requestId: null,
  redact
})

/** `attempt` once its answer came: a 304 to an answer the cache offered is a hit. */
export const answered = (attempt: SentAttempt, status: number, requestId: string | null): SentAttempt => ({
  ...attempt,
  cache: attempt.cache === "revalidated" && status === 304 ? "hit" : attempt.cache,
  status,
  requestId
})

/** An observation of a call that has sent nothing yet. */
export const unobserved = (): Observation => ({ latest: undefined })

/** Text kept from an answer before any request was sent has no key to be scrubbed of. */
const unsent = (text: string): string => text

/** The scrubbing of the key the attempt observed was sent with; none when nothing was sent. */
export const redactOf = (sending: SentAttempt | undefined): (text: string) => string => sending?.redact ?? unsent
