/**
 * The construction of the client: the request path over its shared
 * services, then, once per operation of the table, what reads it (`OperationReads`),
 * and the methods over those: one per operation (and a `<id>Page` per list),
 * `follow`, `followList` and `locate` for links, and `wire`, `wirePages`
 * and `read` for programs that pass items on (the command, the mirror).
 *
 * @internal
 */
import { type AnyCodec, type Clock, Effect, fromResult, HttpClient, mapConcat, Predicate, refineTo, Stream, withClock } from "#edition/internal/Edition.js"
import { perItemSchema } from "../../../../rules/src/client/SchemaMemo.js"
import * as Operations from "../../contract/Operations.js"
import * as Admission from "../Admission.js"
import * as Budget from "../Budget.js"
import * as CatalogConfig from "../CatalogConfig.js"
import * as LiveAllowance from "../LiveAllowance.js"
import type * as Errors from "../Errors.js"
import { errorKindOf } from "../OperationErrors.js"
import * as PageSizes from "../PageSizes.js"
import * as ResponseCache from "../ResponseCache.js"
import * as Retry from "#edition/client/Retry.js"
import * as Links from "./Links.js"
import * as OperationReader from "./OperationReader.js"
import * as Scan from "./Scan.js"
import { type Middleware, requestPath, type SendOptions } from "./Send.js"
import { wireItemOf } from "#edition/client/internal/WireItem.js"

/** What the client is built with, besides its services. */
export interface Construction {
  readonly policy: Retry.Policy
  readonly middleware: ReadonlyArray<Middleware>
  /** The clock its requests wait on; the sender's own when none is given. */
  readonly clock?: Clock.Clock | undefined
}

/** A value the table's loop reads, tagged with the id of the operation that decoded it (`CatalogClient.Followed`). */
export interface OperationValue {
  readonly operation: string
  readonly value: unknown
}

/** An item of a list in its wire form. */
type Wire = { readonly id: string } & { readonly [key: string]: unknown }

/** What reads one operation, built once per client. */
type OperationReads =
  | {
    readonly kind: "detail"
    readonly operation: OperationReader.Operation
    readonly read: (url: URL) => Effect.Effect<OperationValue, Errors.CatalogError>
  }
  | {
    readonly kind: "list"
    readonly operation: OperationReader.Operation
    readonly items: (parameters: Readonly<Record<string, unknown>>) => Stream.Stream<OperationValue, Errors.CatalogError>
    readonly page: (parameters: Readonly<Record<string, unknown>>) => Effect.Effect<OperationReader.Page<unknown & { readonly id: string }>, Errors.CatalogError>
    readonly wirePages: (parameters: Readonly<Record<string, unknown>>, from: string | null) => Stream.Stream<Scan.ScanPage<Wire>, Errors.CatalogError>
  }

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

/** Whether a decoded item has a string `id`, as every list item of the contract has. */
const hasId = (item: unknown): item is { readonly id: string } => Predicate.hasProperty(item, "id") && typeof item.id === "string"

/**
 * A list's item schema as the loop over the table can type it: items with an
 * `id`. Each operation's item decodes one already; the refinement states it,
 * once per item schema.
 */
const withId = perItemSchema((item: AnyCodec) => item.pipe(refineTo(hasId)))

/** A whole scan is one span, `catalog.<operation>`, with a child per page. */
const scanSpan = (operation: OperationReader.Operation) =>
  Stream.withSpan(`catalog.${operation.id}`, {
    kind: "client",
    attributes: { "catalog.operation": operation.id, "url.template": operation.path },
    captureStackTrace: false
  })

/** What reads a list: its items, decoded; one page by hand; its pages in wire form. */
const listOf = (reader: OperationReader.Reader, scans: Omit<Scan.Options<never, never>, "operation" | "baseUrl" | "read">, operation: OperationReader.Operation): OperationReads => {
  const errors = errorKindOf(operation)
  const typed = OperationReader.page(reader, operation, withId(operation.item), errors)
  const scanOf = <A extends { readonly id: string }, E extends { readonly _tag: string }>(
    read: (parameters: Readonly<Record<string, unknown>>, url: URL, options: SendOptions) => Effect.Effect<Scan.PageRead<A>, E>
  ): Scan.Options<A, E> => ({
    ...scans,
    operation,
    baseUrl: reader.baseUrl,
    read: (parameters, url, options) => read(parameters, url, { ...options, pageOfScan: true })
  })
  const items = Scan.scan(scanOf(typed))
  const wirePages = Scan.scanPages(scanOf(OperationReader.page(reader, operation, wireItemOf(operation.item), errors)))
  return {
    kind: "list",
    operation,
    items: (parameters) => scanSpan(operation)(Stream.map(items(parameters), (value): OperationValue => ({ operation: operation.id, value }))),
    page: (parameters) =>
      Links.operationUrl(reader.baseUrl, operation, { ...parameters, limit: parameters["limit"] ?? Scan.pageSizeOf(operation, parameters) }).pipe(
        Effect.flatMap((url) => typed(parameters, url, { throughCursor: parameters["cursor"] !== undefined, revalidate: false }))
      ),
    wirePages: (parameters, from) => scanSpan(operation)(wirePages(parameters, from))
  }
}

