/**
 * The scan of benchmark 2 as each edition's process measures it: the first
 * 3,000 models at page size 100, the wall time and the CPU time
 * (`process.cpuUsage`, user and system) of one scan, the plain `fetch` +
 * `JSON.parse` loop every client is compared with, and the cost per call of
 * a function. Nothing of Effect, so that the Effect 3 edition's process
 * (`bench/overhead.ts`) and the Effect 4 edition's (`effect4/bench/overhead-child.ts`,
 * under Node 22) measure alike.
 */
import { plainPages } from "./plain.js"

/** Models read per scan. */
export const models = 3_000
/** Items per page. */
export const pageSize = 100

/** Time and CPU of one scan. */
export interface Sample {
  readonly items: number
  readonly seconds: number
  readonly cpuMicros: number
}

/** Where the scans read: a simulator's base URL and key. */
export interface Target {
  readonly baseUrl: string
  readonly key: string
}

/** The items, wall time and CPU time of one scan. */
export const measure = async (scan: () => Promise<number>): Promise<Sample> => {
  const cpu = process.cpuUsage()
  const start = performance.now()
  const items = await scan()
  const seconds = (performance.now() - start) / 1000
  const used = process.cpuUsage(cpu)
  return { items, seconds, cpuMicros: used.user + used.system }
}

/** A plain loop over the first `models` models: fetch, `parse` (`JSON.parse` by default), follow `links.next`. */
export const plainScan = (target: Target, parse?: (text: string) => unknown) => async (): Promise<number> => {
  let items = 0
  for await (const page of plainPages(`${target.baseUrl}/models/?limit=${pageSize}`, target.key, parse)) {
    items += page.data.length
    if (items >= models) break
  }
  return items
}

/**
 * Microseconds per call of each function: batches of calls, the functions
 * taking turns batch by batch, and the fastest batch of each (the least
 * disturbed by anything else running on the machine).
 */
export const microsPerCall = (fs: ReadonlyArray<() => unknown>, calls = 100, batches = 15): Array<number> => {
  for (const f of fs) for (let i = 0; i < calls; i++) f()
  const best = fs.map(() => Number.POSITIVE_INFINITY)
  for (let b = 0; b < batches; b++) {
    fs.forEach((f, index) => {
      const start = performance.now()
      for (let i = 0; i < calls; i++) f()
      best[index] = Math.min(best[index] ?? Number.POSITIVE_INFINITY, ((performance.now() - start) * 1000) / calls)
    })
  }
  return best
}
