/**
 * What depends only on an operation's item schema, made once for every
 * client built (a parser is compiled once per schema), not once per client.
 */
import type { Schema } from "effect"

/** `make` memoized by the item schema. */
export const perItem = <V>(make: (item: Schema.Schema.AnyNoContext) => V) => {
  const made = new WeakMap<Schema.Schema.AnyNoContext, V>()
  return (item: Schema.Schema.AnyNoContext): V => {
    const known = made.get(item)
    if (known !== undefined) return known
    const value = make(item)
    made.set(item, value)
    return value
  }
}
