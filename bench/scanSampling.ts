/**
 * The sampling, the plain loop and the report of benchmark 3's scanners,
 * with nothing of Effect: each edition's scanner process
 * (`bench/memory-child.ts`, `effect4/bench/memory-child.ts`, each under its
 * edition's Node) runs `scanner` with its own client's scan.
 */
/** One sample of a scanner's memory. */
export interface Sample {
  readonly items: number
  /** Resident set size now, in bytes. */
  readonly rss: number
  /** The largest resident set size so far, in bytes. */
  readonly peakRss: number
  /** Live heap after a full collection, in bytes. */
  readonly heapUsed: number
  readonly heapTotal: number
  readonly external: number
  readonly seconds: number
  readonly cpuSeconds: number
}

/** What a scan by a client reads. */
export interface Target {
  readonly baseUrl: string
  readonly key: string
  readonly pageSize: number
  /** Items to read, at most. */
  readonly items: number
}

/**
 * A scan of the models by a client, limits off, that loads the client's
 * modules, then calls `progress` with 0 before its first request and with
 * the items read so far after each chunk; it gives the items read.
 */
export type ClientScan = (target: Target, progress: (items: number) => void) => Promise<number>

const pageSize = 100
/** 0: once the modules are loaded, before the first request. */
const thresholds = [0, 10_000, 100_000, 1_000_000]

/**
 * Runs the scanner of the process's arguments (`<client|plain> <base_url>
 * <key> [items]`), the client's scan by `client`, and prints its report as
 * one JSON line.
 */
export const scanner = async (usage: string, client: ClientScan): Promise<void> => {
  const [mode, baseUrl, key, limit] = process.argv.slice(2)
  const total = limit === undefined ? 1_000_000 : Number(limit)
  if ((mode !== "client" && mode !== "plain") || baseUrl === undefined || key === undefined || !(total > 0)) {
    process.stderr.write(`usage: ${usage} <client|plain> <base_url> <key> [items]\n`)
    process.exit(2)
  }
  const samples: Array<Sample> = []
  const started = performance.now()
  const cpuAtStart = process.cpuUsage()
  let nextThreshold = 0

  /** Samples memory for every threshold `items` has passed. */
  const sample = (items: number) => {
    while (nextThreshold < thresholds.length && items >= (thresholds[nextThreshold] ?? Number.POSITIVE_INFINITY)) {
      globalThis.gc?.()
      const memory = process.memoryUsage()
      const cpu = process.cpuUsage(cpuAtStart)
      samples.push({
        items: thresholds[nextThreshold] ?? items,
        rss: memory.rss,
        peakRss: process.resourceUsage().maxRSS * 1024,
        heapUsed: memory.heapUsed,
        heapTotal: memory.heapTotal,
        external: memory.external,
        seconds: (performance.now() - started) / 1000,
        cpuSeconds: (cpu.user + cpu.system) / 1e6
      })
      nextThreshold++
    }
  }

  /** The plain loop: fetch, `JSON.parse`, a `Set` of the ids seen to drop repeats, follow `links.next`. */
  const plain = async (): Promise<number> => {
    const { idOf, plainPages } = await import("./plain.js")
    const seen = new Set<string>()
    sample(0)
    for await (const page of plainPages(`${baseUrl}/models/?limit=${pageSize}`, key)) {
      for (const item of page.data) seen.add(idOf(item))
      sample(seen.size)
      if (seen.size >= total) break
    }
    return seen.size
  }

  const items = await (mode === "plain" ? plain() : client({ baseUrl, key, pageSize, items: total }, sample))
  const cpu = process.cpuUsage(cpuAtStart)
  process.stdout.write(
    `${JSON.stringify({
      mode,
      node: process.version,
      items,
      seconds: (performance.now() - started) / 1000,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      gc: globalThis.gc !== undefined,
      samples
    })}\n`
  )
}
