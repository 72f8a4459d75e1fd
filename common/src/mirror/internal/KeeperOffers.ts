/**
 * The keeper's visits of a model's offers: every model the mirror lists is
 * an element, its offers listed on the answer the keeper keeps for them
 * and written into `model_offers` in one transaction.
 */
import { Clock, Effect, Ref } from "#edition/internal/Edition.js"
import * as Items from "#edition/mirror/internal/Items.js"
import type { Tracked } from "../../../../rules/src/mirror/Keeping.js"
import * as CatalogClient from "../../client/CatalogClient.js"
import type * as Errors from "../../client/Errors.js"
import * as KeeperMetrics from "./KeeperMetrics.js"
import * as KeeperState from "./KeeperState.js"
import * as Sync from "./Sync.js"
import { dbOf, iso, type Keeper, offers, save, take } from "./KeeperContext.js"

/**
 * Keeps the offers of every model the mirror lists: a model new to it is
 * due at once; the offers of one gone are marked deleted, and no longer
 * kept.
 */
export const trackOffers = (keeper: Keeper) =>
  Effect.gen(function*() {
    if (!keeper.keepsOffers) return
    const db = dbOf(keeper)
    const live = new Set(
      (yield* db(keeper.database.sql<{ readonly id: string }>`SELECT id FROM models WHERE deleted_at IS NULL`)).map((row) => row.id)
    )
    const gone = [...keeper.keeping.elements()].filter((element) => element.group === offers && !live.has(element.key))
    for (const element of gone) {
      const at = iso(yield* Clock.currentTimeMillis)
      yield* db(Sync.writeOffers(keeper.database, element.key, [], at, Items.wire))
      yield* db(KeeperState.dropElement(keeper.database, offers, element.key))
      keeper.keeping.untrack(offers, element.key)
    }
    for (const model of live) if (keeper.keeping.find(offers, model) === undefined) keeper.keeping.track(offers, model, undefined, -Infinity)
  })

/** Where a model's offers keep their last answer in `keeper_pages`. */
export const offersPage = (model: string) => `${offers} ${model}`

/**
 * Lists a model's offers, the first page on the answer the keeper keeps
 * (a 304 when they did not change), any others whole, and commits them
 * (`Sync.writeOffers`); a model the service no longer has has none.
 */
export const visitOffers = (keeper: Keeper, element: Tracked<string>) =>
  Effect.scoped(Effect.gen(function*() {
    const db = dbOf(keeper)
    const kept = yield* Ref.make<ReadonlyArray<KeeperState.StoredPage>>([])
    const readBack = Effect.flatMap(db(KeeperState.pages(keeper.database, offersPage(element.key))), (pages) => Ref.set(kept, pages))
    if (!(yield* take(keeper, element, offersPage(element.key), readBack))) return
    const began = yield* Clock.currentTimeMillis
    const [first] = yield* Ref.get(kept)
    const [organization = "", model = ""] = [element.key.slice(0, element.key.indexOf("/")), element.key.slice(element.key.indexOf("/") + 1)]
    const listed: Array<CatalogClient.WireItem> = []
    let fresh: KeeperState.StoredPage | undefined
    let cursor: string | null = null
    let unchanged = false
    let pages = 0
    do {
      const at: string | null = cursor
      const page: CatalogClient.KeptPage = yield* keeper.catalog.keptPage(offers, { organization, model }, at, {
        entry: at === null && first !== undefined ? { etag: first.etag, body: first.body } : undefined,
        keep: (entry) => {
          if (at === null) fresh = { page: 0, cursor: null, ...entry, nextCursor: null, issuedAt: began / 1000 / keeper.scale }
        }
      }).pipe(Effect.catchIf((error): error is Errors.NotFound => error._tag === "NotFound", () => Effect.succeed({ items: [], nextCursor: null, unchanged: false })))
      pages++
      unchanged = at === null && page.unchanged
      listed.push(...page.items)
      cursor = page.nextCursor
    } while (cursor !== null && !unchanged)
    const changes = unchanged ? [] : (yield* db(Sync.writeOffers(keeper.database, element.key, listed, iso(yield* Clock.currentTimeMillis), Items.wire))).changes
    if (fresh !== undefined) yield* db(KeeperState.savePage(keeper.database, offersPage(element.key), fresh))
    keeper.keeping.visited(element, began / 1000 / keeper.scale, changes.length > 0)
    yield* save(keeper, element)
    const ended = yield* Clock.currentTimeMillis
    yield* KeeperMetrics.walked(offers, ended - began, unchanged ? 0 : pages, unchanged ? 1 : 0)
    if (keeper.options.onVisit !== undefined) {
      yield* keeper.options.onVisit({
        collection: offers,
        pages,
        unchanged: unchanged ? 1 : 0,
        items: listed.length,
        changes: changes.length,
        began: new Date(began),
        ended: new Date(ended)
      })
    }
  })).pipe(Effect.withSpan("catalog.keeper.offers", { kind: "internal", attributes: { "catalog.model": element.key } }))
