/**
 * Every item of a list, page after page: follows `links.next` (with the same
 * filters), halves the page size on `ResponseTooLarge` (down to 1), restarts
 * from the first page on `CursorExpired` (at most `restarts` times), starts
 * at the page size that fitted the operation before (`PageSizes`) and
 * records the size that fits after a halving, drops
 * repeats in the service's own order (`Pagination`), and fails with
 * `UnexpectedResponse` on a listing that does not move forward (pages that
 * bring nothing beyond the page before, a link to itself), that goes back
 * (a page with an item already emitted that `Pagination` takes for new: a
 * cycle of links, a page served again, a cursor that jumps back; after a
 * restart, while it reads again what it had read, such an item is dropped
 * instead), or that lost its place after a restart. A page is checked
 * whole before any of its items is emitted, so no item comes twice,
 * whatever the service does.
 * What it carries from page to page (page size, place) is immutable state
 * of the stream; the ids it emitted are a table that only grows
 * (`SeenIds`), one per run of the stream.
 *
 * The scan is a stream of pages, each with the cursor it was read at and the
 * cursor of the page after it, so that a caller can keep its place and start
 * again from it (`from`); the stream of items flattens it. It is Effect 4's
 * `Stream.paginate`, each step giving the pages it read (none after a
 * refusal it recovers from) and where it goes on.
 *
 * @internal
 */
import { Effect, Option, Result, Stream } from "effect"
import type * as Errors from "../Errors.js"
import type * as PageSizes from "../PageSizes.js"
import * as Pagination from "../../../../src/client/internal/Pagination.js"
import * as Transit from "../../../../src/client/internal/Transit.js"
import { SeenIds } from "../../../../src/client/internal/SeenIds.js"
import { listingFault } from "./Answers.js"
import * as Links from "./Links.js"

/** Pages in a row that bring no id beyond the page before, after which a listing is taken for stuck. */
const maxIdlePages = 2

/** The page size a list request asks for: the caller's, or the largest the operation allows. */
export const pageSizeOf = (operation: { readonly maxLimit: number }, parameters: Readonly<Record<string, unknown>> = {}): number => {
  const limit = parameters["limit"]
  return typeof limit === "number" ? limit : operation.maxLimit
}

/** What a scan reads of a page (a `CatalogClient.Page`). */
export interface PageRead<A> {
  readonly items: ReadonlyArray<A>
  readonly nextCursor: string | null
  readonly next: string | null
  readonly hasMore: boolean
  readonly requestId: string | null
}

/**
 * A page of a scan: its new items, the cursor it was read at (null for the
 * first page, read again after a restart), and the cursor that leads on
 * from it (null on the last page).
 */
export interface ScanPage<A> {
  readonly items: ReadonlyArray<A>
  readonly cursor: string | null
  readonly nextCursor: string | null
}

/**
 * What a scan needs: the list operation, the base URL, how often it may
 * restart, the page sizes that fitted before, and how to read one page.
 */
export interface Options<A, E> {
  readonly operation: {
    readonly id: string
    readonly path: string
    readonly pathParameters: ReadonlyArray<string>
    readonly query: Links.UrlTemplate["query"]
    readonly maxLimit: number
  }
  readonly baseUrl: URL
  readonly restarts: number
  readonly pageSizes: PageSizes.Service
  readonly read: (
    parameters: Readonly<Record<string, unknown>>,
    url: URL,
    options: { readonly throughCursor: boolean; readonly revalidate: boolean }
  ) => Effect.Effect<PageRead<A>, E>
}

/** The errors of a scan whose pages fail with `E`. */
export type ScanError<E> = E | Errors.InvalidRequest | Errors.UnsafeLink | Errors.UnexpectedResponse

