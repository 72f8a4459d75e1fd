/**
 * Bundles the simulator's standalone form to where both editions'
 * `Simulator` imports it from (`npm start` and `npm run bench` run it first;
 * the tests' setup does the same).
 */
import { bundleStandaloneSimulator } from "./bundle.js"

await bundleStandaloneSimulator()
