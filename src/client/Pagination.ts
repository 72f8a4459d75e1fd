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
    const isNew = (item: A): boolean => {
      if (watermark !== null && item.id <= watermark) return false
      if (remembered === null) {
        watermark = item.id
        return true
      }
      if (remembered.has(item.id)) return false
      remembered.add(item.id)
      return true
    }
    return Stream.mapChunksEffect(items, (page) => {
      if (remembered !== null || isAscending(page)) return Effect.succeed(Chunk.filter(page, isNew))
      remembered = new Set()
      return Effect.as(
        Effect.logWarning("A page arrived out of ascending id order; this scan now remembers the ids it emits"),
        Chunk.filter(page, isNew)
      )
    })
  })

/** Whether the ids of a page strictly ascend. */
const isAscending = (page: Chunk.Chunk<{ readonly id: string }>): boolean => {
  let previous: string | null = null
  for (const { id } of page) {
    if (previous !== null && id <= previous) return false
    previous = id
  }
  return true
}
