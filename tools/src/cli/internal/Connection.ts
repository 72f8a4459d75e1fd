/**
 * The connection every subcommand but `simulator` takes: the options that
 * configure the client (key, base URL, retries, time scale, budget, Redis),
 * read from the flags first and the environment second, and the client
 * layer they build. The key comes from `--api-key`, `--api-key-file` (`-`
 * for standard input) or `CATALOG_API_KEY`, in that order; the file and
 * the environment keep it out of the process list.
 */
import type * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import type { FileSystem, Path } from "@effect/platform"
import { Config, ConfigError, Context, Effect, Either, Layer, Logger, LogLevel, Option } from "effect"
import * as Admission from "../../../../common/src/client/Admission.js"
import * as AdmissionWindows from "../../../../rules/src/client/AdmissionWindows.js"
import * as CatalogClient from "../../../../common/src/client/CatalogClient.js"
import * as CatalogConfig from "../../../../common/src/client/CatalogConfig.js"
import * as Errors from "../../../../common/src/client/Errors.js"
import * as PageSizes from "../../../../common/src/client/PageSizes.js"
import * as Retry from "../../../../common/src/client/Retry.js"
import { UsageError } from "../CliError.js"
import * as AccountAdmission from "./AccountAdmission.js"
import * as Output from "./Output.js"
import * as Pace from "./Pace.js"
import * as Reachability from "./Reachability.js"
import * as Secret from "./Secret.js"

const { fromEnvironment, settings } = CatalogConfig

/** An option that may be left out, with its help text. */
export const optional = <A>(option: Options.Options<A>, description: string) => option.pipe(Options.withDescription(description), Options.optional)

/** The connection options. */
export const options = {
  apiKey: optional(
    Options.redacted("api-key"),
    `The API key (default: ${settings.apiKey.variable}); it is never printed. A flag's value shows in the process list while the command starts: --api-key-file or ${settings.apiKey.variable} keep the key out of it`
  ),
  apiKeyFile: optional(
    Options.text("api-key-file"),
    "The path of a file that holds the API key on one line, or - for standard input: keeps the key out of the process list"
  ),
  baseUrl: optional(Options.text("base-url"), `The base URL, e.g. https://host/api/v1 (default: ${settings.baseUrl.variable})`),
  retries: optional(Options.integer("retries"), "Retries of a request after 429, 503 or a transport error (default 5)"),
  timeScale: optional(
    Options.float("time-scale"),
    `Multiplies the account's windows, to match a scaled simulator (default: ${settings.timeScale.variable} or 1)`
  ),
  dailyBudget: optional(Options.integer("daily-budget"), `Units this run may spend today (default: ${settings.dailyBudget.variable}, or no budget)`),
  redis: optional(
    Options.text("redis"),
    "A redis:// URL through which processes share the account's limits (default: CATALOG_REDIS_URL, which keeps its password out of the process list; needs ioredis)"
  ),
  noLimits: Options.boolean("no-limits").pipe(
    Options.withDescription("Send requests without keeping to the account's limits: for a simulator started with --no-limits")
  )
}

/**
 * The connection options every subcommand but `simulator` takes.
 */
export type Connection = Command.Command.ParseConfig<typeof options>

export const usageError = (detail: string) => new UsageError({ detail })

/** A refused configuration in its own words: the client's name where the value came from and what was expected. */
const configurationError = (error: ConfigError.ConfigError) =>
  usageError(ConfigError.isInvalidData(error) || ConfigError.isMissingData(error) ? error.message : String(error))

/** The first letter of a sentence made small, to go after a name. */
const continued = (text: string) => text.charAt(0).toLowerCase() + text.slice(1)

/**
 * A value of the environment, none when it is not set; a malformed one is
 * a `UsageError` that names the variable, what was expected and, when
 * given, an example of it set (`CATALOG_TIMEOUT="10 seconds"`).
 */
