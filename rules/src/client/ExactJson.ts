/**
 * The numbers of a JSON text that `JSON.parse` cannot hold exactly, found in
 * the text itself, so that an answer passed on in its wire form is passed on
 * with the values the service sent, or refused.
 *
 * A number token is exact when writing the double `JSON.parse` makes of it
 * again (`JSON.stringify`, `String`) gives the same decimal value: exact in
 * value, not in spelling. `1.0`, `1e2`, `0.1`, `-0`, `5e-324` and
 * `9007199254740994` (beyond 2^53, but a double holds it) are exact: they
 * come out as `1`, `100`, `0.1`, `0`, `5e-324` and `9007199254740994`,
 * another spelling at most of the value that was sent, which every reader of
 * JSON reads back as that value. These are not:
 *
 * - `1e309` and `-1e309`, which overflow to `Infinity` (written `null`);
 * - `1e-400`, non-zero, which underflows to `0`;
 * - `9007199254740993`, an integer beyond 2^53 that no double holds (it
 *   comes out as `9007199254740992`);
 * - `0.1000000000000000055511151231257827`, more significant digits than
 *   a double keeps (it comes out as `0.1`).
 *
 * The text is read once, building nothing: string literals are skipped
 * (escapes included, so `"a\"1e309"` holds no number), and a token of at
 * most 15 digits without an exponent is exact by construction (any decimal
 * of 15 significant digits comes back the same from a double), so only the
 * rare longer or exponent-written tokens are converted and compared. Only
 * when one is inexact is the text read again, up to it, for its path.
 *
 * For example:
 *
 *   ExactJson.firstInexact('{"data":[{"id":"a","offer_count":1e309}]}')
 *   // { offset: 33, token: "1e309" }
 *   ExactJson.pathAt('{"data":[{"id":"a","offer_count":1e309}]}', 33) // ["data", 0, "offer_count"]
 *   ExactJson.isExact("1e2") // true
 *
 * It imports nothing of Effect: both editions of the package decode with it.
 */
const quote = 0x22
const backslash = 0x5c
const minus = 0x2d
const plus = 0x2b
const dot = 0x2e
const zero = 0x30
const nine = 0x39
const lowerE = 0x65
const upperE = 0x45
const openBrace = 0x7b
const closeBrace = 0x7d
const openBracket = 0x5b
const closeBracket = 0x5d
const comma = 0x2c

/** Significant digits any decimal may have and come back the same from a double (`DBL_DIG`). */
const safeDigits = 15

/** At most this many characters of a token in a message. */
const shownLength = 40

/** A number token of a JSON text that `JSON.parse` cannot hold exactly, and where it starts. */
export interface Inexact {
  readonly offset: number
  readonly token: string
}

/** The offset just past the string literal whose contents start at `from` (after its opening quote). */
const endOfString = (text: string, from: number): number => {
  let at = text.indexOf("\"", from)
  while (at !== -1) {
    let backslashes = 0
    while (text.charCodeAt(at - 1 - backslashes) === backslash) backslashes++
    if (backslashes % 2 === 0) return at + 1
    at = text.indexOf("\"", at + 1)
  }
  return text.length
}

/** A decimal: sign, whole digits, fraction digits, exponent. */
const decimal = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/

/**
 * A decimal's value written one way only: its significant digits and the
 * power of ten of the last of them (`12e-1` for `1.20`), or `0`.
 */
const canonical = (text: string): string => {
  const match = decimal.exec(text)
  if (match === null) return text
  const [, sign = "", whole = "", fraction = "", exponent = "0"] = match
  const digits = whole + fraction
  const first = digits.search(/[1-9]/)
  if (first === -1) return "0"
  let last = digits.length
  while (digits.charCodeAt(last - 1) === zero) last--
  const power = BigInt(exponent) - BigInt(fraction.length) + BigInt(digits.length - last)
  return `${sign}${digits.slice(first, last)}e${power}`
}

/**
 * Whether a JSON number token comes back with the same value from the
 * double `JSON.parse` makes of it: finite, and written again (`String`)
 * as the same decimal value.
 */
export const isExact = (token: string): boolean => {
  const value = Number(token)
  return Number.isFinite(value) && canonical(token) === canonical(String(value))
}

/** The first number token of a JSON text that `JSON.parse` cannot hold exactly, if any. */
export const firstInexact = (text: string): Inexact | undefined => {
  const length = text.length
  let at = 0
  while (at < length) {
    const code = text.charCodeAt(at)
    if (code === quote) {
      at = endOfString(text, at + 1)
    } else if (code === minus || (code >= zero && code <= nine)) {
      const start = at
      let digits = 0
      let exponent = false
      for (; at < length; at++) {
        const next = text.charCodeAt(at)
        if (next >= zero && next <= nine) digits++
        else if (next === lowerE || next === upperE) exponent = true
        else if (next !== dot && next !== minus && next !== plus) break
      }
      if (exponent || digits > safeDigits) {
        const token = text.slice(start, at)
        if (!isExact(token)) return { offset: start, token }
      }
    } else {
      at++
    }
  }
  return undefined
}

/**
 * Where the value at `offset` of a JSON text sits: its keys and indices
 * from the top (`["data", 3, "offer_count"]`). The text must be JSON.
 */
export const pathAt = (text: string, offset: number): ReadonlyArray<string | number> => {
  const path: Array<string | number> = []
  let expectingKey = false
  let at = 0
  while (at < offset) {
    const code = text.charCodeAt(at)
    if (code === quote) {
      const end = endOfString(text, at + 1)
      if (expectingKey) {
        const key: unknown = JSON.parse(text.slice(at, end))
        path[path.length - 1] = String(key)
        expectingKey = false
      }
      at = end
      continue
    }
    if (code === openBrace) {
      path.push("")
      expectingKey = true
    } else if (code === openBracket) {
      path.push(0)
    } else if (code === closeBrace || code === closeBracket) {
      path.pop()
      expectingKey = false
    } else if (code === comma) {
      // Within an array the path ends in an index; within an object, in a key.
      const index = path[path.length - 1]
      if (typeof index === "number") path[path.length - 1] = index + 1
      else expectingKey = true
    }
    at++
  }
  return path
}

/** A token as a message shows it: cut to length. */
const shown = (token: string): string => token.length <= shownLength ? token : `${token.slice(0, shownLength - 1)}…`

/** What is wrong with an inexact number token, in words. */
export const inexactMessage = (token: string): string => `${shown(token)} cannot be held exactly as a JSON number`

/** Whether a text is JSON at all: a text that is not is left to the decoder, which says so. */
export const isJson = (text: string): boolean => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}
