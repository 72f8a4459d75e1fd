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

/** At most this many characters of what was expected, and of what came. */
const partLength = 80

/** At most this many characters of a message that is not of the form `Expected …, actual …`, or of a path. */
const textLength = 160

/** Cuts text to `length` characters, marking the cut. */
const cut = (text: string, length: number): string => text.length <= length ? text : `${text.slice(0, length - 1)}…`

/** Text on one line: line breaks and other control characters become spaces. */
const oneLine = (text: string): string => text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ")

/** A key that can follow a dot in a path. */
const identifier = /^[A-Za-z_$][\w$]*$/

/** A path written as in JavaScript: `data[3].pricing.input`. */
export const pathOf = (path: ReadonlyArray<PropertyKey>): string =>
  path.map((key, index) =>
    typeof key === "number"
      ? `[${key}]`
      : typeof key === "string" && identifier.test(key)
      ? (index === 0 ? key : `.${key}`)
      : `[${typeof key === "string" ? JSON.stringify(key) : String(key)}]`
  ).join("")

/** Effect 4's default messages, with a missing member said as the Effect 3 edition says it. */
const formatter = SchemaIssue.makeFormatterStandardSchemaV1({
  leafHook: (issue) => {
    const message = SchemaIssue.defaultLeafHook(issue)
    return issue._tag === "MissingKey" && message === "Missing key" ? "is missing" : message
  }
})

/** How Effect 4's messages join what was expected to what came (`Expected number, got "3"`). */
const got = ", got "

/** A message of the formatter, `Expected …, actual …` with each part cut to length, or the message cut to length. */
const statementOf = (message: string): string => {
  const at = message.indexOf(got)
  return message.startsWith("Expected ") && at >= 0
    ? `Expected ${cut(message.slice("Expected ".length, at), partLength)}, actual ${cut(message.slice(at + got.length), partLength)}`
    : cut(message, textLength)
}

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
  if (first === undefined) return "the body does not match the operation's schema"
  const message = statementOf(oneLine(redact(first.message)))
  const notJson = error.issue._tag === "Encoding"
  const keys = (first.path ?? []).map((segment) => typeof segment === "object" ? segment.key : segment)
  const path = cut(oneLine(redact(pathOf(keys))), textLength)
  const what = notJson ? `the body is not JSON: ${message}` : path === "" ? message : `${path}: ${message}`
  return issues.length > 1 ? `${what} (and ${issues.length - 1} more)` : what
}
