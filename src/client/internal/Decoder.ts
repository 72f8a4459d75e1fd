/**
 * How the text of an answer becomes its value: exactly, or not at all.
 */
import { type Effect, type ParseResult, Schema } from "effect"
import * as ExactJson from "./ExactJson.js"

/**
 * Turns the text of an answer into its value.
 */
export type Decoder<A> = (body: string) => Effect.Effect<A, ParseResult.ParseError>

/**
 * The {@link Decoder} of answers of `schema`. Build it once per operation:
 * a parser is compiled for each schema it meets. A body that does not match
 * gives every issue found, so that the error can say how many there are. A
 * body holding a number `JSON.parse` cannot hold exactly (`1e309`,
 * `9007199254740993`, `1e-400`, more digits than a double keeps) is refused
 * first, naming where the number is (`ExactJson`): no answer is read with a
 * number other than the one the service sent.
 */
export const decoder = <A, I>(schema: Schema.Schema<A, I>): Decoder<A> =>
  ExactJson.exactly(Schema.decodeUnknown(Schema.parseJson(schema), { errors: "all" }))
