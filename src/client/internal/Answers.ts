/**
 * The step of the request path that turns a refused answer into its typed
 * error (`Errors.fromAnswer`), or into `UnexpectedResponse` when the call's
 * operation cannot give that error. Text kept from the answer is scrubbed
 * of the key the exchange sent the request with (`Attempt.redactor`).
 */
import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { Clock, Effect } from "effect"
import * as Errors from "../Errors.js"
import * as Attempt from "./Attempt.js"
import { Call } from "./Call.js"
import { bodyOf } from "./Exchange.js"

const refused = (answer: HttpClientResponse.HttpClientResponse) =>
  Effect.gen(function*() {
    const call = yield* Call
    const redact = yield* Attempt.redactor
    const body = yield* bodyOf(answer)
    const now = yield* Clock.currentTimeMillis
    const error = Errors.fromAnswer({ status: answer.status, headers: answer.headers, body }, { now, scope: call.scope, redact })
    return yield* Effect.fail(
      call.isAllowed(error) ? error : new Errors.UnexpectedResponse({
        requestId: "requestId" in error ? error.requestId : null,
        code: "code" in error ? error.code : null,
        detail: `Status ${answer.status} is not an answer ${call.operation} can give: ${error.message}`,
        status: answer.status
      })
    )
  })

/** The answers step: a 200 passes, anything else fails with its error, scrubbed of the key its request was sent with. */
export const step = <E, R>(client: HttpClient.HttpClient.With<E, R>): HttpClient.HttpClient.With<E | Errors.ResponseError, R | Call> =>
  HttpClient.transform(client, (response) => Effect.flatMap(response, (answer) => answer.status === 200 ? Effect.succeed(answer) : refused(answer)))
