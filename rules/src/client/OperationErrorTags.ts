/**
 * Which errors each operation can give, by tag: the rules of the exact
 * error unions, stated once, as lists of tags (for the run-time sets) and as
 * tag unions computed from what the contract's table says of an operation
 * (list or detail, path parameters, unit cost).
 *
 * Imports nothing of Effect. `OperationErrors`
 * (common/src/client/OperationErrors.ts, compiled against either Effect)
 * reads its unions and `errorKindOf` from it, mapping a tag to each
 * edition's error class; each edition's compiler checks that every tag here
 * is one of its own.
 */
import type { PathParameterName } from "../contract/OperationTable.js"

/**
 * The rules, each with the tags it adds, that come from the service's
 * answers.
 */
const answered = {
  /** Any request. */
  any: ["InvalidRequest", "InvalidApiKey", "RateLimited", "ServiceUnavailable", "TransportError", "UnexpectedResponse"],
  /** A request with parameters: every list, every detail below a path. */
  parameterized: ["ScopeMissing", "ResponseTooLarge"],
  /** A page of a list. */
  paged: ["CursorExpired"],
  /** A request below a path. */
  underPath: ["NotFound"]
} as const

/** The rules, each with the tags it adds, that come from the client itself. */
const own = {
  /** Any request: every request waits for admission first, and the account's quota may be used up. */
  any: ["QuotaExhausted", "AdmissionUnavailable"],
  /** A request that costs units (all but `usage`). */
  charged: ["BudgetExceeded"],
  /** A whole list, followed by its `links.next`. */
  followed: ["UnsafeLink"]
} as const

/** The tags of a rule. */
type Of<Tags extends ReadonlyArray<string>> = Tags[number]

/** The tags any request can meet, `AdmissionUnavailable` among them. */
export type CommonTag = Of<typeof answered.any> | Of<typeof own.any>

/** The tags of a request that costs units (all but `usage`). */
export type ChargedTag = CommonTag | Of<typeof own.charged>

/** The tags of a request that names a resource or takes parameters. */
export type ParameterizedTag = ChargedTag | Of<typeof answered.parameterized>

type HasPath<Path extends string> = [PathParameterName<Path>] extends [never] ? false : true

/** The tags of a detail read: `NotFound` below a path; no unit, no `BudgetExceeded`. */
export type DetailTag<Path extends string, Units extends number> = HasPath<Path> extends true
  ? ParameterizedTag | Of<typeof answered.underPath>
  : Units extends 0 ? CommonTag
  : ChargedTag

/** The tags of one page of a list: `CursorExpired`, and `NotFound` below a path. */
export type PageTag<Path extends string> =
  | ParameterizedTag
  | Of<typeof answered.paged>
  | (HasPath<Path> extends true ? Of<typeof answered.underPath> : never)

/** The tags of a whole list, followed page by page: a page's, and `UnsafeLink`. */
export type ListTag<Path extends string> = PageTag<Path> | Of<typeof own.followed>

/** What the table says of an operation that decides its errors. */
export interface Described {
  readonly kind: "list" | "detail"
  readonly path: string
  readonly units: number
  readonly pathParameters: ReadonlyArray<string>
}

/** The tags of one answer of an operation: a detail read's, or one page's. */
export type AnswerTag<Op extends Omit<Described, "pathParameters">> = Op["kind"] extends "list" ? PageTag<Op["path"]>
  : DetailTag<Op["path"], Op["units"]>

/** The tags that come from the service's answers. */
export type AnsweredTag = { readonly [Rule in keyof typeof answered]: Of<(typeof answered)[Rule]> }[keyof typeof answered]

/** Every tag of the rules. */
export type Tag = AnsweredTag | { readonly [Rule in keyof typeof own]: Of<(typeof own)[Rule]> }[keyof typeof own]

/**
 * The tags an operation's answers may produce (`answered`), and those its
 * request may fail with at all (`allowed`: those and the client's own,
 * `BudgetExceeded` where it costs units), from the table: those any request
 * can meet; `ScopeMissing` and `ResponseTooLarge` for a request with
 * parameters (every list, every detail below a path); `CursorExpired` for a
 * list; `NotFound` below a path.
 */
export const tagsOf = (
  operation: Described
): { readonly answered: ReadonlySet<AnsweredTag>; readonly allowed: ReadonlySet<Tag> } => {
  const underPath = operation.pathParameters.length > 0
  const parameterized = operation.kind === "list" || underPath
  const answers = new Set<AnsweredTag>([
    ...answered.any,
    ...(parameterized ? answered.parameterized : []),
    ...(operation.kind === "list" ? answered.paged : []),
    ...(underPath ? answered.underPath : [])
  ])
  const allowed = new Set<Tag>([...answers, ...own.any, ...(operation.units > 0 ? own.charged : [])])
  return { answered: answers, allowed }
}
