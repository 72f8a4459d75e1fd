/**
 * The errors of the mirror's database: one class per meaning. The mirror is
 * never left half-written: each page is committed with its checkpoint in one
 * transaction, so after any of these errors it stands at its last committed
 * page, and the next sync goes on from there.
 *
 * @example
 * ```ts
 * import type { MirrorError } from "effect-catalog/mirror"
 *
 * const advice = (error: MirrorError.MirrorError): string => {
 *   switch (error._tag) {
 *     case "DatabaseUnavailable": return `check ${error.database}: ${error.detail}`
 *     case "SchemaTooNew": return "upgrade effect-catalog to read this mirror"
 *     case "DatabaseFailed": return `run the sync again: ${error.detail}`
 *     case "SyncLocked": return `wait for ${error.holder}`
 *   }
 * }
 * ```
 * @since 0.3.0
 */
import { Schema } from "effect"

/**
 * The database cannot be opened, reached or migrated.
 *
 * @example
 * ```ts
 * import { MirrorError } from "effect-catalog/mirror"
 *
 * new MirrorError.DatabaseUnavailable({ database: "/read-only/catalog.sqlite", detail: "unable to open database file" }).message
 * // "The mirror's database /read-only/catalog.sqlite cannot be used: unable to open database file"
 * ```
 * @since 0.3.0
 */
export class DatabaseUnavailable extends Schema.TaggedError<DatabaseUnavailable>()("DatabaseUnavailable", {
  /** The file, or the PostgreSQL address without its secrets (`postgres://mirror:***@db/catalog`). */
  database: Schema.String,
  detail: Schema.String
}) {
  override get message() {
    return `The mirror's database ${this.database} cannot be used: ${this.detail}`
  }
}

/**
 * The database holds a mirror written by a newer version of effect-catalog.
 *
 * @example
 * ```ts
 * import { MirrorError } from "effect-catalog/mirror"
 *
 * new MirrorError.SchemaTooNew({ database: "catalog.sqlite", found: 3, known: 1 }).message
 * // "The mirror in catalog.sqlite has schema version 3; this version of effect-catalog knows versions up to 1: upgrade it"
 * ```
 * @since 0.3.0
 */
export class SchemaTooNew extends Schema.TaggedError<SchemaTooNew>()("SchemaTooNew", {
  database: Schema.String,
  found: Schema.Number,
  known: Schema.Number
}) {
  override get message() {
    return `The mirror in ${this.database} has schema version ${this.found}; this version of effect-catalog knows versions up to ${this.known}: upgrade it`
  }
}

/**
 * A read or write failed during a sync (a full disk, a dropped connection):
 * the page under way was rolled back.
 *
 * @example
 * ```ts
 * import { MirrorError } from "effect-catalog/mirror"
 *
 * new MirrorError.DatabaseFailed({ database: "catalog.sqlite", detail: "database or disk is full" }).message
 * // "The mirror's database catalog.sqlite failed: database or disk is full; the mirror stands at its last committed page"
 * ```
 * @since 0.3.0
 */
export class DatabaseFailed extends Schema.TaggedError<DatabaseFailed>()("DatabaseFailed", {
  database: Schema.String,
  detail: Schema.String
}) {
  override get message() {
    return `The mirror's database ${this.database} failed: ${this.detail}; the mirror stands at its last committed page`
  }
}

/**
 * Another sync of the same collection into the same database is running.
 *
 * @example
 * ```ts
 * import { MirrorError } from "effect-catalog/mirror"
 *
 * new MirrorError.SyncLocked({ collection: "models", holder: "process 4242 on build-1" }).message
 * // "Another sync of models into this database is running (process 4242 on build-1)"
 * ```
 * @since 0.3.0
 */
export class SyncLocked extends Schema.TaggedError<SyncLocked>()("SyncLocked", {
  collection: Schema.String,
  holder: Schema.String
}) {
  override get message() {
    return `Another sync of ${this.collection} into this database is running (${this.holder})`
  }
}

/**
 * Any error of the mirror's database.
 *
 * @since 0.3.0
 */
export type MirrorError = DatabaseUnavailable | SchemaTooNew | DatabaseFailed | SyncLocked
