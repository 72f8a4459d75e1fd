/**
 * The number scanner of the exact decoder (`rules/src/client/ExactJson`),
 * tested once for both editions, whose decoders refuse a body with a
 * number `JSON.parse` cannot hold exactly: property tests against a
 * reference verdict by integer arithmetic, and the path of an inexact
 * token placed anywhere outside strings. The editions' tests check what
 * their decoders and wire streams do with such a body, over HTTP.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as ExactJson from "../../src/client/ExactJson.js"

/** A decimal token's value as an integer and a power of ten: `-1.25e3` is [-125n, 1]. */
const decimalOf = (token: string): readonly [bigint, number] => {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(token)
  if (match === null) throw new Error(`not a JSON number: ${token}`)
  const [, sign = "", whole = "", fraction = "", exponent = "0"] = match
  return [BigInt(`${sign}${whole}${fraction}`), Number(exponent) - fraction.length]
}

/** Whether two decimal tokens have the same value, by integer arithmetic. */
const sameValue = (left: string, right: string): boolean => {
  const [a, p] = decimalOf(left)
  const [b, q] = decimalOf(right)
  const power = Math.min(p, q)
  return a * 10n ** BigInt(p - power) === b * 10n ** BigInt(q - power)
}

/** The reference verdict: finite, and written again by `String` as the same value. */
const referenceExact = (token: string): boolean => {
  const value = Number(token)
  return Number.isFinite(value) && sameValue(token, String(value))
}

const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`))

/** JSON number tokens: any sign, up to 40 digits each side of the point, exponents up to ±400. */
const numberToken = fc.tuple(
  fc.constantFrom("", "-"),
  fc.oneof(fc.constant("0"), fc.tuple(fc.stringMatching(/^[1-9]$/), digits(0, 40)).map(([head, tail]) => head + tail)),
  fc.option(digits(1, 40), { nil: undefined }),
  fc.option(fc.tuple(fc.constantFrom("e", "E"), fc.constantFrom("", "+", "-"), fc.integer({ min: 0, max: 400 })), { nil: undefined })
).map(([sign, whole, fraction, exponent]) =>
  `${sign}${whole}${fraction === undefined ? "" : `.${fraction}`}${exponent === undefined ? "" : `${exponent[0]}${exponent[1]}${exponent[2]}`}`
)

describe("the number scanner", () => {
  it("finds no inexact number in any JSON that JSON.stringify writes", () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => ExactJson.firstInexact(JSON.stringify(value)) === undefined), { numRuns: 2_000 })
  })

  it("agrees with a reference by integer arithmetic on random number tokens", () => {
    fc.assert(fc.property(numberToken, (token) => ExactJson.isExact(token) === referenceExact(token)), { numRuns: 20_000 })
    for (const token of ["1e309", "-1e309", "9007199254740993", "1e-400", "0.1000000000000000055511151231257827", "4.9e-324"]) {
      expect([token, ExactJson.isExact(token), referenceExact(token)]).toEqual([token, false, false])
    }
    for (const token of ["1.0", "1e2", "0.1", "-0", "5e-324", "9007199254740992", "9007199254740994", "1.7976931348623157e308", "100000000000000000000e-20"]) {
      expect([token, ExactJson.isExact(token), referenceExact(token)]).toEqual([token, true, true])
    }
  })

  it("finds an inexact token placed anywhere outside strings, with its path, and never one inside a string", () => {
    const inexact = fc.constantFrom("1e309", "-1e309", "9007199254740993", "1e-400", "0.1000000000000000055511151231257827")
    fc.assert(
      fc.property(fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }), fc.nat(), inexact, (values, at, token) => {
        const index = values.length === 0 ? 0 : at % (values.length + 1)
        const texts = values.map((value) => JSON.stringify(value))
        const inString = JSON.stringify({ text: `a"${token}\\` })
        const text = `{"before":${inString},"list":[${[...texts.slice(0, index), token, ...texts.slice(index)].join(",")}]}`
        const found = ExactJson.firstInexact(text)
        return found !== undefined && found.token === token && text.startsWith(token, found.offset) &&
          JSON.stringify(ExactJson.pathAt(text, found.offset)) === JSON.stringify(["list", index]) &&
          ExactJson.firstInexact(inString) === undefined
      }),
      { numRuns: 2_000 }
    )
  })
})
