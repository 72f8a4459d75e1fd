/**
 * Vitest's global setup: bundles the simulator's standalone form to the
 * path both editions' `Simulator` imports it from, so that every test file, example
 * and README block starts the simulator the package ships.
 */
import { bundleStandaloneSimulator } from "../../../scripts/bundle.js"

export const setup = (): Promise<void> => bundleStandaloneSimulator()
