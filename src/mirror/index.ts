/**
 * effect-catalog/mirror: a local, queryable copy of the catalog in SQL, kept
 * fresh within the account's allowance, with a change feed; SQLite embedded
 * by default, PostgreSQL for a team. It needs the optional peer
 * dependencies `@effect/sql` and `@effect/sql-sqlite-node` or
 * `@effect/sql-pg`; the client entry `effect-catalog` never loads them.
 *
 * @example
 * ```ts
 * import { NodeHttpClient } from "@effect/platform-node"
 * import { Effect, Layer, Stream } from "effect"
 * import { CatalogClient } from "effect-catalog"
 * import { Mirror, MirrorDatabase } from "effect-catalog/mirror"
 *
 * const syncModels = Mirror.sync("models").pipe(Stream.runCount).pipe(
 *   Effect.provide(MirrorDatabase.layerSqlite("catalog.sqlite")),
 *   Effect.provide(CatalogClient.layerConfig().pipe(Layer.provide(NodeHttpClient.layerUndici)))
 * )
 * ```
 * @since 0.3.0
 */
/** @since 0.3.0 */
export * as Change from "../../common/src/mirror/Change.js"
/** @since 0.8.0 */
export * as ChangeFeed from "../../common/src/mirror/ChangeFeed.js"
/** @since 0.3.0 */
export * as Mirror from "../../common/src/mirror/Mirror.js"
/** @since 0.3.0 */
export * as MirrorDatabase from "./MirrorDatabase.js"
/** @since 0.3.0 */
export * as MirrorError from "../../common/src/mirror/MirrorError.js"
