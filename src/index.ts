/**
 * effect-catalog: an Effect-native client for the Catalog Service, the
 * contract it is built on, and a faithful simulator of the service.
 *
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as Envelopes from "./contract/Envelopes.js"
/** @since 0.1.0 */
export * as Operations from "./contract/Operations.js"
/** @since 0.1.0 */
export * as Parameters from "./contract/Parameters.js"
/** @since 0.1.0 */
export * as Primitives from "./contract/Primitives.js"
/** @since 0.1.0 */
export * as Resources from "./contract/Resources.js"
/** @since 0.1.0 */
export * as OpenApi from "./contract/OpenApi.js"
/** @since 0.1.0 */
export * as Simulator from "./simulator/Simulator.js"
/** @since 0.1.0 */
export * as SimulatorCommand from "./simulator/Command.js"
/** @since 0.1.0 */
export * as CatalogClient from "./client/CatalogClient.js"
/** @since 0.1.0 */
export * as CatalogConfig from "./client/CatalogConfig.js"
/** @since 0.1.0 */
export * as Errors from "./client/Errors.js"
/** @since 0.1.0 */
export * as OperationErrors from "./client/OperationErrors.js"
/** @since 0.1.0 */
export * as Pagination from "./client/Pagination.js"
/** @since 0.1.0 */
export * as Admission from "./client/Admission.js"
/** @since 0.1.0 */
export * as Budget from "./client/Budget.js"
/** @since 0.1.0 */
export * as ResponseCache from "./client/ResponseCache.js"
/** @since 0.1.0 */
export * as Retry from "./client/Retry.js"
/** @since 0.1.0 */
export * as CatalogCommand from "./cli/Command.js"
