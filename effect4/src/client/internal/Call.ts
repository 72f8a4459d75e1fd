/**
 * What a request is sent for: its operation (id, path template, cost), its
 * URL, the scope it needs, whether its answer may be kept, and which errors
 * its answers may give. The client attaches it once, in a `Context.Reference`
 * provided around the request (as `effect/http` carries its own per-request
 * settings, `HttpClient.TracerPropagationEnabled` among them), and each step
 * of the request path reads what it needs of it on the way down; no step
 * writes it.
 *
 * A request sent outside a call (through an `HttpClient` of one's own with
 * `Budget.step` or `ResponseCache.step`) has none: each step then does what
 * it can do from the request alone.
 *
 * @internal
 */
import { Context, Effect, Option } from "effect"
import type * as Errors from "../../../../common/src/client/Errors.js"

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
  /** Whether the operation can give this answer's error; others become `UnexpectedResponse`. */
  readonly isAllowed: (error: Errors.ResponseError) => boolean
}

/** The call of the request being sent, if it belongs to one: none unless `within` provides it. */
export const currentCall: Context.Reference<Option.Option<Call>> = Context.Reference<Option.Option<Call>>(
  "effect-catalog/Call/currentCall",
  { defaultValue: () => Option.none() }
)

/** The call of the request being sent, if it belongs to one. */
export const current: Effect.Effect<Option.Option<Call>> = currentCall

/** Sends `request` as part of `call`. */
export const within = (call: Call) => <A, E, R>(request: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.provideService(request, currentCall, Option.some(call))
