/**
 * A walk's pages (`rules/src/mirror/Walk`), tested once for both editions:
 * a page is revalidated by its ETag while the link its last 200 gave still
 * lives, and asked for whole when that link would die before it is
 * followed; a 304 gives back the link and items of the last 200.
 */
import { describe, expect, it } from "vitest"
import { WalkPages } from "../../src/mirror/Walk.js"

const hour = 3600

const page = (etag: string, next: string | null, items: ReadonlyArray<string>) => ({ status: 200 as const, etag, next, items })

describe("WalkPages", () => {
  it("asks for a page it never saw whole", () => {
    expect(new WalkPages(hour).ask(0, 0).etag).toBeUndefined()
  })

  it("revalidates by ETag while the page's link lives, and asks whole in the link's last five minutes", () => {
    const walk = new WalkPages(hour)
    walk.answered(0, 1000, page("\"a\"", "next?cursor=c1", ["m1", "m2"]))
    expect(walk.ask(0, 1000 + 600).etag).toBe("\"a\"")
    expect(walk.ask(0, 1000 + hour - 301).etag).toBe("\"a\"")
    expect(walk.ask(0, 1000 + hour - 300).etag).toBeUndefined()
  })

  it("keeps the margin within a twelfth of a short cursor life", () => {
    const walk = new WalkPages(120)
    walk.answered(0, 0, page("\"a\"", "next", []))
    expect(walk.ask(0, 109).etag).toBe("\"a\"")
    expect(walk.ask(0, 110).etag).toBeUndefined()
  })

  it("revalidates the last page by ETag however old: it has no link to die", () => {
    const walk = new WalkPages(hour)
    walk.answered(0, 0, page("\"z\"", null, ["m9"]))
    expect(walk.ask(0, 10 * hour).etag).toBe("\"z\"")
  })

  it("gives back a 304's link and items from the last 200, and a 200 renews them", () => {
    const walk = new WalkPages(hour)
    walk.answered(0, 0, page("\"a\"", "next?cursor=c1", ["m1", "m2"]))
    expect(walk.answered(0, 600, { status: 304 })).toEqual({ next: "next?cursor=c1", items: ["m1", "m2"] })
    expect(walk.page(0)?.issuedAt).toBe(0)
    expect(walk.answered(0, 3000, page("\"b\"", "next?cursor=c2", ["m1", "m3"]))).toEqual({ next: "next?cursor=c2", items: ["m1", "m3"] })
    expect(walk.page(0)?.issuedAt).toBe(3000)
    expect(walk.ask(0, 3000 + 1800).etag).toBe("\"b\"")
  })

  it("asks whole for a page whose link died early, and forgets pages past the walk's end", () => {
    const walk = new WalkPages(hour)
    walk.answered(0, 0, page("\"a\"", "p1", ["m1"]))
    walk.answered(1, 1, page("\"b\"", "p2", ["m2"]))
    walk.answered(2, 2, page("\"c\"", null, ["m3"]))
    walk.linkDied(0)
    expect(walk.ask(0, 10).etag).toBeUndefined()
    expect(walk.ask(1, 10).etag).toBe("\"b\"")
    walk.ended(1)
    expect(walk.length).toBe(2)
    expect(walk.page(2)).toBeUndefined()
  })
})
