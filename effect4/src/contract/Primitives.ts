/**
 * Wire primitives of the Catalog contract: exact integers, prices, calendar
 * dates, timestamps and open value lists.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Primitives } from "effect-catalog"
 *
 * Schema.decodeSync(Primitives.DecimalInteger)("9007199254740993") // 9007199254740993n
 * Primitives.plainDecimal(Schema.decodeSync(Primitives.Price)("0.15")) // "0.15"
 * String(Schema.decodeSync(Primitives.CalendarDateFromString)("2026-11-21")) // "2026-11-21"
 * ```
 * @since 1.0.0
 */
import { BigDecimal, Schema, SchemaGetter, SchemaTransformation } from "effect"
import { plainDigits } from "../../../rules/src/contract/PlainDecimal.js"

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
 * Schema.encodeSync(Primitives.DecimalInteger)(9007199254740993n) // "9007199254740993"
 * ```
 * @category schemas
 * @since 1.0.0
 */
export const DecimalInteger = Schema.BigIntFromString.annotate({
  identifier: "DecimalInteger",
  description: "Decimal-integer string decoded to bigint"
})

/**
 * A decimal in plain notation (never scientific), without trailing zeros:
 * the wire form of a {@link Price}.
 *
 * @example
 * ```ts
 * import { BigDecimal } from "effect"
 * import { Primitives } from "effect-catalog"
 *
 * Primitives.plainDecimal(BigDecimal.make(1234n, 9)) // "0.000001234"
 * BigDecimal.format(BigDecimal.make(1234n, 18)) // "1.234e-15", where plainDecimal gives "0.000000000000001234"
 * ```
 * @category utils
 * @since 1.0.0
 */
export const plainDecimal = (value: BigDecimal.BigDecimal): string => {
  const normal = BigDecimal.normalize(value)
  return plainDigits(normal.value, normal.scale)
}

/**
 * A price in USD per million tokens: a decimal string on the wire, a
 * `BigDecimal` in memory, so that no digit is lost. Only plain decimals are
 * accepted (no exponent, no empty string), and encoding gives them back in
 * plain notation.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Primitives } from "effect-catalog"
 *
 * const price = Schema.decodeSync(Primitives.Price)("0.000001234567")
 * Primitives.plainDecimal(price) // "0.000001234567"
 * Schema.encodeSync(Primitives.Price)(price) // "0.000001234567"
 * ```
 * @category schemas
 * @since 1.0.0
 */
export const Price = Schema.String.check(Schema.isPattern(/^-?\d+(\.\d+)?$/u, { expected: "a decimal string" })).pipe(
  Schema.decodeTo(Schema.BigDecimal, {
    decode: SchemaTransformation.bigDecimalFromString.decode,
    // `BigDecimal.format` turns to scientific notation from 16 decimal places on.
    encode: SchemaGetter.transform(plainDecimal)
  })
).annotate({ identifier: "Price", description: "Decimal string in USD per million tokens" })

const pad = (n: number, width: number): string => String(n).padStart(width, "0")

/** A day as `YYYY-MM-DD`. */
const formatDay = (date: { readonly year: number; readonly month: number; readonly day: number }): string =>
  `${pad(date.year, 4)}-${pad(date.month, 2)}-${pad(date.day, 2)}`

/** Days in `month` (1–12) of `year` in the proleptic Gregorian calendar. */
const daysInMonth = (year: number, month: number): number =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31

const intBetween = (minimum: number, maximum: number) => Schema.Int.check(Schema.isBetween({ minimum, maximum }))

/**
 * A calendar date (`YYYY-MM-DD`, a UTC day) without time or zone. Its
 * constructor refuses impossible days such as February 30.
 *
 * @example
 * ```ts
 * import { Primitives } from "effect-catalog"
 *
 * const date = new Primitives.CalendarDate({ year: 2026, month: 11, day: 21 })
 * String(date) // "2026-11-21"
 * date.toDate().toISOString() // "2026-11-21T00:00:00.000Z"
 * ```
 * @category schemas
 * @since 1.0.0
 */
export class CalendarDate extends Schema.Class<CalendarDate>("CalendarDate")(
  Schema.Struct({ year: intBetween(0, 9999), month: intBetween(1, 12), day: intBetween(1, 31) }).check(
    Schema.makeFilter((date) => date.day <= daysInMonth(date.year, date.month) || `No such calendar day: ${formatDay(date)}`)
  )
) {
  /** The date as `YYYY-MM-DD`. */
  override toString(): string {
    return formatDay(this)
  }

  /** Midnight UTC of this day. */
  toDate(): Date {
    return new Date(Date.UTC(this.year, this.month - 1, this.day))
  }
}

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
 * Schema.decodeUnknownExit(Primitives.CalendarDateFromString)("2026-02-30") // a failure: no such day
 * ```
 * @category schemas
 * @since 1.0.0
 */
export const CalendarDateFromString = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/u, { expected: "a date as YYYY-MM-DD" })
).pipe(
  Schema.decodeTo(
    CalendarDate,
    // The pattern has checked the digits; the class checks the ranges and the day of the month.
    SchemaTransformation.transform({
      decode: (text) => ({ year: Number(text.slice(0, 4)), month: Number(text.slice(5, 7)), day: Number(text.slice(8, 10)) }),
      encode: formatDay
    })
  )
).annotate({ identifier: "CalendarDateFromString" })

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
 * @since 1.0.0
 */
export const Timestamp = Schema.String.annotate({ identifier: "Timestamp" })

/**
 * A value the service sent that is not in the known list of an open value
 * list (see {@link OpenLiteral}).
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Primitives } from "effect-catalog"
 *
 * const Status = Primitives.OpenLiteral(["active", "deprecated"])
 * const label = (status: typeof Status.Type): string =>
 *   status === "active" || status === "deprecated" ? status : `unknown (${status})`
 * label(Schema.decodeSync(Status)("retired")) // "unknown (retired)"
 * ```
 * @category schemas
 * @since 1.0.0
 */
export const UnknownValue = Schema.String.pipe(Schema.brand("UnknownValue"))

/**
 * An open value list: the known values are typed as literals, any other string
 * is accepted as an {@link UnknownValue}. Like `Schema.Literals`, it takes the
 * known values as one array.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Primitives } from "effect-catalog"
 *
 * const Status = Primitives.OpenLiteral(["active", "deprecated"])
 * Schema.decodeSync(Status)("retired") // accepted, typed as UnknownValue
 * ```
 * @category schemas
 * @since 1.0.0
 */
export const OpenLiteral = <const Known extends readonly [string, ...Array<string>]>(known: Known) =>
  Schema.Union([Schema.Literals(known), UnknownValue])

/** The decoded type of {@link OpenObject}: a JSON object's members, untyped. */
type OpenObjectValue = { readonly [key: string]: unknown }

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
 * @since 1.0.0
 */
export const OpenObject = Schema.declare(
  (input: unknown): input is OpenObjectValue => typeof input === "object" && input !== null && !Array.isArray(input),
  {
    identifier: "OpenObject",
    description: "A JSON object, kept as it came (never copied member by member, so a `__proto__` member stays data)",
    // Its JSON form (and JSON Schema) is an object with any members.
    toCodecJson: () => Schema.link<OpenObjectValue>()(Schema.Record(Schema.String, Schema.Unknown), SchemaTransformation.passthrough())
  }
)
