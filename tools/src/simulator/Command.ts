/**
 * The `simulator` command: starts a simulator, prints one JSON line with its
 * base URL and keys once it listens, and serves until SIGINT or SIGTERM.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as ValidationError from "@effect/cli/ValidationError"
import { Console, Effect, Either, Option, ParseResult, Redacted, Schema } from "effect"
import { didYouMean } from "../internal/Suggest.js"
import { defaultLimits } from "./Account.js"
import { collations } from "./data/Collation.js"
import { changePatterns } from "../../../rules/src/simulator/Settings.js"
import type * as Simulator from "./Simulator.js"

/** A share of requests: a number from 0 to 1. */
const isShare = (value: number) => value >= 0 && value <= 1

const rate = { valid: isShare, rule: "a fault's rate is a number from 0 to 1" }

/** The faults `--faults` names, each with the setting it gives, and the values it takes. */
const faultNames = {
  unavailable: { setting: "unavailable", ...rate },
  drop: { setting: "drop", ...rate },
  slow: { setting: "slow", ...rate },
  "slow-ms": { setting: "slowMillis", valid: (value: number) => value >= 0, rule: "slow-ms is a number of milliseconds, 0 or more" },
  expire: { setting: "expire", ...rate }
} as const

const isFaultName = (name: string): name is keyof typeof faultNames => Object.hasOwn(faultNames, name)

/**
 * `--faults unavailable=0.15,drop=0.05,slow=0.1,slow-ms=200,expire=0.1`:
 * shares of requests answered 503, dropped, or answered after `slow-ms`
 * milliseconds, and of requests with a cursor answered 409 `cursor_expired`.
 * A part it cannot read fails with one message in words that names it: an
 * unknown fault (with the nearest names), a rate outside 0 to 1.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { SimulatorCommand } from "effect-catalog/simulator"
 *
 * Schema.decodeSync(SimulatorCommand.FaultsFromString)("unavailable=0.15") // { unavailable: 0.15 }
 * ```
 * @category schemas
 * @since 0.1.0
 */
export const FaultsFromString = Schema.transformOrFail(
  Schema.String,
  Schema.Struct({
    unavailable: Schema.optionalWith(Schema.Number, { exact: true }),
    drop: Schema.optionalWith(Schema.Number, { exact: true }),
    slow: Schema.optionalWith(Schema.Number, { exact: true }),
    slowMillis: Schema.optionalWith(Schema.Number, { exact: true }),
    expire: Schema.optionalWith(Schema.Number, { exact: true })
  }),
  {
    strict: true,
    decode: (input, _, ast) =>
      Effect.forEach(input.split(",").filter((part) => part.trim() !== ""), (part) => {
        const refused = (why: string) => ParseResult.fail(new ParseResult.Type(ast, input, `${part.trim()}: ${why}`))
        const separator = part.indexOf("=")
        if (separator < 0) return refused("a fault is given as name=rate, e.g. unavailable=0.15")
        const name = part.slice(0, separator).trim()
        const value = part.slice(separator + 1).trim()
        const names = Object.keys(faultNames)
        if (!isFaultName(name)) return refused(`unknown fault ${JSON.stringify(name)}${didYouMean(name, names)} (faults: ${names.join(", ")})`)
        const { rule, setting, valid } = faultNames[name]
        const parsed = value === "" ? Number.NaN : Number(value)
        return Number.isFinite(parsed) && valid(parsed) ? ParseResult.succeed([setting, parsed] as const) : refused(rule)
      }).pipe(Effect.map(Object.fromEntries)),
    encode: (faults) =>
      ParseResult.succeed(
        Object.entries(faults).map(([name, value]) => `${name === "slowMillis" ? "slow-ms" : name}=${value}`).join(",")
      )
  }
)

/** A value an option refuses, in words that name it: `--time-scale 0: the time scale must be more than 0`. */
const refusal = (option: string, value: unknown, why: string) =>
  ValidationError.invalidValue(HelpDoc.p(`--${option} ${String(value)}: ${why}`))

/** An option whose values must pass `valid`; any other is refused with `rule`. */
const checked = <A>(name: string, valid: (value: A) => boolean, rule: string) => (option: Options.Options<A>): Options.Options<A> =>
  Options.mapEffect(option, (value) => valid(value) ? Effect.succeed(value) : Effect.fail(refusal(name, value, rule)))

const count = (name: string, description: string) =>
  Options.integer(name).pipe(
    checked(name, (value) => value >= 0, "a count must be 0 or more"),
    Options.withDescription(description),
    Options.optional
  )

