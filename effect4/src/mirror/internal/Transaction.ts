/**
 * The mirror's transactions, whose every failure of the database is a
 * typed failure. `effect/sql` raises a `ROLLBACK` that fails as a defect, in
 * place of the failure that ended the transaction: when a PostgreSQL
 * session ends inside a transaction (the server terminated it, the network
 * dropped it), the statement under way fails, then its `ROLLBACK` fails too.
 * Here the transaction fails with the statement's failure, or with the
 * `SqlError` of its `COMMIT`, which the mirror reports as `DatabaseFailed`;
 * the server rolls the transaction back with its session, so the mirror
 * still stands at its last committed page.
 *
 * @internal
 */
import { Effect, Option, Ref } from "effect"
import type * as SqlClient from "effect/sql/SqlClient"
import { SqlError } from "effect/sql/SqlError"

/** Runs `effect` in a transaction of `sql`; a `COMMIT` or `ROLLBACK` that fails is a failure, not a defect. */
export const transaction = <A, E, R>(sql: SqlClient.SqlClient, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlError, R> =>
  Effect.flatMap(Ref.make(Option.none<E>()), (ended) =>
    sql.withTransaction(Effect.tapError(effect, (error) => Ref.set(ended, Option.some(error)))).pipe(
      Effect.catchDefect((defect): Effect.Effect<never, E | SqlError> =>
        defect instanceof SqlError
          ? Effect.flatMap(Ref.get(ended), (failure) => Effect.fail(Option.getOrElse(failure, () => defect)))
          : Effect.die(defect)
      )
    ))
