/**
 * What the mirror's errors say, by their tag, as plain functions of their
 * fields.
 *
 * Imports nothing of Effect. `MirrorError` (common/src/mirror/MirrorError.ts)
 * gives these messages from its error classes.
 */

/** Seconds as seconds, minutes or hours, rounded for a message. */
const minutes = (seconds: number): string =>
  seconds >= 5400 ? `${Math.round(seconds / 360) / 10} h` : seconds >= 90 ? `${Math.round(seconds / 6) / 10} min` : `${Math.round(seconds * 10) / 10} s`

export const messages = {
  DatabaseUnavailable: (error: { readonly database: string; readonly detail: string }) =>
    `The mirror's database ${error.database} cannot be used: ${error.detail}`,
  SchemaTooNew: (error: { readonly database: string; readonly found: number; readonly known: number }) =>
    `The mirror in ${error.database} has schema version ${error.found}; this version of effect-catalog knows versions up to ${error.known}: upgrade it`,
  DatabaseFailed: (error: { readonly database: string; readonly detail: string }) =>
    `The mirror's database ${error.database} failed: ${error.detail}; the mirror stands at its last committed page`,
  SyncLocked: (error: { readonly collection: string; readonly holder: string }) =>
    `Another sync of ${error.collection} into this database is running (${error.holder})`,
  ItemMalformed: (error: { readonly collection: string; readonly id: string; readonly detail: string; readonly source: "mirror" | "service" }) => {
    const item = `the ${error.collection} item ${JSON.stringify(error.id)}`
    return error.source === "mirror"
      ? `The mirror's row of ${item} does not match its schema: ${error.detail}; correct the row or delete it, and sync again`
      : `The service sent ${item}, which does not match its schema: ${error.detail}`
  },
  TargetsInfeasible: (error: { readonly promises: Readonly<Record<string, number>>; readonly targets: Readonly<Record<string, number>> }) =>
    `The freshness targets do not fit the keeper's share of the allowance; the best it can promise: ${
      Object.entries(error.promises).map(([family, promise]) => `${family} within ${minutes(promise)} (asked ${minutes(error.targets[family] ?? 0)})`).join(", ")
    }; relax the targets, raise the share, or run at these (whenInfeasible: "promise", --at-promise)`,
  /** Why a driver could not be loaded. */
  driverMissing: (packageName: string, reason: string) =>
    `the driver ${packageName} is not installed (${reason}); install it at the version effect-catalog's peerDependencies name (README, Install)`
}
