/**
 * The Catalog client: one method per operation of the contract. Detail reads
 * are `Effect`s, lists are `Stream`s of items across all pages (with a
 * `<id>Page` companion for paging by hand), and every failure is a tagged
 * error of the operation's exact union.
 *
 * @example
 * ```ts
 * import { NodeHttpClient } from "@effect/platform-node"
 * import { Effect, Layer, Stream } from "effect"
 * import { CatalogClient } from "effect-catalog"
 *
 * const program = Effect.gen(function*() {
 *   const catalog = yield* CatalogClient.CatalogClient
 *   const model = yield* catalog.model({ organization: "o0000-falcon", model: "m0000000-kestrel-8b" })
 *   const reasoning = yield* catalog.models({ reasoning: true, limit: 100 }).pipe(Stream.runCount)
 *   return { model: model.name, reasoning }
 * })
 *
 * program.pipe(Effect.provide(CatalogClient.layerConfig().pipe(Layer.provide(NodeHttpClient.layerUndici))))
 * ```
 * @since 0.1.0 (1.x: 1.0.0)
 */
import {
  type Clock,
  Config,
  type ConfigFailure,
  Effect,
  failLayer,
  type HttpClient,
  Layer,
  numberConfig,
  Option,
  refuseUnless,
  ServiceTag,
  type Stream,
  unwrapLayer
} from "#edition/internal/Edition.js"
import type * as Operations from "../contract/Operations.js"
import type { PathParameters } from "../contract/Operations.js"
import * as Admission from "./Admission.js"
import * as AdmissionWindows from "../../../rules/src/client/AdmissionWindows.js"
import type * as Kept from "../../../rules/src/client/KeptAnswer.js"
import * as Budget from "./Budget.js"
import * as CatalogConfig from "./CatalogConfig.js"
import type * as Errors from "./Errors.js"
import * as Client from "./internal/Client.js"
import type { RequestError } from "./internal/OperationReader.js"
import * as Refusals from "./internal/Refusals.js"
import { declareWireItem } from "#edition/client/internal/WireItem.js"
import type * as LinkUrls from "./internal/Links.js"
import { metrics as requestMetrics, total } from "#edition/client/internal/Metrics.js"
import type * as Send from "./internal/Send.js"
import * as LiveAllowance from "./LiveAllowance.js"
import * as PageSizes from "./PageSizes.js"
import type { DetailError, ListError, PageError, ParameterizedError } from "./OperationErrors.js"
import * as ResponseCache from "./ResponseCache.js"
import * as Retry from "./Retry.js"

/**
 * Middleware of one's own on the request path: any `HttpClient`
 * transformation that keeps its errors and requirements, such as
 * `HttpClient.mapRequest` or `HttpClient.tapRequest`. It runs once per
 * attempt sent, after admission and before the exchange, which adds the key
 * (`Options.middleware`).
 *
 * @example
 * ```ts effect4
 * import { HttpClient, HttpClientRequest } from "effect/http"
 * import type { CatalogClient } from "effect-catalog"
 *
 * const tagged: CatalogClient.Middleware = HttpClient.mapRequest(HttpClientRequest.setHeader("x-team", "search"))
 * ```
 *
 * In Effect 3:
 *
 * ```ts effect3
 * import { HttpClient, HttpClientRequest } from "@effect/platform"
 * import type { CatalogClient } from "effect-catalog"
 *
 * const tagged: CatalogClient.Middleware = HttpClient.mapRequest(HttpClientRequest.setHeader("x-team", "search"))
 * ```
 * @category models
 * @since 0.7.0 (1.x: 1.0.0)
 */
export type Middleware = Send.Middleware

/**
 * The former name of `Middleware`.
 *
 * @example
 * ```ts
 * import type { CatalogClient } from "effect-catalog"
 *
 * const none: ReadonlyArray<CatalogClient.Step> = []
 * ```
 * @category models
 * @since 0.2.0 (1.x: 1.0.0)
 * @deprecated Renamed `Middleware` (a step of a scan is something else); kept so that older code still compiles, until the next major (0.8.0 of the 0.x line, 2.0.0 of 1.x).
 */
export type Step = Middleware

/**
 * One page of a list, for callers that page by hand.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { CatalogClient, type Resources } from "effect-catalog"
 *
 * const firstPage = Effect.gen(function*() {
 *   const catalog = yield* CatalogClient.CatalogClient
 *   const page: CatalogClient.Page<Resources.Model> = yield* catalog.modelsPage({ limit: 50 })
 *   return { ids: page.items.map((model) => model.id), more: page.nextCursor !== null }
 * })
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export interface Page<A> {
  readonly items: ReadonlyArray<A>
  /** The cursor of the next page, or null on the last page. */
  readonly nextCursor: string | null
  /** The URL of the next page (`links.next`), or null on the last page. */
  readonly next: string | null
  /** Whether the service says more items follow (`pagination.has_more`). */
  readonly hasMore: boolean
  readonly observedAt: string | null
  readonly stale: boolean | null
  readonly requestId: string | null
}

