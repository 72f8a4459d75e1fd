/**
 * What makes a scan of a list lose nothing and repeat nothing: items come in
 * ascending id order (list rule 1), so the last id emitted (a watermark)
 * recognises every repeat without remembering every id, and memory stays
 * flat however long the scan.
 *
 * @since 0.1.0
 */
import { Chunk, Effect, Stream } from "effect"

/**
 * Drops repeats: an item whose id is not above the last id emitted was
 * already emitted (or, under list rule 1, was inserted behind the scan). If a
 * page ever arrives out of ascending order, the scan falls back to
 * remembering the ids it emits from then on (items below the watermark it had
 * then are still taken as repeats), and says so in a log line.
 *
 * @example
 * ```ts
 * import { Stream } from "effect"
 * import { Pagination } from "effect-catalog"
 *
 * Stream.make({ id: "a" }, { id: "b" }, { id: "b" }, { id: "c" }).pipe(Pagination.dedupeById) // a, b, c
 * ```
 * @since 0.1.0
 */
export const dedupeById = <A extends { readonly id: string }, E, R>(items: Stream.Stream<A, E, R>): Stream.Stream<A, E, R> =>
  Stream.suspend(() => {
    let watermark: string | null = null
    let remembered: Set<string> | null = null
    return Stream.mapChunksEffect(items, (page) =>
      Effect.gen(function*() {
        const ids = Chunk.toReadonlyArray(page).map((item) => item.id)
        const ordered = ids.every((id, index) => index === 0 || (ids[index - 1] ?? "") < id)
        if (!ordered && remembered === null) {
          remembered = new Set()
          yield* Effect.logWarning("A page arrived out of ascending id order; this scan now remembers the ids it emits")
        }
        const kept = Chunk.filter(page, (item) => {
          if (remembered !== null) {
            if ((watermark !== null && item.id <= watermark) || remembered.has(item.id)) return false
            remembered.add(item.id)
            return true
          }
          if (watermark !== null && item.id <= watermark) return false
          watermark = item.id
          return true
        })
        return kept
      }))
  })
