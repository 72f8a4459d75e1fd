/**
 * The orders in which the simulator can list ids, as a service's database
 * would sort them: by UTF-16 code unit (JavaScript's `<`), case-insensitively,
 * or by the `en-US` locale, numeric-aware. The contract only says "ascending
 * identity order", so a client must lose nothing under any of them.
 *
 * Generated ids ascend with their index under the chosen collation. Under
 * the two others than code units, the ordinals in the ids of models, Skills
 * and MCP servers take a case (`m0000007`, `M0000008`) and, for the locale, no
 * zero padding (`m9`, `m10`), so that code-unit order differs from the
 * service's across pages.
 *
 * @example
 * ```ts
 * import { Simulator } from "effect-catalog/simulator"
 *
 * // A simulator whose lists come in a numeric-aware, case-insensitive order.
 * const SimulatorLive = Simulator.layer({ collation: "locale", sizes: { models: 500 } })
 * ```
 * @since 0.2.0
 */
import { type Collation, collations } from "../../../../rules/src/simulator/Settings.js"
import { pad } from "./Random.js"

export { type Collation, collations }


/**
 * A total order of ids: negative, zero or positive.
 *
 * @since 0.2.0
 */
export type Compare = (a: string, b: string) => number

const byCodeUnits: Compare = (a, b) => (a < b ? -1 : a > b ? 1 : 0)
const locale = new Intl.Collator("en-US", { numeric: true, sensitivity: "base" })

/**
 * The order of each collation. Ties of a collation (`a` and `A`) are broken
 * by code units, as a unique index on the id would need.
 *
 * @since 0.2.0
 */
export const compare: Readonly<Record<Collation, Compare>> = {
  "code-unit": byCodeUnits,
  "case-insensitive": (a, b) => byCodeUnits(a.toLowerCase(), b.toLowerCase()) || byCodeUnits(a, b),
  "locale": (a, b) => locale.compare(a, b) || byCodeUnits(a, b)
}

/**
 * The segment of an id that orders it: a lowercase letter and an index,
 * zero-padded to `width` under code units; with the letter in upper case
 * when `upper` under the two others; not padded under the locale.
 *
 * @since 0.2.0
 */
export const ordinal = (collation: Collation, letter: string, index: number, width: number, upper: boolean): string => {
  const head = collation !== "code-unit" && upper ? letter.toUpperCase() : letter
  return `${head}${collation === "locale" ? String(index) : pad(index, width)}`
}
