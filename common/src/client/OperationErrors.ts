/**
 * The exact error union of each operation, computed from what the contract's
 * table says of it (list or detail, path parameters, unit cost), as types
 * (`ErrorOf<"models">`) and as the set of tags the client lets through at
 * run time (`errorKindOf`); anything else the service answers becomes
 * `UnexpectedResponse`.
 *
 * - `stats` and `usage` (no path, any valid key): no `ScopeMissing`,
 *   `NotFound`, `CursorExpired` or `ResponseTooLarge`; `usage` costs no
 *   units, so no `BudgetExceeded` either.
 * - detail reads: no `CursorExpired`.
 * - list pages: `CursorExpired`; `NotFound` only below a parent resource.
 * - list streams: a page's errors, and `UnsafeLink` for a foreign `links.next`.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { OperationErrors } from "effect-catalog"
 *
 * const explain = (error: OperationErrors.ErrorOf<"model">): string => {
 *   switch (error._tag) {
 *     case "NotFound": return "no such model"
 *     case "ScopeMissing": return `the key needs ${error.requiredScope}`
 *     default: return error.message
 *   }
 * }
 *
 * declare const model: Effect.Effect<{ readonly name: string }, OperationErrors.ErrorOf<"model">>
 * const explained = model.pipe(Effect.mapError(explain)) // Effect<{ name: string }, string>
 * ```
 * @since 0.1.0 (1.x: 1.0.0)
 */
import type * as Operations from "../contract/Operations.js"
import type * as Errors from "./Errors.js"
import * as Tags from "../../../rules/src/client/OperationErrorTags.js"

/** Each error of the client, by its tag. */
type ByTag = { readonly [E in Errors.CatalogError as E["_tag"]]: E }

/**
 * The errors whose tags are `Names`: the rules of the unions are stated once,
 * as tags, in OperationErrorTags; each union here is their errors.
 */
type Tagged<Names extends keyof ByTag> = ByTag[Names]

/**
 * Errors any request can meet, `AdmissionUnavailable` among them: every
 * request waits for admission first.
 *
 * @example
 * ```ts
 * import type { OperationErrors } from "effect-catalog"
 *
 * const advice = (error: OperationErrors.CommonError): string =>
 *   error._tag === "QuotaExhausted" ? `wait until ${error.resetsAt.toISOString()}` : error.message
 * ```
 * @category errors
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type CommonError = Tagged<Tags.CommonTag>

/**
 * Errors of a request that costs units (all but `usage`).
 *
 * @example
 * ```ts
 * import type { OperationErrors } from "effect-catalog"
 *
 * const advice = (error: OperationErrors.ChargedError): string =>
 *   error._tag === "BudgetExceeded" ? `${error.spent} of ${error.budget} units spent today` : error.message
 * ```
 * @category errors
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type ChargedError = Tagged<Tags.ChargedTag>

/**
 * Errors of a request that names a resource or takes parameters.
 *
 * @example
 * ```ts
 * import type { OperationErrors } from "effect-catalog"
 *
 * const advice = (error: OperationErrors.ParameterizedError): string =>
 *   error._tag === "ScopeMissing" ? `the key needs ${error.requiredScope}` : error.message
 * ```
 * @category errors
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type ParameterizedError = Tagged<Tags.ParameterizedTag>

/**
 * The errors of a detail read.
 *
 * @example
 * ```ts
 * import type { OperationErrors, Operations } from "effect-catalog"
 *
 * type OfferError = OperationErrors.DetailError<typeof Operations.offer.path> // with NotFound
 * type StatsError = OperationErrors.DetailError<"/stats/"> // a path without parameters: no NotFound
 * ```
 * @category errors
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type DetailError<Path extends string, Units extends number = 1> = Tagged<Tags.DetailTag<Path, Units>>

/**
 * The errors of one page of a list.
 *
 * @example
 * ```ts
 * import type { OperationErrors, Operations } from "effect-catalog"
 *
 * const advice = (error: OperationErrors.PageError<typeof Operations.familyModels.path>): string =>
 *   error._tag === "NotFound" ? "no such family" : error._tag === "CursorExpired" ? "start again" : error.message
 * ```
 * @category errors
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type PageError<Path extends string> = Tagged<Tags.PageTag<Path>>

/**
 * The errors of a whole list, followed page by page.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import type { OperationErrors } from "effect-catalog"
 *
 * declare const models: Stream.Stream<{ readonly name: string }, OperationErrors.ListError<"/models/">>
 * const names: Stream.Stream<string, OperationErrors.ListError<"/models/">> = models.pipe(Stream.map((model) => model.name))
 * ```
 * @category errors
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type ListError<Path extends string> = Tagged<Tags.ListTag<Path>>

/**
 * One operation's error union, as a value: the tags its answers may produce
 * and a guard that narrows an answer's error to the union.
 *
 * @example
 * ```ts
 * import { Errors, OperationErrors, Operations } from "effect-catalog"
 *
 * const kind = OperationErrors.errorKindOf(Operations.usage)
 * kind.is(new Errors.NotFound({ requestId: null, code: null, detail: null })) // false
 * ```
 * @category models
 * @since 0.1.0 (1.x: 1.0.0)
 */