/** Parameters are optional when every member is. */
type Arguments<Parameters> = {} extends Parameters ? [parameters?: Parameters] : [parameters: Parameters]

/**
 * What names the resource of an operation whose table entry has a key
 * (`Operations.Key`): the key's string (`"o0000-falcon/m0000000-kestrel-8b"`),
 * or, where the key is the resource's `id`, anything with that `id` (the
 * resource itself). An id that does not fit fails with `InvalidRequest`
 * before anything is sent.
 *
 * @example
 * ```ts
 * import type { CatalogClient, Resources } from "effect-catalog"
 *
 * const ofModel = (model: Resources.Model): CatalogClient.KeyArgument<"id"> => model
 * const bySlug: CatalogClient.KeyArgument<"slug"> = "falcon-tundra-0"
 * ```
 * @category models
 * @since 0.5.0 (1.x: 1.0.0)
 */
export type KeyArgument<By extends Operations.KeyBy> = By extends "id" ? string | { readonly id: string } : string

/**
 * A detail read.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { CatalogClient, type OperationErrors, type Operations, type Resources } from "effect-catalog"
 *
 * type GetModel = CatalogClient.DetailMethod<typeof Operations.model.path, Resources.Model, OperationErrors.ErrorOf<"model">>
 *
 * const nameOf = (getModel: GetModel) =>
 *   getModel({ organization: "o0000-falcon", model: "m0000000-kestrel-8b" }).pipe(Effect.map((model) => model.name))
 *
 * const program = Effect.flatMap(CatalogClient.CatalogClient, (catalog) => nameOf(catalog.model))
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type DetailMethod<Path extends string, A, E, By extends Operations.KeyBy = never> =
  & ((...parameters: Arguments<PathParameters<Path>>) => Effect.Effect<A, E>)
  & ([By] extends [never] ? unknown : (key: KeyArgument<By>) => Effect.Effect<A, E>)

/**
 * One page of a list: the largest the operation allows (100 items; 25 for
 * `search`) unless `limit` asks for fewer.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { CatalogClient } from "effect-catalog"
 *
 * type ModelsPage = CatalogClient.Service["modelsPage"] // a PageMethod
 *
 * const secondPage = (modelsPage: ModelsPage) =>
 *   modelsPage({ limit: 10 }).pipe(
 *     Effect.flatMap((first) => first.nextCursor === null ? Effect.succeed(null) : modelsPage({ limit: 10, cursor: first.nextCursor }))
 *   )
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type PageMethod<Path extends string, A, Query, E, By extends Operations.KeyBy = never> =
  & ((...parameters: Arguments<PathParameters<Path> & Query>) => Effect.Effect<Page<A>, E>)
  & ([By] extends [never] ? unknown : (key: KeyArgument<By>, query?: Query) => Effect.Effect<Page<A>, E>)

/**
 * Every item of a list, page after page, in the largest pages the operation
 * allows (100 items; 25 for `search`) unless `limit` asks for smaller ones.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import { CatalogClient } from "effect-catalog"
 *
 * type Models = CatalogClient.Service["models"] // a ListMethod
 *
 * const openWeights = (models: Models) => models({ limit: 100 }).pipe(Stream.filter((model) => model.open_weights === true))
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type ListMethod<Path extends string, A, Query, E, By extends Operations.KeyBy = never> =
  & ((...parameters: Arguments<PathParameters<Path> & Omit<Query, "cursor">>) => Stream.Stream<A, E>)
  & ([By] extends [never] ? unknown : (key: KeyArgument<By>, query?: Omit<Query, "cursor">) => Stream.Stream<A, E>)

type ItemOf<Op extends Operations.AnyOperation> = Op["item"]["Type"]
type QueryOf<Op extends Operations.AnyOperation> = Op["query"]["Type"]

/** How the key of an operation is given, if it has one. */
type KeyByOf<Op extends Operations.AnyOperation> = NonNullable<Op["key"]>["by"]

type MethodOf<Op extends Operations.AnyOperation> = Op["kind"] extends "detail"
  ? DetailMethod<Op["path"], ItemOf<Op>, DetailError<Op["path"], Op["units"]>, KeyByOf<Op>>
  : ListMethod<Op["path"], ItemOf<Op>, QueryOf<Op>, ListError<Op["path"]>, KeyByOf<Op>>

