/**
 * The table of ids a scan remembers (`rules/src/client/SeenIds`), tested
 * once for both editions, whose scans use it to emit no id twice: every id
 * new once across the table's doublings, and ids told apart by a single
 * code unit. The editions' tests check scans that never repeat an item,
 * over HTTP.
 */
import { describe, expect, it } from "vitest"
import { SeenIds } from "../../src/client/SeenIds.js"

describe("SeenIds", () => {
  it("takes every id for new once, and no other for one already there, across the table's doublings", () => {
    const seen = new SeenIds()
    const count = 200_000
    const idOf = (i: number) => `o${i % 977}/m${i}`
    let refused = 0
    for (let i = 0; i < count; i++) if (!seen.add(idOf(i))) refused++
    expect(refused).toBe(0)
    expect(seen.size).toBe(count)
    let accepted = 0
    for (let i = 0; i < count; i++) if (seen.add(idOf(i))) accepted++
    expect(accepted).toBe(0)
    for (let i = count; i < 2 * count; i++) if (!seen.add(idOf(i))) refused++
    expect(refused).toBe(0)
    expect(seen.size).toBe(2 * count)
  })

  it("tells apart ids that differ in one code unit, in any position, of any length", () => {
    const seen = new SeenIds()
    const ids = ["", "a", "b", "ab", "ba", "aa", "a\u0000", "\u0000a", "\u0000", "\u0000\u0000", "é", "e\u0301", "\ud83d\ude00", "\ud800", "\ud801", "Acme/Model", "acme/model", "acme/modeL"]
    for (const id of ids) expect(seen.add(id), JSON.stringify(id)).toBe(true)
    for (const id of ids) expect(seen.add(id), JSON.stringify(id)).toBe(false)
    expect(seen.size).toBe(ids.length)
  })
})