/** Where a scan stands: the page it reads next, and what it carries from page to page. */
interface Position {
  readonly url: URL
  /** The page size asked for: the caller's or the largest, at most the one that fitted before, halved after each ResponseTooLarge. */
  readonly limit: number
  /** Whether the page size was halved after a refusal and no page has fitted since: the first that fits is recorded. */
  readonly refused: boolean
  /** Whether the URL carries a cursor: a page reached through one is read once per scan, never kept. */
  readonly throughCursor: boolean
  readonly restarts: number
  /** After a restart the first page is fetched afresh: a kept copy may hold an expired cursor. */
  readonly revalidate: boolean
  readonly progress: Pagination.Progress
}

/** The next position, or why there is none: a foreign `links.next`, or none where more items follow, fails after the items of its page are emitted. */
type Next = Result.Result<Position, Errors.UnsafeLink | Errors.UnexpectedResponse>

/** What one step of a scan gives: its page (none after a refusal that it recovers from), and where it goes on. */
type Step<A> = readonly [ReadonlyArray<ScanPage<A>>, Option.Option<Next>]

/** One run of a scan: its options and parameters, its first page, and every id it emitted. */
interface Run<A, E> {
  readonly options: Options<A, E>
  readonly parameters: Readonly<Record<string, unknown>>
  readonly first: URL
  readonly emitted: SeenIds
}

/** The URL with one query parameter set. */
const withParameter = (url: URL, name: "limit" | "cursor", value: string | number) => {
  const next = new URL(url)
  next.searchParams.set(name, String(value))
  return next
}

/** Where a page leads: `links.next`, or without it a `next_cursor` from the page's own URL; null on the last page. */
const linkOf = <A>(run: Run<A, unknown>, page: PageRead<A>, url: URL): Result.Result<URL, Errors.UnsafeLink | Errors.UnexpectedResponse> | null => {
  const operation = run.options.operation.id
  const cursor = page.next === null && page.hasMore ? page.nextCursor : null
  const link = page.next ?? (cursor !== null ? withParameter(url, "cursor", cursor).href : null)
  if (link === null) return page.hasMore ? Result.fail(listingFault("noWayOn", operation, page.requestId)) : null
  if (cursor !== null && Transit.unencodable(cursor) !== undefined) return Result.fail(listingFault("cursorUnsendable", operation, page.requestId))
  return Links.checkLink(run.options.baseUrl, link)
}

/**
 * A page read at `url` from `position`, checked whole before any of its
 * items is emitted: the items it brings, and where the scan goes on.
 */
const pageStep = <A extends { readonly id: string }, E>(run: Run<A, E>, position: Position, url: URL, page: PageRead<A>) => {
  const operation = run.options.operation.id
  const next = linkOf(run, page, url)
  const nextUrl = next !== null && Result.isSuccess(next) ? next.success : null
  const nextHref = nextUrl === null ? null : withParameter(nextUrl, "limit", position.limit).href
  const { items: taken, progress } = Pagination.read(position.progress, page.items)
  // Each id is remembered as it is checked. While a restart reads again what the scan had read, an item already
  // emitted is behind its place (deleted and added again meanwhile): it is dropped, as the contract says to
  // deduplicate by id. Anywhere else it means the listing went back: the page ends the scan before any of its items
  // is emitted.
  const replaying = position.progress.replay !== null
  if (!replaying && !taken.every((item) => run.emitted.add(item.id))) return Effect.fail(listingFault("wentBack", operation, page.requestId))
  const items = replaying ? taken.filter((item) => run.emitted.add(item.id)) : taken
  const stalled = nextHref !== null && (nextHref === url.href || progress.idle >= maxIdlePages)
  if (stalled) return Effect.fail(listingFault("notAdvancing", operation, page.requestId))
  if (next === null && !Pagination.isBackOnTrack(progress)) return Effect.fail(listingFault("lostTrack", operation, page.requestId))
  const read: ScanPage<A> = { items, cursor: url.searchParams.get("cursor"), nextCursor: nextUrl?.searchParams.get("cursor") ?? null }
  const step: Step<A> = [
    [read],
    next === null ? Option.none() : Option.some(Result.map(next, (url) => ({ ...position, url, refused: false, throughCursor: true, revalidate: false, progress })))
  ]
  return Effect.as(
    Effect.andThen(
      position.refused ? run.options.pageSizes.set(operation, position.limit) : Effect.void,
      progress.orderDiffers && !position.progress.orderDiffers
        ? Effect.logInfo(`${operation}: the service orders ids otherwise than by code unit; the scan follows its order`)
        : Effect.void
    ),
    step
  )
}