/**
 * A resource read by following an `api_url`, tagged with the operation its
 * path names.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { CatalogClient } from "effect-catalog"
 *
 * const title = (apiUrl: string) =>
 *   Effect.gen(function*() {
 *     const catalog = yield* CatalogClient.CatalogClient
 *     const followed: CatalogClient.Followed = yield* catalog.follow(apiUrl)
 *     return followed.operation === "model" ? followed.value.name : followed.operation
 *   })
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type Followed = {
  readonly [Op in Operations.DetailOperation as Op["id"]]: { readonly operation: Op["id"]; readonly value: ItemOf<Op> }
}[Operations.DetailId]

/**
 * The errors of `follow`.
 *
 * @example
 * ```ts
 * import { CatalogClient } from "effect-catalog"
 *
 * const explain = (error: CatalogClient.FollowError): string =>
 *   error._tag === "UnsafeLink" ? "not a URL of the configured service" : error._tag
 * ```
 * @category errors
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type FollowError = ParameterizedError | Errors.NotFound | Errors.UnsafeLink

/**
 * An item of a list read by following its `api_url` (`followList`), tagged
 * with the list operation its path names.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import type { CatalogClient, Resources } from "effect-catalog"
 *
 * const offersOf = (catalog: CatalogClient.Service, model: Resources.Model) =>
 *   catalog.followList(`${model.api_url}offers/`).pipe(
 *     Stream.filter((item: CatalogClient.FollowedItem) => item.operation === "modelOffers")
 *   )
 * ```
 * @category models
 * @since 0.5.0 (1.x: 1.0.0)
 */
export type FollowedItem = {
  readonly [Op in Operations.ListOperation as Op["id"]]: { readonly operation: Op["id"]; readonly value: ItemOf<Op> }
}[Operations.ListId]

/**
 * The errors of `followList`: those of a list below a resource, and
 * `UnsafeLink` for a URL outside the configured base URL.
 *
 * @example
 * ```ts
 * import type { CatalogClient } from "effect-catalog"
 *
 * const explain = (error: CatalogClient.FollowListError): string =>
 *   error._tag === "NotFound" ? "the resource of the list is gone" : error._tag
 * ```
 * @category errors
 * @since 0.5.0 (1.x: 1.0.0)
 */
export type FollowListError = ParameterizedError | Errors.CursorExpired | Errors.NotFound | Errors.UnsafeLink

/**
 * What an `api_url` names, without reading it: the operation its path
 * matches, and the parameters it gives that operation (path parameters,
 * and for a list the query it carries, decoded).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { CatalogClient } from "effect-catalog"
 *
 * const kindOf = (apiUrl: string) =>
 *   Effect.flatMap(CatalogClient.CatalogClient, (catalog) => catalog.locate(apiUrl)).pipe(
 *     Effect.map((located: CatalogClient.Located) => located.operation.kind)
 *   )
 * ```
 * @category models
 * @since 0.5.0 (1.x: 1.0.0)
 */
export type Located = LinkUrls.Located

/**
 * The errors of `read`: those of any detail read.
 *
 * @example
 * ```ts
 * import type { CatalogClient } from "effect-catalog"
 *
 * const explain = (error: CatalogClient.ReadError): string => error._tag === "NotFound" ? "no such resource" : error._tag
 * ```
 * @category errors
 * @since 0.2.0 (1.x: 1.0.0)
 */
export type ReadError = ParameterizedError | Errors.NotFound

/**
 * The client's methods: one per operation, with a `<id>Page` companion per
 * list (`Methods`), the links (`Links`), and the wire access (`Wire`).
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import type { CatalogClient } from "effect-catalog"
 *
 * const countReasoning = (catalog: CatalogClient.Service) => catalog.models({ reasoning: true }).pipe(Stream.runCount)
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type Service = Methods & Links & Wire

/**
 * The typed methods: one per operation of the table, and a `<id>Page`
 * companion per list.
 *
 * @example
 * ```ts
 * import type { CatalogClient } from "effect-catalog"
 *
 * const models = (methods: CatalogClient.Methods) => methods.models({ limit: 10 })
 * ```
 * @category models
 * @since 0.7.0 (1.x: 1.0.0)
 */
export type Methods =
  & { readonly [Op in Operations.AnyOperation as Op["id"]]: MethodOf<Op> }
  & {
    readonly [Op in Operations.ListOperation as `${Op["id"]}Page`]: PageMethod<Op["path"], ItemOf<Op>, QueryOf<Op>, PageError<Op["path"]>, KeyByOf<Op>>
  }

/**
 * What the client reads by following links of the service (`api_url`s).
 *
 * @example
 * ```ts
 * import type { CatalogClient } from "effect-catalog"
 *
 * const resource = (links: CatalogClient.Links, apiUrl: string) => links.follow(apiUrl)
 * ```
 * @category models
 * @since 0.7.0 (1.x: 1.0.0)
 */
