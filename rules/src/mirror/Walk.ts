/**
 * A walk of one list, page after page, revalidated by ETag: what the keeper
 * remembers of each page (its ETag, its link to the next page, when that
 * link's cursor was issued, and its items), and how to ask for each page
 * the next time. A 304 costs no unit but carries no body, so the link to the
 * next page is the one the page's last 200 gave, and its cursor dies an hour
 * after it was issued: a page whose link would be dead by the time it is
 * followed is asked for whole, without its ETag, which renews the link.
 *
 * Imports nothing of Effect.
 *
 * @example
 * import { WalkPages } from "./Walk.js"
 *
 * const walk = new WalkPages(3600)
 * walk.ask(0, 0).etag // undefined: never fetched, so fetched whole
 * walk.answered(0, 0, { status: 200, etag: "\"a\"", next: "https://…?cursor=c1", items: ["m1", "m2"] })
 * walk.ask(0, 600).etag // "\"a\"": its link lives another 50 minutes
 */

/** What a walk remembers of one page. */
export interface CachedPage {
  readonly etag: string
  /** Its link to the next page (`null` on the last). */
  readonly next: string | null
  /** When that link's cursor was issued: when the page last answered 200. */
  readonly issuedAt: number
  /** The ids of its items, in order. */
  readonly items: ReadonlyArray<string>
}

/** A page's answer: a 200 with its ETag, link and items, or a 304. */
export type PageAnswer =
  | { readonly status: 200; readonly etag: string; readonly next: string | null; readonly items: ReadonlyArray<string> }
  | { readonly status: 304 }

/** A cursor is not followed in the last five minutes of its hour: the request may wait for admission that long. */
const linkMargin = 300

/**
 * The pages of one list as a walk last saw them.
 *
 * @since 0.7.3
 */
export class WalkPages {
  private pages: Array<CachedPage> = []

  /** @param cursorSeconds how long a cursor lives (an hour, scaled as the service is) */
  constructor(readonly cursorSeconds: number) {}

  /** How to ask for page `index` at `now`: with the ETag to revalidate, or whole to renew its link. */
  ask(index: number, now: number): { readonly etag: string | undefined } {
    const cached = this.pages[index]
    if (cached === undefined) return { etag: undefined }
    const linkLives = cached.next === null || now - cached.issuedAt < this.cursorSeconds - Math.min(linkMargin, this.cursorSeconds / 12)
    return { etag: linkLives ? cached.etag : undefined }
  }

  /**
   * Records page `index`'s answer at `now`; gives its link to the next page
   * (a 304's is the one its last 200 gave) and the page's items.
   */
  answered(index: number, now: number, answer: PageAnswer): { readonly next: string | null; readonly items: ReadonlyArray<string> } {
    if (answer.status === 304) {
      const cached = this.pages[index]
      return cached === undefined ? { next: null, items: [] } : { next: cached.next, items: cached.items }
    }
    this.pages[index] = { etag: answer.etag, next: answer.next, issuedAt: now, items: answer.items }
    return { next: answer.next, items: answer.items }
  }

  /** The walk ended at page `last`: pages beyond it are gone. */
  ended(last: number): void {
    this.pages.length = Math.min(this.pages.length, last + 1)
  }

  /** Page `index`'s link died early (a 409): its page is asked for whole next time. */
  linkDied(index: number): void {
    const cached = this.pages[index]
    if (cached !== undefined) this.pages[index] = { ...cached, issuedAt: -Infinity }
  }

  /** The page as last seen. */
  page(index: number): CachedPage | undefined {
    return this.pages[index]
  }

  get length(): number {
    return this.pages.length
  }
}
