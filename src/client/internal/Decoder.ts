/**
 * How the text of an answer becomes its value: exactly, or not at all.
 */
import { Effect, ParseResult, Schema } from "effect"
import * as ExactJson from "../../../rules/src/client/ExactJson.js"

/** The failure of a body that holds an inexact number: where it is, and that it cannot be held. */
const inexactError = (body: string, inexact: ExactJson.Inexact): ParseResult.ParseError => {
  const issue = new ParseResult.Type(Schema.Number.ast, inexact.token, ExactJson.inexactMessage(inexact.token))
  const [first, ...rest] = ExactJson.pathAt(body, inexact.offset)
  return new ParseResult.ParseError({
    issue: first === undefined ? issue : new ParseResult.Pointer([first, ...rest], inexact.token, issue)
  })
}

/**
 * A decoder that refuses a JSON body holding a number `JSON.parse` cannot
 * hold exactly, naming where it is (`data[3].offer_count: 1e309 cannot be
 * held exactly as a JSON number`), and otherwise decodes with `decode`. A
 * body that is not JSON is left to `decode`, which says so.
 */
export const exactly = <A>(
  decode: (body: string) => Effect.Effect<A, ParseResult.ParseError>
): (body: string) => Effect.Effect<A, ParseResult.ParseError> =>
(body) => {
  const inexact = ExactJson.firstInexact(body)
  return inexact === undefined || !ExactJson.isJson(body) ? decode(body) : Effect.fail(inexactError(body, inexact))
}

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
export const decoder = <A, I>(schema: Schema.Schema<A, I>): Decoder<A> => {
  const json = Schema.parseJson(schema)
  const decode = Schema.decodeUnknown(json)
  const decodeAll = Schema.decodeUnknown(json, { errors: "all" })
  // Decoded first to the first issue, and only a body that does not match again for every issue: most bodies match.
  return exactly((body) => Effect.catchAll(decode(body), () => decodeAll(body)))
}