export interface Links {
  /**
   * Reads the resource an `api_url` of the service names; a URL outside
   * the configured base URL fails with `UnsafeLink` and is not fetched.
   */
  readonly follow: (apiUrl: string) => Effect.Effect<Followed, FollowError>
  /**
   * Every item of the list an `api_url` of the service names (a
   * resource's `api_url` and its sub-list, `…/models/o/m/offers/`),
   * page after page, each tagged with the list's operation; a URL
   * outside the configured base URL fails with `UnsafeLink`, one that
   * names no list with `InvalidRequest`, before anything is sent.
   */
  readonly followList: (apiUrl: string) => Stream.Stream<FollowedItem, FollowListError>
  /**
   * The operation an `api_url` of the service names and its parameters,
   * checked as `follow` checks it, without sending anything: for
   * programs that treat a resource and a list apart, such as `catalog get`.
   */
  readonly locate: (apiUrl: string) => Effect.Effect<Located, Errors.InvalidRequest | Errors.UnsafeLink>
}

/**
 * What programs that pass items on rather than read them use of the client
 * (the `catalog` command, the mirror): lists in wire form, page by page or
 * item by item, and detail reads named at run time.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import type { CatalogClient } from "effect-catalog"
 *
 * const ids = (wire: CatalogClient.Wire) => wire.wire("models", { limit: 100 }).pipe(Stream.map((item) => item.id))
 * ```
 * @category models
 * @since 0.7.0 (1.x: 1.0.0)
 */
export interface Wire {
  /**
   * Every item of a list in its wire form, as the service sent it (exact
   * integers stay decimal strings), with the scan rules of the typed
   * lists: for programs that pass items on rather than read them, such as
   * `catalog scan`. Each field must have the type the operation's item
   * schema gives it on the wire (a string `id`, integer counts, …), and
   * every number of the page must be one `JSON.parse` holds exactly (not
   * `1e309`, `9007199254740993` or `1e-400`): otherwise the page fails
   * with `UnexpectedResponse` naming the field (`data[3].offer_count`),
   * and nothing of it is emitted. Parameters are those of the operation,
   * path and query together, checked by its schema.
   */
  readonly wire: (operation: Operations.ListId, parameters: Readonly<Record<string, unknown>>) => Stream.Stream<WireItem, WireError>
  /**
   * The pages of `wire`, each with the cursor it was read at and the one
   * that leads on from it: for programs that keep their place in a scan,
   * such as the mirror. Given the cursor of an earlier scan (`from`), the
   * scan goes on from there, or from the first page if it has expired.
   */
  readonly wirePages: (
    operation: Operations.ListId,
    parameters: Readonly<Record<string, unknown>>,
    from?: string | null
  ) => Stream.Stream<WirePage, WireError>
  /**
   * One page of a list in wire form, at `cursor` (null: the first page),
   * sent conditionally on an answer the caller keeps itself rather than on
   * the client's cache: `kept.entry` is sent in `If-None-Match` (none:
   * asked whole), a new answer is handed to `kept.keep`, and the page says
   * whether it was a 304 (its items then those of the kept body): for
   * programs that keep their own validators, a page reached through a
   * cursor among them, such as the mirror's keeper.
   */
  readonly keptPage: (
    operation: Operations.ListId,
    parameters: Readonly<Record<string, unknown>>,
    cursor: string | null,
    kept: KeptAnswer
  ) => Effect.Effect<KeptPage, RequestError<ParameterizedError | Errors.NotFound | Errors.CursorExpired>>
  /**
   * Reads a detail operation named at run time, with its path parameters,
   * tagged as `follow` tags what it reads: for programs that choose the
   * operation from their input, such as `catalog get`.
   */
  readonly read: (operation: Operations.DetailId, parameters: Readonly<Record<string, string>>) => Effect.Effect<Followed, ReadError>
}

/**
 * An item of a list in its wire form: a JSON object with a string `id`.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { CatalogClient } from "effect-catalog"
 *
 * Schema.decodeUnknownSync(CatalogClient.WireItem)({ id: "o0000-falcon/m0000000-kestrel-8b", context_tokens: "1048576" })
 * ```
 * @category schemas
 * @since 0.2.0 (1.x: 1.0.0)
 */
export const WireItem = declareWireItem(() => undefined)

/**
 * An item of a list in its wire form, as a type.
 *
 * @example
 * ```ts
 * import type { CatalogClient } from "effect-catalog"
 *
 * const idOf = (item: CatalogClient.WireItem): string => item.id
 * ```
 * @category models
 * @since 0.2.0 (1.x: 1.0.0)
 */
export type WireItem = typeof WireItem.Type

/**
 * A page of a list in its wire form: its new items (repeats of the page
 * before are dropped), the cursor it was read at (null for a first page)
 * and the cursor of the next page (null on the last).
 *
 * @example
 * ```ts
 * import type { CatalogClient } from "effect-catalog"
 *
 * const checkpoint = (page: CatalogClient.WirePage): string | null => page.nextCursor
 * ```
 * @category models
 * @since 0.3.0 (1.x: 1.0.0)
 */
