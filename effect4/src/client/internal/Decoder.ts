/**
 * How the text of an answer becomes its value: exactly, or not at all. The
 * numbers `JSON.parse` cannot hold exactly are found in the text by the
 * shared `ExactJson`, which both editions decode with.
 *
 * @internal
 */
import { Effect, Result, Schema, type SchemaAST, SchemaIssue } from "effect"
import * as ExactJson from "../../../../rules/src/client/ExactJson.js"

/**
 * Turns the text of an answer into its value.
 */
export type Decoder<A> = (body: string) => Effect.Effect<A, Schema.SchemaError>

/** Every issue found, so that the error can say how many there are; each with what came, so that it can say what. */
const parseOptions: SchemaAST.ParseOptions = { errors: "all", reportInput: true }

/**
 * The value of a JSON text, or the failure of a text that is not JSON: an
 * `Encoding` issue at the top, as `Schema.fromJsonString` gives, that says
 * what `JSON.parse` said.
 */
const parse = (body: string, ast: SchemaAST.AST): Result.Result<unknown, Schema.SchemaError> => {
  try {
    return Result.succeed(JSON.parse(body))
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return Result.fail(new Schema.SchemaError(new SchemaIssue.Encoding(ast, new SchemaIssue.InvalidValue({ message }))))
  }
}

/** The failure of a body that holds an inexact number: where it is, and that it cannot be held. */
const inexactError = (body: string, inexact: ExactJson.Inexact): Schema.SchemaError => {
  const issue = new SchemaIssue.InvalidValue({ message: ExactJson.inexactMessage(inexact.token) }, inexact.token, parseOptions)
  const path = ExactJson.pathAt(body, inexact.offset)
  return new Schema.SchemaError(path.length === 0 ? issue : new SchemaIssue.Pointer(path, issue))
}

/**
 * The {@link Decoder} of answers of `schema`. Build it once per operation:
 * a parser is compiled for each schema it meets. A body that does not match
 * gives every issue found, so that the error can say how many there are. A
 * body holding a number `JSON.parse` cannot hold exactly (`1e309`,
 * `9007199254740993`, `1e-400`, more digits than a double keeps) is refused
 * before it is decoded, naming where the number is (`data[3].offer_count:
 * 1e309 cannot be held exactly as a JSON number`): no answer is read with a
 * number other than the one the service sent.
 */
export const decoder = <S extends Schema.Decoder<unknown>>(schema: S): Decoder<S["Type"]> => {
  const decode = Schema.decodeUnknownEffect(schema)
  return (body) => {
    const json = parse(body, schema.ast)
    if (Result.isFailure(json)) return Effect.fail(json.failure)
    const inexact = ExactJson.firstInexact(body)
    if (inexact !== undefined) return Effect.fail(inexactError(body, inexact))
    // Decoded first to the first issue, and only a body that does not match again for every issue: most bodies match.
    return Effect.catch(decode(json.success), () => decode(json.success, parseOptions))
  }
}
