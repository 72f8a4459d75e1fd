/**
 * The Effect this edition is written in, for the modules both editions
 * share (`common/src`), which are one text compiled against either major of
 * Effect: they import Effect from `#edition/internal/Edition.js`, this module
 * in the Effect 4 edition and `src/internal/Edition.ts` in the Effect 3
 * edition. It gives Effect's namespaces as they are, and under one name each
 * what the two majors spell differently.
 *
 * @internal
 */
import { Array as Arr, Cause, type Effect, type Option, Schema, type Scope, Stream } from "effect"

export * from "effect"

/** A stream of what a scoped effect gives, its scope closed when the stream ends (`Stream.unwrapScoped` in Effect 3). */
export const unwrapScoped: <A, E2, R2, E, R>(
  effect: Effect.Effect<Stream.Stream<A, E2, R2>, E, R>
) => Stream.Stream<A, E | E2, Exclude<R, Scope.Scope> | R2> = Stream.unwrap

/** The first failure of a cause, if it has one (`Cause.failureOption` in Effect 3). */
export const firstFailure: <E>(cause: Cause.Cause<E>) => Option.Option<E> = Cause.findErrorOption

/** `Stream.mapAccumEffect` whose step gives any number of elements, emitted in order, from a state given at once. */
export const mapAccumConcat = <S, A, B, E2, R2>(
  initial: S,
  step: (state: S, element: A) => Effect.Effect<readonly [S, ReadonlyArray<B>], E2, R2>
) =>
<E, R>(self: Stream.Stream<A, E, R>): Stream.Stream<B, E | E2, R | R2> => Stream.mapAccumEffect(self, () => initial, step)

/** A schema of one of the literal values (`Schema.Literal(...values)` in Effect 3). */
export const literals = <const L extends readonly [string, ...Array<string>]>(values: L): Schema.Literals<L> => Schema.Literals(values)

/** Whether an array has an element, as the type of a non-empty array (`Array.isNonEmptyReadonlyArray` in Effect 3). */
export const isNonEmpty: <A>(self: ReadonlyArray<A>) => self is Arr.NonEmptyReadonlyArray<A> = Arr.isReadonlyArrayNonEmpty
