/**
 * The simulator's opaque cursors: the position of a scan (the last id served),
 * bound to one listing (operation, path and filters), signed so that they
 * cannot be forged, and stamped with the time they were issued.
 *
 * @since 0.1.0
 */
import { createHmac, timingSafeEqual } from "node:crypto"

/**
 * What a cursor carries.
 *
 * @since 0.1.0
 */
export interface Position {
  /** The listing: operation id, path and filters. */
  readonly listing: string
  /** The last id served; the next page starts above it. */
  readonly after: string
  /** When the cursor was issued (epoch milliseconds). */
  readonly issuedAt: number
}

/**
 * Why a cursor was refused.
 *
 * @since 0.1.0
 */
export type Refusal = "malformed" | "foreign"

const signature = (secret: string, payload: string) =>
  createHmac("sha256", secret).update(payload).digest("base64url").slice(0, 22)

/**
 * Encodes a position as an opaque cursor.
 *
 * @since 0.1.0
 */
export const encode = (secret: string, position: Position): string => {
  const payload = Buffer.from(JSON.stringify([position.listing, position.after, position.issuedAt])).toString("base64url")
  return `${payload}.${signature(secret, payload)}`
}

/**
 * Decodes a cursor of `listing`, or says why it cannot be used.
 *
 * @since 0.1.0
 */
export const decode = (secret: string, listing: string, cursor: string): Position | Refusal => {
  const [payload = "", mac = ""] = cursor.split(".")
  const expected = Buffer.from(signature(secret, payload))
  const given = Buffer.from(mac)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "malformed"
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"))
  } catch {
    return "malformed"
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) return "malformed"
  const [owner, after, issuedAt] = parsed
  if (typeof owner !== "string" || typeof after !== "string" || typeof issuedAt !== "number") return "malformed"
  return owner === listing ? { listing, after, issuedAt } : "foreign"
}
