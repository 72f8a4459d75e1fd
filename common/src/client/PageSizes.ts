/**
 * What fits is remembered: for each list operation, the page size that
 * fitted after the service refused a larger page with 422
 * `response_too_large`. A scan starts at it rather than at the largest page
 * the operation allows, so that a list whose items are large pays the
 * refused request (and its slot under the limits) once, not on every scan;
 * `catalog plan` predicts requests with it. The sizes live in memory by
 * default, in a `KeyValueStore` (the command's state file), or in Redis
 * (`RedisPageSizes` of `effect-catalog/redis`), beside the admission's state.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { PageSizes } from "effect-catalog"
 *
 * const program = Effect.gen(function*() {
 *   const pageSizes = yield* PageSizes.PageSizes
 *   yield* pageSizes.set("skills", 50)
 *   return yield* pageSizes.get("skills") // Option.some(50)
 * }).pipe(Effect.provide(PageSizes.layerMemory))
 * ```
 * @since 0.5.0 (1.x: 1.0.0)
 */
import { Effect, fromNullable, KeyValueStore, Layer, Option, PositiveInt, recordOf, Ref, Schema, schemaStore, ServiceTag } from "#edition/internal/Edition.js"

/**
 * Reads and records the page size that fits, by list operation id.
 *
 * @example
 * ```ts
 * import { Effect, Option } from "effect"
 * import type { PageSizes } from "effect-catalog"
 *
 * const startingSize = (pageSizes: PageSizes.Service, maxLimit: number) =>
 *   Effect.map(pageSizes.get("skills"), Option.getOrElse(() => maxLimit))
 * ```
 * @category models
 * @since 0.5.0 (1.x: 1.0.0)
 */
export interface Service {
  /** The page size that fitted after a refusal, if the operation was ever refused a page. */
  readonly get: (operation: string) => Effect.Effect<Option.Option<number>>
  /** Records the page size that fitted after a refusal (a later refusal records a smaller one). */
  readonly set: (operation: string, size: number) => Effect.Effect<void>
}

/**
 * The page sizes the client's scans start at; a client layer provides it.
 *
 * @example
 * ```ts
 * import { Effect, Layer } from "effect"
 * import { PageSizes } from "effect-catalog"
 *
 * // Sizes that are never kept: every scan starts at the largest page.
 * const Forgetful = Layer.succeed(PageSizes.PageSizes, { get: () => Effect.succeedNone, set: () => Effect.void })
 * ```
 * @category services
 * @since 0.5.0 (1.x: 1.0.0)
 */
export class PageSizes extends ServiceTag<PageSizes, Service>()("effect-catalog/PageSizes") {}

/** The page sizes of an account, as kept in a store: a page size by operation id, as JSON (`{"skills":50}`). */
const Sizes = recordOf(Schema.String, PositiveInt)

/** A service over a map held in memory, starting from `initial`, that calls `saved` after each change. */
const fromMap = (initial: Readonly<Record<string, number>>, saved: (sizes: Readonly<Record<string, number>>) => Effect.Effect<void>) =>
  Effect.map(Ref.make(initial), (sizes): Service => ({
    get: (operation) => Effect.map(Ref.get(sizes), (all) => fromNullable(all[operation])),
    set: (operation, size) => Effect.flatMap(Ref.updateAndGet(sizes, (all) => ({ ...all, [operation]: size })), saved)
  }))

/**
 * Page sizes in memory (the default), for the life of the layer.
 *
 * @example
 * ```ts
 * import { PageSizes } from "effect-catalog"
 *
 * const PageSizesLive = PageSizes.layerMemory
 * ```
 * @category layers
 * @since 0.5.0 (1.x: 1.0.0)
 */
export const layerMemory: Layer.Layer<PageSizes> = Layer.effect(PageSizes, fromMap({}, () => Effect.void))

/**
 * Page sizes kept under `key` in the `KeyValueStore` in context, read once
 * and written at each change; a store that cannot be read starts empty, and
 * one that cannot be written keeps the sizes in memory.
 *
 * @example
 * ```ts effect4
 * import { NodeServices } from "@effect/platform-node"
 * import { Layer } from "effect"
 * import { KeyValueStore } from "effect/persistence"
 * import { PageSizes } from "effect-catalog"
 *
 * const PageSizesLive = PageSizes.layerKeyValueStore("my-account.page-sizes").pipe(
 *   Layer.provide(KeyValueStore.layerFileSystem(".catalog-state")),
 *   Layer.provide(NodeServices.layer)
 * )
 * ```
 *
 * In Effect 3:
 *
 * ```ts effect3
 * import { NodeContext } from "@effect/platform-node"
 * import { Layer } from "effect"
 * import { KeyValueStore } from "@effect/platform"
 * import { PageSizes } from "effect-catalog"
 *
 * const PageSizesLive = PageSizes.layerKeyValueStore("my-account.page-sizes").pipe(
 *   Layer.provide(KeyValueStore.layerFileSystem(".catalog-state")),
 *   Layer.provide(NodeContext.layer)
 * )
 * ```
 * @category layers
 * @since 0.5.0 (1.x: 1.0.0)
 */
export const layerKeyValueStore = (key: string): Layer.Layer<PageSizes, never, KeyValueStore.KeyValueStore> =>
  Layer.effect(
    PageSizes,
    Effect.gen(function*() {
      const store = schemaStore(yield* KeyValueStore.KeyValueStore, Sizes)
      const initial = yield* store.get(key).pipe(
        Effect.map(Option.getOrElse((): Readonly<Record<string, number>> => ({}))),
        Effect.orElseSucceed((): Readonly<Record<string, number>> => ({}))
      )
      return yield* fromMap(initial, (sizes) => Effect.ignore(store.set(key, sizes)))
    })
  )
