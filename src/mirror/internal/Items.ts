/**
 * How a sync gives the items of its changes: as the service sent them (the
 * wire form), or decoded with their collection's item schema from the
 * operations table. An item that does not decode, from a page of the
 * service or a row of the mirror, is an `ItemMalformed` naming the
 * collection, the id and the field.
 */
import { Effect, Either, identity, ParseResult, Schema } from "effect"
import { WireItem } from "../../../common/src/client/CatalogClient.js"
import * as Malformed from "../../client/internal/Malformed.js"
import type { Kept } from "../../../common/src/mirror/Change.js"
import * as Operations from "../../../common/src/contract/Operations.js"
import { ItemMalformed } from "../../../common/src/mirror/MirrorError.js"

/** The decoded item of a collection, as the operations table gives its schema (`Mirror.Item`). */
export type Item<C extends Kept> = Schema.Schema.Type<(typeof Operations)[C]["item"]>

/** How the items of a sync's changes are given. */
export interface Items<A, E> {
  /** An item of a page the service sent, already checked in its wire form. */
  readonly received: (item: WireItem) => Effect.Effect<A, E>
  /** An item as the mirror holds it: its id and its JSON, as text or as the driver parsed it. */
  readonly stored: (id: string, data: unknown) => Effect.Effect<A, E>
}

/** The JSON of a row, or why its text is not JSON. */
const jsonOf = (data: unknown): Either.Either<unknown, string> =>
  typeof data === "string"
    ? Either.try({ try: (): unknown => JSON.parse(data), catch: (error) => error instanceof Error ? error.message : String(error) })
    : Either.right(data)

const isWireItem = Schema.is(WireItem)

/** Items as the service sent them; a row that is not an object with an id is given as `{ id, stored }`, `stored` its JSON or its text. */
export const wire: Items<WireItem, never> = {
  received: Effect.succeed,
  stored: (id, data) =>
    Effect.succeed(Either.match(jsonOf(data), {
      onLeft: (): WireItem => ({ id, stored: data }),
      onRight: (json) => isWireItem(json) ? json : { id, stored: json }
    }))
}

/** The item schema of each collection, as the operations table gives it: `Operations` itself, seen through its collections. */
const itemSchemas: {
  readonly [C in Kept]: { readonly item: Schema.Schema<Item<C>, Schema.Schema.Encoded<(typeof Operations)[C]["item"]>> }
} = Operations

/** Items decoded with the schema of the collection's items. */
export const decoded = <C extends Kept>(collection: C): Items<Item<C>, ItemMalformed> => {
  const decode = Schema.decodeUnknown(itemSchemas[collection].item)
  const malformed = (id: string, source: ItemMalformed["source"]) => (error: ParseResult.ParseError) => {
    const [first] = ParseResult.ArrayFormatter.formatErrorSync(error)
    return new ItemMalformed({
      collection,
      id,
      field: first === undefined ? "" : Malformed.pathOf(first.path),
      detail: Malformed.describe(error, identity),
      source
    })
  }
  return {
    received: (item) => Effect.mapError(decode(item), malformed(item.id, "service")),
    stored: (id, data) =>
      Either.match(jsonOf(data), {
        onLeft: (reason) => Effect.fail(new ItemMalformed({ collection, id, field: "", detail: `not JSON: ${reason}`, source: "mirror" })),
        onRight: (json) => Effect.mapError(decode(json), malformed(id, "mirror"))
      })
  }
}
