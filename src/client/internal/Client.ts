/**
 * The construction of the client: its methods, built from the operations
 * table over the request path, and the layer of its shared services.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type { Clock } from "effect"
import { Effect, Either, ParseResult, Predicate, Schema, Stream } from "effect"
import { DetailEnvelope, ListEnvelope } from "../../contract/Envelopes.js"
import * as Operations from "../../contract/Operations.js"
import * as Admission from "../Admission.js"
import * as Budget from "../Budget.js"
import * as CatalogConfig from "../CatalogConfig.js"
import * as Errors from "../Errors.js"
import { type CommonError, type ErrorKind, errorKindOf } from "../OperationErrors.js"
import * as PageSizes from "../PageSizes.js"
import * as ResponseCache from "../ResponseCache.js"
import * as Retry from "../Retry.js"
import * as Exchange from "./Exchange.js"
import * as Links from "./Links.js"
import * as Scan from "./Scan.js"
import { decoder, requestPath, send, type Step, type Target } from "./Send.js"
import * as WireCheck from "./WireCheck.js"

/** The errors of a request of an operation whose error union is `E`, and those any request can meet. */
export type Sent<E> = Extract<E, Errors.CatalogError> | CommonError

const isWireItem = (input: unknown): input is { readonly id: string } & { readonly [key: string]: unknown } =>
  typeof input === "object" && input !== null && !Array.isArray(input) && "id" in input && typeof input.id === "string"

/** A schema of items in wire form: JSON objects with a string `id`, each also passed to `check`, which gives the issue of a wrong field. */
export const declareWireItem = (check: (item: unknown) => ParseResult.ParseIssue | undefined) =>
  Schema.declare(
    [],
    {
      // One check per item, not one per member: the items are passed on, not read. A failure says which member is wrong.
      decode: () => (input, _, ast) => {
        if (!isWireItem(input)) {
          return ParseResult.fail(
            Predicate.isRecord(input)
              ? new ParseResult.Pointer("id", input, new ParseResult.Type(Schema.String.ast, input["id"]))
              : new ParseResult.Type(ast, input, "Expected a JSON object")
          )
        }
        const issue = check(input)
        return issue === undefined ? ParseResult.succeed(input) : ParseResult.fail(issue)
      },
      encode: () => ParseResult.succeed
    },
    { identifier: "WireItem", description: "a JSON object with a string id" }
  )

/**
 * `make` memoized by the item schema: what depends only on an operation's
 * item is made once for every client built (a parser is compiled once per
 * schema), not once per client.
 */
const perItem = <V>(make: (item: Schema.Schema.AnyNoContext) => V) => {
  const made = new WeakMap<Schema.Schema.AnyNoContext, V>()
  return (item: Schema.Schema.AnyNoContext): V => {
    const known = made.get(item)
    if (known !== undefined) return known
    const value = make(item)
    made.set(item, value)
    return value
  }
}

const listDecoder = perItem((item) => decoder(ListEnvelope(item)))

const detailDecoder = perItem((item) => decoder(DetailEnvelope(item)))

/** The wire form of an operation's items. */
const wireItem = perItem((item) => declareWireItem(WireCheck.checker(item)))

/** What the client needs to know of an operation. */
interface Shape<Path extends string, A, I, Q extends Schema.Schema.AnyNoContext & { readonly fields: object }> {
  readonly id: string
  readonly kind: "list" | "detail"
  readonly path: Path
  readonly units: number
  readonly scope: Operations.ScopeRule
  readonly item: Schema.Schema<A, I>
  readonly query: Q
  /** The largest page size (lists). */
  readonly maxLimit: number
  readonly pathParameters: ReadonlyArray<string>
}

/** An operation of the table as the client's builders take it, its item type left open. */
type AnyShape = Shape<
  string,
  Schema.Schema.Type<Schema.Schema.AnyNoContext>,
  Schema.Schema.Encoded<Schema.Schema.AnyNoContext>,
  Schema.Schema.AnyNoContext & { readonly fields: object }
>

/** An operation of the table with its key, for the methods that take one. */
type Keyed = AnyShape & { readonly key: Operations.AnyKey | null }

