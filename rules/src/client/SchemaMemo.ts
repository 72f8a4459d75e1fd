/**
 * What depends only on an operation's item schema, made once for every
 * client built (a parser is compiled once per schema), not once per client.
 * It imports nothing of Effect: both editions of the package memoize with it.
 */

/** `make` memoized by its argument, an item schema, held weakly. */
export const perItemSchema = <Item extends object, V>(make: (item: Item) => V) => {
  const made = new WeakMap<Item, V>()
  return (item: Item): V => {
    const known = made.get(item)
    if (known !== undefined) return known
    const value = make(item)
    made.set(item, value)
    return value
  }
}
