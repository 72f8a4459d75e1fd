/**
 * Options of a client that cannot all take effect: each is refused with a
 * `ConfigError` that says why and what to do instead, never ignored.
 *
 * @internal
 */
import { Config, Effect, Option, Schema, SchemaIssue } from "effect"
import type * as Admission from "../Admission.js"
import { settings } from "../CatalogConfig.js"

/** What the refusals read of a client's options. */
interface Given {
  readonly limits?: Partial<Admission.Limits> | undefined
  readonly admission?: unknown
  readonly cacheEntries?: number | undefined
  readonly cache?: unknown
  readonly middleware?: ReadonlyArray<unknown> | undefined
  readonly steps?: ReadonlyArray<unknown> | undefined
}

/** A `ConfigError` for the value at `name`: present but refused, in these words. */
export const invalidData = (name: string, message: string): Config.ConfigError =>
  new Config.ConfigError(new Schema.SchemaError(new SchemaIssue.Pointer([name], new SchemaIssue.InvalidValue({ message }))))

/** Options given together of which one would be ignored. */
export const conflicting = (options: Given): Option.Option<Config.ConfigError> => {
  if (options.limits !== undefined && options.admission !== undefined) {
    return Option.some(invalidData(
      "limits",
      "limits cannot take effect beside admission: the admission given keeps the limits it was made with; give them to its layer"
    ))
  }
  if (options.cacheEntries !== undefined && options.cache !== undefined) {
    return Option.some(invalidData(
      "cacheEntries",
      "cacheEntries cannot take effect beside cache: it sizes the default cache only; size the cache given in its own layer"
    ))
  }
  if (options.middleware !== undefined && options.steps !== undefined) {
    return Option.some(invalidData("steps", "steps is the former name of middleware: give the middleware once, as middleware"))
  }
  return Option.none()
}

/** The time scale of the configuration, and that of the limits given in the options: one of them would be ignored if they differ. */
export const timeScaleAgrees = (timeScale: Option.Option<number>, limits: Partial<Admission.Limits> | undefined): Option.Option<Config.ConfigError> =>
  Option.isSome(timeScale) && limits?.timeScale !== undefined && limits.timeScale !== timeScale.value
    ? Option.some(invalidData(
      settings.timeScale.variable,
      `${settings.timeScale.variable} (${timeScale.value}) cannot take effect beside limits.timeScale (${limits.timeScale}): give the time scale once`
    ))
    : Option.none()

/** The time scale of the configuration, which the admission built must keep: an admission given keeps its own. */
export const timeScaleKept = (timeScale: Option.Option<number>, admission: Admission.Service): Effect.Effect<void, Config.ConfigError> => {
  if (Option.isNone(timeScale) || admission.limits?.timeScale === timeScale.value) return Effect.void
  const kept = admission.limits === undefined ? "limits it does not say" : `a time scale of ${admission.limits.timeScale}`
  return Effect.fail(invalidData(
    settings.timeScale.variable,
    `${settings.timeScale.variable} (${timeScale.value}) cannot take effect: the admission given keeps ${kept}; give the time scale to its limits, or leave ${settings.timeScale.variable} unset`
  ))
}