/**
 * What `follow`, `followList` and `read` give: a value tagged with the id of
 * the operation that decoded it. The table's loop cannot say which value
 * goes with which id; the `Service` they are part of does (`Followed`,
 * `FollowedItem`).
 */
interface Tagged {
  readonly operation: string
  readonly value: unknown
}

/**
 * The parameters a call gives: the path parameters (with the query of a
 * list) as one object, or the operation's key (a string, or for a key that
 * is the resource's id, anything with that `id`) and the query apart. An
 * object that holds every path parameter is read as them.
 */
const parametersOf = (
  operation: { readonly id: string; readonly pathParameters: ReadonlyArray<string>; readonly key: Operations.AnyKey | null },
  first: unknown,
  query: unknown
): Either.Either<Readonly<Record<string, unknown>>, Errors.InvalidRequest> => {
  const record = Predicate.isRecord(first) ? first : {}
  const key = operation.key === null
    ? undefined
    : typeof first === "string"
    ? first
    : operation.key.by === "id" && typeof record["id"] === "string" &&
        !operation.pathParameters.every((name) => typeof record[name] === "string")
    ? record["id"]
    : undefined
  if (operation.key === null || key === undefined) return Either.right(record)
  const rest = Predicate.isRecord(query) ? query : {}
  return Either.map(
    Either.mapLeft(operation.key.parse(key), (why) => Links.localError(`${operation.id}: the ${operation.key?.by ?? "key"} ${why}`)),
    (path) => ({ ...rest, ...path })
  )
}

const decodeUsage = Schema.decodeUnknown(Schema.parseJson(DetailEnvelope(Operations.usage.item)))

/**
 * The account's live `minute_limit`, read from `/usage/` (no units) under
 * admission, outside the budget and retries; the daily units and bytes of
 * the same read go to the budget.
 */
const minuteLimit = (
  config: CatalogConfig.CatalogConfig["Type"],
  http: HttpClient.HttpClient,
  admission: Admission.Service,
  budget: Budget.Service
) => {
  const usage = Admission.step(admission)(Exchange.step({ apiKey: config.apiKey, timeout: config.timeout })(HttpClient.withScope(http)))
  return Links.operationUrl(config.baseUrl, Operations.usage, {}).pipe(
    Effect.flatMap((url) => usage.execute(HttpClientRequest.get(url))),
    Effect.flatMap(Exchange.bodyOf),
    Effect.flatMap((body) =>
      Effect.flatMap(decodeUsage(body), ({ data }) =>
        // The answer's own bytes count too, after the figures it reports.
        Effect.as(budget.account({ ...data, daily_bytes: data.daily_bytes + Buffer.byteLength(body) }), data.minute_limit))
    )
  )
}


/**
 * Builds the client from its configuration, an `HttpClient`, the shared
 * services that keep an account safe (`Admission`, `Budget`,
 * `ResponseCache`), a retry policy, steps of one's own, and the clock its
 * requests wait on (the sender's own when none is given). Its methods are
 * typed as the loop over the table can type them; `CatalogClient` asserts
 * them to be its `Service`.
 */
