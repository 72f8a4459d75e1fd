/**
 * The one short line that says what was wrong with an answer whose body
 * does not match its operation's schema (for `UnexpectedResponse.detail`):
 * the first field that is wrong, what was expected there and what came,
 * rather than a dump of the schema; every piece of text scrubbed, put on one
 * line and cut to length.
 *
 * Imports nothing of Effect. Both editions' `Malformed`
 * (src/client/internal/Malformed.ts, effect4/src/client/internal/Malformed.ts)
 * take the first issue from their schema library's formatter and write it
 * with `lineOf`.
 */

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

/**
 * A message of the formatter, `Expected …, actual …` with each part cut to
 * length, or the message cut to length; `joint` is how the formatter joins
 * what was expected to what came (`, actual ` in Effect 3, `, got ` in
 * Effect 4).
 */
const statementOf = (message: string, joint: string): string => {
  const at = message.indexOf(joint)
  return message.startsWith("Expected ") && at >= 0
    ? `Expected ${cut(message.slice("Expected ".length, at), partLength)}, actual ${cut(message.slice(at + joint.length), partLength)}`
    : cut(message, textLength)
}

/** The first issue of a refused body, as the edition's formatter gives it. */
export interface FirstIssue {
  readonly message: string
  readonly path: ReadonlyArray<PropertyKey>
  /** Whether the text did not parse as JSON at all. */
  readonly notJson: boolean
  /** How many other issues there are. */
  readonly more: number
}

/**
 * The line: `the body is not JSON: …` when the text does not parse, or else
 * the first issue as its path and message, e.g. `data[3].id: Expected
 * string, actual 12`, followed by `(and N more)` when there are other
 * issues; `undefined` (no issue) says only that the body does not match.
 * Every piece of text is scrubbed with `redact` before it is cut to length.
 */
export const lineOf = (first: FirstIssue | undefined, joint: string, redact: (text: string) => string): string => {
  if (first === undefined) return "the body does not match the operation's schema"
  const message = statementOf(oneLine(redact(first.message)), joint)
  const path = cut(oneLine(redact(pathOf(first.path))), textLength)
  const what = first.notJson ? `the body is not JSON: ${message}` : path === "" ? message : `${path}: ${message}`
  return first.more > 0 ? `${what} (and ${first.more} more)` : what
}
