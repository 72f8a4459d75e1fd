/**
 * Effect 3's `Either` under the names of Effect 4's `Result`, for the
 * modules both editions share (`common/src`), which take it as
 * `Result` from `#edition/internal/Edition.js`: `succeed` is `Either.right`,
 * `fail` is `Either.left`, `mapError` is `Either.mapLeft`, and `match`
 * takes `onSuccess` and `onFailure`.
 *
 * @internal
 */
import { Either } from "effect"

/** A success or a failure (`Either.Either<A, E>`). */
export type Result<A, E = never> = Either.Either<A, E>

/** A success. */
export const succeed: <A>(value: A) => Result<A> = Either.right

/** A failure. */
export const fail: <E>(error: E) => Result<never, E> = Either.left

/** The success changed by `f`. */
export const map: <A, E, B>(self: Result<A, E>, f: (value: A) => B) => Result<B, E> = (self, f) => Either.map(self, f)

/** The failure changed by `f`. */
export const mapError: <A, E, E2>(self: Result<A, E>, f: (error: E) => E2) => Result<A, E2> = (self, f) => Either.mapLeft(self, f)

/** The success followed by another result. */
export const flatMap: <A, E, B, E2>(self: Result<A, E>, f: (value: A) => Result<B, E2>) => Result<B, E | E2> = (self, f) =>
  Either.flatMap(self, f)

/** The success or the failure, each given to its case. */
export const match = <A, E, B, C = B>(
  self: Result<A, E>,
  cases: { readonly onSuccess: (value: A) => B; readonly onFailure: (error: E) => C }
): B | C => Either.match(self, { onRight: cases.onSuccess, onLeft: cases.onFailure })

/** The success, or `undefined`. */
export const getOrUndefined: <A, E>(self: Result<A, E>) => A | undefined = Either.getOrUndefined
