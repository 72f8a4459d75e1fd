/**
 * 8. Full scans at the speed the account allows: scans of 5, 30 and 120 full
 * pages (100 models each) under the contract's real limits, unscaled (10
 * requests in any 10 s, 60 in any minute, 2 at once), each on a fresh
 * account, against the ideal schedule for the same pages: each request
 * starts as soon as the one before has answered and the limits allow, and
 * takes as long as it took in the scan. The clock starts when the client is
 * built, at the scan's first request.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Context, Effect, Layer, Redacted, Stream } from "effect"
import { Admission, CatalogClient } from "effect-catalog"
import { Simulator } from "effect-catalog/simulator"
import { atMost, type Benchmark, exactly, figure, secondsSince } from "./support.js"

const pageCounts = [5, 30, 120] as const
const pageSize = 100

interface Scan {
  readonly pages: number
  readonly wallMillis: number
  readonly idealMillis: number
  readonly requests: number
  readonly refused: number
}

/** The ideal wall time of sequential requests taking these times under the windows of `limits` (no margin). */
export const idealMillis = (latencies: ReadonlyArray<number>, limits: Admission.Limits = Admission.contractLimits): number => {
  const windows = Admission.windows({ ...limits, marginMillis: 0 })
  const starts: Array<number> = []
  let free = 0
  for (const latency of latencies) {
    const start = Admission.earliestStart(starts, windows, free)
    starts.push(start)
    free = start + latency
  }
  return free
}

/** An undici HTTP client that records when each request left and how long it took. */
export const timedHttpClient = (sends: Array<number>, durations: Array<number>) =>
  Layer.effect(
    HttpClient.HttpClient,
    Effect.map(HttpClient.HttpClient, (client) =>
      HttpClient.transform(client, (response) => {
        const sent = performance.now()
        sends.push(sent)
        return Effect.tap(response, () => Effect.sync(() => durations.push(performance.now() - sent)))
      }))
  ).pipe(Layer.provide(NodeHttpClient.layerUndici))

/** A full scan of `pages` pages on a fresh simulator, its request times recorded. */
const scan = (pages: number): Promise<Scan> =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function*() {
        const simulator = yield* Simulator.make({ sizes: { models: pages * pageSize } })
        const durations: Array<number> = []
        const client = yield* Layer.build(
          CatalogClient.layerWith({
            baseUrl: simulator.baseUrl,
            apiKey: Redacted.make(Redacted.value(simulator.keys.full)),
            limits: Admission.contractLimits
          }).pipe(Layer.provide(timedHttpClient([], durations)))
        )
        const catalog = Context.get(client, CatalogClient.CatalogClient)
        const start = performance.now()
        const items = yield* Stream.runCount(catalog.models())
        const wallMillis = performance.now() - start
        if (items !== pages * pageSize) return yield* Effect.dieMessage(`scanned ${items} of ${pages * pageSize}`)
        return {
          pages,
          wallMillis,
          idealMillis: idealMillis(durations),
          requests: durations.length,
          refused: (yield* simulator.statusCounts).get(429) ?? 0
        }
      })
    )
  )

export const run = async (): Promise<Benchmark> => {
  const start = performance.now()
  const scans: Array<Scan> = []
  for (const pages of pageCounts) scans.push(await scan(pages))
  return {
    name: "8. full scans",
    setup:
      `scans of ${pageCounts.join(", ")} full pages of ${pageSize} models, each on a fresh in-process simulator with the contract's limits at time scale 1, by a client with the default options; the ideal: the same requests, each taking as long as it took in the scan, sequential, each at the earliest start the sliding windows allow; timed from the first request (the client built before)`,
    seconds: secondsSince(start),
    figures: scans.flatMap((done) => [
      figure(`${done.pages} pages: wall time`, done.wallMillis / 1000, "s"),
      figure(`${done.pages} pages: ideal wall time`, done.idealMillis / 1000, "s"),
      figure(`${done.pages} pages: wall time / ideal`, done.wallMillis / done.idealMillis, "ratio", atMost(1.1)),
      figure(`${done.pages} pages: requests`, done.requests, "requests", exactly(done.pages)),
      figure(`${done.pages} pages: 429s provoked`, done.refused, "responses", exactly(0))
    ])
  }
}
