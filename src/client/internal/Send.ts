/**
 * The request path, and one request of an operation sent along it. The path
 * is a pipeline of `HttpClient` steps, each one concern in its own module,
 * composed in `requestPath`, from the outermost:
 *
 * 1. `Retry.step`: sends again after a retryable error, on a jittered schedule;
 * 2. the quota: while a spent quota is in force, fails at once with
 *    `QuotaExhausted`; a 429 holds back every request of the account;
 * 3. the attempt: each attempt numbered and recorded on the call's span
 *    (`catalog.<operation>`), in the metrics and in the debug log;
 * 4. the answers: a refused answer becomes its typed error;
 * 5. `ResponseCache.step`: conditional requests (`If-None-Match`, 304);
 * 6. `Budget.step`: reserves and settles the request's units;
 * 7. the caller's own steps (`CatalogClient.Options.steps`), once per attempt;
 * 8. `Admission.step`: a slot and a turn under the account's windows;
 * 9. the exchange: the key, read once per attempt, in the `Authorization`
 *    header only and carried with the attempt for every scrubbing of its
 *    answer; a total time limit, the body read, `TransportError`.
 *
 * What a step needs to know of the call (operation, cost, scope, whether
 * the answer may be kept) travels as typed data, the `Call` service each
 * request is sent with. The key goes only into the `Authorization` header of
 * requests to the configured base URL, and never into an error, a span or a
 * log line.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Effect, Option, type ParseResult, Ref, Schema } from "effect"
import { DetailEnvelope } from "../../contract/Envelopes.js"
import * as Operations from "../../contract/Operations.js"
import * as Admission from "../Admission.js"
import * as Budget from "../Budget.js"
import type { CatalogConfig } from "../CatalogConfig.js"
import * as Errors from "../Errors.js"
import * as Answers from "./Answers.js"
import * as Attempt from "./Attempt.js"
import { Call } from "./Call.js"
import * as ExactJson from "./ExactJson.js"
import * as Exchange from "./Exchange.js"
import * as Malformed from "./Malformed.js"
import * as Quota from "./Quota.js"
import * as Links from "./Links.js"
import * as ResponseCache from "../ResponseCache.js"
import * as Retry from "../Retry.js"

/**
 * A step of one's own on the request path (`CatalogClient.Step`).
 */
export type Step = <E, R>(client: HttpClient.HttpClient.With<E, R>) => HttpClient.HttpClient.With<E, R>

/**
 * What a request is sent for: the operation's id, cost and scope (for spans
 * and errors), and its error union `F`, as the tags its answers may produce
 * and as a guard over any error of the client.
 */
export interface Target<F extends Errors.CatalogError> {
  readonly id: string
  /** The contract's path template (`/models/{organization}/{model}/`), the span's `url.template`. */
  readonly template: string
  readonly units: number
  readonly scope: string | null
  /** Whether the operation can give this answer's error; others become `UnexpectedResponse`. */
  readonly isAllowed: (error: Errors.ResponseError) => boolean
  /** Whether an error of the request path is one of the operation's union. */
  readonly allows: (error: Errors.CatalogError) => error is F
}

/**
 * The request path of one client. Its exchange reads the key once per
 * attempt, for the header and for every scrubbing of that attempt's answer.
 */
export interface Path {
  readonly client: HttpClient.HttpClient.With<Errors.CatalogError, Call>
}

/**
 * What the request path is made of.
 */
export interface Services {
  readonly config: CatalogConfig["Type"]
  readonly client: HttpClient.HttpClient
  readonly admission: Admission.Service
  readonly budget: Budget.Service
  readonly cache: ResponseCache.Service
  readonly policy: Retry.Policy
  readonly steps: ReadonlyArray<Step>
}

/**
 * A decoded answer.
 */
export interface Decoded<A> {
  readonly value: A
  readonly requestId: string | null
}

const decodeUsage = Schema.decodeUnknown(Schema.parseJson(DetailEnvelope(Operations.usage.item)))

/**
 * When the allowance a 429's code names resets, read from `/usage/` (which
 * costs nothing) through the exchange alone, under admission: not counted
 * against the budget, not retried.
 */
const resetsAt = (services: Pick<Services, "config" | "admission">, exchange: Exchange.Client) => {
  const usage = Admission.step(services.admission)(exchange)
  return (code: string | null): Effect.Effect<Option.Option<Date>> =>
    Links.operationUrl(services.config.baseUrl, Operations.usage, {}).pipe(
      Effect.flatMap((url) => usage.execute(HttpClientRequest.get(url))),
      Effect.flatMap(Exchange.bodyOf),
      Effect.flatMap(decodeUsage),
      Effect.map(({ data }) => {
        const reset = code?.includes("monthly") === true ? data.monthly_reset_at : data.daily_reset_at
        const date = reset === null ? Number.NaN : Date.parse(reset)
        return Number.isNaN(date) ? Option.none() : Option.some(new Date(date))
      }),
      Effect.orElseSucceed(() => Option.none())
    )
}

