/**
 * Options of a client that cannot all take effect: each is refused with a
 * `ConfigError` that says why and what to do instead, never ignored.
 */
import { ConfigError, Effect, Option } from "effect"
import type * as Admission from "../../../common/src/client/Admission.js"
import { settings } from "../CatalogConfig.js"
import * as OptionRefusals from "../../../rules/src/client/OptionRefusals.js"

/** The refusal as a `ConfigError`. */
const refused = (refusal: OptionRefusals.Refusal | undefined): Option.Option<ConfigError.ConfigError> =>
  Option.map(Option.fromNullable(refusal), ({ message, name }) => ConfigError.InvalidData([name], message))

/** Options given together of which one would be ignored. */
export const conflicting = (options: OptionRefusals.Given): Option.Option<ConfigError.ConfigError> => refused(OptionRefusals.conflicting(options))

/** The time scale of the configuration, and that of the limits given in the options: one of them would be ignored if they differ. */
export const timeScaleAgrees = (timeScale: Option.Option<number>, limits: Partial<Admission.Limits> | undefined): Option.Option<ConfigError.ConfigError> =>
  refused(OptionRefusals.timeScaleDisagrees(settings.timeScale.variable, Option.getOrUndefined(timeScale), limits))

/** The time scale of the configuration, which the admission built must keep: an admission given keeps its own. */
export const timeScaleKept = (timeScale: Option.Option<number>, admission: Admission.Service): Effect.Effect<void, ConfigError.ConfigError> =>
  Option.match(refused(OptionRefusals.timeScaleNotKept(settings.timeScale.variable, Option.getOrUndefined(timeScale), admission.limits)), {
    onNone: () => Effect.void,
    onSome: Effect.fail
  })
