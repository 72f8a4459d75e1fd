/**
 * Options of a client that cannot all take effect, and why, as plain
 * data: which option is refused and the sentence that says what to do
 * instead. Nothing is ever ignored.
 *
 * Imports nothing of Effect. `Refusals`
 * (common/src/client/internal/Refusals.ts) gives each refusal as the
 * edition's own `ConfigError`.
 */

/** An option refused: its name (or the configuration's variable), and why. */
export interface Refusal {
  readonly name: string
  readonly message: string
}

/** What the refusals read of a client's options. */
export interface Given {
  readonly limits?: { readonly timeScale?: number | undefined } | undefined
  readonly admission?: unknown
  readonly cacheEntries?: number | undefined
  readonly cache?: unknown
  readonly middleware?: ReadonlyArray<unknown> | undefined
  readonly steps?: ReadonlyArray<unknown> | undefined
}

/** Options given together of which one would be ignored. */
export const conflicting = (options: Given): Refusal | undefined => {
  if (options.limits !== undefined && options.admission !== undefined) {
    return {
      name: "limits",
      message: "limits cannot take effect beside admission: the admission given keeps the limits it was made with; give them to its layer"
    }
  }
  if (options.cacheEntries !== undefined && options.cache !== undefined) {
    return {
      name: "cacheEntries",
      message: "cacheEntries cannot take effect beside cache: it sizes the default cache only; size the cache given in its own layer"
    }
  }
  if (options.middleware !== undefined && options.steps !== undefined) {
    return { name: "steps", message: "steps is the former name of middleware: give the middleware once, as middleware" }
  }
  return undefined
}

/**
 * The time scale of the configuration (its `variable`), and that of the
 * limits given in the options: one of them would be ignored if they differ.
 */
export const timeScaleDisagrees = (
  variable: string,
  timeScale: number | undefined,
  limits: { readonly timeScale?: number | undefined } | undefined
): Refusal | undefined =>
  timeScale !== undefined && limits?.timeScale !== undefined && limits.timeScale !== timeScale
    ? {
      name: variable,
      message: `${variable} (${timeScale}) cannot take effect beside limits.timeScale (${limits.timeScale}): give the time scale once`
    }
    : undefined

/**
 * The time scale of the configuration (its `variable`), which the admission
 * built must keep (`kept`, the limits it says, if any): an admission given
 * keeps its own.
 */
export const timeScaleNotKept = (
  variable: string,
  timeScale: number | undefined,
  kept: { readonly timeScale: number } | undefined
): Refusal | undefined => {
  if (timeScale === undefined || kept?.timeScale === timeScale) return undefined
  const keeps = kept === undefined ? "limits it does not say" : `a time scale of ${kept.timeScale}`
  return {
    name: variable,
    message:
      `${variable} (${timeScale}) cannot take effect: the admission given keeps ${keeps}; give the time scale to its limits, or leave ${variable} unset`
  }
}
