/**
 * What a request is sent for: its operation (id, path template, cost), its
 * URL, the scope it needs, whether its answer may be kept, and which errors
 * its answers may give. The client attaches it once, in a
 * `Context.Reference` provided around the request (as `effect/http` carries
 * its own per-request settings, `HttpClient.TracerPropagationEnabled` among
 * them), and each step of the request path reads what it needs of it on the
 * way down; only its observation is written: the exchange leaves there what
 * it observed of each attempt (`SentAttempt.Observation`), which the steps above
 * it read once the attempt has ended, so that what is seen at the bottom of
 * the path comes back up.
 *
 * A request sent outside a call (through an `HttpClient` of one's own with
 * `Budget.step` or `ResponseCache.step`) has none: each step then does what
 * it can do from the request alone.
 *
 * @internal
 */
import { Context, Effect, Option } from "effect"
import type * as Errors from "../../../../common/src/client/Errors.js"
import type { KeptAnswer } from "../../../../rules/src/client/KeptAnswer.js"
import * as SentAttempt from "../../../../rules/src/client/SentAttempt.js"

/** What the request path knows of the call a request belongs to. */
export interface Call {
  /** The operation: its id (for spans, budgets and messages), the contract's path template (`url.template`) and cost. */
  readonly operation: { readonly id: string; readonly path: string; readonly units: number }
  /** The request's URL, the key of its kept answer. */
  readonly url: string
  /** The scope it needs with these parameters, for `ScopeMissing`. */
  readonly scope: string | null
  /** Whether its answer may be kept in the ETag cache: not a page reached through a cursor, read once per scan. */
  readonly cacheable: boolean
  /** Ask for a fresh answer (no `If-None-Match`), as a restarted scan must: a kept page may hold an expired cursor. */
  readonly revalidate: boolean
  /** The caller's own kept answer, instead of the client's cache: the mirror's keeper keeps its pages' ETags in its database, a page reached through a cursor among them. */
  readonly kept?: KeptAnswer | undefined
  /** Whether the operation can give this answer's error; others become `UnexpectedResponse`. */
  readonly isAllowed: (error: Errors.ResponseError) => boolean
  /** What the exchange has observed of the attempt being sent, for the steps above it. */
  readonly observed: SentAttempt.Observation
}

/** What a call is sent for, as its sender gives it; its observation is made when it begins. */
export type Purpose = Omit<Call, "observed">

/** The call of the request being sent, if it belongs to one: none unless `within` provides it. */
export const currentCall: Context.Reference<Option.Option<Call>> = Context.Reference<Option.Option<Call>>(
  "effect-catalog/Call/currentCall",
  { defaultValue: () => Option.none() }
)

export type { KeptAnswer }

/** The call of the request being sent, if it belongs to one. */
export const current: Effect.Effect<Option.Option<Call>> = currentCall

/** Sends `request` as part of `call`. */
export const within = (purpose: Purpose) => <A, E, R>(request: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.suspend(() => Effect.provideService(request, currentCall, Option.some({ ...purpose, observed: SentAttempt.unobserved() })))

/** Leaves what the exchange observed of an attempt of `call` in its observation; outside a call, there is none to leave it in. */
export const record = (call: Option.Option<Call>, attempt: SentAttempt.SentAttempt): void => {
  if (Option.isSome(call)) call.value.observed.latest = attempt
}

/** What the exchange observed of the attempt of `call` that was sent last; none outside a call, or before it sent one. */
export const latestOf = (call: Option.Option<Call>): SentAttempt.SentAttempt | undefined => Option.isSome(call) ? call.value.observed.latest : undefined

/** What the exchange observed of the attempt of the current call that was sent last; none outside a call, or before it sent one. */
export const observed: Effect.Effect<SentAttempt.SentAttempt | undefined> = Effect.map(current, (call) => latestOf(call))
