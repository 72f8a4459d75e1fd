/**
 * The standalone simulator (`Standalone.ts`) as the Effect 4 edition loads
 * it: one bundled module that holds its own Effect 3, built by
 * `scripts/bundle.ts` beside this declaration (for the tests) or into the
 * package (by its build). Declared by hand in plain types, so that neither
 * tsc nor Vitest follows the edition into modules written on Effect 3;
 * `test/simulator/standalone.test.ts` holds `Standalone.start` to it.
 */
import type { CollectionOperation } from "../../common/src/contract/Operations.js"
import type { Clock, Running as PlainRunning, Settings } from "./Settings.js"

/** The items of each collection in their wire form, by the schemas of the edition that reads this declaration. */
export type WireItems = { readonly [Op in CollectionOperation as Op["id"]]: Op["item"]["Encoded"] }

/** A running simulator, its items typed as `WireItems`. */
export type Running = PlainRunning<WireItems>

/** Starts a simulator with `settings`, reading the time from `clock` (the system's by default); it runs until `stop`. */
export declare const start: (settings?: Settings, clock?: Clock) => Promise<Running>
