/**
 * The construction of the client: the request path over its shared
 * services, then, once per operation of the table, what reads it
 * (`ListReads`, `DetailReads`), typed by the operation's item and error
 * union, and the methods over those: one per operation (and a `<id>Page`
 * per list), `follow`, `followList` and `locate` for links, and `wire`,
 * `wirePages` and `read` for programs that pass items on (the command, the
 * mirror). `CatalogClient` names each operation's method once, and the
 * compiler holds each to its type in `CatalogClient.Service`.
 *
 * @internal
 */
import { type Clock, type Codec, Effect, fromResult, HttpClient, mapConcat, Stream, withClock } from "#edition/internal/Edition.js"
import type * as Tags from "../../../../rules/src/client/OperationErrorTags.js"
import * as Operations from "../../contract/Operations.js"
import * as Admission from "../Admission.js"
import * as Budget from "../Budget.js"
import * as CatalogConfig from "../CatalogConfig.js"
import * as LiveAllowance from "../LiveAllowance.js"
import type * as Errors from "../Errors.js"
import { type AnswerError, errorKindOf } from "../OperationErrors.js"
import * as PageSizes from "../PageSizes.js"
import * as ResponseCache from "../ResponseCache.js"
import * as Retry from "../Retry.js"
import * as Links from "./Links.js"
import * as OperationReader from "./OperationReader.js"
import * as Scan from "./Scan.js"
import { type Middleware, requestPath, type SendOptions } from "./Send.js"
import type { KeptAnswer } from "#edition/client/internal/Call.js"
import { wireItemOf } from "#edition/client/internal/WireItem.js"

/** What the client is built with, besides its services. */
export interface Construction {
  readonly policy: Retry.Policy
  readonly middleware: ReadonlyArray<Middleware>
  /** The clock its requests wait on; the sender's own when none is given. */
  readonly clock?: Clock.Clock | undefined
}

/** A value read by operation `Id`, tagged with its id (`CatalogClient.Followed`). */
export interface OperationValue<Id extends string, A> {
  readonly operation: Id
  readonly value: A
}

/** An item of a list in its wire form. */
type Wire = { readonly id: string } & { readonly [key: string]: unknown }

/** Parameters of a call, path and query together, as `OperationReader.parametersOf` reads them. */
type Parameters = Readonly<Record<string, unknown>>

/** What reads the list operation `Id`, whose items are `A` and a page's errors `E` (a scan's, `Scan.ScanError<E>`), built once per client. */
export interface ListReads<Id extends string, A, E> {
  readonly operation: OperationReader.Operation
  readonly items: (parameters: Parameters) => Stream.Stream<A, Scan.ScanError<E>>
  readonly tagged: (parameters: Parameters) => Stream.Stream<OperationValue<Id, A>, Scan.ScanError<E>>
  readonly page: (parameters: Parameters) => Effect.Effect<OperationReader.Page<A>, E>
  readonly wirePages: (parameters: Parameters, from: string | null) => Stream.Stream<Scan.ScanPage<Wire>, Scan.ScanError<E>>
  /** One page in wire form at `cursor` (null: the first), sent on the caller's kept answer. */
  readonly keptPage: (parameters: Parameters, cursor: string | null, kept: KeptAnswer) => Effect.Effect<OperationReader.KeptPage<Wire>, E | Errors.InvalidRequest>
}

/** What reads the detail operation `Id`, whose resource is `A` and whose errors are `E`, built once per client. */
export interface DetailReads<Id extends string, A, E> {
  readonly operation: OperationReader.Operation
  readonly read: (url: URL) => Effect.Effect<A, E>
  readonly tagged: (url: URL) => Effect.Effect<OperationValue<Id, A>, E>
}

/** An operation of the table as the readers take it, with its id and item schema's types. */
type Readable<Id extends string, A, I> = Tags.Described & OperationReader.Operation & { readonly id: Id; readonly item: Codec<A, I> }