export interface WirePage {
  readonly items: ReadonlyArray<WireItem>
  readonly cursor: string | null
  readonly nextCursor: string | null
}

/**
 * An answer a caller of `keptPage` keeps: the entity tag and body of the
 * page's last 200 (none: ask whole), and what to do with a new one.
 *
 * @example
 * ```ts
 * import type { CatalogClient, ResponseCache } from "effect-catalog"
 *
 * const kept = new Map<string, ResponseCache.Entry>()
 * const keptAt = (key: string): CatalogClient.KeptAnswer => ({ entry: kept.get(key), keep: (entry) => kept.set(key, entry) })
 * ```
 * @category models
 * @since 0.8.0 (1.x: 1.2.0)
 */
export interface KeptAnswer extends Kept.KeptAnswer {}

/**
 * A page of `keptPage`: its items in wire form, the cursor of the next
 * page (null on the last), and whether the service answered 304.
 *
 * @example
 * ```ts
 * import type { CatalogClient } from "effect-catalog"
 *
 * const changed = (page: CatalogClient.KeptPage): boolean => !page.unchanged
 * ```
 * @category models
 * @since 0.8.0 (1.x: 1.2.0)
 */
export interface KeptPage {
  readonly items: ReadonlyArray<WireItem>
  readonly nextCursor: string | null
  readonly unchanged: boolean
}

/**
 * The errors of `wire`: those any list can fail with.
 *
 * @example
 * ```ts
 * import type { CatalogClient } from "effect-catalog"
 *
 * const explain = (error: CatalogClient.WireError): string => error._tag
 * ```
 * @category errors
 * @since 0.2.0 (1.x: 1.0.0)
 */
export type WireError = RequestError<ParameterizedError | Errors.CursorExpired | Errors.NotFound> | Errors.UnsafeLink

/**
 * The client service.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { CatalogClient } from "effect-catalog"
 *
 * const usage = Effect.flatMap(CatalogClient.CatalogClient, (catalog) => catalog.usage())
 * ```
 * @category services
 * @since 0.1.0 (1.x: 1.0.0)
 */
export class CatalogClient extends ServiceTag<CatalogClient, Service>()("effect-catalog/CatalogClient") {}

/**
 * The client's metrics (Effect metrics), each labelled by `operation`:
 * `requests` (`catalog_requests`, also by `status`: the HTTP status, or the
 * error's tag when no answer came), `duration` (`catalog_request_duration_ms`),
 * `admissionWait` (`catalog_admission_wait_ms`), `retries` (`catalog_retries`,
 * also by `reason`: the error's tag), `units` (`catalog_units`),
 * `rateLimited` (`catalog_rate_limited`, 429s), `unavailable`
 * (`catalog_unavailable`, 503s) and `notModified` (`catalog_not_modified`,
 * answers served from the ETag cache).
 *
 * @example
 * ```ts effect4
 * import { Effect, Metric } from "effect"
 * import { CatalogClient } from "effect-catalog"
 *
 * const modelPagesSoFar = Metric.value(
 *   Metric.withAttributes(CatalogClient.metrics.requests, { operation: "models", status: "200" })
 * ).pipe(Effect.map((state) => Number(state.count)))
 * ```
 *
 * In Effect 3:
 *
 * ```ts effect3
 * import { Effect, Metric } from "effect"
 * import { CatalogClient } from "effect-catalog"
 *
 * const modelPagesSoFar = Metric.value(
 *   CatalogClient.metrics.requests.pipe(Metric.tagged("operation", "models"), Metric.tagged("status", "200"))
 * ).pipe(Effect.map((state) => state.count))
 * ```
 * @category metrics
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const metrics = requestMetrics

/**
 * The sum of one of the client's counters over all its labels, by name
 * (`catalog_requests`, `catalog_retries`, …).
 *
 * @example
 * ```ts
 * import { CatalogClient } from "effect-catalog"
 *
 * const retriesSoFar = CatalogClient.metricTotal(CatalogClient.metrics.retries)
 * ```
 * @category metrics
 * @since 0.5.0 (1.x: 1.0.0)
 */
export const metricTotal = total

