/**
 * `ConfigError`s as this edition makes and reads them: a refusal or an
 * absence at one name, in the package's own words, and the name and kind of
 * an error a `Config` failed with. Effect 3's `ConfigError` is a tree of
 * `MissingData`, `InvalidData` and the rest, each with its path.
 *
 * @internal
 */
import { type Config, ConfigError, Effect } from "effect"

/** A `ConfigError` for the value at `name`: present but refused, in these words. */
export const invalidData = (name: string, message: string): ConfigError.ConfigError => ConfigError.InvalidData([name], message)

/** A `ConfigError` for the value at `name`: absent, in these words. */
export const missingData = (name: string, message: string): ConfigError.ConfigError => ConfigError.MissingData([name], message)

/** The name a `ConfigError` gives its value: its path, when it has one. */
export const nameOf = (error: ConfigError.ConfigError): string | undefined =>
  ConfigError.isMissingData(error) || ConfigError.isInvalidData(error) || ConfigError.isSourceUnavailable(error) ||
    ConfigError.isUnsupported(error)
    ? error.path.length === 0 ? undefined : error.path.join(".")
    : ConfigError.isAnd(error) || ConfigError.isOr(error)
    ? nameOf(error.left) ?? nameOf(error.right)
    : undefined

/** Whether `config` failed only for want of a value, as its error says. */
export const isMissing = <A>(_config: Config.Config<A>, error: ConfigError.ConfigError): Effect.Effect<boolean> =>
  Effect.succeed(ConfigError.isMissingDataOnly(error))
