/**
 * effect-catalog/simulator: a faithful simulator of the Catalog Service, as a
 * `Layer` for tests and applications and as the `simulator` command. It is
 * its own entry point so that loading the client does not load it.
 *
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as Simulator from "../../common/src/simulator/Simulator.js"
/** @since 0.1.0 */
export * as SimulatorCommand from "../../tools/src/simulator/Command.js"
/** @since 0.7.0 */
export * as SimulatorStandalone from "../../tools/src/simulator/Standalone.js"