/** The request path of the client, over the services in context, and where the service is. */
const readerOf = (construction: Construction) =>
  Effect.gen(function*() {
    const config = yield* CatalogConfig.CatalogConfig
    const path = yield* requestPath({
      config,
      client: yield* HttpClient.HttpClient,
      admission: yield* Admission.Admission,
      allowance: yield* LiveAllowance.LiveAllowance,
      budget: yield* Budget.Budget,
      cache: yield* ResponseCache.ResponseCache,
      policy: construction.policy,
      middleware: construction.middleware
    })
    const clock = construction.clock
    const reader: OperationReader.Reader = {
      baseUrl: config.baseUrl,
      path: clock === undefined ? path : { client: HttpClient.transform(path.client, (request) => withClock(request, clock)) }
    }
    return reader
  })

/** A whole scan is one span, `catalog.<operation>`, with a child per page. */
const scanSpan = (operation: OperationReader.Operation) =>
  Stream.withSpan(`catalog.${operation.id}`, {
    kind: "client",
    attributes: { "catalog.operation": operation.id, "url.template": operation.path },
    captureStackTrace: false
  })

/** What the scans of a client share: its restarts after `CursorExpired` and the page sizes that fit. */
type Scans = Omit<Scan.Options<never, never>, "operation" | "baseUrl" | "read">

/** What reads a list: its items, decoded, as they are and tagged with its id; one page by hand; its pages in wire form. */
const listOf = (reader: OperationReader.Reader, scans: Scans) =>
<Op extends Readable<Id, A, I>, Id extends string, A extends { readonly id: string }, I>(
  operation: Op & Readable<Id, A, I>
): ListReads<Id, A, OperationReader.RequestError<AnswerError<Op>>> => {
  const errors = errorKindOf(operation)
  const typed = OperationReader.page(reader, operation, operation.item, errors)
  const scanOf = <B extends { readonly id: string }, E extends { readonly _tag: string }>(
    read: (parameters: Parameters, url: URL, options: SendOptions) => Effect.Effect<Scan.PageRead<B>, E>
  ): Scan.Options<B, E> => ({
    ...scans,
    operation,
    baseUrl: reader.baseUrl,
    read: (parameters, url, options) => read(parameters, url, { ...options, pageOfScan: true })
  })
  const scanned = Scan.scan(scanOf(typed))
  const wirePage = OperationReader.keptPage(reader, operation, wireItemOf(operation.item), errors)
  const wirePages = Scan.scanPages(scanOf(wirePage))
  const items = (parameters: Parameters) => scanSpan(operation)(scanned(parameters))
  return {
    operation,
    items,
    tagged: (parameters) => Stream.map(items(parameters), (value) => ({ operation: operation.id, value })),
    page: (parameters) =>
      Links.operationUrl(reader.baseUrl, operation, { ...parameters, limit: parameters["limit"] ?? Scan.pageSizeOf(operation, parameters) }).pipe(
        Effect.flatMap((url) => typed(parameters, url, { throughCursor: parameters["cursor"] !== undefined, revalidate: false }))
      ),
    wirePages: (parameters, from) => scanSpan(operation)(wirePages(parameters, from)),
    keptPage: (parameters, cursor, kept) =>
      Links.operationUrl(reader.baseUrl, operation, {
        ...parameters,
        limit: parameters["limit"] ?? Scan.pageSizeOf(operation, parameters),
        ...(cursor === null ? {} : { cursor })
      }).pipe(Effect.flatMap((url) => wirePage(parameters, url, { kept, pageOfScan: true })))
  }
}

/** What reads a detail: its resource at a URL, as it is and tagged with its id. */
const detailOf = (reader: OperationReader.Reader) =>
<Op extends Readable<Id, A, I>, Id extends string, A, I>(
  operation: Op & Readable<Id, A, I>
): DetailReads<Id, A, OperationReader.RequestError<AnswerError<Op>>> => {
  const read = OperationReader.detail(reader, operation, operation.item, errorKindOf(operation))
  return { operation, read, tagged: (url) => Effect.map(read(url), (value) => ({ operation: operation.id, value })) }
}

/** The parameters a call gives, read for `operation` (`OperationReader.parametersOf`). */
const parametersOf = (operation: OperationReader.Operation, first: unknown, query: unknown) =>
  fromResult(OperationReader.parametersOf(operation, first, query))

/**
 * The method of a list operation: its items, scanned to the end. It takes
 * the parameters as `OperationReader.parametersOf` reads them, and so every
 * signature `CatalogClient.ListMethod` gives it.
 */
