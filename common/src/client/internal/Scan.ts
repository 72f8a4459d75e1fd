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
 * again from it (`from`); the stream of items flattens it. It paginates
 * (`paginateEffect`), each step giving the pages it read (none after a
 * refusal it recovers from) and where it goes on.
 *
 * @internal
 */
import { Effect, fromResult, mapConcat, Option, paginateEffect, Result, Stream } from "#edition/internal/Edition.js"
import type * as Errors from "../Errors.js"
import type * as PageSizes from "../PageSizes.js"
import * as ScanSteps from "../../../../rules/src/client/ScanSteps.js"
import type { PageRead, ScanPage } from "../../../../rules/src/client/ScanSteps.js"
import { SeenIds } from "../../../../rules/src/client/SeenIds.js"
import { listingFault } from "#edition/client/internal/AnswerErrors.js"
import * as Links from "./Links.js"

export { pageSizeOf } from "../../../../rules/src/client/ScanSteps.js"
export type { PageRead, ScanPage }

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

/** The next position, or why there is none: a foreign `links.next`, or none where more items follow, fails after the items of its page are emitted. */
type Next = Result.Result<ScanSteps.Position, Errors.UnsafeLink | Errors.UnexpectedResponse>

/** What one step of a scan gives: its page (none after a refusal that it recovers from), and where it goes on. */
type Step<A> = readonly [ReadonlyArray<ScanPage<A>>, Option.Option<Next>]

/** One run of a scan: its options and parameters, its first page, and every id it emitted. */
interface Run<A, E> {
  readonly options: Options<A, E>
  readonly parameters: Readonly<Record<string, unknown>>
  readonly first: URL
  readonly emitted: SeenIds
}

/** Where a page leads: `links.next`, or without it a `next_cursor` from the page's own URL, checked; null on the last page. */
const linkOf = <A>(run: Run<A, unknown>, page: PageRead<A>, url: URL): Result.Result<URL, Errors.UnsafeLink | Errors.UnexpectedResponse> | null => {
  const way = ScanSteps.wayOn(page, url)
  if (way === null) return null
  return "fault" in way ? Result.fail(listingFault(way.fault, run.options.operation.id, page.requestId)) : Links.checkLink(run.options.baseUrl, way.link)
}

/**
 * A page read at `url` from `position`, checked whole before any of its
 * items is emitted: the items it brings, and where the scan goes on.
 */
const pageStep = <A extends { readonly id: string }, E>(run: Run<A, E>, position: ScanSteps.Position, url: URL, page: PageRead<A>) => {
  const operation = run.options.operation.id
  const next = linkOf(run, page, url)
  const judged = ScanSteps.judge(position, url, page, next === null ? null : Result.getOrUndefined(next), run.emitted)
  if (judged._tag === "Fault") return Effect.fail(listingFault(judged.fault, operation, page.requestId))
  const step: Step<A> = [[judged.page], next === null ? Option.none() : Option.some(Result.map(next, judged.onward))]
  return Effect.as(
    Effect.andThen(
      position.refused ? run.options.pageSizes.set(operation, position.limit) : Effect.void,
      judged.progress.orderDiffers && !position.progress.orderDiffers
        ? Effect.logInfo(`${operation}: the service orders ids otherwise than by code unit; the scan follows its order`)
        : Effect.void
    ),
    step
  )
}

/** A step that emits nothing and goes on from `position`. */
const retried = <A>(position: ScanSteps.Position): Step<A> => [[], Option.some(Result.succeed(position))]

/** Reads the page of `position`; asks for smaller pages after `ResponseTooLarge`, and restarts after `CursorExpired`. */
const fetch = <A extends { readonly id: string }, E extends { readonly _tag: string }>(run: Run<A, E>) =>
(position: ScanSteps.Position): Effect.Effect<Step<A>, E | Errors.UnexpectedResponse> => {
  const { operation, read, restarts } = run.options
  const url = ScanSteps.withParameter(position.url, "limit", position.limit)
  return read(run.parameters, url, position).pipe(
    Effect.flatMap((page) => pageStep(run, position, url, page)),
    Effect.catchIf(
      (error) => error._tag === "ResponseTooLarge" && position.limit > 1,
      () =>
        Effect.as(
          Effect.logInfo(`${operation.id}: the page was too large; asking for smaller pages`),
          retried<A>(ScanSteps.smaller(position))
        )
    ),
    Effect.catchIf(
      (error) => error._tag === "CursorExpired" && position.restarts < restarts,
      () =>
        Effect.as(
          Effect.logInfo(`${operation.id}: the cursor expired; restarting the listing from its first page`),
          retried<A>(ScanSteps.restarted(position, run.first))
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
      const limit = ScanSteps.pageSizeOf(operation, parameters)
      const fitted = yield* options.pageSizes.get(operation.id)
      // A limit given is checked by the operation's schema, whatever its type; none asks for the largest page.
      const first = yield* Links.operationUrl(options.baseUrl, operation, { ...parameters, limit: parameters?.["limit"] ?? limit })
      if (from !== null) yield* fromResult(Links.sendable("cursor", from))
      const step = fetch({ options, parameters: parameters ?? {}, first, emitted: new SeenIds() })
      const start: Next = Result.succeed(ScanSteps.start(first, from, limit, Option.getOrNull(fitted)))
      const go = (next: Next): Effect.Effect<Step<A>, ScanError<E>> => Result.match(next, { onFailure: Effect.fail, onSuccess: step })
      return paginateEffect(start, go)
    })
  )

/** Every item of the list the parameters name. */
export const scan = <A extends { readonly id: string }, E extends { readonly _tag: string }>(options: Options<A, E>) => {
  const pages = scanPages(options)
  return (parameters: Readonly<Record<string, unknown>> | undefined): Stream.Stream<A, ScanError<E>> =>
    mapConcat(pages(parameters), (page) => page.items)
}
