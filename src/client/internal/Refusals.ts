/**
 * Options of a client that cannot all take effect: each is refused with a
 * `ConfigError` that says why and what to do instead, never ignored.
 */
import { ConfigError, Effect, Option } from "effect"
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

/** Options given together of which one would be ignored. */
export const conflicting = (options: Given): Option.Option<ConfigError.ConfigError> => {
  if (options.limits !== undefined && options.admission !== undefined) {
    return Option.some(ConfigError.InvalidData(
      ["limits"],
      "limits cannot take effect beside admission: the admission given keeps the limits it was made with; give them to its layer"
    ))
  }
  if (options.cacheEntries !== undefined && options.cache !== undefined) {
    return Option.some(ConfigError.InvalidData(
      ["cacheEntries"],
      "cacheEntries cannot take effect beside cache: it sizes the default cache only; size the cache given in its own layer"
    ))
  }
  if (options.middleware !== undefined && options.steps !== undefined) {
    return Option.some(ConfigError.InvalidData(["steps"], "steps is the former name of middleware: give the middleware once, as middleware"))
  }
  return Option.none()
}

/** The time scale of the configuration, and that of the limits given in the options: one of them would be ignored if they differ. */
export const timeScaleAgrees = (timeScale: Option.Option<number>, limits: Partial<Admission.Limits> | undefined): Option.Option<ConfigError.ConfigError> =>
  Option.isSome(timeScale) && limits?.timeScale !== undefined && limits.timeScale !== timeScale.value
    ? Option.some(ConfigError.InvalidData(
      [settings.timeScale.variable],
      `${settings.timeScale.variable} (${timeScale.value}) cannot take effect beside limits.timeScale (${limits.timeScale}): give the time scale once`
    ))
    : Option.none()

/** The time scale of the configuration, which the admission built must keep: an admission given keeps its own. */
export const timeScaleKept = (timeScale: Option.Option<number>, admission: Admission.Service): Effect.Effect<void, ConfigError.ConfigError> => {
  if (Option.isNone(timeScale) || admission.limits?.timeScale === timeScale.value) return Effect.void
  const kept = admission.limits === undefined ? "limits it does not say" : `a time scale of ${admission.limits.timeScale}`
  return Effect.fail(ConfigError.InvalidData(
    [settings.timeScale.variable],
    `${settings.timeScale.variable} (${timeScale.value}) cannot take effect: the admission given keeps ${kept}; give the time scale to its limits, or leave ${settings.timeScale.variable} unset`
  ))
}
