/**
 * Wire primitives of the Catalog contract: exact integers, prices, calendar
 * dates, timestamps and open value lists.
 *
 * @since 0.1.0
 */
import { BigDecimal, Option, ParseResult, Schema } from "effect"
import { plainDigits } from "../../rules/src/contract/PlainDecimal.js"

/**
 * A decimal-integer string on the wire (token and installation counts), a
 * `bigint` in memory, so that values above 2^53 stay exact.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Primitives } from "effect-catalog"
 *
 * Schema.decodeSync(Primitives.DecimalInteger)("9007199254740993") // 9007199254740993n
 * ```
 * @category schemas
 * @since 0.1.0
 */
export const DecimalInteger = Schema.transform(
  Schema.String.pipe(Schema.pattern(/^-?\d+$/, { identifier: "DecimalIntegerString" })),
  Schema.BigIntFromSelf,
  // The pattern has checked the digits: `BigInt` cannot throw here.
  { strict: true, decode: (digits) => BigInt(digits), encode: (value) => value.toString() }
).annotations({ identifier: "DecimalInteger", description: "Decimal-integer string decoded to bigint" })

/**
 * A price in USD per million tokens: a decimal string on the wire, a
 * `BigDecimal` in memory, so that no digit is lost.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Primitives } from "effect-catalog"
 *
 * const price = Schema.decodeSync(Primitives.Price)("0.000001234567")
 * Primitives.plainDecimal(price) // "0.000001234567"
 * ```
 * @category schemas
 * @since 0.1.0
 */
export const Price = Schema.transformOrFail(
  Schema.String.pipe(Schema.pattern(/^-?\d+(\.\d+)?$/, { identifier: "DecimalString" })),
  Schema.BigDecimalFromSelf,
  {
    strict: true,
    decode: (input, _, ast) =>
      Option.match(BigDecimal.fromString(input), {
        onNone: () => ParseResult.fail(new ParseResult.Type(ast, input, "Expected a decimal string")),
        onSome: ParseResult.succeed
      }),
    encode: (value) => ParseResult.succeed(plainDecimal(value))
  }
).annotations({ identifier: "Price", description: "Decimal string in USD per million tokens" })

/**
 * A decimal in plain notation (never scientific), without trailing zeros.
 *
 * @example
 * ```ts
 * import { BigDecimal } from "effect"
 * import { Primitives } from "effect-catalog"
 *
 * Primitives.plainDecimal(BigDecimal.make(1234n, 9)) // "0.000001234"
 * ```
 * @category utils
 * @since 0.1.0
 */
export const plainDecimal = (value: BigDecimal.BigDecimal): string => {
  const normal = BigDecimal.normalize(value)
  return plainDigits(normal.value, normal.scale)
}

/**
 * A calendar date (`YYYY-MM-DD`, a UTC day) without time or zone.
 *
 * @example
 * ```ts
 * import { Primitives } from "effect-catalog"
 *
 * const date = new Primitives.CalendarDate({ year: 2026, month: 11, day: 21 })
 * String(date) // "2026-11-21"
 * ```
 * @category schemas
 * @since 0.1.0
 */
export class CalendarDate extends Schema.Class<CalendarDate>("CalendarDate")({
  year: Schema.Int.pipe(Schema.between(0, 9999)),
  month: Schema.Int.pipe(Schema.between(1, 12)),
  day: Schema.Int.pipe(Schema.between(1, 31))
}) {
  /** The date as `YYYY-MM-DD`. */
  override toString(): string {
    const pad = (n: number, width: number) => String(n).padStart(width, "0")
    return `${pad(this.year, 4)}-${pad(this.month, 2)}-${pad(this.day, 2)}`
  }

  /** Midnight UTC of this day. */
  toDate(): Date {
    return new Date(Date.UTC(this.year, this.month - 1, this.day))
  }
}

const calendarDatePattern = /^(\d{4})-(\d{2})-(\d{2})$/

/** Days in `month` (1–12) of `year` in the proleptic Gregorian calendar. */
const daysInMonth = (year: number, month: number): number =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31

/**
 * `YYYY-MM-DD` on the wire, a {@link CalendarDate} in memory. Impossible days
 * such as `2026-02-30` are refused.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Primitives } from "effect-catalog"
 *
 * Schema.decodeSync(Primitives.CalendarDateFromString)("2026-11-21").month // 11
 * ```
 * @category schemas
 * @since 0.1.0
 */
export const CalendarDateFromString = Schema.transformOrFail(
  Schema.String,
  Schema.typeSchema(CalendarDate),
  {
    strict: true,
    decode: (input, _, ast) => {
      const match = calendarDatePattern.exec(input)
      if (match === null) {
        return ParseResult.fail(new ParseResult.Type(ast, input, "Expected a date as YYYY-MM-DD"))
      }
      const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
      if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
        return ParseResult.fail(new ParseResult.Type(ast, input, `No such calendar day: ${input}`))
      }
      // Every field is checked: the constructor need not check them again.
      return ParseResult.succeed(new CalendarDate({ year, month, day }, true))
    },
    encode: (date) => ParseResult.succeed(date.toString())
  }
).annotations({ identifier: "CalendarDateFromString" })

/**
 * A timestamp of an `*_at` field. The contract does not fix its format, so it
 * stays the string the service sent.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Primitives } from "effect-catalog"
 *
 * Schema.decodeSync(Primitives.Timestamp)("2026-11-21T09:30:00Z") // "2026-11-21T09:30:00Z", as sent
 * ```
 * @category schemas
 * @since 0.1.0
 */
export const Timestamp = Schema.String.annotations({ identifier: "Timestamp" })

/**
 * A value the service sent that is not in the known list of an open value
 * list (see {@link OpenLiteral}).
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Primitives } from "effect-catalog"
 *
 * const Status = Primitives.OpenLiteral("active", "deprecated")
 * const label = (status: typeof Status.Type): string =>
 *   status === "active" || status === "deprecated" ? status : `unknown (${status})`
 * label(Schema.decodeSync(Status)("retired")) // "unknown (retired)"
 * ```
 * @category schemas
 * @since 0.1.0
 */
export const UnknownValue = Schema.String.pipe(Schema.brand("UnknownValue"))

/**
 * An open value list: the known values are typed as literals, any other string
 * is accepted as an {@link UnknownValue}.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Primitives } from "effect-catalog"
 *
 * const Status = Primitives.OpenLiteral("active", "deprecated")
 * Schema.decodeSync(Status)("retired") // accepted, typed as UnknownValue
 * ```
 * @category schemas
 * @since 0.1.0
 */
export const OpenLiteral = <const Known extends readonly [string, ...Array<string>]>(...known: Known) =>
  Schema.Union(Schema.Literal(...known), UnknownValue)

/**
 * A JSON object whose inner structure the contract leaves open, returned as
 * inert data exactly as it came.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Primitives } from "effect-catalog"
 *
 * Schema.decodeUnknownSync(Primitives.OpenObject)(JSON.parse('{"transport":"stdio"}')) // { transport: "stdio" }
 * ```
 * @category schemas
 * @since 0.1.0
 */
export const OpenObject = Schema.declare(
  (input: unknown): input is { readonly [key: string]: unknown } =>
    typeof input === "object" && input !== null && !Array.isArray(input),
  {
    identifier: "OpenObject",
    description: "A JSON object, kept as it came (never copied member by member, so a `__proto__` member stays data)",
    jsonSchema: { type: "object" }
  }
)
