/**
 * Vitest's global setup: bundles the standalone simulator to the path the
 * edition's `Simulator` imports it from, so that every test file, example
 * and README block starts the simulator the package ships.
 */
import { bundleStandaloneSimulator } from "../../../scripts/bundle.js"

export const setup = (): Promise<void> => bundleStandaloneSimulator()
