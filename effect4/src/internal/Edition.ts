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
import { Array as Arr, Cause, Clock, Config, Context, Duration, Effect, Layer, Metric, type Option, Option as OptionModule, Predicate, type Redacted, type Result, Schema, SchemaIssue, type Scope, Semaphore, Stream, Struct, type Tracer } from "effect"
import { HttpClient } from "effect/http"
import { KeyValueStore as KeyValueStoreModule } from "effect/persistence"

export * from "effect"
export { HttpClient, HttpClientRequest, HttpClientResponse } from "effect/http"
export { KeyValueStore } from "effect/persistence"

/** The effect of a result: its success, or its failure (an `Either` is an effect already in Effect 3). */
export const fromResult: <A, E>(result: Result.Result<A, E>) => Effect.Effect<A, E> = Effect.fromResult

/** Whether a value is an object that is not an array (`Predicate.isRecord` in Effect 3). */
export const isRecord: (input: unknown) => input is { readonly [key: string | symbol]: unknown } = Predicate.isObject

/** A schema of any type that needs nothing (`Schema.Schema.AnyNoContext` in Effect 3). */
export type AnyCodec = Schema.Codec<unknown, unknown>

/** A schema of `A`, encoded as `I`, that needs nothing (`Schema.Schema<A, I>` in Effect 3). */
export type Codec<A, I = A> = Schema.Codec<A, I>

/** The schema of an operation's query: a struct, whose fields a link's query is read by. */
export type QuerySchema = Schema.Encoder<unknown> & { readonly fields: Schema.Struct.Fields }

/** Decoding that gives a result (`Schema.decodeUnknownEither` in Effect 3). */
export const decodeUnknownResult = Schema.decodeUnknownResult

/** Encoding as an effect (`Schema.encodeUnknown` in Effect 3). */
export const encodeUnknownEffect = Schema.encodeUnknownEffect

/** A struct without one of its keys (`Struct.omit(self, key)` in Effect 3). */
export const omitKey = <S extends object, K extends keyof S & string>(self: S, key: K) => Struct.omit(self, [key])

/** A field of an error that holds a `Duration` as it is (`Schema.DurationFromSelf` in Effect 3). */
export const DurationSchema = Schema.Duration

/** A field of an error that holds a `Date` as it is (`Schema.DateFromSelf` in Effect 3). */
export const DateSchema = Schema.Date

/**
 * A field of one of the literal values, `fallback` when not given, both when
 * decoded and when constructed (`Schema.optionalWith(…, { default })` in Effect 3).
 */
export const literalWithDefault = <const L extends readonly [string, ...Array<string>]>(values: L, fallback: L[number]) => {
  const decoded = Schema.withDecodingDefaultTypeKey<Schema.Literals<L>>(Effect.succeed(fallback))(Schema.Literals(values))
  return Schema.withConstructorDefault<typeof decoded>(Effect.succeed(fallback))(decoded)
}

/** A key of a struct that may be missing (`Schema.optional` in Effect 3). */
export const optionalKey: typeof Schema.optionalKey = Schema.optionalKey

/** A schema of a JSON text whose value `schema` decodes (`Schema.parseJson` in Effect 3). */
export const fromJsonString = Schema.fromJsonString

/** A semaphore of `permits` (`Effect.makeSemaphore` in Effect 3). */
export const makeSemaphore = Semaphore.make

/**
 * Takes permits of a semaphore, waiting interruptibly, and gives them back
 * when the scope closes (through `Effect.acquireRelease` in Effect 3).
 */
export const takeScoped = (semaphore: Semaphore.Semaphore, permits: number): Effect.Effect<void, never, Scope.Scope> =>
  semaphore.takeScoped(permits)

/** What reading a `Config` fails with (`ConfigError.ConfigError` in Effect 3). */
export type ConfigFailure = Config.ConfigError

/** The class of a service's tag, by its key: `Context.Service<Self, Shape>()(key)` (`Context.Tag(key)<Self, Shape>()` in Effect 3). */
export const ServiceTag = <Self, Shape>() => <const Key extends string>(key: Key) => Context.Service<Self, Shape>()(key)

/** The layer an effect gives (`Layer.unwrapEffect` in Effect 3). */
export const unwrapLayer: <A, E1, R1, E, R>(self: Effect.Effect<Layer.Layer<A, E1, R1>, E, R>) => Layer.Layer<A, E | E1, R1 | R> =
  Layer.unwrap

/** A layer that fails with `error` (`Layer.fail` in Effect 3). */
export const failLayer = <E>(error: E): Layer.Layer<unknown, E> => Layer.unwrap<unknown, never, never, E, never>(Effect.fail(error))

/** A config of a number, read from `name` (`Config.number` in Effect 3). */
export const numberConfig: (name: string) => Config.Config<number> = Config.Number

/**
 * A config refused when `valid` does not hold of its value (`Config.validate`
 * in Effect 3). The refusal names no path: `CatalogConfig.read` names the
 * setting's variable and words it.
 */
export const refuseUnless = <A>(valid: (value: A) => boolean) => (config: Config.Config<A>): Config.Config<A> =>
  config.pipe(Config.mapEffect((value: A) =>
    valid(value) ? Effect.succeed(value) : Effect.fail(new Config.ConfigError(new Schema.SchemaError(new SchemaIssue.InvalidValue({ message: "refused" }))))
  ))

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

