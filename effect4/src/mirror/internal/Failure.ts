/**
 * What the database's driver said when something failed, as one line without a stack.
 *
 * @internal
 */
import { Cause } from "effect"
import type { SqlError } from "effect/sql/SqlError"
import { DatabaseFailed } from "../../../../common/src/mirror/MirrorError.js"

/** The message of whatever failed, without a stack: a driver's own message rather than its wrapper's. */
export const describe = (cause: Cause.Cause<unknown>): string => {
  const squashed = Cause.squash(cause)
  let inner: unknown = squashed
  // effect/sql keeps the driver's error two levels down: SqlError → its reason → the driver's error.
  while (inner instanceof Error && inner.cause instanceof Error) inner = inner.cause
  return inner instanceof Error ? inner.message : String(inner)
}

/** A failure of the database during a sync, with what the driver said. */
export const failed = (name: string) => (error: SqlError): DatabaseFailed =>
  new DatabaseFailed({ database: name, detail: describe(Cause.fail(error)) })
