/**
 * The shapes of a model list page in zod, for the plain loop that validates
 * with a well-known library: the same checks and the same exact values as
 * the client's schemas (decimal-integer strings to `bigint`, `YYYY-MM-DD` to
 * a checked calendar date, open objects kept as they came).
 */
import { createRequire } from "node:module"
import { z } from "zod"

/** A calendar date: zod's own `date()` refuses impossible days, leap years included. */
const calendarDate = z
  .string()
  .date()
  .transform((input) => ({ year: Number(input.slice(0, 4)), month: Number(input.slice(5, 7)), day: Number(input.slice(8, 10)) }))

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
export const version: string = z.object({ version: z.string() }).parse(createRequire(import.meta.url)("zod/package.json")).version
