/**
 * The shapes of a model list page in zod, for the plain loop that validates
 * with a well-known library: the same checks and the same exact values as
 * the client's schemas (decimal-integer strings to `bigint`, `YYYY-MM-DD` to
 * a checked calendar date, open objects kept as they came).
 */
import { createRequire } from "node:module"
import { z } from "zod"

/** Days in `month` (1–12) of `year`. */
const daysInMonth = (year: number, month: number): number =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31

/** A calendar date, checked as the client checks it. */
const calendarDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).transform((input, context) => {
  const [year, month, day] = [Number(input.slice(0, 4)), Number(input.slice(5, 7)), Number(input.slice(8, 10))]
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    context.addIssue({ code: z.ZodIssueCode.custom, message: `No such calendar day: ${input}` })
    return z.NEVER
  }
  return { year, month, day }
})

const nullableString = z.string().nullable()
const count = z.number().int().nonnegative()

const Model = z.object({
  id: z.string(),
  name: z.string(),
  family_id: nullableString,
  organization_catalog_id: z.string(),
  organization_slug: nullableString,
  released_on: calendarDate.nullable(),
  context_tokens: z.string().regex(/^-?\d+$/).transform((digits) => BigInt(digits)).nullable(),
  open_weights: z.boolean().nullable(),
  reasoning: z.boolean().nullable(),
  offer_count: count,
  provider_count: count,
  updated_at: nullableString,
  url: z.string(),
  api_url: z.string(),
  specifications: z.custom<{ readonly [key: string]: unknown }>((value) => typeof value === "object" && value !== null && !Array.isArray(value))
})

const ModelPage = z.object({
  data: z.array(Model),
  pagination: z.object({ limit: z.number().int(), has_more: z.boolean(), next_cursor: nullableString }),
  links: z.object({ next: nullableString }),
  meta: z.object({ observed_at: nullableString, stale: z.boolean().nullable() })
})

/** Parses the JSON text of a page of models and validates it. */
export const parsePage = (text: string): z.infer<typeof ModelPage> => ModelPage.parse(JSON.parse(text))

/** The version of zod in use. */
export const version: string = z.string().parse(z.object({ version: z.string() }).parse(createRequire(import.meta.url)("zod/package.json")).version)
