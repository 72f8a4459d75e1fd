/**
 * The errors of the mirror: one class per meaning, those of its database
 * (`MirrorError`) and `ItemMalformed`, an item a decoded sync cannot
 * decode. The mirror is never left half-written: each page is committed
 * with its checkpoint in one transaction, so after any of these errors it
 * stands at its last committed page, and the next sync goes on from there.
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
 * @since 0.3.0 (1.x: 1.1.0)
 */
import { literals, recordOf, Schema } from "#edition/internal/Edition.js"
import * as ErrorTexts from "../../../rules/src/mirror/ErrorTexts.js"

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
 * @category errors
 * @since 0.3.0 (1.x: 1.1.0)
 */
export class DatabaseUnavailable extends Schema.TaggedError<DatabaseUnavailable>()("DatabaseUnavailable", {
  /** The file, or the PostgreSQL address without its secrets (`postgres://mirror:***@db/catalog`). */
  database: Schema.String,
  detail: Schema.String
}) {
  override get message() {
    return ErrorTexts.messages.DatabaseUnavailable(this)
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
 * @category errors
 * @since 0.3.0 (1.x: 1.1.0)
 */
export class SchemaTooNew extends Schema.TaggedError<SchemaTooNew>()("SchemaTooNew", {
  database: Schema.String,
  found: Schema.Number,
  known: Schema.Number
}) {
  override get message() {
    return ErrorTexts.messages.SchemaTooNew(this)
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
 * @category errors
 * @since 0.3.0 (1.x: 1.1.0)
 */
export class DatabaseFailed extends Schema.TaggedError<DatabaseFailed>()("DatabaseFailed", {
  database: Schema.String,
  detail: Schema.String
}) {
  override get message() {
    return ErrorTexts.messages.DatabaseFailed(this)
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
 * @category errors
 * @since 0.3.0 (1.x: 1.1.0)
 */
export class SyncLocked extends Schema.TaggedError<SyncLocked>()("SyncLocked", {
  collection: Schema.String,
  holder: Schema.String
}) {
  override get message() {
    return ErrorTexts.messages.SyncLocked(this)
  }
}

/**
 * An item does not match its collection's schema, so a decoded change
 * (`Mirror.syncDecoded`) cannot be given: either a row of the mirror
 * (`source: "mirror"`: its JSON was edited by hand or written by another
 * program) or an item of a page the service sent (`source: "service"`: the
 * wire form was right, its value was not, such as the date `2026-02-30`).
 * The page under way was rolled back; the next sync goes on from it.
 *
 * @example
 * ```ts
 * import { MirrorError } from "effect-catalog/mirror"
 *
 * new MirrorError.ItemMalformed({
 *   collection: "models",
 *   id: "o0000-falcon/m0000000-kestrel-8b",
 *   field: "released_on",
 *   detail: "released_on: No such calendar day: 2026-02-30",
 *   source: "service"
 * }).message
 * // "The service sent the models item \"o0000-falcon/m0000000-kestrel-8b\", which does not match its schema: released_on: No such calendar day: 2026-02-30"
 * ```
 * @category errors
 * @since 0.5.0 (1.x: 1.1.0)
 */
export class ItemMalformed extends Schema.TaggedError<ItemMalformed>()("ItemMalformed", {
  collection: Schema.String,
  id: Schema.String,
  /** The path of the first field that does not match (`pricing.input`), empty when the item as a whole does not (a row that is not JSON). */
  field: Schema.String,
  /** What is wrong, on one line: the field, what was expected there and what was found. */
  detail: Schema.String,
  /** Where the item was read: a row of the mirror, or a page of the service. */
  source: literals(["mirror", "service"])
}) {
  override get message() {
    return ErrorTexts.messages.ItemMalformed(this)
  }
}

/**
 * The freshness targets given to the keeper do not fit its share of the
 * allowance and the catalog's size: `promises` gives, by family, the
 * longest age it can promise (seconds), `targets` what was asked.
 *
 * @example
 * ```ts
 * import type { MirrorError } from "effect-catalog/mirror"
 *
 * const bestForModels = (error: MirrorError.TargetsInfeasible): number | undefined => error.promises["models"]
 * ```
 * @category errors
 * @since 0.8.0 (1.x: 1.2.0)
 */
export class TargetsInfeasible extends Schema.TaggedError<TargetsInfeasible>()("TargetsInfeasible", {
  targets: recordOf(Schema.String, Schema.Number),
  promises: recordOf(Schema.String, Schema.Number),
  /** The factor every target would stretch by to fit. */
  stretch: Schema.Number
}) {
  override get message() {
    return ErrorTexts.messages.TargetsInfeasible(this)
  }
}

/**
 * Any error of the mirror's database.
 *
 * @category errors
 * @since 0.3.0 (1.x: 1.1.0)
 */
export type MirrorError = DatabaseUnavailable | SchemaTooNew | DatabaseFailed | SyncLocked
