/**
 * Sends one request of an operation and turns its answer into the decoded
 * body or the operation's typed error. The key goes only into the
 * `Authorization` header of requests to the configured base URL, and never
 * into an error, a span or a log line.
 *
 * @since 0.1.0
 */
import { Headers, HttpClient, HttpClientRequest } from "@effect/platform"
import { Clock, Effect, Redacted, Schema } from "effect"
import type { CatalogConfig } from "./CatalogConfig.js"
import * as Errors from "./Errors.js"
import type { CommonError } from "./OperationErrors.js"
import * as ResponseErrors from "./ResponseErrors.js"

/**
 * What a request is sent for: the operation's id, cost and scope (for spans
 * and errors) and the tags its answers may produce.
 *
 * @since 0.1.0
 */
export interface Target<E extends Errors.ResponseError> {
  readonly id: string
  readonly units: number
  readonly scope: string | null
  /** Whether the operation can give this error; others become `UnexpectedResponse`. */
  readonly isAllowed: (error: Errors.ResponseError) => error is E
}

/**
 * A decoded answer.
 *
 * @since 0.1.0
 */
export interface Decoded<A> {
  readonly value: A
  readonly requestId: string | null
  readonly etag: string | null
}

const headerSafe = /^[\x21-\x7e]+$/

/** Headers whose values the HTTP client's spans never record. */
const redactedHeaders = ["authorization", "cookie", "set-cookie", "x-api-key", "x-request-id"]

/** What failed, with the underlying cause when there is one. */
const describeCause = (error: { readonly message: string; readonly cause?: unknown }) => {
  const cause = error.cause instanceof Error ? (error.cause.cause instanceof Error ? error.cause.cause : error.cause) : undefined
  return cause === undefined ? error.message : `${error.message}: ${cause.message}`
}

/** Removes every occurrence of the key from text kept from an answer. */
const redactor = (key: Redacted.Redacted<string>) => (text: string) => text.split(Redacted.value(key)).join("[redacted]")

/**
 * Sends a GET of `url` for `target` and decodes a 200 with `schema`.
 * `E` is the operation's error union: any other answer becomes
 * `UnexpectedResponse`.

 *
 * @since 0.1.0
 */
export const send = <A, I, E extends Errors.ResponseError>(
  config: CatalogConfig["Type"],
  client: HttpClient.HttpClient,
  target: Target<E>,
  schema: Schema.Schema<A, I>,
  url: URL
): Effect.Effect<Decoded<A>, E | CommonError> => {
  const decode = Schema.decodeUnknown(Schema.parseJson(schema))
  return Effect.gen(function*() {
    const key = yield* config.apiKey
    if (!headerSafe.test(Redacted.value(key))) {
      return yield* new Errors.InvalidApiKey({ requestId: null, code: "local_validation", detail: "The key has characters a header cannot carry" })
    }
    const redact = redactor(key)
    const request = HttpClientRequest.get(url).pipe(
      HttpClientRequest.acceptJson,
      HttpClientRequest.bearerToken(Redacted.value(key))
    )
    const answer = yield* client.execute(request).pipe(
      // The HTTP client's own span records response headers; a hostile server could echo the key in one.
      Effect.locally(Headers.currentRedactedNames, [...redactedHeaders]),
      Effect.flatMap((response) =>
        Effect.map(response.text, (body) => ({ status: response.status, headers: response.headers, body }))
      ),
      Effect.scoped,
      Effect.timeoutFail({
        duration: config.timeout,
        onTimeout: () => new Errors.TransportError({ reason: "Timeout", detail: `No answer within ${config.timeout.toString()}` })
      }),
      Effect.catchTags({
        RequestError: (error) => Effect.fail(new Errors.TransportError({ reason: "Connection", detail: redact(describeCause(error)) })),
        ResponseError: (error) => Effect.fail(new Errors.TransportError({ reason: "Body", detail: redact(describeCause(error)) }))
      })
    )
    const header = answer.headers["x-request-id"]
    const requestId = header === undefined ? null : redact(header).slice(0, 200)
    yield* Effect.annotateCurrentSpan({ "http.response.status_code": answer.status })
    if (requestId !== null) yield* Effect.annotateCurrentSpan("catalog.request_id", requestId)
    if (answer.status === 200) {
      const value = yield* decode(answer.body).pipe(
        Effect.mapError((error) =>
          new Errors.UnexpectedResponse({ requestId, code: null, detail: redact(error.message).slice(0, 2000), status: 200 })
        )
      )
      yield* Effect.annotateCurrentSpan({ "catalog.units": target.units, "catalog.cache_hit": false })
      return { value, requestId, etag: answer.headers["etag"] ?? null }
    }
    const now = yield* Clock.currentTimeMillis
    const error = ResponseErrors.fromAnswer(answer, { now, scope: target.scope, redact })
    return yield* Effect.fail(
      target.isAllowed(error) ? error : new Errors.UnexpectedResponse({
        requestId,
        code: "code" in error ? error.code : null,
        detail: `Status ${answer.status} is not an answer ${target.id} can give: ${error.message}`,
        status: answer.status
      })
    )
  }).pipe(
    Effect.withSpan(target.id, { kind: "client", attributes: { "catalog.operation": target.id, "url.path": url.pathname } })
  )
}