/**
 * What `layer` takes: the configuration, and the shared services, each
 * with a default: admission in memory under the contract's limits, no daily
 * budget (spending is still counted), a memory cache of 1,000 answers, and
 * page sizes that fit kept in memory.
 *
 * @example
 * ```ts
 * import { Redacted } from "effect"
 * import { CatalogClient } from "effect-catalog"
 *
 * const options: CatalogClient.Options = {
 *   baseUrl: "http://127.0.0.1:8080/api/v1",
 *   apiKey: Redacted.make("cat_live_..."),
 *   timeout: "10 seconds",
 *   limits: { timeScale: 0.01 },
 *   dailyBudget: 2_000,
 *   retry: { retries: 3 }
 * }
 * const CatalogLive = CatalogClient.layer(options)
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export interface Options extends CatalogConfig.Options {
  /**
   * Limits for the default in-memory admission (e.g. `{ timeScale: 0.01 }` for a scaled simulator): the
   * contract's figures follow the account's live allowance, figures of one's own are kept (`Admission.followsAllowance`).
   */
  readonly limits?: Partial<Admission.Limits>
  /** Units the client may spend per UTC day. */
  readonly dailyBudget?: number
  /** Entries of the default memory cache. */
  readonly cacheEntries?: number
  /** Another admission, e.g. `RedisAdmission.layer(...)` of `effect-catalog/redis` for several processes on one account. */
  readonly admission?: Layer.Layer<Admission.Admission>
  /** Another cache, e.g. `ResponseCache.layerStore()` over a file-system `KeyValueStore`. */
  readonly cache?: Layer.Layer<ResponseCache.ResponseCache>
  /** Other page sizes than in memory, e.g. `PageSizes.layerKeyValueStore(key)` or `RedisPageSizes.layer(...)` of `effect-catalog/redis`. */
  readonly pageSizes?: Layer.Layer<PageSizes.PageSizes>
  /** Changes to the default retry policy (`Retry.defaultPolicy`). */
  readonly retry?: Partial<Retry.Policy>
  /** Middleware of one's own on the request path, run once per attempt sent: headers, logging, … */
  readonly middleware?: ReadonlyArray<Middleware>
  /** @deprecated Renamed `middleware`; kept so that older code still compiles, until the next major (0.8.0 of the 0.x line, 2.0.0 of 1.x). */
  readonly steps?: ReadonlyArray<Middleware>
  /**
   * The clock every request waits on (backoff, `Retry-After`, admission, the
   * time limit), instead of the clock of the fiber that sends it: e.g.
   * the live clock (`Clock.make()` in Effect 3, `Clock.Clock.defaultValue()`
   * in Effect 4) for a client that keeps real time in a test on the
   * `TestClock`.
   */
  readonly clock?: Clock.Clock
}

/**
 * Everything a client layer provides: the client and its shared services,
 * so that an application can read `Budget.spent` or `Admission.waiting`.
 *
 * @example
 * ```ts
 * import { NodeHttpClient } from "@effect/platform-node"
 * import { Effect, Layer } from "effect"
 * import { Budget, CatalogClient } from "effect-catalog"
 *
 * const unitsToday = Effect.flatMap(Budget.Budget, (budget) => budget.spent).pipe(Effect.map((spent) => spent.unitsToday))
 *
 * const program = unitsToday.pipe(Effect.provide(CatalogClient.layerConfig().pipe(Layer.provide(NodeHttpClient.layerUndici))))
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type Provided =
  | CatalogClient
  | Admission.Admission
  | LiveAllowance.LiveAllowance
  | Budget.Budget
  | ResponseCache.ResponseCache
  | PageSizes.PageSizes

/** The shared services of a client, from options. */
const layerServices = (
  options: ServiceOptions
): Layer.Layer<Admission.Admission | Budget.Budget | ResponseCache.ResponseCache | PageSizes.PageSizes> =>
  Layer.mergeAll(
    options.admission ?? Admission.layerMemory(AdmissionWindows.resolve(options.limits)),
    Budget.layer(options.dailyBudget === undefined ? {} : { dailyUnits: options.dailyBudget }),
    options.cache ?? ResponseCache.layerMemory(options.cacheEntries === undefined ? {} : { maxEntries: options.cacheEntries }),
    options.pageSizes ?? PageSizes.layerMemory
  )

/** What the layers take besides the configuration. */
type ServiceOptions = Omit<Options, keyof CatalogConfig.Options>

/**
 * The methods of a client over what reads each operation: one per
 * operation, and a `<id>Page` per list, each named once and held by the
 * compiler to its type in `Service`.
 */
