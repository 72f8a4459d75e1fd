/**
 * effect-catalog: an Effect-native client for the Catalog Service and the
 * contract it is built on. The simulator of the service is in
 * `effect-catalog/simulator` and the `catalog` command in `effect-catalog/cli`,
 * so that an application of the client does not load them.
 *
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as Envelopes from "../common/src/contract/Envelopes.js"
/** @since 0.1.0 */
export * as Operations from "../common/src/contract/Operations.js"
/** @since 0.1.0 */
export * as Parameters from "../common/src/contract/Parameters.js"
/** @since 0.5.0 */
export * as Limits from "../common/src/contract/Limits.js"
/** @since 0.1.0 */
export * as Primitives from "./contract/Primitives.js"
/** @since 0.1.0 */
export * as Resources from "../common/src/contract/Resources.js"
/** @since 0.1.0 */
export * as OpenApi from "../common/src/contract/OpenApi.js"
/** @since 0.1.0 */
export * as CatalogClient from "../common/src/client/CatalogClient.js"
/** @since 0.1.0 */
export * as CatalogConfig from "../common/src/client/CatalogConfig.js"
/** @since 0.1.0 */
export * as Errors from "../common/src/client/Errors.js"
/** @since 0.1.0 */
export * as OperationErrors from "../common/src/client/OperationErrors.js"
/** @since 0.1.0 */
export * as Admission from "../common/src/client/Admission.js"
/** @since 0.7.0 */
export * as AdmissionStore from "../common/src/client/AdmissionStore.js"
/** @since 0.7.0 */
export * as AdmissionWindows from "../rules/src/client/AdmissionWindows.js"
/** @since 0.7.0 */
export * as LiveAllowance from "../common/src/client/LiveAllowance.js"
/** @since 0.1.0 */
export * as Budget from "../common/src/client/Budget.js"
/** @since 0.1.0 */
export * as ResponseCache from "../common/src/client/ResponseCache.js"
/** @since 0.5.0 */
export * as PageSizes from "../common/src/client/PageSizes.js"
/** @since 0.1.0 */
export * as Retry from "../common/src/client/Retry.js"
