/**
 * Options of a client that cannot all take effect: each is refused with a
 * `ConfigError` that says why and what to do instead, never ignored.
 *
 * @internal
 */
import * as ConfigErrors from "#edition/client/internal/ConfigErrors.js"
import { type ConfigFailure, Effect, fromNullable, Option } from "#edition/internal/Edition.js"
import type * as Admission from "../Admission.js"
import { settings } from "../CatalogConfig.js"
import * as OptionRefusals from "../../../../rules/src/client/OptionRefusals.js"

/** The refusal as a `ConfigError`. */
const refused = (refusal: OptionRefusals.Refusal | undefined): Option.Option<ConfigFailure> =>
  Option.map(fromNullable(refusal), ({ message, name }) => ConfigErrors.invalidData(name, message))

/** Options given together of which one would be ignored. */
export const conflicting = (options: OptionRefusals.Given): Option.Option<ConfigFailure> => refused(OptionRefusals.conflicting(options))

/** The time scale of the configuration, and that of the limits given in the options: one of them would be ignored if they differ. */
export const timeScaleAgrees = (timeScale: Option.Option<number>, limits: Partial<Admission.Limits> | undefined): Option.Option<ConfigFailure> =>
  refused(OptionRefusals.timeScaleDisagrees(settings.timeScale.variable, Option.getOrUndefined(timeScale), limits))

/** The time scale of the configuration, which the admission built must keep: an admission given keeps its own. */
export const timeScaleKept = (timeScale: Option.Option<number>, admission: Admission.Service): Effect.Effect<void, ConfigFailure> =>
  Option.match(refused(OptionRefusals.timeScaleNotKept(settings.timeScale.variable, Option.getOrUndefined(timeScale), admission.limits)), {
    onNone: () => Effect.void,
    onSome: Effect.fail
  })
