/**
 * URLs of the service: an operation's URL from its parameters (each path
 * segment percent-encoded, the query encoded by the contract's rules), the
 * check that a link stays below the configured base URL, and the operation a
 * returned `api_url` names, a resource's or a list's. Every string bound for
 * a URL is checked first (`sendable`): one that has no UTF-8 form is refused
 * before anything is sent.
 *
 * @internal
 */
import {
  decodeUnknownResult,
  Effect,
  encodeUnknownEffect,
  fromResult,
  isRecord,
  omitKey,
  type QuerySchema,
  Result,
  Schema
} from "#edition/internal/Edition.js"
import * as Operations from "../../contract/Operations.js"
import { describeError, PathParameter } from "../../contract/Parameters.js"
import * as LinkUrls from "../../../../rules/src/client/LinkUrls.js"
import * as Errors from "../Errors.js"

/**
 * A request refused before anything is sent.
 */
export const localError = (detail: string) => new Errors.InvalidRequest({ requestId: null, code: "local_validation", detail })

/**
 * The string a parameter gives, if it can go into a URL as it is; otherwise
 * `InvalidRequest` naming the parameter (the value itself is not shown).
 */
export const sendable = (name: string, text: string): Result.Result<string, Errors.InvalidRequest> => {
  const why = LinkUrls.unsendable(name, text)
  return why === undefined ? Result.succeed(text) : Result.fail(localError(why))
}

const decodePathParameter = decodeUnknownResult(PathParameter)

/**
 * One path segment, percent-encoded so that no value can change the path
 * (`../../usage` stays one segment); `.`, `..` and strings that cannot be
 * sent are refused.
 */
export const encodeSegment = (name: string, value: unknown): Result.Result<string, Errors.InvalidRequest> =>
  Result.flatMap(
    Result.mapError(decodePathParameter(value), (error) => localError(`${name}: ${describeError(error)}`)),
    (segment) => {
      const refusal = LinkUrls.notResourceName(name, segment)
      return refusal === undefined ? Result.map(sendable(name, segment), encodeURIComponent) : Result.fail(localError(refusal))
    }
  )

/** What an operation's URL is made from: its path template, the names of its path parameters, and its query's schema. */
export interface UrlTemplate {
  readonly path: string
  readonly pathParameters: ReadonlyArray<string>
  readonly query: QuerySchema
}

/**
 * The URL of an operation, or the rule its parameters break. `parameters`
 * holds the path parameters and the query parameters in their decoded form.
 */
export const operationUrl = (
  baseUrl: URL,
  operation: UrlTemplate,
  parameters: Readonly<Record<string, unknown>>
): Effect.Effect<URL, Errors.InvalidRequest> =>
  Effect.gen(function*() {
    let path: string = operation.path
    for (const name of operation.pathParameters) {
      path = path.replace(`{${name}}`, yield* fromResult(encodeSegment(name, parameters[name])))
    }
    const query: Record<string, unknown> = {}
    for (const name of Object.keys(operation.query.fields)) {
      if (parameters[name] !== undefined) query[name] = parameters[name]
    }
    const encoded: unknown = yield* encodeUnknownEffect(operation.query)(query).pipe(
      Effect.mapError((error) => localError(describeError(error)))
    )
    const url = LinkUrls.below(baseUrl, path)
    if (isRecord(encoded)) {
      for (const [name, value] of Object.entries(encoded)) {
        if (typeof value === "string") url.searchParams.set(name, yield* fromResult(sendable(name, value)))
      }
    }
    return url
  })

/**
 * A link returned by the service, if it stays on the base URL's origin and
 * below its path, without its fragment: a fragment names a place in a
 * document and is never sent, so two links that differ only in it lead to
 * the same page. Otherwise `UnsafeLink`, and the link is not followed; a
 * link that cannot be sent as it is written (a lone surrogate) is one.
 */
export const checkLink = (baseUrl: URL, link: string): Result.Result<URL, Errors.UnsafeLink> => {
  const checked = LinkUrls.checkLink(baseUrl, link)
  return checked._tag === "Below"
    ? Result.succeed(checked.url)
    : Result.fail(new Errors.UnsafeLink({ link: checked.shown, baseUrl: baseUrl.href }))
}

const templates = LinkUrls.templates(Operations.all)

/**
 * What an `api_url` names: the operation its path matches, its path
 * parameters decoded, and for a list the query parameters it carries,
 * decoded by the list's schema (a list is followed from its first page: a
 * `cursor` is refused, as any parameter the list does not take).
 */
export interface Located {
  readonly operation: Operations.AnyOperation
  readonly parameters: Readonly<Record<string, unknown>>
}

/** The query of a list's URL, decoded by the list's schema, `cursor` refused. */
const listQuery = (operation: Operations.ListOperation, url: URL): Result.Result<Readonly<Record<string, unknown>>, Errors.InvalidRequest> => {
  const query = Schema.Struct(omitKey(operation.query.fields, "cursor"))
  const decoded: Result.Result<unknown, Errors.InvalidRequest> = Result.mapError(
    decodeUnknownResult(query, { onExcessProperty: "error" })(Object.fromEntries(url.searchParams)),
    (error) => localError(LinkUrls.queryMessage(describeError(error)))
  )
  return Result.flatMap(decoded, (parameters) => isRecord(parameters) ? Result.succeed(parameters) : Result.fail(localError("The link's query is not a set of parameters")))
}

/**
 * The operation a URL below the base URL names, with its parameters
 * (`Located`); a path no operation has is `InvalidRequest`.
 */
export const locate = (baseUrl: URL, url: URL): Result.Result<Located, Errors.InvalidRequest> => {
  const found = LinkUrls.match(templates, LinkUrls.pathBelow(baseUrl, url))
  if (found._tag === "Refused") return Result.fail(localError(found.message))
  const { operation, parameters } = found
  return operation.kind === "list"
    ? Result.map(listQuery(operation, url), (query) => ({ operation, parameters: { ...parameters, ...query } }))
    : Result.succeed({ operation, parameters })
}
