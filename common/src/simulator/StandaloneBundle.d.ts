/**
 * The simulator's standalone form (`tools/src/simulator/Standalone.ts`) as
 * both editions' `Simulator` loads it: one bundled module that holds its own
 * Effect 3, built by `scripts/bundle.ts` beside this declaration (for the
 * tests) or into each package (by its build). Declared by hand in plain
 * types, so that neither tsc nor Vitest follows an edition into the tools'
 * modules; `tools/test/simulator/standalone.test.ts` holds the standalone
 * form to it.
 */
import type { CollectionOperation } from "../contract/Operations.js"
import type { Clock, Options, Running as PlainRunning, Settings } from "../../../rules/src/simulator/Settings.js"

/** The items of each collection in their wire form, by the schemas of the edition that reads this declaration. */
export type WireItems = { readonly [Op in CollectionOperation as Op["id"]]: Op["item"]["Encoded"] }

/** A running simulator, its items typed as `WireItems`. */
export type Running = PlainRunning<WireItems>

/** Starts a simulator with `settings`, reading the time from `clock` (the system's by default); it runs until `stop`. */
export declare const start: (settings?: Settings, clock?: Clock) => Promise<Running>

/** Settings with every default filled in. */
export declare const resolve: (settings?: Settings) => Options
