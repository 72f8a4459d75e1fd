/**
 * How a scan goes from page to page, as plain functions of plain data:
 * where it stands (`Position`) and how that changes (a smaller page after
 * `ResponseTooLarge`, the first page again after `CursorExpired`, the next
 * page), where a page leads (`wayOn`), and the judgement of a page read
 * (`judge`): the items it emits, or why the listing cannot be scanned to its
 * end (`ListingFault`, with the text its error says).
 *
 * Imports nothing of Effect. The scan (common/src/client/internal/Scan.ts,
 * compiled against either edition) runs these steps in its stream, checks
 * links with `Links`, and fails with `UnexpectedResponse`
 * (`Answers.listingFault`).
 */
import * as Pagination from "./Pagination.js"
import type { SeenIds } from "./SeenIds.js"
import * as TransportRules from "./TransportRules.js"

/** Pages in a row that bring no id beyond the page before, after which a listing is taken for stuck. */
const maxIdlePages = 2

/** Why a listing, every page of it a valid 200, cannot be scanned to its end. */
export const listingFaults = {
  notAdvancing: "links.next leads to no item beyond those already read; the listing would repeat forever",
  noWayOn: "the page says has_more but gives neither links.next nor next_cursor",
  cursorUnsendable: "the page's next_cursor holds a lone surrogate, which has no UTF-8 form and cannot be sent back",
  wentBack: "links.next leads back to items already given, beyond a repeat of the page just before; the scan stops rather than give an item twice",
  lostTrack: "after a restart, none of the ids last read came again; the scan cannot tell which items it already gave"
} as const

/** A reason a listing cannot be scanned to its end. */
export type ListingFault = keyof typeof listingFaults

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

/** Where a scan stands: the page it reads next, and what it carries from page to page. */
export interface Position {
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

/** The URL with one query parameter set. */
export const withParameter = (url: URL, name: "limit" | "cursor", value: string | number) => {
  const next = new URL(url)
  next.searchParams.set(name, String(value))
  return next
}

/**
 * Where a scan starts: the first page of the list (`first`), or with `from`
 * the page a cursor of an earlier scan leads to; at the page size asked
 * for, or the one that fitted before if it is smaller.
 */
export const start = (first: URL, from: string | null, limit: number, fitted: number | null): Position => ({
  url: from === null ? first : withParameter(first, "cursor", from),
  limit: fitted === null ? limit : Math.min(fitted, limit),
  refused: false,
  throughCursor: from !== null,
  restarts: 0,
  revalidate: false,
  progress: Pagination.start
})

/** After `ResponseTooLarge`: the same page asked for at half the size. */
export const smaller = (position: Position): Position => ({ ...position, limit: Math.floor(position.limit / 2), refused: true })

/** After `CursorExpired`: the first page (`first`) again, read afresh, and the replay of what was read. */
export const restarted = (position: Position, first: URL): Position => ({
  ...position,
  url: first,
  throughCursor: false,
  restarts: position.restarts + 1,
  revalidate: true,
  progress: Pagination.restart(position.progress)
})

/**
 * Where a page read at `url` leads: `links.next`, or without it a
 * `next_cursor` on the page's own URL (the `link` still to be checked); null
 * on the last page; a fault where more items follow but there is no way to
 * them.
 */
export const wayOn = (page: PageRead<unknown>, url: URL): { readonly link: string } | { readonly fault: ListingFault } | null => {
  const cursor = page.next === null && page.hasMore ? page.nextCursor : null
  const link = page.next ?? (cursor !== null ? withParameter(url, "cursor", cursor).href : null)
  if (link === null) return page.hasMore ? { fault: "noWayOn" } : null
  if (cursor !== null && TransportRules.unencodable(cursor) !== undefined) return { fault: "cursorUnsendable" }
  return { link }
}

/** A page judged: what it emits and where the scan goes on from it, or why the listing ends in failure. */
export type Judged<A> =
  | { readonly _tag: "Fault"; readonly fault: ListingFault }
  | {
    readonly _tag: "Emit"
    readonly page: ScanPage<A>
    /** Where the scan stands in the list after the page. */
    readonly progress: Pagination.Progress
    /** The position of the page it leads to, once its link is checked. */
    readonly onward: (url: URL) => Position
  }

/**
 * The page `page`, read at `url` from `position`, judged whole before any of
 * its items is emitted; `next` is where it leads (`null` on the last page,
 * `undefined` where it leads nowhere the scan can go). `emitted` remembers
 * each id as it is checked.
 */
export const judge = <A extends { readonly id: string }>(
  position: Position,
  url: URL,
  page: PageRead<A>,
  next: URL | null | undefined,
  emitted: SeenIds
): Judged<A> => {
  const nextHref = next === null || next === undefined ? null : withParameter(next, "limit", position.limit).href
  const { items: taken, progress } = Pagination.read(position.progress, page.items)
  // Each id is remembered as it is checked. While a restart reads again what the scan had read, an item already
  // emitted is behind its place (deleted and added again meanwhile): it is dropped, as the contract says to
  // deduplicate by id. Anywhere else it means the listing went back: the page ends the scan before any of its items
  // is emitted.
  const replaying = position.progress.replay !== null
  if (!replaying && !taken.every((item) => emitted.add(item.id))) return { _tag: "Fault", fault: "wentBack" }
  const items = replaying ? taken.filter((item) => emitted.add(item.id)) : taken
  const stalled = nextHref !== null && (nextHref === url.href || progress.idle >= maxIdlePages)
  if (stalled) return { _tag: "Fault", fault: "notAdvancing" }
  if (next === null && !Pagination.isBackOnTrack(progress)) return { _tag: "Fault", fault: "lostTrack" }
  return {
    _tag: "Emit",
    page: { items, cursor: url.searchParams.get("cursor"), nextCursor: next?.searchParams.get("cursor") ?? null },
    progress,
    onward: (onward) => ({ ...position, url: onward, refused: false, throughCursor: true, revalidate: false, progress })
  }
}