/** A step that emits nothing and goes on from `position`. */
const retried = <A>(position: Position): Step<A> => [[], Option.some(Result.succeed(position))]

/** Reads the page of `position`; asks for smaller pages after `ResponseTooLarge`, and restarts after `CursorExpired`. */
const fetch = <A extends { readonly id: string }, E extends { readonly _tag: string }>(run: Run<A, E>) =>
(position: Position): Effect.Effect<Step<A>, E | Errors.UnexpectedResponse> => {
  const { operation, read, restarts } = run.options
  const url = withParameter(position.url, "limit", position.limit)
  return read(run.parameters, url, position).pipe(
    Effect.flatMap((page) => pageStep(run, position, url, page)),
    Effect.catchIf(
      (error) => error._tag === "ResponseTooLarge" && position.limit > 1,
      () =>
        Effect.as(
          Effect.logInfo(`${operation.id}: the page was too large; asking for smaller pages`),
          retried<A>({ ...position, limit: Math.floor(position.limit / 2), refused: true })
        )
    ),
    Effect.catchIf(
      (error) => error._tag === "CursorExpired" && position.restarts < restarts,
      () =>
        Effect.as(
          Effect.logInfo(`${operation.id}: the cursor expired; restarting the listing from its first page`),
          retried<A>({
            ...position,
            url: run.first,
            throughCursor: false,
            restarts: position.restarts + 1,
            revalidate: true,
            progress: Pagination.restart(position.progress)
          })
        )
    )
  )
}

/**
 * Every page of the list the parameters name, from its first page or, with
 * `from`, from the page a cursor of an earlier scan leads to (a cursor that
 * has expired meanwhile restarts the scan from the first page).
 */
export const scanPages = <A extends { readonly id: string }, E extends { readonly _tag: string }>(options: Options<A, E>) =>
(
  parameters: Readonly<Record<string, unknown>> | undefined,
  from: string | null = null
): Stream.Stream<ScanPage<A>, ScanError<E>> =>
  Stream.unwrap(
    Effect.gen(function*() {
      const operation = options.operation
      const limit = pageSizeOf(operation, parameters)
      const fitted = yield* options.pageSizes.get(operation.id)
      // A limit given is checked by the operation's schema, whatever its type; none asks for the largest page.
      const first = yield* Links.operationUrl(options.baseUrl, operation, { ...parameters, limit: parameters?.["limit"] ?? limit })
      if (from !== null) yield* Effect.fromResult(Links.sendable("cursor", from))
      const step = fetch({ options, parameters: parameters ?? {}, first, emitted: new SeenIds() })
      const start: Next = Result.succeed({
        url: from === null ? first : withParameter(first, "cursor", from),
        limit: Option.match(fitted, { onNone: () => limit, onSome: (size) => Math.min(size, limit) }),
        refused: false,
        throughCursor: from !== null,
        restarts: 0,
        revalidate: false,
        progress: Pagination.start
      })
      const go = (next: Next): Effect.Effect<Step<A>, ScanError<E>> => Result.match(next, { onFailure: Effect.fail, onSuccess: step })
      return Stream.paginate(start, go)
    })
  )

/** Every item of the list the parameters name. */
export const scan = <A extends { readonly id: string }, E extends { readonly _tag: string }>(options: Options<A, E>) => {
  const pages = scanPages(options)
  return (parameters: Readonly<Record<string, unknown>> | undefined): Stream.Stream<A, ScanError<E>> =>
    Stream.flattenIterable(Stream.map(pages(parameters), (page) => page.items))
}
