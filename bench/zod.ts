/**
 * The shapes of a model list page in zod (v3), for the plain loop that
 * validates with a well-known library: the same checks and the same exact
 * values as the client's schemas (decimal-integer strings to `bigint`,
 * `YYYY-MM-DD` to a checked calendar date, open objects kept as they came).
 *
 * zod is loaded with a dynamic `import("zod")`, so the benchmarks run (and
 * report the zod figures as skipped) when it is not installed.
 */

/** What the benchmarks use of zod. */
interface ZodType {
  readonly parse: (input: unknown) => unknown
  readonly nullable: () => ZodType
}

interface ZodString extends ZodType {
  readonly regex: (pattern: RegExp) => ZodString
  readonly transform: (f: (value: string) => unknown) => ZodType
}

interface ZodNumber extends ZodType {
  readonly int: () => ZodNumber
  readonly nonnegative: () => ZodNumber
}

interface Zod {
  readonly object: (shape: Readonly<Record<string, ZodType>>) => ZodType
  readonly string: () => ZodString
  readonly number: () => ZodNumber
  readonly boolean: () => ZodType
  readonly array: (item: ZodType) => ZodType
  readonly custom: (check: (value: unknown) => boolean) => ZodType
}

const isZod = (module: unknown): module is { readonly z: Zod } => {
  if (typeof module !== "object" || module === null || !("z" in module)) return false
  const z = module.z
  return typeof z === "object" && z !== null && "object" in z && typeof z.object === "function" && "custom" in z
}

/** A calendar date, checked as the client checks it. */
const calendarDate = (input: string): { readonly year: number; readonly month: number; readonly day: number } => {
  const year = Number(input.slice(0, 4))
  const month = Number(input.slice(5, 7))
  const day = Number(input.slice(8, 10))
  const probe = new Date(Date.UTC(year, month - 1, day))
  if (probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) throw new Error(`No such calendar day: ${input}`)
  return { year, month, day }
}

/** The envelope of a page of models. */
const modelPage = (z: Zod): ZodType => {
  const nullableString = z.string().nullable()
  const count = z.number().int().nonnegative()
  const model = z.object({
    id: z.string(),
    name: z.string(),
    family_id: nullableString,
    organization_catalog_id: z.string(),
    organization_slug: nullableString,
    released_on: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).transform(calendarDate).nullable(),
    context_tokens: z.string().regex(/^-?\d+$/).transform((digits) => BigInt(digits)).nullable(),
    open_weights: z.boolean().nullable(),
    reasoning: z.boolean().nullable(),
    offer_count: count,
    provider_count: count,
    updated_at: nullableString,
    url: z.string(),
    api_url: z.string(),
    specifications: z.custom((value) => typeof value === "object" && value !== null && !Array.isArray(value))
  })
  return z.object({
    data: z.array(model),
    pagination: z.object({ limit: z.number().int(), has_more: z.boolean(), next_cursor: nullableString }),
    links: z.object({ next: nullableString }),
    meta: z.object({ observed_at: nullableString, stale: z.boolean().nullable() })
  })
}

/** The version of the zod that was loaded. */
const versionOf = async (): Promise<string> => {
  try {
    const { createRequire } = await import("node:module")
    const manifest: unknown = createRequire(import.meta.url)("zod/package.json")
    return typeof manifest === "object" && manifest !== null && "version" in manifest && typeof manifest.version === "string"
      ? manifest.version
      : "unknown"
  } catch {
    return "unknown"
  }
}

/** A parser of model list pages (from JSON text), or why there is none. */
export type ZodParser =
  | { readonly _tag: "Loaded"; readonly version: string; readonly parsePage: (text: string) => unknown }
  | { readonly _tag: "Missing"; readonly reason: string }

export const load = async (): Promise<ZodParser> => {
  // A specifier the compiler does not resolve: zod is an optional dev dependency.
  const specifier = "zod"
  let module: unknown
  try {
    module = await import(specifier)
  } catch {
    return { _tag: "Missing", reason: "skipped: zod not installed" }
  }
  if (!isZod(module)) return { _tag: "Missing", reason: "skipped: the installed zod does not have the v3 API" }
  const page = modelPage(module.z)
  return { _tag: "Loaded", version: await versionOf(), parsePage: (text) => page.parse(JSON.parse(text)) }
}

/** Why the zod figures are missing. */
export const missing = (parser: ZodParser): string => parser._tag === "Missing" ? parser.reason : "measured"