/**
 * The request path of a client: its steps, composed.
 */
export const requestPath = (services: Services): Effect.Effect<Path> =>
  Effect.map(Ref.make(Option.none<Errors.QuotaExhausted>()), (exhausted) => {
    // Each request is tied to a scope (`HttpClient.withScope`), which its deadline closes.
    const exchange = Exchange.step({ apiKey: services.config.apiKey, timeout: services.config.timeout })(HttpClient.withScope(services.client))
    const own = services.steps.reduce<Exchange.Client>((client, step) => step(client), exchange)
    const client = own.pipe(
      Admission.step(services.admission),
      Budget.step(services.budget),
      ResponseCache.step(services.cache),
      Answers.step,
      Attempt.step,
      Quota.step({ exhausted, maxWait: services.policy.maxWait, pause: services.admission.pause, resetsAt: resetsAt(services, exchange) }),
      Retry.step(services.policy)
    )
    return { client }
  })

/**
 * Turns the text of an answer into its value.
 */
export type Decoder<A> = (body: string) => Effect.Effect<A, ParseResult.ParseError>

/**
 * The {@link Decoder} of answers of `schema`. Build it once per operation:
 * a parser is compiled for each schema it meets. A body that does not match
 * gives every issue found, so that the error can say how many there are. A
 * body holding a number `JSON.parse` cannot hold exactly (`1e309`,
 * `9007199254740993`, `1e-400`, more digits than a double keeps) is refused
 * first, naming where the number is (`ExactJson`): no answer is read with a
 * number other than the one the service sent.
 */
export const decoder = <A, I>(schema: Schema.Schema<A, I>): Decoder<A> =>
  ExactJson.exactly(Schema.decodeUnknown(Schema.parseJson(schema), { errors: "all" }))

/**
 * Sends a GET of `url` for `target` along the request path and decodes a
 * 200 (or the kept body of a 304) with `decode`. `F` is the operation's
 * error union: any other answer becomes `UnexpectedResponse`.
 */
export const send = <A, F extends Errors.CatalogError>(
  path: Path,
  target: Target<F>,
  decode: Decoder<A>,
  url: URL,
  options: {
    /** Ask for a fresh answer (no `If-None-Match`), as a restarted scan must: a kept page may hold an expired cursor. */
    readonly revalidate?: boolean
    /** A page reached through a cursor is read once per scan: keeping it would only fill the cache. */
    readonly throughCursor?: boolean
    /** A page of a scan: its span is a child of the scan's, named `catalog.<operation>.page`. */
    readonly pageOfScan?: boolean
  } = {}
): Effect.Effect<Decoded<A>, F> =>
  Ref.make(Attempt.initial).pipe(
    Effect.flatMap((attempt) =>
      path.client.execute(HttpClientRequest.get(url)).pipe(
        Effect.flatMap((answer) =>
          // The answer is scrubbed of the key its own request was sent with, read once by the exchange.
          Effect.flatMap(Ref.get(attempt), ({ redact }) => {
            const requestId = Exchange.requestIdOf(answer, redact)
            return Exchange.bodyOf(answer).pipe(
              Effect.flatMap(decode),
              Effect.mapError((error) => new Errors.UnexpectedResponse({ requestId, code: null, detail: Malformed.describe(error, redact), status: answer.status })),
              Effect.map((value): Decoded<A> => ({ value, requestId }))
            )
          })
        ),
        Effect.provideService(Call, {
          operation: target.id,
          template: target.template,
          url: url.href,
          units: target.units,
          scope: target.scope,
          cacheable: options.throughCursor !== true,
          revalidate: options.revalidate === true,
          isAllowed: target.isAllowed,
          attempt
        })
      )
    ),
    // The answers step has already turned an error the operation cannot give into `UnexpectedResponse`.
    Effect.catchAll((error) => target.allows(error) ? Effect.fail(error) : Effect.dieMessage(`${target.id} cannot fail with ${error._tag}`)),
    Effect.tapError((error) => Effect.annotateCurrentSpan("error.type", error._tag)),
    Effect.withSpan(options.pageOfScan === true ? `catalog.${target.id}.page` : `catalog.${target.id}`, {
      kind: "client",
      attributes: { "catalog.operation": target.id, "url.template": target.template },
      captureStackTrace: false
    })
  )
