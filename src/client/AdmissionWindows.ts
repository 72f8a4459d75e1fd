/**
 * The arithmetic of admission, pure: the limits a client keeps to (the
 * contract's, none, or the account's live allowance under them), the sliding
 * windows they make, the moment a request may leave under them, and the
 * moments a run of requests may start (what a plan or a progress line says
 * of the time left). Admission and every store decide with it; nothing here
 * runs an effect, nor imports Effect: both editions of the package share it.
 *
 * @example
 * ```ts
 * import { AdmissionWindows } from "effect-catalog"
 *
 * // The contract's windows, and when an 11th request may leave after ten answered at 0.
 * const windows = AdmissionWindows.windows(AdmissionWindows.contractLimits)
 * AdmissionWindows.earliestDeparture(Array.from({ length: 10 }, () => 0), 0, windows, 0) // 10100
 * ```
 * @since 0.7.0
 */
export * from "../../rules/src/client/AdmissionWindows.js"
