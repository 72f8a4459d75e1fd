/**
 * What was wrong with an answer whose body does not match its operation's
 * schema, told in one short line for `UnexpectedResponse.detail`: the first
 * field that is wrong, what was expected there and what came, rather than a
 * dump of the schema.
 */
import { ParseResult } from "effect"
import * as MalformedLine from "../../../rules/src/client/MalformedLine.js"

export { pathOf } from "../../../rules/src/client/MalformedLine.js"

/**
 * What was wrong with a body that `Schema.parseJson(schema)` refused, in
 * one line: `the body is not JSON: …` when the text does not parse, or else
 * the first issue of `ParseResult.ArrayFormatter` as its path and message,
 * e.g. `data[3].id: Expected string, actual 12`, followed by `(and N more)`
 * when there are other issues. Every piece of text is scrubbed with
 * `redact` before it is cut to length.
 */
export const describe = (error: ParseResult.ParseError, redact: (text: string) => string): string => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const first = issues[0]
  return MalformedLine.lineOf(
    first && {
      message: first.message,
      path: first.path,
      // The parser of `parseJson(schema)` composes the text's JSON parse with the schema: a failure on its encoded side is the parse's.
      notJson: error.issue._tag === "Transformation" && error.issue.kind === "Encoded",
      more: issues.length - 1
    },
    ", actual ",
    redact
  )
}
