/**
 * What the exchange observed of an attempt it sent: when, what the ETag
 * cache offered, the answer's status and request id, and the scrubbing of
 * the key the request carried. It travels up the request path with what
 * came back of the attempt, the answer or the error that took its place,
 * attached to that value once; an attempt that was never sent (refused by
 * the budget or by admission, interrupted while it waited) comes back
 * without one.
 */
/**
 * What the ETag cache did: `hit`, a 304 answered with the kept body;
 * `revalidated`, the kept answer was offered (`If-None-Match`) and the
 * service sent a new one; `miss`, none was offered.
 */
export type Cache = "hit" | "revalidated" | "miss"

/** What the exchange observed of an attempt it sent. */
export interface Sending {
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
 * Where a value keeps what the exchange observed of it: a property of the
 * value itself, not enumerable, so that it follows the value through
 * Effect's own wrapping of an error failed inside a span.
 */
const sendingKey = Symbol.for("effect-catalog/Sending")

const isSending = (value: unknown): value is Sending =>
  typeof value === "object" && value !== null && "sentAt" in value && "redact" in value && typeof value.redact === "function"

/** `value` (an answer, or the error in its place) with what the exchange observed of its attempt. */
export const attach = <A extends object>(value: A, sending: Sending): A => Object.defineProperty(value, sendingKey, { value: sending, enumerable: false })

/** What the exchange observed of the attempt `value` came back from; none for an attempt never sent. */
export const of = (value: unknown): Sending | undefined => {
  if (typeof value !== "object" || value === null || !(sendingKey in value)) return undefined
  const sending: unknown = Reflect.get(value, sendingKey)
  return isSending(sending) ? sending : undefined
}
/** Text kept from an answer before any request was sent has no key to be scrubbed of. */
const unsent = (text: string): string => text

/** The scrubbing of the key the attempt `value` came back from was sent with. */
export const redactOf = (value: unknown): (text: string) => string => of(value)?.redact ?? unsent