/** What reads a detail: its resource at a URL. */
const detailOf = (reader: OperationReader.Reader, operation: OperationReader.Operation): OperationReads => {
  const read = OperationReader.detail(reader, operation, errorKindOf(operation))
  return { kind: "detail", operation, read: (url) => Effect.map(read(url), (value): OperationValue => ({ operation: operation.id, value })) }
}

/** A method of the client as the table's loop types it: its parameters as `OperationReader.parametersOf` reads them, its value not yet the operation's. */
type Method =
  | ((first?: unknown, query?: unknown) => Effect.Effect<unknown, Errors.CatalogError>)
  | ((first?: unknown, query?: unknown) => Stream.Stream<unknown, Errors.CatalogError>)

/** The method of an operation, and the `<id>Page` of a list. */
const methodsOf = (baseUrl: URL, built: OperationReads): ReadonlyArray<readonly [string, Method]> => {
  const { operation } = built
  if (built.kind === "detail") {
    const detail = (first?: unknown, query?: unknown) =>
      Effect.flatMap(fromResult(OperationReader.parametersOf(operation, first, query)), (parameters) =>
        Effect.flatMap(Links.operationUrl(baseUrl, operation, parameters), (url) => Effect.map(built.read(url), (tagged) => tagged.value)))
    return [[operation.id, detail]]
  }
  const list = (first?: unknown, query?: unknown) =>
    Stream.unwrap(Effect.map(fromResult(OperationReader.parametersOf(operation, first, query)), (parameters) => Stream.map(built.items(parameters), (tagged) => tagged.value)))
  const page = (first?: unknown, query?: unknown) => Effect.flatMap(fromResult(OperationReader.parametersOf(operation, first, query)), built.page)
  return [[operation.id, list], [`${operation.id}Page`, page]]
}

/** `follow`, `followList`, `locate`, `read`, `wire` and `wirePages`, over the operations built. */
const linksOf = (baseUrl: URL, built: ReadonlyMap<string, OperationReads>) => {
  /** The URL an `api_url` gives, checked, and what it names. */
  const locateUrl = (apiUrl: string) =>
    Effect.gen(function*() {
      yield* fromResult(Links.sendable("apiUrl", apiUrl))
      const url = yield* fromResult(Links.checkLink(baseUrl, apiUrl))
      return { url, located: yield* fromResult(Links.locate(baseUrl, url)) }
    })
  const detail = (id: string) => {
    const found = built.get(id)
    return found?.kind === "detail" ? found : undefined
  }
  const list = (id: string) => {
    const found = built.get(id)
    return found?.kind === "list" ? found : undefined
  }
  // An id from outside TypeScript (a command line) may name no operation of its kind.
  const wirePages = (id: Operations.ListId, parameters: Readonly<Record<string, unknown>>, from: string | null = null) =>
    list(id)?.wirePages(parameters, from) ?? Stream.fail(Links.localError(`There is no list operation ${JSON.stringify(id)}`))
  return {
    locate: (apiUrl: string): Effect.Effect<Links.Located, Errors.InvalidRequest | Errors.UnsafeLink> => Effect.map(locateUrl(apiUrl), ({ located }) => located),
    follow: (apiUrl: string) =>
      Effect.flatMap(locateUrl(apiUrl), ({ located: { operation }, url }) =>
        detail(operation.id)?.read(url) ??
          Effect.fail(Links.localError(`The link names the list ${operation.id}, not a resource: read it with followList`))),
    followList: (apiUrl: string) =>
      Stream.unwrap(Effect.map(locateUrl(apiUrl), ({ located: { operation, parameters } }) =>
        list(operation.id)?.items(parameters) ??
          Stream.fail(Links.localError(`The link names the resource ${operation.id}, not a list: read it with follow`)))),
    read: (id: Operations.DetailId, parameters: Readonly<Record<string, string>>) => {
      const found = detail(id)
      return found === undefined
        ? Effect.fail(Links.localError(`There is no detail operation ${JSON.stringify(id)}`))
        : Effect.flatMap(Links.operationUrl(baseUrl, found.operation, parameters), found.read)
    },
    wirePages,
    wire: (id: Operations.ListId, parameters: Readonly<Record<string, unknown>>) => mapConcat(wirePages(id, parameters), (page) => page.items)
  }
}

/**
 * Builds the client from the services in context (its configuration, an
 * `HttpClient`, `Admission`, `Budget`, `ResponseCache`, `PageSizes`), a
 * retry policy, middleware of one's own, and the clock its requests wait
 * on. Its methods are typed as the loop over the table can type them;
 * `CatalogClient` asserts them to be its `Service`.
 */
export const make = (construction: Construction) =>
  Effect.gen(function*() {
    const reader = yield* readerOf(construction)
    const scans = { restarts: construction.policy.restarts, pageSizes: yield* PageSizes.PageSizes }
    const built = new Map(Operations.all.map((operation): readonly [string, OperationReads] => [
      operation.id,
      operation.kind === "list" ? listOf(reader, scans, operation) : detailOf(reader, operation)
    ]))
    return {
      ...Object.fromEntries([...built.values()].flatMap((operation) => methodsOf(reader.baseUrl, operation))),
      ...linksOf(reader.baseUrl, built)
    }
  })