export interface ErrorKind<E> {
  /** The tags its answers may produce. */
  readonly tags: ReadonlySet<Errors.ResponseError["_tag"]>
  /** Whether an answer's error is one of them. */
  readonly is: (error: Errors.ResponseError) => error is Extract<E, Errors.ResponseError>
  /** Whether any error of the client is one of the union: an answer's, `QuotaExhausted`, `AdmissionUnavailable`, and `BudgetExceeded` where it costs units. */
  readonly allows: (error: Errors.CatalogError) => error is Extract<E, Errors.CatalogError>
}

/**
 * The errors of one answer of an operation: a detail read's, or one page's.
 *
 * @example
 * ```ts
 * import type { OperationErrors, Operations } from "effect-catalog"
 *
 * type OfferAnswer = OperationErrors.AnswerError<typeof Operations.offer> // with NotFound
 * ```
 * @category errors
 * @since 0.2.0 (1.x: 1.0.0)
 */
export type AnswerError<Op extends Omit<Tags.Described, "pathParameters">> = Tagged<Tags.AnswerTag<Op>>

/**
 * The tags an operation's answers may produce, from the table: those any
 * request can meet; `ScopeMissing` and `ResponseTooLarge` for a request with
 * parameters (every list, every detail below a path); `CursorExpired` for a
 * list; `NotFound` below a path.
 *
 * @example
 * ```ts
 * import { OperationErrors, Operations } from "effect-catalog"
 *
 * OperationErrors.errorKindOf(Operations.models).tags.has("CursorExpired") // true
 * OperationErrors.errorKindOf(Operations.models).tags.has("NotFound") // false
 * OperationErrors.errorKindOf(Operations.stats).tags.has("ScopeMissing") // false
 * ```
 * @category errors
 * @since 0.2.0 (1.x: 1.0.0)
 */
export const errorKindOf = <Op extends Tags.Described>(operation: Op): ErrorKind<AnswerError<Op>> => {
  const { answered, allowed }: {
    readonly answered: ReadonlySet<Errors.ResponseError["_tag"]>
    readonly allowed: ReadonlySet<Errors.CatalogError["_tag"]>
  } = Tags.tagsOf(operation)
  return {
    tags: answered,
    is: (error): error is Extract<AnswerError<Op>, Errors.ResponseError> => answered.has(error._tag),
    allows: (error): error is Extract<AnswerError<Op>, Errors.CatalogError> => allowed.has(error._tag)
  }
}

type OperationOf<Id extends Operations.OperationId> = Extract<Operations.AnyOperation, { readonly id: Id }>

/**
 * The error union of the client's method `Id`: a detail read's, or a whole
 * list's (its pages' errors and `UnsafeLink`).
 *
 * @example
 * ```ts
 * import type { OperationErrors } from "effect-catalog"
 *
 * type SearchError = OperationErrors.ErrorOf<"search"> // no NotFound: search has no parent resource
 * ```
 * @category errors
 * @since 0.2.0 (1.x: 1.0.0)
 */
export type ErrorOf<Id extends Operations.OperationId> = OperationOf<Id>["kind"] extends "list" ? ListError<OperationOf<Id>["path"]>
  : DetailError<OperationOf<Id>["path"], OperationOf<Id>["units"]>

/**
 * The error union of the client's method `${Id}Page`: one page of a list.
 *
 * @example
 * ```ts
 * import type { OperationErrors } from "effect-catalog"
 *
 * type NextSkills = OperationErrors.PageErrorOf<"topicSkills"> // with NotFound: the topic may not exist
 * ```
 * @category errors
 * @since 0.2.0 (1.x: 1.0.0)
 */
export type PageErrorOf<Id extends Operations.ListId> = PageError<OperationOf<Id>["path"]>
