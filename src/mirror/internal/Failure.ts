/** What the database's driver said when something failed, as one line without a stack. */
import type { SqlError } from "@effect/sql/SqlError"
import { Cause } from "effect"
import { DatabaseFailed } from "../../../common/src/mirror/MirrorError.js"

/** The message of whatever failed, without a stack. */
export const describe = (cause: Cause.Cause<unknown>): string => {
  const squashed = Cause.squash(cause)
  const inner = squashed instanceof Error && squashed.cause instanceof Error ? squashed.cause : squashed
  return inner instanceof Error ? inner.message : String(inner)
}

/** A failure of the database during a sync, with what the driver said. */
export const failed = (name: string) => (error: SqlError): DatabaseFailed =>
  new DatabaseFailed({ database: name, detail: describe(Cause.fail(error)) })
