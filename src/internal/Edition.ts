/**
 * The Effect this edition is written in, for the modules both editions
 * share (`common/src`), which are one text compiled against either major of
 * Effect: they import Effect from `#edition/internal/Edition.js`, this module
 * in the Effect 3 edition and `effect4/src/internal/Edition.ts` in the
 * Effect 4 edition. It gives Effect's namespaces as they are, and under one
 * name each what the two majors spell differently.
 *
 * @internal
 */
import { Array as Arr, Cause, type Effect, type Option, Schema, type Scope, Stream } from "effect"

export * from "effect"

/** A stream of what a scoped effect gives, its scope closed when the stream ends (`Stream.unwrap` in Effect 4). */
export const unwrapScoped: <A, E2, R2, E, R>(
  effect: Effect.Effect<Stream.Stream<A, E2, R2>, E, R>
) => Stream.Stream<A, E | E2, Exclude<R, Scope.Scope> | R2> = Stream.unwrapScoped

/** The first failure of a cause, if it has one (`Cause.findErrorOption` in Effect 4). */
export const firstFailure: <E>(cause: Cause.Cause<E>) => Option.Option<E> = Cause.failureOption

/**
 * `Stream.mapAccumEffect` whose step gives any number of elements, emitted
 * in order (Effect 4's `mapAccumEffect` takes its initial state lazily and
 * flattens what each step gives).
 */
export const mapAccumConcat = <S, A, B, E2, R2>(
  initial: S,
  step: (state: S, element: A) => Effect.Effect<readonly [S, ReadonlyArray<B>], E2, R2>
) =>
<E, R>(self: Stream.Stream<A, E, R>): Stream.Stream<B, E | E2, R | R2> =>
  self.pipe(Stream.mapAccumEffect(initial, step), Stream.mapConcat((elements) => elements))

/** A schema of one of the literal values (`Schema.Literals` in Effect 4). */
export const literals = <const L extends readonly [string, ...Array<string>]>(values: L): Schema.Literal<[...L]> => Schema.Literal(...values)

/** Whether an array has an element, as the type of a non-empty array (`Array.isReadonlyArrayNonEmpty` in Effect 4). */
export const isNonEmpty: <A>(self: ReadonlyArray<A>) => self is Arr.NonEmptyReadonlyArray<A> = Arr.isNonEmptyReadonlyArray