export const make = (policy: Retry.Policy = Retry.defaultPolicy, steps: ReadonlyArray<Step> = [], clock?: Clock.Clock) => Effect.gen(function*() {
  const config = yield* CatalogConfig.CatalogConfig
  const http = yield* HttpClient.HttpClient
  const admission = yield* Admission.Admission
  const budget = yield* Budget.Budget
  const sent = yield* requestPath({
    config,
    client: http,
    admission: yield* Admission.following(admission, minuteLimit(config, http, admission, budget)),
    budget,
    cache: yield* ResponseCache.ResponseCache,
    policy,
    steps
  })
  const pageSizes = yield* PageSizes.PageSizes
  const path = clock === undefined ? sent : { ...sent, client: HttpClient.transform(sent.client, (request) => Effect.withClock(request, clock)) }

  const target = <E>(
    operation: { readonly id: string; readonly path: string; readonly units: number; readonly scope: Operations.ScopeRule },
    parameters: Readonly<Record<string, unknown>>,
    errors: ErrorKind<E>
  ): Target<Sent<E>> => ({
    id: operation.id,
    template: operation.path,
    units: operation.units,
    scope: Operations.requiredScope(operation, parameters) ?? null,
    isAllowed: errors.is,
    allows: errors.allows
  })

  /** Reads the resource of a detail operation at a URL: one decoder for every read. */
  const detailReader = (operation: AnyShape) => {
    const decode = detailDecoder(operation.item)
    const errors = errorKindOf(operation)
    return (url: URL) => Effect.map(send(path, target(operation, {}, errors), decode, url), (decoded) => decoded.value.data)
  }

  const detail = (operation: Keyed) => {
    const read = detailReader(operation)
    return (first?: unknown, query?: unknown) =>
      Effect.flatMap(parametersOf(operation, first, query), (parameters) =>
        Effect.flatMap(Links.operationUrl(config.baseUrl, operation, parameters), read))
  }

  /** Reads pages of `operation`: one decoder for all of them. */
  const pageReader = <A, I, E>(
    operation: Shape<string, A, I, Schema.Schema.AnyNoContext & { readonly fields: object }>,
    errors: ErrorKind<E>
  ) => {
    const decode = listDecoder(operation.item)
    return (
      parameters: Readonly<Record<string, unknown>>,
      url: URL,
      options: { readonly throughCursor: boolean; readonly revalidate: boolean; readonly pageOfScan?: boolean }
    ) =>
      send(path, target(operation, parameters, errors), decode, url, options).pipe(
        Effect.map(({ requestId, value }) => ({
          items: value.data,
          nextCursor: value.pagination.next_cursor,
          next: value.links.next,
          hasMore: value.pagination.has_more,
          observedAt: value.meta.observed_at,
          stale: value.meta.stale,
          requestId
        }))
      )
  }

  const page = (operation: Keyed) => {
    const pageAt = pageReader(operation, errorKindOf(operation))
    return (first?: unknown, query?: unknown) =>
      Effect.flatMap(parametersOf(operation, first, query), (parameters) =>
        Links.operationUrl(config.baseUrl, operation, { ...parameters, limit: parameters["limit"] ?? Scan.pageSizeOf(operation, parameters) }).pipe(
          Effect.flatMap((url) => pageAt(parameters, url, { throughCursor: parameters["cursor"] !== undefined, revalidate: false }))
        ))
  }

  const scanOptions = <A extends { readonly id: string }, I, E>(
    operation: Shape<string, A, I, Schema.Schema.AnyNoContext & { readonly fields: object }>,
    errors: ErrorKind<E>
  ) => {
    const read = pageReader(operation, errors)
    return {
      operation,
      baseUrl: config.baseUrl,
      restarts: policy.restarts,
      pageSizes,
      read: (parameters: Readonly<Record<string, unknown>>, url: URL, options: { readonly throughCursor: boolean; readonly revalidate: boolean }) =>
        read(parameters, url, { ...options, pageOfScan: true })
    }
  }

  /** A whole scan is one span, `catalog.<operation>`, with a child per page. */
  const scanSpan = (operation: { readonly id: string; readonly path: string }) =>
    Stream.withSpan(`catalog.${operation.id}`, {
      kind: "client",
      attributes: { "catalog.operation": operation.id, "url.template": operation.path },
      captureStackTrace: false
    })

  const scan = <A extends { readonly id: string }, I, E>(
    operation: Shape<string, A, I, Schema.Schema.AnyNoContext & { readonly fields: object }>,
    errors: ErrorKind<E>
  ) => {
    const items = Scan.scan(scanOptions(operation, errors))
    return (parameters: Readonly<Record<string, unknown>> | undefined) => scanSpan(operation)(items(parameters))
  }

  /** The wire scans: each item checked against the wire form of its operation's item schema. */
  const wireScans = new Map(Operations.all.flatMap((operation) => {
    if (operation.kind !== "list") return []
    const pages = Scan.scanPages(scanOptions({ ...operation, item: wireItem(operation.item) }, errorKindOf(operation)))
    const scanned = (parameters: Readonly<Record<string, unknown>>, from: string | null) => scanSpan(operation)(pages(parameters, from))
    return [[operation.id, scanned]] as const
  }))

  const wirePages = (
    id: Operations.ListId,
    parameters: Readonly<Record<string, unknown>>,
    from: string | null = null
  ) => {
    const pages = wireScans.get(id)
    // An id from outside TypeScript (a command line) may name no list.
    return pages === undefined ? Stream.fail(Links.localError(`There is no list operation ${JSON.stringify(id)}`)) : pages(parameters, from)
  }

  const wire = (id: Operations.ListId, parameters: Readonly<Record<string, unknown>>) =>
    Stream.mapConcat(wirePages(id, parameters), (page) => page.items)

  const followers = new Map(Operations.all.flatMap((operation) => {
    if (operation.kind !== "detail") return []
    const readAt = detailReader(operation)
    const tagged = (url: URL) =>
      Effect.map(readAt(url), (value): Tagged => ({ operation: operation.id, value }))
    return [[operation.id, { operation, tagged }]] as const
  }))

  /** The URL an `api_url` gives, checked, and what it names. */
  const locateUrl = (apiUrl: string) =>
    Effect.gen(function*() {
      yield* Links.sendable("apiUrl", apiUrl)
      const url = yield* Links.checkLink(config.baseUrl, apiUrl)
      return { url, located: yield* Links.locate(config.baseUrl, url) }
    })

  const locate = (apiUrl: string): Effect.Effect<Links.Located, Errors.InvalidRequest | Errors.UnsafeLink> =>
    Effect.map(locateUrl(apiUrl), ({ located }) => located)

  const follow = (apiUrl: string) =>
    Effect.gen(function*() {
      const { located: { operation }, url } = yield* locateUrl(apiUrl)
      const follower = operation.kind === "detail" ? followers.get(operation.id) : undefined
      return follower === undefined
        ? yield* Effect.fail(Links.localError(`The link names the list ${operation.id}, not a resource: read it with followList`))
        : yield* follower.tagged(url)
    })

  /** The typed scans, each item tagged with its list's id, for `followList`. */
  const listers = new Map(Operations.all.flatMap((operation) => {
    if (operation.kind !== "list") return []
    const shape: AnyShape = operation
    const scanned = scan(shape, errorKindOf(shape))
    const tagged = (parameters: Readonly<Record<string, unknown>>) =>
      Stream.map(scanned(parameters), (value): Tagged => ({ operation: operation.id, value }))
    return [[operation.id, tagged]] as const
  }))

  const followList = (apiUrl: string) =>
    Stream.unwrap(Effect.gen(function*() {
      const { located: { operation, parameters } } = yield* locateUrl(apiUrl)
      const lister = operation.kind === "list" ? listers.get(operation.id) : undefined
      return lister === undefined
        ? yield* Effect.fail(Links.localError(`The link names the resource ${operation.id}, not a list: read it with follow`))
        : lister(parameters)
    }))

  const read = (id: Operations.DetailId, parameters: Readonly<Record<string, string>>) => {
    const follower = followers.get(id)
    return follower === undefined
      ? Effect.fail(Links.localError(`There is no detail operation ${JSON.stringify(id)}`))
      : Effect.flatMap(Links.operationUrl(config.baseUrl, follower.operation, parameters), follower.tagged)
  }

  const methods = {
    ...Object.fromEntries(Operations.all.flatMap((operation): ReadonlyArray<readonly [string, unknown]> => {
      const shape: Keyed = operation
      const scanned = scan(shape, errorKindOf(shape))
      const listed = (first?: unknown, query?: unknown) =>
        Stream.unwrap(Effect.map(parametersOf(shape, first, query), (parameters) => scanned(parameters)))
      return operation.kind === "list"
        ? [[operation.id, listed], [`${operation.id}Page`, page(shape)]]
        : [[operation.id, detail(shape)]]
    })),
    follow,
    followList,
    locate,
    wire,
    wirePages,
    read
  }
  return methods
})
