/**
 * The arithmetic of admission, pure: the limits a client keeps to, the
 * sliding windows they make, the moment a request may leave under them, and
 * the moments a run of requests may start. It imports nothing of Effect, so
 * both editions share one module, among the shared rules.
 *
 * @example
 * ```ts
 * import { AdmissionWindows } from "effect-catalog"
 *
 * const windows = AdmissionWindows.windows(AdmissionWindows.contractLimits)
 * AdmissionWindows.earliestDeparture(Array.from({ length: 10 }, () => 0), 0, windows, 0) // 10100
 * ```
 * @since 1.0.0
 */
export * from "../../../rules/src/client/AdmissionWindows.js"