export const listMethod = <A, E>(reads: ListReads<string, A, E>) => (first?: unknown, query?: unknown): Stream.Stream<A, Scan.ScanError<E>> =>
  Stream.unwrap(Effect.map(parametersOf(reads.operation, first, query), reads.items))

/** The `<id>Page` method of a list operation: one page, by hand. */
export const pageMethod = <A, E>(reads: ListReads<string, A, E>) =>
(first?: unknown, query?: unknown): Effect.Effect<OperationReader.Page<A>, E | Errors.InvalidRequest> =>
  Effect.flatMap(parametersOf(reads.operation, first, query), reads.page)

/** The method of a detail operation, over where the service is. */
export const detailMethod = (baseUrl: URL) =>
<A, E>(reads: DetailReads<string, A, E>) =>
(first?: unknown, query?: unknown): Effect.Effect<A, E | Errors.InvalidRequest> =>
  Effect.flatMap(parametersOf(reads.operation, first, query), (parameters) =>
    Effect.flatMap(Links.operationUrl(baseUrl, reads.operation, parameters), reads.read))

/** What reads each list operation of the table, by id. */
const listsOf = (list: ReturnType<typeof listOf>) => ({
  models: list(Operations.models),
  modelOffers: list(Operations.modelOffers),
  modelBenchmarks: list(Operations.modelBenchmarks),
  modelPerformance: list(Operations.modelPerformance),
  modelActivity: list(Operations.modelActivity),
  modelApplications: list(Operations.modelApplications),
  families: list(Operations.families),
  familyModels: list(Operations.familyModels),
  providers: list(Operations.providers),
  providerModels: list(Operations.providerModels),
  providerOffers: list(Operations.providerOffers),
  organizations: list(Operations.organizations),
  organizationModels: list(Operations.organizationModels),
  organizationResources: list(Operations.organizationResources),
  skills: list(Operations.skills),
  publishers: list(Operations.publishers),
  mcps: list(Operations.mcps),
  topics: list(Operations.topics),
  topicSkills: list(Operations.topicSkills),
  articles: list(Operations.articles),
  search: list(Operations.search)
}) satisfies { readonly [Id in Operations.ListId]: ListReads<Id, unknown, unknown> }

/** What reads each detail operation of the table, by id. */
const detailsOf = (detail: ReturnType<typeof detailOf>) => ({
  model: detail(Operations.model),
  offer: detail(Operations.offer),
  family: detail(Operations.family),
  provider: detail(Operations.provider),
  organization: detail(Operations.organization),
  organizationResource: detail(Operations.organizationResource),
  skill: detail(Operations.skill),
  skillAudits: detail(Operations.skillAudits),
  skillDocument: detail(Operations.skillDocument),
  mcp: detail(Operations.mcp),
  mcpConnection: detail(Operations.mcpConnection),
  article: detail(Operations.article),
  stats: detail(Operations.stats),
  usage: detail(Operations.usage)
}) satisfies { readonly [Id in Operations.DetailId]: DetailReads<Id, unknown, unknown> }

/** What reads every list operation, by id. */
export type Lists = ReturnType<typeof listsOf>

/** What reads every detail operation, by id. */
export type Details = ReturnType<typeof detailsOf>

/** What an effect succeeds and fails with, and what a stream emits and fails with, of each member of a union. */
type SuccessOf<T> = T extends Effect.Effect<infer A, infer _E, infer _R> ? A : never
type FailureOf<T> = T extends Effect.Effect<infer _A, infer E, infer _R> ? E : never
type ItemOf<T> = T extends Stream.Stream<infer A, infer _E, infer _R> ? A : never
type StreamFailureOf<T> = T extends Stream.Stream<infer _A, infer E, infer _R> ? E : never

/** What reading a detail operation named at run time gives: its resource tagged with its id (`CatalogClient.Followed`). */
type DetailRead = ReturnType<Details[Operations.DetailId]["tagged"]>
type Read = Effect.Effect<SuccessOf<DetailRead>, FailureOf<DetailRead> | Errors.InvalidRequest>

/** What scanning a list operation named at run time gives: its items tagged with its id (`CatalogClient.FollowedItem`). */
type ListRead = ReturnType<Lists[Operations.ListId]["tagged"]>
type Scanned = Stream.Stream<ItemOf<ListRead>, StreamFailureOf<ListRead> | Errors.InvalidRequest>

