/**
 * An answer a caller of the client keeps itself, rather than in the
 * client's cache: the entity tag and body of a page's last 200 (none: ask
 * whole), and what to do with a new one. The request path sends the
 * caller's tag in `If-None-Match` and gives the caller a new answer; the
 * mirror's keeper keeps its pages' answers in its database this way.
 *
 * Imports nothing of Effect.
 *
 * @example
 * import type { KeptAnswer } from "./KeptAnswer.js"
 *
 * const kept = new Map<string, { readonly etag: string; readonly body: string }>()
 * const keptAt = (key: string): KeptAnswer => ({ entry: kept.get(key), keep: (entry) => kept.set(key, entry) })
 */

/** An answer's entity tag and body. */
export interface KeptEntry {
  readonly etag: string
  readonly body: string
}

/** The answer a caller keeps, and what it does with a new one. */
export interface KeptAnswer {
  readonly entry: KeptEntry | undefined
  readonly keep: (entry: KeptEntry) => void
}
