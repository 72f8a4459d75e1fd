/**
 * How the client reads one operation: a detail's resource at a URL, or one
 * page of a list, sent along the request path (`Send`) for what the
 * operation is (`Purpose`: its row of the table, the scope its parameters
 * need, its error union) and decoded with the operation's decoder, built
 * once per item schema.
 *
 * @internal
 */
import { type AnyCodec, type Codec, Effect, isRecord, Result } from "#edition/internal/Edition.js"
import { perItemSchema } from "../../../../rules/src/client/SchemaMemo.js"
import { DetailEnvelope, ListEnvelope } from "../../contract/Envelopes.js"
import * as Operations from "../../contract/Operations.js"
import type * as Errors from "../Errors.js"
import { type CommonError, type ErrorKind } from "../OperationErrors.js"
import * as Links from "./Links.js"
import type * as Scan from "./Scan.js"
import { decoder } from "#edition/client/internal/Decoder.js"
import { type Purpose, type RequestPath, send, type SendOptions } from "./Send.js"

/** The errors of a request of an operation whose error union is `E`, and those any request can meet. */
export type RequestError<E> = Extract<E, Errors.CatalogError> | CommonError

/** An operation of the table as the readers take it, its item type left open. */
export interface Operation {
  readonly id: string
  readonly kind: "list" | "detail"
  readonly path: string
  readonly units: number
  readonly scope: Operations.ScopeRule
  readonly item: AnyCodec
  readonly query: Links.UrlTemplate["query"]
  /** The largest page size (lists). */
  readonly maxLimit: number
  readonly pathParameters: ReadonlyArray<string>
  readonly key: Operations.AnyKey | null
}

/** What reading needs of the client: where the service is, and the request path. */
export interface Reader {
  readonly baseUrl: URL
  readonly path: RequestPath
}

const listDecoder = perItemSchema(<A, I>(item: Codec<A, I>) => decoder(ListEnvelope(item)))

const detailDecoder = perItemSchema(<A, I>(item: Codec<A, I>) => decoder(DetailEnvelope(item)))

/** What a request of `operation` with `parameters` is sent for. */
const purposeOf = <E>(operation: Operation, parameters: Readonly<Record<string, unknown>>, errors: ErrorKind<E>): Purpose<RequestError<E>> => ({
  operation,
  scope: Operations.requiredScope(operation, parameters) ?? null,
  isAllowed: errors.is,
  allows: errors.allows
})

/** Reads the resource of a detail operation, whose resources are `item`, at a URL: one decoder for every read. */
export const detail = <A, I, E>(reader: Reader, operation: Operation, item: Codec<A, I>, errors: ErrorKind<E>) => {
  const decode = detailDecoder(item)
  const purpose = purposeOf(operation, {}, errors)
  return (url: URL): Effect.Effect<A, RequestError<E>> => Effect.map(send(reader.path, purpose, decode, url), (decoded) => decoded.value.data)
}

/** A page as the client reads it (`CatalogClient.Page`). */
export interface Page<A> extends Scan.PageRead<A> {
  readonly observedAt: string | null
  readonly stale: boolean | null
}

/** A page read on an answer its caller keeps (`SendOptions.kept`): the page, and whether it was a 304. */
export interface KeptPage<A> extends Page<A> {
  readonly unchanged: boolean
}

/** Reads pages of a list operation whose items are `item` (its own, or their wire form): one decoder for all of them. */
export const page = <A extends { readonly id: string }, I, E>(reader: Reader, operation: Operation, item: Codec<A, I>, errors: ErrorKind<E>) => {
  const read = keptPage(reader, operation, item, errors)
  return (parameters: Readonly<Record<string, unknown>>, url: URL, options: SendOptions): Effect.Effect<Page<A>, RequestError<E>> =>
    Effect.map(read(parameters, url, options), ({ unchanged: _, ...page }) => page)
}

/** Reads pages of a list operation as `page` does, each saying whether it was a 304. */
export const keptPage = <A extends { readonly id: string }, I, E>(reader: Reader, operation: Operation, item: Codec<A, I>, errors: ErrorKind<E>) => {
  const decode = listDecoder(item)
  return (
    parameters: Readonly<Record<string, unknown>>,
    url: URL,
    options: SendOptions
  ): Effect.Effect<KeptPage<A>, RequestError<E>> =>
    send(reader.path, purposeOf(operation, parameters, errors), decode, url, options).pipe(
      Effect.map(({ requestId, unchanged, value }) => ({
        items: value.data,
        nextCursor: value.pagination.next_cursor,
        next: value.links.next,
        hasMore: value.pagination.has_more,
        observedAt: value.meta.observed_at,
        stale: value.meta.stale,
        requestId,
        unchanged
      }))
    )
}

/**
 * The parameters a call gives: the path parameters (with the query of a
 * list) as one object, or the operation's key (a string, or for a key that
 * is the resource's id, anything with that `id`) and the query apart. An
 * object that holds every path parameter is read as them.
 */
export const parametersOf = (
  operation: Pick<Operation, "id" | "pathParameters" | "key">,
  first: unknown,
  query: unknown
): Result.Result<Readonly<Record<string, unknown>>, Errors.InvalidRequest> => {
  const record = isRecord(first) ? first : {}
  const key = operation.key === null
    ? undefined
    : typeof first === "string"
    ? first
    : operation.key.by === "id" && typeof record["id"] === "string" &&
        !operation.pathParameters.every((name) => typeof record[name] === "string")
    ? record["id"]
    : undefined
  if (operation.key === null || key === undefined) return Result.succeed(record)
  const rest = isRecord(query) ? query : {}
  return Result.map(
    Result.mapError(operation.key.parse(key), (why) => Links.localError(`${operation.id}: the ${operation.key?.by ?? "key"} ${why}`)),
    (path) => ({ ...rest, ...path })
  )
}
