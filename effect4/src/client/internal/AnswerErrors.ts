/**
 * Where an answer becomes the operation's typed error, and nowhere else:
 *
 * - a refused answer (any status but 200), as `Errors.fromAnswer` reads it,
 *   or `UnexpectedResponse` when the call's operation cannot give that
 *   error (the answers step of the request path);
 * - a 200 whose body does not match the operation's schema
 *   (`malformed`);
 * - a listing whose pages, each a valid 200, cannot be scanned to its end
 *   (`listingFault`);
 * - any error of the request path outside the operation's union, which is
 *   a defect of the client (`withinUnion`).
 *
 * Text kept from an answer is scrubbed of the key its request was sent
 * with, as the exchange observed it (`SentAttempt.redactOf`).
 *
 * @internal
 */
import { Clock, Effect, Option, type Schema } from "effect"
import { HttpClient, type HttpClientResponse } from "effect/http"
import * as ErrorTexts from "../../../../rules/src/client/ErrorTexts.js"
import * as ScanSteps from "../../../../rules/src/client/ScanSteps.js"
import * as SentAttempt from "../../../../rules/src/client/SentAttempt.js"
import * as Errors from "../../../../common/src/client/Errors.js"
import * as Call from "./Call.js"
import { bodyOf } from "./Exchange.js"
import * as Malformed from "./Malformed.js"

/** `error`, or `UnexpectedResponse` in its place when the call's operation cannot give it. */
const withinCall = (call: Option.Option<Call.Call>, status: number, error: Errors.ResponseError): Errors.ResponseError => {
  if (Option.isNone(call) || call.value.isAllowed(error)) return error
  return new Errors.UnexpectedResponse({
    requestId: "requestId" in error ? error.requestId : null,
    code: "code" in error ? error.code : null,
    detail: ErrorTexts.notAnAnswer(status, call.value.operation.id, error.message, "requestId" in error ? error.requestId : null),
    status
  })
}

/** The error of a refused answer, scrubbed of the key its attempt was sent with. */
const refused = (answer: HttpClientResponse.HttpClientResponse): Effect.Effect<never, Errors.ResponseError> =>
  Effect.gen(function*() {
    const call = yield* Call.current
    const body = yield* bodyOf(answer)
    const now = yield* Clock.currentTimeMillis
    const scope = Option.match(call, { onNone: () => null, onSome: (call) => call.scope })
    const redact = SentAttempt.redactOf(Call.latestOf(call))
    const error = Errors.fromAnswer({ status: answer.status, headers: answer.headers, body }, { now, scope, redact })
    return yield* Effect.fail(withinCall(call, answer.status, error))
  })

/** The answers step: a 200 passes, anything else fails with its error. */
export const step = <E, R>(client: HttpClient.HttpClient.With<E, R>): HttpClient.HttpClient.With<E | Errors.ResponseError, R> =>
  HttpClient.transform(client, (response) => Effect.flatMap(response, (answer) => answer.status === 200 ? Effect.succeed(answer) : refused(answer)))

/** The error of a 200 whose body does not decode: the first wrong field, scrubbed of the key. */
export const malformed = (answer: HttpClientResponse.HttpClientResponse, requestId: string | null, redact: (text: string) => string) =>
(error: Schema.SchemaError) => new Errors.UnexpectedResponse({ requestId, code: null, detail: Malformed.describe(error, redact), status: answer.status })

/** The error of a listing that cannot be scanned to its end. */
export const listingFault = (fault: ScanSteps.ListingFault, operation: string, requestId: string | null) =>
  new Errors.UnexpectedResponse({ requestId, code: null, detail: `${operation}: ${ScanSteps.listingFaults[fault]}`, status: 200 })

/**
 * Keeps a request's errors to the operation's union `F`: the answers step
 * has already turned an answer the operation cannot give into
 * `UnexpectedResponse`, so any other error is a defect of the client.
 */
export const withinUnion = <F extends Errors.CatalogError>(operation: string, allows: (error: Errors.CatalogError) => error is F) =>
<A, R>(request: Effect.Effect<A, Errors.CatalogError, R>): Effect.Effect<A, F, R> =>
  Effect.catch(request, (error) => allows(error) ? Effect.fail(error) : Effect.die(new Error(`${operation} cannot fail with ${error._tag}`)))
