/**
 * The SQL client of this edition, for the mirror's modules both editions
 * share (`common/src/mirror`): `effect/sql` in Effect 4, `@effect/sql` in
 * Effect 3.
 *
 * @internal
 */
export * as SqlClient from "effect/sql/SqlClient"
export { SqlError } from "effect/sql/SqlError"
