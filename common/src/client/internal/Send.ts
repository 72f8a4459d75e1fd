/**
 * The request path, and one request of an operation sent along it. The path
 * is a pipeline of `HttpClient` steps, each one concern in its own module,
 * composed in `requestPath`, from the outermost:
 *
 * 1. `Retry.step`: sends again after a retryable error, on a jittered
 *    schedule, and says which attempt each one is (`Retry.currentAttempt`);
 * 2. the quota: while a spent quota is in force, fails at once with
 *    `QuotaExhausted`; a 429 holds back every request of the account;
 * 3. `LiveAllowance.step`: reads the account's live allowance when a read
 *    is due, as a request of its own, before the attempt;
 * 4. the attempt: each attempt recorded on the call's span
 *    (`catalog.<operation>`), in the metrics and in the debug log;
 * 5. the answers: a refused answer becomes its typed error (`AnswerErrors`);
 * 6. `ResponseCache.step`: conditional requests (`If-None-Match`, 304);
 * 7. `Budget.step`: reserves and settles the request's units;
 * 8. `Admission.step`: a slot and a turn under the account's windows;
 * 9. the caller's own middleware, once per attempt sent;
 * 10. the exchange: the key, read once per attempt, in the `Authorization`
 *    header only; a total time limit, the body read, `TransportError`.
 *
 * What a request is sent for (`Call`) is attached once, around the request,
 * and read by each step on the way down. What the exchange observed of an
 * attempt (`SentAttempt`) comes back up in the call's observation, which the
 * exchange alone writes.
 *
 * Effect 4's `HttpClient.make` aborts a request whose fiber is interrupted,
 * so the exchange takes the plain `HttpClient`: no scope per request.
 *
 * @internal
 */
import { Effect, HttpClient, HttpClientRequest, Option, perRequestScope, Ref, withSpanWithoutStack } from "#edition/internal/Edition.js"
import * as SentAttempt from "../../../../rules/src/client/SentAttempt.js"
import * as Admission from "../Admission.js"
import * as Budget from "../Budget.js"
import type * as CatalogConfig from "../CatalogConfig.js"
import type * as Errors from "../Errors.js"
import * as LiveAllowance from "../LiveAllowance.js"
import * as ResponseCache from "../ResponseCache.js"
import * as Retry from "../Retry.js"
import * as AnswerErrors from "#edition/client/internal/AnswerErrors.js"
import * as Attempt from "#edition/client/internal/Attempt.js"
import * as Call from "#edition/client/internal/Call.js"
import type { Decoder } from "#edition/client/internal/Decoder.js"
import * as Exchange from "#edition/client/internal/Exchange.js"
import * as Quota from "./Quota.js"

/** Middleware of one's own on the request path. */
export type Middleware = <E, R>(client: HttpClient.HttpClient.With<E, R>) => HttpClient.HttpClient.With<E, R>

/** The request path of one client: every request of every call goes through it. */
export interface RequestPath {
  readonly client: HttpClient.HttpClient.With<PathError>
}

/** What a request sent along the path may fail with, before `withinUnion` keeps it to its operation's union. */
export type PathError = Errors.ResponseError | Errors.QuotaExhausted | Errors.BudgetExceeded | Errors.AdmissionUnavailable

/** What the request path is made of. */
export interface Services {
  readonly config: CatalogConfig.Service
  readonly client: HttpClient.HttpClient
  readonly admission: Admission.Service
  readonly allowance: LiveAllowance.Service
  readonly budget: Budget.Service
  readonly cache: ResponseCache.Service
  readonly policy: Retry.Policy
  readonly middleware: ReadonlyArray<Middleware>
}

/** A decoded answer. */
export interface Decoded<A> {
  readonly value: A
  readonly requestId: string | null
  /** Whether the answer was a 304, and the value that of the kept body. */
  readonly unchanged: boolean
}

/** What a request costs: its call's operation and units, or nothing the step can know outside a call. */
export const chargeOf = (request: HttpClientRequest.HttpClientRequest): Effect.Effect<Budget.Charge> =>
  Effect.map(Call.current, (call) =>
    Option.match(call, {
      onNone: () => Budget.uncharged(request),
      onSome: ({ operation }) => ({ operation: operation.id, units: operation.units })
    }))

