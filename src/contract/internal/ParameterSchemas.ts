/**
 * The schemas of the contract's parameters as Effect 3 spells them: a
 * string within a length's bounds, a closed list, a page size, a boolean
 * filter, an open filter's other values, a struct key with its description,
 * and the one line that tells a refused parameter. `Parameters`
 * (common/src/contract/Parameters.ts) composes them, with the words of
 * `ParameterTexts`.
 *
 * @internal
 */
import { ParseResult, Schema } from "effect"
import * as ParameterTexts from "../../../rules/src/contract/ParameterTexts.js"

/** A length's bounds, each with its message, on a schema of strings. */
const withinLength = (length: ParameterTexts.Length) => <A extends string, I, R>(self: Schema.Schema<A, I, R>) =>
  self.pipe(
    Schema.minLength(length.min, { message: () => ParameterTexts.tooShortMessage(length) }),
    Schema.maxLength(length.max, { message: () => ParameterTexts.tooLongMessage(length) })
  )

/** A string within a length's bounds, each bound with its message. */
export const lengthBetween = (length: ParameterTexts.Length) => Schema.String.pipe(withinLength(length))

/** A closed list whose failure message names the parameter and its values. */
export const closedList = <const L extends readonly [string, ...Array<string>]>(name: string, list: Schema.Literal<L>) =>
  list.annotations({ message: () => ({ message: ParameterTexts.closedListMessage(name, list.literals), override: true }) })

/** A page size from 1 to `max`, from its decimal text, `fallback` when absent; one message for every way it is wrong. */
export const limit = (max: number, fallback: number) =>
  Schema.compose(Schema.String.pipe(Schema.pattern(ParameterTexts.limitPattern)), Schema.NumberFromString).pipe(
    Schema.int(),
    Schema.between(1, max)
  ).annotations({
    identifier: `Limit${max}`,
    default: fallback,
    message: () => ({ message: ParameterTexts.limitMessage(max), override: true })
  })

/** `true` or `false`, from their text. */
export const booleanFilter = Schema.transform(
  Schema.Literal("true", "false"),
  Schema.Boolean,
  { strict: true, decode: (wire) => wire === "true", encode: (value) => (value ? "true" : "false") }
).annotations({
  identifier: "BooleanFilter",
  message: () => ({ message: ParameterTexts.booleanFilterMessage, override: true })
})

/**
 * Any string, typed `string & {}`: in a union with the known values, plain
 * `string` would absorb their literals, and editors would offer none.
 */
const AnyString = Schema.declare((input: unknown): input is string & {} => typeof input === "string", {
  description: "a string",
  jsonSchema: { type: "string" }
})

/**
 * One of the known values, typed as such, or any other string of a filter's
 * length, which is sent as it is (the list is open). Any other string is the
 * first member, so that a value too long is told the filter's rule rather
 * than that it is none of the known ones.
 */
export const openFilter = <const Known extends readonly [string, ...Array<string>]>(known: Known) =>
  Schema.Union(AnyString.pipe(withinLength(ParameterTexts.lengths.filter)), Schema.Literal(...known))

/** An optional key of a query, described (the OpenAPI document reads the description there). */
export const optionalKey = <S extends Schema.Schema.All>(schema: S, description: string) => Schema.optional(schema).annotations({ description })

/** A required key, described when a description is given. */
export const requiredKey = <S extends Schema.Schema.All>(schema: S, description?: string) =>
  Schema.propertySignature(schema).annotations(description === undefined ? {} : { description })

/** What a refusal of a parameter says: its first issue, as `name: message`. */
export const describeError = (error: ParseResult.ParseError): string => {
  const [first] = ParseResult.ArrayFormatter.formatErrorSync(error)
  return ParameterTexts.issueLine(first === undefined ? undefined : { path: first.path.map(String), message: first.message })
}
