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
import { Array as Arr, Cause, Chunk, type Clock, Clock as ClockModule, Config, type ConfigError, Context, Duration, Effect, Layer, Metric, MetricBoundaries, type Option, Option as OptionModule, Predicate, type Redacted, Schema, type Scope, Stream, Struct, type Tracer } from "effect"
import * as HttpClientModule from "@effect/platform/HttpClient"
import type * as KeyValueStoreModule from "@effect/platform/KeyValueStore"
import type * as Result from "./Result.js"

export * from "effect"
export * as HttpClient from "@effect/platform/HttpClient"
export * as HttpClientRequest from "@effect/platform/HttpClientRequest"
export * as HttpClientResponse from "@effect/platform/HttpClientResponse"
export * as KeyValueStore from "@effect/platform/KeyValueStore"
export * as Result from "./Result.js"

/** The effect of a result: its success, or its failure (an `Either` is an effect already in Effect 3; `Effect.fromResult` in Effect 4). */
export const fromResult = <A, E>(result: Result.Result<A, E>): Effect.Effect<A, E> => result

/** Whether a value is an object that is not an array (`Predicate.isObject` in Effect 4). */
export const isRecord: (input: unknown) => input is { readonly [key: string | symbol]: unknown } = Predicate.isRecord

/** A schema of any type that needs nothing (`Schema.Codec<unknown, unknown>` in Effect 4). */
export type AnyCodec = Schema.Schema.AnyNoContext

/** A schema of `A`, encoded as `I`, that needs nothing (`Schema.Codec<A, I>` in Effect 4). */
export type Codec<A, I = A> = Schema.Schema<A, I>

/** The schema of an operation's query: a struct, whose fields a link's query is read by. */
export type QuerySchema = Schema.Schema.AnyNoContext & { readonly fields: object }

/** Decoding that gives a result (`Schema.decodeUnknownEither`; `Schema.decodeUnknownResult` in Effect 4). */
export const decodeUnknownResult = Schema.decodeUnknownEither

/** Encoding as an effect (`Schema.encodeUnknown`; `Schema.encodeUnknownEffect` in Effect 4). */
export const encodeUnknownEffect = Schema.encodeUnknown

/** A struct without one of its keys (`Struct.omit(self, key)`; Effect 4 takes the keys as an array). */
export const omitKey = <S extends object, K extends keyof S & string>(self: S, key: K) => Struct.omit(self, key)

/** A field of an error that holds a `Duration` as it is (`Schema.Duration` in Effect 4). */
export const DurationSchema = Schema.DurationFromSelf

/** A field of an error that holds a `Date` as it is (`Schema.Date` in Effect 4). */
export const DateSchema = Schema.DateFromSelf

/**
 * A field of one of the literal values, `fallback` when not given, both when
 * decoded and when constructed (Effect 4 gives the literals decoding and
 * constructor defaults).
 */
export const literalWithDefault = <const L extends readonly [string, ...Array<string>]>(values: L, fallback: L[number]) =>
  Schema.optionalWith(Schema.Literal(...values), { default: () => fallback })

/** A key of a struct that may be missing (`Schema.optionalKey` in Effect 4). */
export const optionalKey = Schema.optional

/** A schema of a JSON text whose value `schema` decodes (`Schema.fromJsonString` in Effect 4). */
export const fromJsonString = <S extends Schema.Schema.Any>(schema: S) => Schema.parseJson(schema)

/** A semaphore of `permits` (`Semaphore.make` in Effect 4). */
export const makeSemaphore = Effect.makeSemaphore

/**
 * Takes permits of a semaphore, waiting interruptibly, and gives them back
 * when the scope closes (`semaphore.takeScoped` in Effect 4).
 */
export const takeScoped = (semaphore: Effect.Semaphore, permits: number): Effect.Effect<void, never, Scope.Scope> =>
  Effect.asVoid(Effect.acquireRelease(semaphore.take(permits), () => semaphore.release(permits)))