export const fromEnv = <A>(config: Config.Config<A>, example?: string): Effect.Effect<Option.Option<A>, UsageError> =>
  Effect.mapError(Config.option(config), (error) =>
    ConfigError.isInvalidData(error)
      ? usageError(`${error.path.join(".")}: ${continued(error.message)}${example === undefined ? "" : `; e.g. ${example}`}`)
      : configurationError(error))

/** The levels `CATALOG_LOG` takes, as `--log-level` spells them. */
const logLevels = {
  all: LogLevel.All,
  trace: LogLevel.Trace,
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warning: LogLevel.Warning,
  error: LogLevel.Error,
  fatal: LogLevel.Fatal,
  none: LogLevel.None
} satisfies Record<string, LogLevel.LogLevel>

const logLevelConfig = Config.literal("all", "trace", "debug", "info", "warning", "error", "fatal", "none")("CATALOG_LOG")

/**
 * Runs `effect` at the log level `CATALOG_LOG` names (`debug` writes a line
 * per request to stderr), or as it is when it is not set; `--log-level`,
 * applied within, wins over it. A level it does not know is a `UsageError`.
 */
export const withLogLevelFromEnv = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | UsageError, R> =>
  Effect.flatMap(
    fromEnv(logLevelConfig, "CATALOG_LOG=debug"),
    Option.match({ onNone: () => effect, onSome: (level) => Logger.withMinimumLogLevel(effect, logLevels[level]) })
  )

/** A setting of the client as an example of its variable set (`CATALOG_TIME_SCALE=0.1`). */
const exampleOf = (setting: CatalogConfig.Setting) => `${setting.variable}=${setting.example}`

const orElseEnv = <A>(flag: Option.Option<A>, config: Config.Config<A>, example: string): Effect.Effect<Option.Option<A>, UsageError> =>
  Option.isSome(flag) ? Effect.succeed(flag) : fromEnv(config, example)

/**
 * The services a subcommand reads the service with: the client, the
 * budget and admission it shares, and the pace of its requests (for the
 * progress and summary lines).
 */
export type Services = CatalogClient.Provided | Pace.Pace

/**
 * The account's windows the client keeps to: the contract's, scaled by
 * `--time-scale` (or `CATALOG_TIME_SCALE`), or none with `--no-limits`.
 */
export const limitsOf = (options: Pick<Connection, "timeScale" | "noLimits">): Effect.Effect<Admission.Limits, UsageError> =>
  Effect.gen(function*() {
    if (options.noLimits) return Admission.noLimits
    const timeScale = yield* orElseEnv(options.timeScale, fromEnvironment.timeScale, exampleOf(settings.timeScale))
    if (Option.isSome(timeScale) && !(timeScale.value > 0)) return yield* usageError("the time scale must be more than 0")
    return AdmissionWindows.resolve({ timeScale: Option.getOrElse(timeScale, () => 1) })
  })

/**
 * The client, configured from the flags first and the environment second:
 * a missing key or base URL, or a malformed one, is a `UsageError`, as is
 * a key file that cannot be read or holds no key. Its
 * admission is the account's (`AccountAdmission`): shared through Redis, or
 * remembered from run to run in a state file; none with `--no-limits`.
 * When a request cannot reach the service, the first retry is announced on
 * stderr at once (`say`), with the time the retries end at the latest.
 */
export const clientLayer = (
  options: Connection,
  say: (line: string) => Effect.Effect<void> = Output.stderrLine
): Effect.Effect<
  { readonly layer: Layer.Layer<Services, UsageError, FileSystem.FileSystem | Path.Path>; readonly baseUrl: string; readonly policy: Retry.Policy },
  UsageError,
  FileSystem.FileSystem