const options = {
  port: Options.integer("port").pipe(
    checked("port", (port) => port >= 0 && port <= 65_535, "a port is a whole number from 0 to 65535"),
    Options.withDefault(0),
    Options.withDescription("Port on 127.0.0.1; 0 picks a free one")
  ),
  seed: Options.integer("seed").pipe(Options.withDefault(1), Options.withDescription("Seed of the generated data")),
  models: count("models", "Number of models"),
  skills: count("skills", "Number of Skills"),
  mcps: count("mcps", "Number of MCP servers"),
  organizations: count("organizations", "Number of organizations"),
  providers: count("providers", "Number of providers"),
  families: count("families", "Number of model families"),
  topics: count("topics", "Number of topics"),
  articles: count("articles", "Number of articles"),
  timeScale: Options.float("time-scale").pipe(
    checked("time-scale", (scale) => scale > 0, "the time scale must be more than 0"),
    Options.withDefault(1),
    Options.withDescription("Multiplies every window (10 s, minute, day, cursor hour, Retry-After); more than 0")
  ),
  noLimits: Options.boolean("no-limits").pipe(Options.withDescription("Turn the account limits off")),
  perTenSeconds: count("per-ten-seconds", `Requests per 10 seconds (default ${defaultLimits.perTenSeconds})`),
  perMinute: count("per-minute", `Requests per minute (default ${defaultLimits.perMinute}), which /usage/ reports as minute_limit`),
  concurrent: count("concurrent", `Concurrent requests (default ${defaultLimits.concurrent})`),
  dailyUnits: count("daily-units", `Daily units (default ${defaultLimits.dailyUnits})`),
  monthlyUnits: count("monthly-units", `Monthly units (default ${defaultLimits.monthlyUnits})`),
  dailyBytes: count("daily-bytes", `Daily transfer in bytes (default ${defaultLimits.dailyBytes / 1024 / 1024} MiB)`),
  usagePerMinute: count("usage-per-minute", `Calls of /usage/ per minute (default ${defaultLimits.usagePerMinute})`),
  faults: Options.text("faults").pipe(
    Options.mapEffect((text) =>
      Either.mapLeft(Schema.decodeEither(FaultsFromString)(text), (error) =>
        ValidationError.invalidValue(HelpDoc.p(`--faults ${ParseResult.ArrayFormatter.formatErrorSync(error)[0]?.message ?? text}`)))
    ),
    Options.withDescription(
      "Faults as name=rate pairs joined by commas, each rate from 0 to 1, e.g. unavailable=0.15,drop=0.05; also slow (with slow-ms=200) and expire"
    ),
    Options.optional
  ),
  churn: Options.float("churn").pipe(
    checked("churn", isShare, "the churn is a share from 0 to 1"),
    Options.withDefault(0),
    Options.withDescription("Share (0 to 1) of models, Skills and MCP servers inserted, removed or edited during scans")
  ),
  changes: Options.choice("changes", changePatterns).pipe(
    Options.withDefault("none"),
    Options.withDescription(
      "Whether records change over time, each at a hidden rate the seed fixes: none, steady, or daily (a daily cycle with an hour's burst)"
    )
  ),
  collation: Options.choice("collation", collations).pipe(
    Options.withDefault("code-unit"),
    Options.withDescription("Order of ids in lists: by code unit, case-insensitive, or en-US numeric-aware")
  )
}

type Parsed = Command.Command.ParseConfig<typeof options>

const defined = <K extends string>(values: { readonly [P in K]: Option.Option<number> }): { [P in K]?: number } => {
  const out: { [P in K]?: number } = {}
  for (const key in values) {
    const value = values[key]
    if (Option.isSome(value)) out[key] = value.value
  }
  return out
}

/**
 * The simulator settings the command line asks for.
 *
 * @example
 * ```ts
 * import { Command } from "@effect/cli"
 * import { Console, Effect } from "effect"
 * import { Simulator, SimulatorCommand } from "effect-catalog/simulator"
 *
 * // The same flags, another handler: print the base URL only.
 * const quiet = SimulatorCommand.command.pipe(
 *   Command.withHandler((parsed) =>
 *     Effect.scoped(
 *       Effect.gen(function*() {
 *         const simulator = yield* Simulator.make(SimulatorCommand.settingsOf(parsed))
 *         yield* Console.log(simulator.baseUrl)
 *         return yield* Effect.never
 *       })
 *     ))
 * )
 * ```
 * @category utils
 * @since 0.1.0
 */
export const settingsOf = (parsed: Parsed): Simulator.Settings => ({
  port: parsed.port,
  seed: parsed.seed,
  sizes: defined({
    models: parsed.models, skills: parsed.skills, mcps: parsed.mcps, organizations: parsed.organizations,
    providers: parsed.providers, families: parsed.families, topics: parsed.topics, articles: parsed.articles
  }),
  timeScale: parsed.timeScale,
  enforceLimits: !parsed.noLimits,
  limits: defined({
    perTenSeconds: parsed.perTenSeconds, perMinute: parsed.perMinute, concurrent: parsed.concurrent,
    dailyUnits: parsed.dailyUnits, monthlyUnits: parsed.monthlyUnits, dailyBytes: parsed.dailyBytes,
    usagePerMinute: parsed.usagePerMinute
  }),
  faults: Option.getOrElse(parsed.faults, () => ({})),
  churn: parsed.churn,
  changes: parsed.changes,
  collation: parsed.collation
})

/**
 * The `simulator` command.
 *
 * @example
 * ```ts
 * import { Command } from "@effect/cli"
 * import { SimulatorCommand } from "effect-catalog/simulator"
 *
 * const cli = Command.run(SimulatorCommand.command, { name: "simulator", version: "0.1.0" })
 * ```
 * @category commands
 * @since 0.1.0
 */
export const command = Command.make("simulator", options, (parsed) =>
  Effect.gen(function*() {
    // The server and its data load when the command runs, not with the `catalog` command's other subcommands.
    const { make } = yield* Effect.promise(() => import("./Simulator.js"))
    const simulator = yield* make(settingsOf(parsed))
    const keys = Object.fromEntries(Object.entries(simulator.keys).map(([name, key]) => [name, Redacted.value(key)]))
    yield* Console.log(JSON.stringify({ base_url: simulator.baseUrl, keys }))
    return yield* Effect.never
  }).pipe(Effect.scoped)
).pipe(Command.withDescription("Run a simulator of the Catalog Service on loopback"))