/** What reading a `Config` fails with (`Config.ConfigError` in Effect 4). */
export type ConfigFailure = ConfigError.ConfigError

/** The class of a service's tag, by its key: `Context.Tag(key)<Self, Shape>()` (`Context.Service<Self, Shape>()(key)` in Effect 4). */
export const ServiceTag = <Self, Shape>() => <const Key extends string>(key: Key) => Context.Tag(key)<Self, Shape>()

/** The layer an effect gives (`Layer.unwrap` in Effect 4). */
export const unwrapLayer: <A, E1, R1, E, R>(self: Effect.Effect<Layer.Layer<A, E1, R1>, E, R>) => Layer.Layer<A, E | E1, R1 | R> =
  Layer.unwrapEffect

/** A layer that fails with `error` (`Layer.fail`; Effect 4 unwraps a failed effect). */
export const failLayer: <E>(error: E) => Layer.Layer<unknown, E> = Layer.fail

/** A config of a number, read from `name` (`Config.Number` in Effect 4). */
export const numberConfig: (name: string) => Config.Config<number> = Config.number

/**
 * A config refused when `valid` does not hold of its value (`Config.validate`;
 * Effect 4 maps the value to a failed effect). The refusal names no path:
 * `CatalogConfig.read` names the setting's variable and words it.
 */
export const refuseUnless = <A>(valid: (value: A) => boolean) => (config: Config.Config<A>): Config.Config<A> =>
  Config.validate(config, { message: "", validation: valid })

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

/** A schema of any type, encoding and services (`Schema.Top` in Effect 4). */
export type AnySchema = Schema.Schema.Any

/** A schema named `identifier` in its errors and documents (`.annotations({ identifier })`; `.annotate` in Effect 4). */
export const identified = (identifier: string) => <S extends Schema.Annotable.All>(self: S): Schema.Annotable.Self<S> =>
  self.annotations({ identifier })

/** A schema of any of the members (`Schema.Union(...members)`; Effect 4 takes them as an array). */
export const unionOf = <const Members extends readonly [Schema.Schema.All, Schema.Schema.All, ...Array<Schema.Schema.All>]>(members: Members): Schema.Union<Members> =>
  Schema.Union(...members)

/** A clock of real time, whatever clock the fiber has (`Clock.make()`; `Clock.Clock.defaultValue()` in Effect 4). */
export const realClock = (): Clock.Clock => ClockModule.make()

/** A reader of the fiber's clock, in milliseconds, to call synchronously (`Clock.unsafeCurrentTimeMillis`; `currentTimeMillisUnsafe` in Effect 4). */
export const clockNow: Effect.Effect<() => number> = Effect.clockWith((clock) => Effect.succeed(() => clock.unsafeCurrentTimeMillis()))

/** An effect run with `clock` as its clock (`Effect.withClock`; Effect 4 provides the `Clock` reference). */
export const withClock: <A, E, R>(effect: Effect.Effect<A, E, R>, clock: Clock.Clock) => Effect.Effect<A, E, R> = Effect.withClock

/** A stream of the elements of the iterables `f` gives for each element, in order (`Stream.mapConcat`). */
export const mapConcat: <A, E, R, B>(self: Stream.Stream<A, E, R>, f: (a: A) => Iterable<B>) => Stream.Stream<B, E, R> = Stream.mapConcat

/**
 * A stream of what each step gives, from `start` until a step gives no next
 * state (`Stream.paginateChunkEffect`; Effect 4's `Stream.paginate` takes
 * the elements as an array).
 */
export const paginateEffect = <S, A, E, R>(
  start: S,
  step: (state: S) => Effect.Effect<readonly [ReadonlyArray<A>, Option.Option<S>], E, R>
): Stream.Stream<A, E, R> =>
  Stream.paginateChunkEffect(start, (state) => Effect.map(step(state), ([elements, next]) => [Chunk.unsafeFromArray(elements), next] as const))

