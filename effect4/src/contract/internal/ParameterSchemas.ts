/**
 * The schemas of the contract's parameters as Effect 4 spells them: a
 * string within a length's bounds, a closed list, a page size, a boolean
 * filter, an open filter's other values, a struct key with its description,
 * and the one line that tells a refused parameter. `Parameters`
 * (common/src/contract/Parameters.ts) composes them, with the words of
 * `ParameterTexts`.
 *
 * @internal
 */
import { Schema, SchemaIssue, SchemaTransformation } from "effect"
import * as ParameterTexts from "../../../../rules/src/contract/ParameterTexts.js"

/** A string within a length's bounds, each bound with its message. */
export const lengthBetween = (length: ParameterTexts.Length) =>
  Schema.String.check(
    Schema.isMinLength(length.min, { message: ParameterTexts.tooShortMessage(length) }),
    Schema.isMaxLength(length.max, { message: ParameterTexts.tooLongMessage(length) })
  )

/** A closed list whose failure message names the parameter and its values. */
export const closedList = <const L extends ReadonlyArray<string>>(name: string, list: Schema.Literals<L>) =>
  list.annotate({ message: ParameterTexts.closedListMessage(name, list.literals) })

/** A page size from 1 to `max`, from its decimal text, `fallback` when absent; one message for every way it is wrong. */
export const limit = (max: number, fallback: number) => {
  const message = ParameterTexts.limitMessage(max)
  return Schema.String.annotate({ message }).check(Schema.isPattern(ParameterTexts.limitPattern, { message })).pipe(
    Schema.decodeTo(
      Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: max }, { message })),
      SchemaTransformation.numberFromString
    )
  ).annotate({ identifier: `Limit${max}`, default: fallback })
}

/** `true` or `false`, from their text. */
export const booleanFilter = Schema.Literals(["true", "false"]).transform([true, false]).annotate({
  identifier: "BooleanFilter",
  message: ParameterTexts.booleanFilterMessage
})

/**
 * Any string of a filter's length, typed `string & {}` (which every string
 * is): in a union with the known values, plain `string` would absorb their
 * literals, and editors would offer none.
 */
const AnyOtherValue = lengthBetween(ParameterTexts.lengths.filter).pipe(
  Schema.refine((value: string): value is string & {} => typeof value === "string")
)

/**
 * One of the known values, typed as such, or any other string, which is
 * sent as it is (the list is open). Any other string is the first member,
 * so that a value too long is told the filter's rule rather than that it is
 * none of the known ones.
 */
export const openFilter = <const Known extends readonly [string, ...Array<string>]>(known: Known) =>
  Schema.Union([AnyOtherValue, Schema.Literals(known)])

/** An optional key of a query, described (the OpenAPI document reads the description there). */
export const optionalKey = <S extends Schema.Top>(schema: S, description: string) => Schema.optional(schema).annotateKey({ description })

/** A required key, described when a description is given; its absence is told "is missing". */
export const requiredKey = <S extends Schema.Top>(schema: S, description?: string) =>
  schema.annotateKey({ ...(description === undefined ? {} : { description }), messageMissingKey: "is missing" })

const formatIssue = SchemaIssue.makeFormatterStandardSchemaV1()

/** What a refusal of a parameter says: its first issue, as `name: message`. */
export const describeError = (error: Schema.SchemaError): string => {
  const [first] = formatIssue(error.issue).issues
  return ParameterTexts.issueLine(
    first === undefined
      ? undefined
      : { path: (first.path ?? []).map((segment) => String(typeof segment === "object" ? segment.key : segment)), message: first.message }
  )
}