const serviceOf = ({ baseUrl, details, links, lists }: Client.Readers): Service => {
  const detail = Client.detailMethod(baseUrl)
  const { listMethod: list, pageMethod: page } = Client
  return {
    models: list(lists.models),
    modelsPage: page(lists.models),
    model: detail(details.model),
    modelOffers: list(lists.modelOffers),
    modelOffersPage: page(lists.modelOffers),
    modelBenchmarks: list(lists.modelBenchmarks),
    modelBenchmarksPage: page(lists.modelBenchmarks),
    modelPerformance: list(lists.modelPerformance),
    modelPerformancePage: page(lists.modelPerformance),
    modelActivity: list(lists.modelActivity),
    modelActivityPage: page(lists.modelActivity),
    modelApplications: list(lists.modelApplications),
    modelApplicationsPage: page(lists.modelApplications),
    offer: detail(details.offer),
    families: list(lists.families),
    familiesPage: page(lists.families),
    family: detail(details.family),
    familyModels: list(lists.familyModels),
    familyModelsPage: page(lists.familyModels),
    providers: list(lists.providers),
    providersPage: page(lists.providers),
    provider: detail(details.provider),
    providerModels: list(lists.providerModels),
    providerModelsPage: page(lists.providerModels),
    providerOffers: list(lists.providerOffers),
    providerOffersPage: page(lists.providerOffers),
    organizations: list(lists.organizations),
    organizationsPage: page(lists.organizations),
    organization: detail(details.organization),
    organizationModels: list(lists.organizationModels),
    organizationModelsPage: page(lists.organizationModels),
    organizationResources: list(lists.organizationResources),
    organizationResourcesPage: page(lists.organizationResources),
    organizationResource: detail(details.organizationResource),
    skills: list(lists.skills),
    skillsPage: page(lists.skills),
    skill: detail(details.skill),
    skillAudits: detail(details.skillAudits),
    skillDocument: detail(details.skillDocument),
    publishers: list(lists.publishers),
    publishersPage: page(lists.publishers),
    mcps: list(lists.mcps),
    mcpsPage: page(lists.mcps),
    mcp: detail(details.mcp),
    mcpConnection: detail(details.mcpConnection),
    topics: list(lists.topics),
    topicsPage: page(lists.topics),
    topicSkills: list(lists.topicSkills),
    topicSkillsPage: page(lists.topicSkills),
    articles: list(lists.articles),
    articlesPage: page(lists.articles),
    article: detail(details.article),
    search: list(lists.search),
    searchPage: page(lists.search),
    stats: detail(details.stats),
    usage: detail(details.usage),
    ...links
  }
}

/**
 * The client from a configuration layer and options for its shared
 * services; it needs an `HttpClient`. Options that cannot all take effect
 * are refused (`Refusals`), and so is a time scale of the configuration
 * (`timeScale`) that the admission does not keep.
 */
const layerFrom = <E, R>(
  config: Layer.Layer<CatalogConfig.CatalogConfig, E, R>,
  options: ServiceOptions,
  timeScale: Option.Option<number> = Option.none()
): Layer.Layer<Provided, E | ConfigFailure, R | HttpClient.HttpClient> =>
  Option.match(Refusals.conflicting(options), {
    onSome: (refused) => failLayer(refused),
    onNone: () =>
      Layer.effect(
        CatalogClient,
        Effect.gen(function*() {
          yield* Refusals.timeScaleKept(timeScale, yield* Admission.Admission)
          const built = yield* Client.make({
            policy: { ...Retry.defaultPolicy, ...options.retry },
            middleware: options.middleware ?? options.steps ?? [],
            clock: options.clock
          })
          return serviceOf(built)
        })
      ).pipe(
        Layer.provideMerge(LiveAllowance.layer),
        Layer.provideMerge(layerServices(options)),
        Layer.provide(config)
      )
  })

/**
 * What `layerConfig` takes: a `Config` for each setting (`CatalogConfig`'s,
 * and the time scale of the account's windows and the daily budget); those
 * left out are read from their variables (`CatalogConfig.fromEnvironment`).
 *
 * @example
 * ```ts effect4
 * import { Config, Option } from "effect"
 * import type { CatalogClient } from "effect-catalog"
 *
 * const options: CatalogClient.ConfigOptions = {
 *   apiKey: Config.Redacted("CATALOG_KEY"),
 *   dailyBudget: Config.succeed(Option.some(2_000))
 * }
 * ```
 *
 * In Effect 3, `Config.redacted("CATALOG_KEY")`:
 *
 * ```ts effect3
 * import { Config, Option } from "effect"
 * import type { CatalogClient } from "effect-catalog"
 *
 * const options: CatalogClient.ConfigOptions = {
 *   apiKey: Config.redacted("CATALOG_KEY"),
 *   dailyBudget: Config.succeed(Option.some(2_000))
 * }
 * ```
 * @category models
 * @since 0.5.0 (1.x: 1.0.0)
 */
export interface ConfigOptions extends CatalogConfig.ConfigOptions {
  /** Multiplies the account's windows, to match a scaled simulator. */
  readonly timeScale?: Config.Config<number>
  /** Units the client may spend per UTC day, if any. */
  readonly dailyBudget?: Config.Config<Option.Option<number>>
}

