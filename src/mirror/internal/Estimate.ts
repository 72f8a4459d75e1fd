/**
 * What a full scan of a collection costs, from its count of items and their
 * average size: pages (halved while a page would pass the service's 512 KiB,
 * each halving costing the refused request), units, bytes, and when each
 * request may start under the account's windows, by the admission's own
 * schedule (`Admission.earliestStart`).
 */
import * as Admission from "../../client/Admission.js"
import { maxResponseBytes } from "../../contract/Parameters.js"

/** The bytes of a page around its items: pagination, links and meta. */
export const envelopeBytes = 400

/** Requests, units and bytes of a full scan. */
export interface Cost {
  readonly requests: number
  readonly units: number
  readonly bytes: number
}

/** The cost of scanning `items` items of `itemBytes` bytes on average, in pages of at most `maxLimit`, at `unitsPerPage`. */
export const cost = (items: number, itemBytes: number, operation: { readonly maxLimit: number; readonly units: number }): Cost => {
  let pageSize = operation.maxLimit
  let refused = 0
  while (pageSize > 1 && items > pageSize / 2 && pageSize * itemBytes + envelopeBytes > maxResponseBytes) {
    pageSize = Math.floor(pageSize / 2)
    refused++
  }
  const requests = refused + Math.max(1, Math.ceil(items / pageSize))
  return { requests, units: requests * operation.units, bytes: Math.round(items * itemBytes + requests * envelopeBytes) }
}

/**
 * The moments (milliseconds from now) at which `requests` requests in a row
 * may start under `limits`, after the starts already booked: each at the
 * earliest start the windows allow, and not before the one before it has
 * taken `requestMillis` (a scan reads its pages one after the other).
 */
export const schedule = (
  requests: number,
  limits: Admission.Limits,
  booked: ReadonlyArray<number>,
  requestMillis: number
): ReadonlyArray<number> => {
  const windows = Admission.windows(limits)
  const starts = [...booked]
  for (let n = 0; n < requests; n++) {
    const previous = starts.at(-1)
    starts.push(Math.max(Admission.earliestStart(starts, windows, 0), previous === undefined ? 0 : previous + requestMillis))
  }
  return starts
}