/** A whole number of zero or more (`Schema.Int.pipe(Schema.nonNegative())`; Effect 4 checks it with `isGreaterThanOrEqualTo(0)`). */
export const NonNegativeInt = Schema.Int.pipe(Schema.nonNegative())

/** What a duration can be given as (`Duration.DurationInput`; `Duration.Input` in Effect 4). */
export type DurationInput = Duration.DurationInput

/** The duration an input names (`Duration.decode`; `Duration.fromInputUnsafe` in Effect 4). */
export const decodeDuration: (input: DurationInput) => Duration.Duration = Duration.decode

/** Configs of a redacted string, a string, a duration and a whole number, read from `name` (`Config.Redacted`, `Config.String`, `Config.Duration` and `Config.Int` in Effect 4). */
export const redactedConfig: (name: string) => Config.Config<Redacted.Redacted<string>> = Config.redacted
export const stringConfig: (name: string) => Config.Config<string> = Config.string
export const durationConfig: (name: string) => Config.Config<Duration.Duration> = Config.duration
export const integerConfig: (name: string) => Config.Config<number> = Config.integer

/** Whether a value is an `HttpClient`, for the combinators that take one first or last (`HttpClient.isHttpClient` in Effect 4). */
export const isHttpClient = (value: unknown): value is HttpClientModule.HttpClient => Predicate.hasProperty(value, HttpClientModule.TypeId)

/** A client whose every request needs a scope of its own, which its deadline closes (`HttpClient.withScope`; Effect 4's client aborts an interrupted request by itself). */
export const perRequestScope: <E, R>(client: HttpClientModule.HttpClient.With<E, R>) => HttpClientModule.HttpClient.With<E, R | Scope.Scope> =
  HttpClientModule.withScope

/** A store of values of `schema` over a key-value store (`store.forSchema(schema)`; `KeyValueStore.toSchemaStore` in Effect 4). */
export const schemaStore = <A, I, R>(store: KeyValueStoreModule.KeyValueStore, schema: Schema.Schema<A, I, R>): KeyValueStoreModule.SchemaStore<A, R> =>
  store.forSchema(schema)

/** A record of values of `value` by keys of `key` (`Schema.Record({ key, value })`; Effect 4 takes them as arguments). */
export const recordOf = <K extends Schema.Schema.All & { readonly Type: string }, V extends Schema.Schema.All>(key: K, value: V) => Schema.Record({ key, value })

/** A whole number above zero (`Schema.Int.pipe(Schema.positive())`; Effect 4 checks it with `isGreaterThan(0)`). */
export const PositiveInt = Schema.Int.pipe(Schema.positive())

/** The layer of a service that an effect in a scope builds, the scope the layer's (`Layer.scoped`; `Layer.effect` in Effect 4). */
export const scopedLayer = Layer.scoped

/** Some value, or none for `null` and `undefined` (`Option.fromNullable`; `Option.fromNullishOr` in Effect 4). */
export const fromNullable: <A>(value: A) => Option.Option<NonNullable<A>> = OptionModule.fromNullable

/** An effect in a span of `name`, without the stack trace of where it was made, which each span would otherwise capture. */
export const withSpanWithoutStack = (name: string, options: Omit<Tracer.SpanOptions, "captureStackTrace">) =>
  Effect.withSpan(name, { ...options, captureStackTrace: false })

/** `metric` with these labels (Effect 4's `Metric.withAttributes`). */
export const labelled = <Type, In, Out>(metric: Metric.Metric<Type, In, Out>, labels: Readonly<Record<string, string>>): Metric.Metric<Type, In, Out> =>
  Object.entries(labels).reduce((tagged, [key, value]) => Metric.tagged(tagged, key, value), metric)

/** A histogram over exponential boundaries (Effect 4's `Metric.histogram` with `Metric.exponentialBoundaries`). */
export const exponentialHistogram = (name: string, description: string, boundaries: { readonly start: number; readonly factor: number; readonly count: number }) =>
  Metric.histogram(name, MetricBoundaries.exponential(boundaries), description)

