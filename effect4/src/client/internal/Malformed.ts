/**
 * What was wrong with an answer whose body does not match its operation's
 * schema, told in one short line for `UnexpectedResponse.detail`: the first
 * field that is wrong, what was expected there and what came, rather than a
 * dump of the schema. The line reads as the Effect 3 edition's does
 * (`data[3].id: Expected string, actual 12`, `… is missing`), from
 * Effect 4's `SchemaIssue` tree.
 *
 * @internal
 */
import { type Schema, SchemaIssue } from "effect"
import * as MalformedLine from "../../../../rules/src/client/MalformedLine.js"

/** Effect 4's default messages, with a missing member said as the Effect 3 edition says it. */
const formatter = SchemaIssue.makeFormatterStandardSchemaV1({
  leafHook: (issue) => {
    const message = SchemaIssue.defaultLeafHook(issue)
    return issue._tag === "MissingKey" && message === "Missing key" ? "is missing" : message
  }
})

/** The path of the first field a decoder refused (`pricing.input`), empty when the value as a whole was refused. */
export const fieldOf = (error: Schema.SchemaError): string =>
  MalformedLine.pathOf((formatter(error.issue).issues[0]?.path ?? []).map((segment) => typeof segment === "object" ? segment.key : segment))

/**
 * What was wrong with a body that a decoder refused, in one line: `the body
 * is not JSON: …` when the text does not parse (an `Encoding` issue at the
 * top, as `Schema.fromJsonString` and `Decoder` give), or else the first
 * issue as its path and message, e.g. `data[3].id: Expected string, actual
 * 12`, followed by `(and N more)` when there are other issues. Every piece
 * of text is scrubbed with `redact` before it is cut to length.
 */
export const describe = (error: Schema.SchemaError, redact: (text: string) => string): string => {
  const issues = formatter(error.issue).issues
  const first = issues[0]
  return MalformedLine.lineOf(
    first && {
      message: first.message,
      path: (first.path ?? []).map((segment) => typeof segment === "object" ? segment.key : segment),
      notJson: error.issue._tag === "Encoding",
      more: issues.length - 1
    },
    // How Effect 4's messages join what was expected to what came (`Expected number, got "3"`).
    ", got ",
    redact
  )
}