/**
 * The client configured from `Config`s, each setting read from its
 * variable of the environment unless a `Config` is given for it
 * (`CATALOG_API_KEY`, `CATALOG_BASE_URL`, and optionally `CATALOG_TIMEOUT`,
 * `CATALOG_TIME_SCALE` and `CATALOG_DAILY_BUDGET`), with options for its
 * shared services; a missing or malformed value fails the layer with a
 * `ConfigError` that names where it was read, and so does a time scale
 * that cannot take effect (an `admission` given keeps its own limits). It
 * needs an `HttpClient`.
 *
 * @example
 * ```ts effect4
 * import { NodeHttpClient } from "@effect/platform-node"
 * import { Config, Layer } from "effect"
 * import { CatalogClient } from "effect-catalog"
 *
 * const CatalogLive = CatalogClient.layerConfig({ apiKey: Config.Redacted("MY_CATALOG_KEY") }, { cacheEntries: 5_000 }).pipe(
 *   Layer.provide(NodeHttpClient.layerUndici)
 * )
 * ```
 *
 * In Effect 3, `Config.redacted("MY_CATALOG_KEY")`:
 *
 * ```ts effect3
 * import { NodeHttpClient } from "@effect/platform-node"
 * import { Config, Layer } from "effect"
 * import { CatalogClient } from "effect-catalog"
 *
 * const CatalogLive = CatalogClient.layerConfig({ apiKey: Config.redacted("MY_CATALOG_KEY") }, { cacheEntries: 5_000 }).pipe(
 *   Layer.provide(NodeHttpClient.layerUndici)
 * )
 * ```
 * @category layers
 * @since 0.5.0 (1.x: 1.0.0)
 */
export const layerConfig = (
  config: ConfigOptions = {},
  options: ServiceOptions = {}
): Layer.Layer<Provided, ConfigFailure, HttpClient.HttpClient> =>
  unwrapLayer(
    Effect.gen(function*() {
      const timeScale = yield* CatalogConfig.read(
        Config.option(config.timeScale ?? numberConfig(CatalogConfig.settings.timeScale.variable)).pipe(
          refuseUnless((scale: Option.Option<number>) => !Option.exists(scale, (scale) => !(scale > 0)))
        ),
        CatalogConfig.settings.timeScale
      )
      const dailyBudget = yield* CatalogConfig.read(
        (config.dailyBudget ?? CatalogConfig.fromEnvironment.dailyBudget).pipe(
          refuseUnless((budget: Option.Option<number>) => !Option.exists(budget, (units) => units < 0))
        ),
        CatalogConfig.settings.dailyBudget
      )
      const refused = Refusals.timeScaleAgrees(timeScale, options.limits)
      if (Option.isSome(refused)) return failLayer(refused.value)
      const limits = Option.match(timeScale, { onNone: () => options.limits, onSome: (timeScale) => ({ ...options.limits, timeScale }) })
      return layerFrom(CatalogConfig.layerConfig(config), {
        ...options,
        ...(limits === undefined || options.admission !== undefined ? {} : { limits }),
        ...Option.match(dailyBudget, { onNone: () => ({}), onSome: (units) => ({ dailyBudget: units }) })
      }, timeScale)
    })
  )

/**
 * The client configured from options: the configuration, and the shared
 * services. Options that cannot all take effect fail the layer with a
 * `ConfigError` that says why: `limits` beside an `admission` of one's own
 * (which keeps its own limits), `cacheEntries` beside a `cache`, and
 * `middleware` beside its former name `steps`.
 *
 * @example
 * ```ts effect4
 * import { FetchHttpClient } from "effect/http"
 * import { Layer, Redacted } from "effect"
 * import { CatalogClient } from "effect-catalog"
 *
 * const CatalogLive = CatalogClient.layer({
 *   baseUrl: "http://127.0.0.1:8080/api/v1",
 *   apiKey: Redacted.make("cat_live_..."),
 *   dailyBudget: 2_000
 * }).pipe(Layer.provide(FetchHttpClient.layer))
 * ```
 *
 * In Effect 3, `FetchHttpClient` is `@effect/platform`'s:
 *
 * ```ts effect3
 * import { FetchHttpClient } from "@effect/platform"
 * import { Layer, Redacted } from "effect"
 * import { CatalogClient } from "effect-catalog"
 *
 * const CatalogLive = CatalogClient.layer({
 *   baseUrl: "http://127.0.0.1:8080/api/v1",
 *   apiKey: Redacted.make("cat_live_..."),
 *   dailyBudget: 2_000
 * }).pipe(Layer.provide(FetchHttpClient.layer))
 * ```
 * @category layers
 * @since 0.7.0 (1.x: 1.0.0)
 */
export const layer = (options: Options): Layer.Layer<Provided, ConfigFailure, HttpClient.HttpClient> =>
  layerFrom(CatalogConfig.layer(options), options)

/**
 * The former name of `layer`.
 *
 * @example
 * ```ts
 * import { Redacted } from "effect"
 * import { CatalogClient } from "effect-catalog"
 *
 * const CatalogLive = CatalogClient.layerWith({ baseUrl: "http://127.0.0.1:8080/api/v1", apiKey: Redacted.make("cat_live_...") })
 * ```
 * @category layers
 * @since 0.1.0 (1.x: 1.0.0)
 * @deprecated Renamed `layer`, as Effect's own clients name the layer of options; kept so that older code still compiles, until the next major (0.8.0 of the 0.x line, 2.0.0 of 1.x).
 */
export const layerWith = layer
