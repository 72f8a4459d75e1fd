/**
 * What the request path knows of the call a request belongs to: the
 * operation, its cost and scope, whether its answer may be kept, and which
 * errors its answers may give. The client provides it around each request;
 * each step of the path reads what it needs of it, rather than reading it
 * back from the URL.
 */
import { Context, type Ref } from "effect"
import type * as Errors from "../Errors.js"

/** The call a request belongs to. */
export interface Info {
  /** The operation's id, for spans, budgets and messages. */
  readonly operation: string
  /** The contract's path template of the operation (`url.template`): the same for every call, whatever its ids. */
  readonly template: string
  /** The request's URL, the key of its kept answer. */
  readonly url: string
  /** The units the operation costs. */
  readonly units: number
  /** The scope it needs with these parameters, for `ScopeMissing`. */
  readonly scope: string | null
  /** Whether its answer may be kept in the ETag cache: not a page reached through a cursor, read once per scan. */
  readonly cacheable: boolean
  /** Ask for a fresh answer (no `If-None-Match`), as a restarted scan must: a kept page may hold an expired cursor. */
  readonly revalidate: boolean
  /** Whether the operation can give this error; others become `UnexpectedResponse`. */
  readonly isAllowed: (error: Errors.ResponseError) => boolean
  /** What is known of the call's current attempt. */
  readonly attempt: Ref.Ref<AttemptState>
}

/** The call of the request being sent. */
export class Call extends Context.Tag("effect-catalog/Call")<Call, Info>() {}

/**
 * What the ETag cache did: `hit`, a 304 answered with the kept body;
 * `revalidated`, the kept answer was offered (`If-None-Match`) and the
 * service sent a new one; `miss`, none was offered.
 */
export type Cache = "hit" | "revalidated" | "miss"

/** What is known of an attempt. */
export interface AttemptState {
  /** The attempt's number, from 1; 0 before the first. */
  readonly number: number
  /** The tag of the previous attempt's error, the reason for this one; once it ends, the tag of its own error. */
  readonly reason: string | null
  /** When the attempt started, in milliseconds on the fiber's clock. */
  readonly startedAt: number
  /** When the request was sent, after its admission; null when it was not sent. */
  readonly sentAt: number | null
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
