/**
 * effect-catalog/simulator: a faithful simulator of the Catalog Service, as a
 * `Layer` for tests and applications. It is its own entry point so that
 * loading the client does not load it.
 *
 * @since 1.0.0
 */

/** @since 1.0.0 */
export * as Simulator from "../../../common/src/simulator/Simulator.js"