/** The request path of a client: its steps, composed. */
export const requestPath = (services: Services): Effect.Effect<RequestPath> =>
  Effect.map(Ref.make(Option.none<Errors.QuotaExhausted>()), (exhausted) => {
    const exchange = Exchange.step({ apiKey: services.config.apiKey, timeout: services.config.timeout })(perRequestScope(services.client))
    const own = services.middleware.reduce<Exchange.Client>((client, middleware) => middleware(client), exchange)
    const client = own.pipe(
      Admission.step(services.admission),
      Budget.step(services.budget, chargeOf),
      ResponseCache.step(services.cache),
      AnswerErrors.step,
      Attempt.step,
      LiveAllowance.step(services.allowance),
      Quota.step({
        exhausted,
        maxWait: services.policy.maxWait,
        pause: (retryAfter) => Effect.andThen(services.allowance.outdated, services.admission.pause(retryAfter)),
        resetsAt: services.allowance.resetsAt
      }),
      Retry.step(services.policy)
    )
    return { client }
  })

/**
 * What a request is sent for: its operation, the scope it needs with its
 * parameters, and the errors it may give (`F`, as the guard `allows` over
 * any error of the client, and `isAllowed` over an answer's).
 */
export interface Purpose<F extends Errors.CatalogError> {
  readonly operation: { readonly id: string; readonly path: string; readonly units: number }
  readonly scope: string | null
  readonly isAllowed: (error: Errors.ResponseError) => boolean
  readonly allows: (error: Errors.CatalogError) => error is F
}

/** How a request of a call is read. */
export interface SendOptions {
  /** Ask for a fresh answer (no `If-None-Match`), as a restarted scan must: a kept page may hold an expired cursor. */
  readonly revalidate?: boolean
  /** A page reached through a cursor is read once per scan: keeping it would only fill the cache. */
  readonly throughCursor?: boolean
  /** A page of a scan: its span is named `catalog.<operation>.page`. */
  readonly pageOfScan?: boolean
  /** The caller's own kept answer, instead of the client's cache (`Call.KeptAnswer`). */
  readonly kept?: Call.KeptAnswer
}

/**
 * Sends a GET of `url` for `purpose` along the request path and decodes a
 * 200 (or the kept body of a 304) with `decode`. `F` is the operation's
 * error union: any other answer becomes `UnexpectedResponse`.
 */
export const send = <A, F extends Errors.CatalogError>(
  path: RequestPath,
  purpose: Purpose<F>,
  decode: Decoder<A>,
  url: URL,
  options: SendOptions = {}
): Effect.Effect<Decoded<A>, F> => {
  const { operation } = purpose
  return path.client.execute(HttpClientRequest.get(url)).pipe(
    Effect.flatMap((answer) =>
      Effect.flatMap(Call.observed, (sending) => {
        const redact = SentAttempt.redactOf(sending)
        const requestId = Exchange.requestIdOf(answer, redact)
        return Exchange.bodyOf(answer).pipe(
          Effect.flatMap(decode),
          Effect.mapError(AnswerErrors.malformed(answer, requestId, redact)),
          Effect.map((value): Decoded<A> => ({ value, requestId, unchanged: sending?.cache === "hit" }))
        )
      })
    ),
    Call.within({
      operation,
      url: url.href,
      scope: purpose.scope,
      cacheable: options.throughCursor !== true,
      revalidate: options.revalidate === true,
      kept: options.kept,
      isAllowed: purpose.isAllowed
    }),
    AnswerErrors.withinUnion(operation.id, purpose.allows),
    Effect.tapError((error) => Effect.annotateCurrentSpan("error.type", error._tag)),
    withSpanWithoutStack(options.pageOfScan === true ? `catalog.${operation.id}.page` : `catalog.${operation.id}`, {
      kind: "client",
      attributes: { "catalog.operation": operation.id, "url.template": operation.path }
    })
  )
}