/** The pages in wire form of a list operation named at run time. */
type WirePages = Stream.Stream<Scan.ScanPage<Wire>, StreamFailureOf<ReturnType<Lists[Operations.ListId]["wirePages"]>> | Errors.InvalidRequest>

/** A page in wire form of a list operation named at run time, sent on the caller's kept answer. */
type KeptWirePage = Effect.Effect<OperationReader.KeptPage<Wire>, FailureOf<ReturnType<Lists[Operations.ListId]["keptPage"]>> | Errors.InvalidRequest>

/** Whether an id from outside TypeScript (a command line) names a list operation. */
const isListId = (lists: Lists, id: string): id is Operations.ListId => Object.hasOwn(lists, id)

/** Whether an id from outside TypeScript names a detail operation. */
const isDetailId = (details: Details, id: string): id is Operations.DetailId => Object.hasOwn(details, id)

/** `follow`, `followList`, `locate`, `read`, `wire` and `wirePages`, over the operations' reads. */
const linksOf = (baseUrl: URL, lists: Lists, details: Details) => {
  /** The URL an `api_url` gives, checked, and what it names. */
  const locateUrl = (apiUrl: string) =>
    Effect.gen(function*() {
      yield* fromResult(Links.sendable("apiUrl", apiUrl))
      const url = yield* fromResult(Links.checkLink(baseUrl, apiUrl))
      return { url, located: yield* fromResult(Links.locate(baseUrl, url)) }
    })
  const wirePages = (id: Operations.ListId, parameters: Parameters, from: string | null = null): WirePages =>
    isListId(lists, id) ? lists[id].wirePages(parameters, from) : Stream.fail(Links.localError(`There is no list operation ${JSON.stringify(id)}`))
  return {
    locate: (apiUrl: string): Effect.Effect<Links.Located, Errors.InvalidRequest | Errors.UnsafeLink> => Effect.map(locateUrl(apiUrl), ({ located }) => located),
    follow: (apiUrl: string) =>
      Effect.flatMap(locateUrl(apiUrl), ({ located: { operation }, url }): Read =>
        operation.kind === "detail"
          ? details[operation.id].tagged(url)
          : Effect.fail(Links.localError(`The link names the list ${operation.id}, not a resource: read it with followList`))),
    followList: (apiUrl: string) =>
      Stream.unwrap(Effect.map(locateUrl(apiUrl), ({ located: { operation, parameters } }): Scanned =>
        operation.kind === "list"
          ? lists[operation.id].tagged(parameters)
          : Stream.fail(Links.localError(`The link names the resource ${operation.id}, not a list: read it with follow`)))),
    read: (id: Operations.DetailId, parameters: Readonly<Record<string, string>>): Read =>
      isDetailId(details, id)
        ? Effect.flatMap(Links.operationUrl(baseUrl, details[id].operation, parameters), (url): Read => details[id].tagged(url))
        : Effect.fail(Links.localError(`There is no detail operation ${JSON.stringify(id)}`)),
    wirePages,
    wire: (id: Operations.ListId, parameters: Parameters) => mapConcat(wirePages(id, parameters), (page) => page.items),
    keptPage: (id: Operations.ListId, parameters: Parameters, cursor: string | null, kept: KeptAnswer): KeptWirePage =>
      isListId(lists, id) ? lists[id].keptPage(parameters, cursor, kept) : Effect.fail(Links.localError(`There is no list operation ${JSON.stringify(id)}`))
  }
}

/**
 * Builds what the client's methods read from the services in context (its
 * configuration, an `HttpClient`, `Admission`, `Budget`, `ResponseCache`,
 * `PageSizes`), a retry policy, middleware of one's own, and the clock its
 * requests wait on: each operation's reads, by id, and the links over them.
 */
export const make = (construction: Construction) =>
  Effect.gen(function*() {
    const reader = yield* readerOf(construction)
    const scans = { restarts: construction.policy.restarts, pageSizes: yield* PageSizes.PageSizes }
    const lists = listsOf(listOf(reader, scans))
    const details = detailsOf(detailOf(reader))
    return { baseUrl: reader.baseUrl, lists, details, links: linksOf(reader.baseUrl, lists, details) }
  })

/** What a client's methods are made of: where the service is, each operation's reads by id, and the links over them. */
export type Readers = SuccessOf<ReturnType<typeof make>>
