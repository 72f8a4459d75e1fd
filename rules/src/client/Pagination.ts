/**
 * What makes a scan of a list lose nothing and repeat nothing, whatever order
 * the service sorts ids in. The contract says only "ascending identity
 * order": a service may sort by code unit, case-insensitively, or by a
 * locale's collation, and a scan must not compare ids in an order of its own.
 *
 * A scan therefore trusts the service's order and remembers little:
 *
 * - pages reached through `links.next` come after the cursor, so their items
 *   are new, but for a repeat at a page boundary: an id of the page read just
 *   before (the `recent` ids, at most one page);
 * - after a restart from the first page (an expired cursor), the items before
 *   the point the scan had reached were already emitted (or were inserted
 *   behind it): the scan drops items until one of the ids of the last two
 *   pages read before the restart comes again, then emits what it had not
 *   emitted.
 *   Should all of those ids have been deleted in the meantime, the listing
 *   ends without the scan knowing what it gave, and fails rather than lose
 *   or repeat items (`isBackOnTrack`).
 * - a listing that does not move forward (pages that bring no id beyond the
 *   page before, in a row: `idle`) is for the caller to stop.
 *
 * What `read` takes for new is new only if the service keeps its order. A
 * service that goes back (a cycle of links, a page served again out of
 * order, a cursor that jumps back) brings ids that are neither of the page
 * before nor of a replay: the client's scans also remember a 64-bit
 * fingerprint of every id they emitted, and fail with `UnexpectedResponse`
 * before emitting a page that holds one of them, so that no item ever comes
 * twice. Progress itself stays a few pages of ids, however long the scan;
 * the fingerprints take 16 MB for a million items.
 */

/**
 * Where a restarted scan stands while it reads again what it had read.
 */
export interface Replay {
  /** The ids of the page the scan had reached: seeing one of them again means it is back there. */
  readonly targets: ReadonlySet<string>
  /** The last of them: once it comes again, the replay is over. */
  readonly end: string | null
  /** Ids already emitted around that place, to drop while the replay lasts. */
  readonly anchors: ReadonlySet<string>
  /** Whether one of the targets has come again. */
  readonly reached: boolean
}

/**
 * Where a scan stands.
 */
export interface Progress {
  /** The ids of the last page read, in its order. */
  readonly recent: ReadonlySet<string>
  /** The ids of the page read before it. */
  readonly before: ReadonlySet<string>
  /** The last id read, to compare the next one with. */
  readonly last: string | null
  /** Whether an id has come below the one before it in code-unit order. */
  readonly orderDiffers: boolean
  /** Set from a restart until the scan is back where it was. */
  readonly replay: Replay | null
  /** Pages in a row that brought no id beyond those of the page before. */
  readonly idle: number
}

/**
 * A scan that has read nothing yet.
 */
export const start: Progress = { recent: new Set(), before: new Set(), last: null, orderDiffers: false, replay: null, idle: 0 }

/**
 * The scan starts again from the first page.
 */
export const restart = (progress: Progress): Progress => {
  const { before, recent, replay } = progress
  const base = { ...progress, last: null, idle: 0 }
  // Not back yet from the restart before: the place to come back to is still the same.
  if (replay !== null && !replay.reached) return base
  return {
    ...base,
    // Back from a restart and not yet past its place: that place is still the end, and what was emitted around it is still to drop.
    // The last two pages: a restart finds its way back unless every one of their ids is deleted meanwhile.
    replay: {
      targets: new Set([...before, ...recent]),
      end: replay === null ? [...recent].at(-1) ?? null : replay.end,
      anchors: new Set([...(replay === null ? [] : replay.anchors), ...before, ...recent]),
      reached: recent.size === 0
    }
  }
}

/**
 * What a page brings: its new items in the service's order, and the
 * progress after it.
 */
export const read = <A extends { readonly id: string }>(
  progress: Progress,
  page: ReadonlyArray<A>
): { readonly items: ReadonlyArray<A>; readonly progress: Progress } => {
  const items: Array<A> = []
  const ids = new Set<string>()
  let { last, orderDiffers, replay } = progress
  for (const item of page) {
    const id = item.id
    if (last !== null && id < last) orderDiffers = true
    last = id
    if (ids.has(id)) continue
    ids.add(id)
    if (replay === null) {
      if (!progress.recent.has(id)) items.push(item)
    } else if (id === replay.end) {
      replay = null
    } else if (replay.targets.has(id)) {
      if (!replay.reached) replay = { ...replay, reached: true }
    } else if (replay.reached) {
      if (!replay.anchors.has(id) && !progress.recent.has(id)) items.push(item)
    }
    // Otherwise: behind the place the scan had reached, emitted already or inserted behind it.
  }
  return {
    items,
    progress: {
      recent: ids.size === 0 ? progress.recent : ids,
      before: ids.size === 0 ? progress.before : progress.recent,
      last,
      orderDiffers,
      replay,
      idle: [...ids].some((id) => !progress.recent.has(id)) ? 0 : progress.idle + 1
    }
  }
}

/**
 * Whether a restart has found its way back: false while the scan, since its
 * last restart, has not come back to where it was. A listing that ends in
 * that state lost track of its position (every id of the two pages it had
 * reached was deleted meanwhile), and fails rather than end with items
 * missing.
 */
export const isBackOnTrack = (progress: Progress): boolean => progress.replay === null || progress.replay.reached