> =>
  Effect.gen(function*() {
    const apiKey = yield* Secret.chosen({
      flag: "api-key",
      value: options.apiKey,
      file: options.apiKeyFile,
      environment: fromEnv(fromEnvironment.apiKey)
    })
    const baseUrl = Option.filter(
      yield* orElseEnv(options.baseUrl, fromEnvironment.baseUrl, exampleOf(settings.baseUrl)),
      (url) => url !== ""
    )
    const limits = yield* limitsOf(options)
    const dailyBudget = Option.isSome(options.dailyBudget)
      ? options.dailyBudget
      : Option.flatten(yield* fromEnv(fromEnvironment.dailyBudget, exampleOf(settings.dailyBudget)))
    const timeout = Option.getOrElse(yield* fromEnv(fromEnvironment.timeout, exampleOf(settings.timeout)), () => CatalogConfig.defaultTimeout)
    const redisUrl = Option.filter(yield* orElseEnv(options.redis, Config.string("CATALOG_REDIS_URL"), "CATALOG_REDIS_URL=redis://127.0.0.1:6379"), (url) => url !== "")
    if (Option.isNone(apiKey)) {
      return yield* usageError(
        `no API key: export ${exampleOf(settings.apiKey)}, or pass --api-key-file FILE (- for standard input), or --api-key KEY`
      )
    }
    if (Option.isNone(baseUrl)) {
      return yield* usageError(`no base URL: export ${exampleOf(settings.baseUrl)}, or pass --base-url URL`)
    }
    yield* Either.mapLeft(
      CatalogConfig.parseBaseUrl(baseUrl.value, Option.isSome(options.baseUrl) ? "--base-url" : settings.baseUrl.variable),
      configurationError
    )
    if (Option.isSome(options.retries) && options.retries.value < 0) return yield* usageError("--retries must be 0 or more")
    if (Option.isSome(dailyBudget) && dailyBudget.value < 0) return yield* usageError("the daily budget must be 0 or more")
    if (options.noLimits && Option.isSome(redisUrl)) return yield* usageError("--no-limits and --redis do not go together")
    const policy: Retry.Policy = { ...Retry.defaultPolicy, ...Option.match(options.retries, { onNone: () => ({}), onSome: (retries) => ({ retries }) }) }
    const announce = yield* Reachability.announceFirstRetry(baseUrl.value, policy, timeout, say)
    const admission = options.noLimits
      ? Layer.merge(Admission.layerMemory(limits), PageSizes.layerMemory)
      : AccountAdmission.layer({ baseUrl: baseUrl.value, apiKey: apiKey.value, limits, redisUrl })
    const layer = Layer.unwrapScoped(
      Effect.gen(function*() {
        const built = yield* Layer.build(admission)
        const [recorded, pace] = yield* Pace.recording(Context.get(built, Admission.Admission))
        return CatalogClient.layer({
          baseUrl: baseUrl.value,
          apiKey: apiKey.value,
          timeout,
          admission: Layer.succeed(Admission.Admission, recorded),
          pageSizes: Layer.succeed(PageSizes.PageSizes, Context.get(built, PageSizes.PageSizes)),
          ...Option.match(dailyBudget, { onNone: () => ({}), onSome: (units) => ({ dailyBudget: units }) }),
          retry: policy,
          middleware: [announce]
        }).pipe(Layer.merge(Layer.succeed(Pace.Pace, pace)))
      })
    ).pipe(
      // undici loads with the first request, not with every start of the command.
      Layer.provide(Layer.unwrapEffect(Effect.promise(() => import("@effect/platform-node/NodeHttpClient")).pipe(
        Effect.map((NodeHttpClient) => NodeHttpClient.layerUndici)
      ))),
      Layer.mapError((error) => error._tag === "UsageError" ? error : configurationError(error))
    )
    return { layer, baseUrl: baseUrl.value, policy }
  })

/**
 * Runs a program with the client the connection options configure; a
 * request that could not reach the service through its retries ends it
 * with `Unreachable`, which names the base URL and what to check.
 */
export const withClient = <A, E, R>(options: Connection, program: Effect.Effect<A, E, R>) =>
  Effect.flatMap(clientLayer(options), ({ baseUrl, layer, policy }) =>
    Effect.provide(program, layer).pipe(
      Effect.mapError((error) => error instanceof Errors.TransportError ? Reachability.unreachable(baseUrl, policy)(error) : error)
    ))

