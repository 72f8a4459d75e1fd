/**
 * What a full scan of a collection costs, from its count of items and their
 * average size: pages (from the page size that fitted before, if known, else
 * the largest, halved while a page would pass the service's 512 KiB, each
 * halving costing the refused request), units and bytes. When each
 * request may start is the admission's own schedule (`Admission.schedule`).
 *
 * Imports nothing of Effect: both editions' `Mirror.plan` cost their
 * collections with it.
 */
import { maxResponseBytes } from "../contract/Figures.js"

/** The bytes of a page around its items: pagination, links and meta. */
export const envelopeBytes = 400

/** Requests, units and bytes of a full scan. */
export interface Cost {
  readonly requests: number
  readonly units: number
  readonly bytes: number
}

/**
 * The cost of scanning `items` items of `itemBytes` bytes on average, in
 * pages of at most the operation's `maxLimit` and the size that fitted it
 * before, at the operation's units per page.
 */
export const cost = (
  items: number,
  itemBytes: number,
  operation: { readonly maxLimit: number; readonly units: number },
  fitted?: number
): Cost => {
  let pageSize = fitted === undefined ? operation.maxLimit : Math.min(fitted, operation.maxLimit)
  let refused = 0
  while (pageSize > 1 && items > pageSize / 2 && pageSize * itemBytes + envelopeBytes > maxResponseBytes) {
    pageSize = Math.floor(pageSize / 2)
    refused++
  }
  const requests = refused + Math.max(1, Math.ceil(items / pageSize))
  return { requests, units: requests * operation.units, bytes: Math.round(items * itemBytes + requests * envelopeBytes) }
}