/** A schema of any type, encoding and services (`Schema.Schema.Any` in Effect 3). */
export type AnySchema = Schema.Top

/** A schema named `identifier` in its errors and documents (`.annotations({ identifier })` in Effect 3). */
export const identified = (identifier: string) => <S extends Schema.Top>(self: S): S["Rebuild"] => self.annotate({ identifier })

/** A schema of any of the members (Effect 3 takes them as arguments, `Schema.Union(...members)`). */
export const unionOf = Schema.Union

/** A clock of real time, whatever clock the fiber has (`Clock.make()` in Effect 3). */
export const realClock = (): Clock.Clock => Clock.Clock.defaultValue()

/** A reader of the fiber's clock, in milliseconds, to call synchronously (`Clock.currentTimeMillisUnsafe`; `unsafeCurrentTimeMillis` in Effect 3). */
export const clockNow: Effect.Effect<() => number> = Effect.clockWith((clock) => Effect.succeed(() => clock.currentTimeMillisUnsafe()))

/** An effect run with `clock` as its clock (Effect 4 has no `Effect.withClock`: the `Clock` reference is provided around it). */
export const withClock = <A, E, R>(effect: Effect.Effect<A, E, R>, clock: Clock.Clock): Effect.Effect<A, E, R> =>
  Effect.provideService(effect, Clock.Clock, clock)

/** A stream of the elements of the iterables `f` gives for each element, in order (`Stream.mapConcat` in Effect 3). */
export const mapConcat = <A, E, R, B>(self: Stream.Stream<A, E, R>, f: (a: A) => Iterable<B>): Stream.Stream<B, E, R> =>
  Stream.flattenIterable(Stream.map(self, f))

/** A stream of what each step gives, from `start` until a step gives no next state (`Stream.paginateChunkEffect` in Effect 3). */
export const paginateEffect = Stream.paginate

/** A whole number of zero or more (`Schema.Int.pipe(Schema.nonNegative())` in Effect 3). */
export const NonNegativeInt = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

/** What a duration can be given as (`Duration.DurationInput` in Effect 3). */
export type DurationInput = Duration.Input

/** The duration an input names (`Duration.decode` in Effect 3). */
export const decodeDuration: (input: DurationInput) => Duration.Duration = Duration.fromInputUnsafe

/** Configs of a redacted string, a string, a duration and a whole number, read from `name` (`Config.redacted`, `Config.string`, `Config.duration` and `Config.integer` in Effect 3). */
export const redactedConfig = (name: string): Config.Config<Redacted.Redacted<string>> => Config.Redacted(name)
export const stringConfig = (name: string): Config.Config<string> => Config.String(name)
export const durationConfig = (name: string): Config.Config<Duration.Duration> => Config.Duration(name)
export const integerConfig = (name: string): Config.Config<number> => Config.Int(name)

/** Whether a value is an `HttpClient`, for the combinators that take one first or last (`Predicate.hasProperty(value, HttpClient.TypeId)` in Effect 3). */
export const isHttpClient: (value: unknown) => value is HttpClient.HttpClient = HttpClient.isHttpClient

/** A client whose every request runs in a scope of its own (`HttpClient.withScope` in Effect 3; Effect 4's client aborts an interrupted request by itself). */
export const perRequestScope = <E, R>(client: HttpClient.HttpClient.With<E, R>): HttpClient.HttpClient.With<E, R> => client

/** A store of values of `schema` over a key-value store (`store.forSchema(schema)` in Effect 3). */
export const schemaStore = KeyValueStoreModule.toSchemaStore

/** A record of values of `value` by keys of `key` (`Schema.Record({ key, value })` in Effect 3). */
export const recordOf = Schema.Record

/** A whole number above zero (`Schema.Int.pipe(Schema.positive())` in Effect 3). */
export const PositiveInt = Schema.Int.check(Schema.isGreaterThan(0))

/** The layer of a service that an effect in a scope builds, the scope the layer's (`Layer.scoped` in Effect 3). */
export const scopedLayer = Layer.effect

/** Some value, or none for `null` and `undefined` (`Option.fromNullable` in Effect 3). */
export const fromNullable: <A>(value: A) => Option.Option<NonNullable<A>> = OptionModule.fromNullishOr

/** An effect in a span of `name`, without the stack trace of where it was made, which each span would otherwise capture. */
export const withSpanWithoutStack = (name: string, options: Tracer.SpanOptionsNoTrace) =>
  Effect.withSpan(name, options, { captureStackTrace: false })

/** `metric` with these labels (`Metric.withAttributes`; Effect 3's `Metric.tagged`). */
export const labelled = <Input, State>(metric: Metric.Metric<Input, State>, labels: Readonly<Record<string, string>>): Metric.Metric<Input, State> =>
  Metric.withAttributes(metric, labels)

/** A histogram over exponential boundaries. */
export const exponentialHistogram = (name: string, description: string, boundaries: { readonly start: number; readonly factor: number; readonly count: number }) =>
  Metric.histogram(name, { description, boundaries: Metric.exponentialBoundaries(boundaries) })

