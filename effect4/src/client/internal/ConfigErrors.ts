/**
 * `ConfigError`s as this edition makes and reads them: a refusal or an
 * absence at one name, in the package's own words, and the name and kind of
 * an error a `Config` failed with. Effect 4's `ConfigError` wraps a
 * `SchemaError`, whose issue points at the value's path.
 *
 * @internal
 */
import { Config, Effect, Option, Schema, SchemaIssue } from "effect"

/** A `ConfigError` for the value at `name`: present but refused, in these words. */
export const invalidData = (name: string, message: string): Config.ConfigError =>
  new Config.ConfigError(new Schema.SchemaError(new SchemaIssue.Pointer([name], new SchemaIssue.InvalidValue({ message }))))

/** A `ConfigError` for the value at `name`: absent, in these words. */
export const missingData = (name: string, message: string): Config.ConfigError =>
  new Config.ConfigError(new Schema.SchemaError(new SchemaIssue.Pointer([name], new SchemaIssue.MissingKey({ messageMissingKey: message }))))

/** Where in the configuration an issue is: the path of its pointers, outermost first, if it has one. */
const pathOf = (issue: SchemaIssue.Issue): ReadonlyArray<PropertyKey> | undefined => {
  switch (issue._tag) {
    case "Pointer":
      return [...issue.path, ...(pathOf(issue.issue) ?? [])]
    case "Filter":
    case "Encoding":
      return pathOf(issue.issue)
    case "Composite":
    case "AnyOf":
      return issue.issues.map(pathOf).find((path) => path !== undefined)
    default:
      return undefined
  }
}

/** The name a `ConfigError` gives its value: its path, when it has one (a source that could not be read has none). */
export const nameOf = (error: Config.ConfigError): string | undefined => {
  const path = error.cause._tag === "SchemaError" ? pathOf(error.cause.issue) : undefined
  return path === undefined || path.length === 0 ? undefined : path.map(String).join(".")
}

/** Whether `config` failed only for want of a value: the same `Config` made optional reads none. */
export const isMissing = <A>(config: Config.Config<A>, _error: Config.ConfigError): Effect.Effect<boolean> =>
  Effect.match(Config.option(config), { onFailure: () => false, onSuccess: Option.isNone })
