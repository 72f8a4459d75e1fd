/**
 * A decimal written out in plain digits, never in exponent form, from its
 * unscaled value and scale (value × 10^-scale): the wire form of the
 * contract's decimal strings (prices).
 *
 * Imports nothing of Effect. Both editions' `Primitives.plainDecimal`
 * (src/contract/Primitives.ts, effect4/src/contract/Primitives.ts) give it
 * for their normalized `BigDecimal`.
 */

/** `value` × 10^-`scale` in plain digits: `1234n, 9` gives `"0.000001234"`, `12n, -2` gives `"1200"`. */
export const plainDigits = (value: bigint, scale: number): string => {
  const sign = value < 0n ? "-" : ""
  const digits = (value < 0n ? -value : value).toString()
  if (scale <= 0) return sign + digits + "0".repeat(-scale)
  const padded = digits.padStart(scale + 1, "0")
  return `${sign}${padded.slice(0, padded.length - scale)}.${padded.slice(padded.length - scale)}`
}
