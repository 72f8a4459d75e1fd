/**
 * A full scan of the models on a fresh in-process simulator, by a client
 * under the contract's limits, each request's send and duration recorded;
 * and the ideal wall time of the same requests under some limits, which
 * the scan is measured against.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Duration, Effect, Layer, Redacted, Stream } from "effect"
import { Admission, Budget, CatalogClient, Retry } from "effect-catalog"
import { Simulator } from "effect-catalog/simulator"
import { secondsSince } from "./support.js"

/** What a scan saw, from the client and from the simulator. */
export interface ScanRun {
  readonly items: number
  /** From the scan's first request to its last item (the client built before). */
  readonly wallMillis: number
  readonly units: number
  /** When each request left the client (ms, performance clock), reads of `/usage/` included. */
  readonly sends: ReadonlyArray<number>
  /** How long each request took, from its send to its answer, in the order they were sent. */
  readonly durations: ReadonlyArray<number>
  readonly statuses: ReadonlyMap<number, number>
}

/** How a scan is run. */
export interface ScanOptions {
  readonly models: number
  readonly pageSize: number
  /** The simulator's and the client's (its windows and its retry backoff). */
  readonly timeScale: number
  /** The simulator's account and faults, beyond `models` and `timeScale`. */
  readonly settings?: Simulator.Settings
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

/**
 * A client of an in-process simulator under the contract's limits, which
 * follow the account's live allowance: its windows and its retry backoff at
 * `timeScale`. It needs an HTTP client.
 */
export const clientUnderLimits = (simulator: Simulator.Service, timeScale: number) =>
  CatalogClient.layer({
    baseUrl: simulator.baseUrl,
    apiKey: Redacted.make(Redacted.value(simulator.keys.full)),
    limits: { ...Admission.contractLimits, timeScale },
    retry: { base: Duration.times(Retry.defaultPolicy.base, timeScale) }
  })

/**
 * A full scan of `models` against a fresh simulator with the contract's
 * limits (and `settings`), by a client under the contract's limits, which
 * follow the account's live allowance: both at `timeScale`.
 */
export const timedScan = ({ models, pageSize, timeScale, settings = {} }: ScanOptions): Promise<ScanRun> =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function*() {
        const simulator = yield* Simulator.make({ ...settings, sizes: { models }, timeScale })
        const sends: Array<number> = []
        const durations: Array<number> = []
        return yield* Effect.gen(function*() {
          const catalog = yield* CatalogClient.CatalogClient
          const budget = yield* Budget.Budget
          const start = performance.now()
          const items = yield* catalog.models({ limit: pageSize }).pipe(Stream.runCount)
          const wallMillis = secondsSince(start) * 1000
          return {
            items,
            wallMillis,
            units: (yield* budget.spent).units,
            sends,
            durations,
            statuses: yield* simulator.statusCounts
          }
        }).pipe(
          Effect.provide(clientUnderLimits(simulator, timeScale).pipe(Layer.provide(timedHttpClient(sends, durations))))
        )
      })
    )
  )

/** The most requests at any instant in the window `(t - window, t]`. */
export const peakInWindow = (times: ReadonlyArray<number>, window: number): number => {
  const sorted = [...times].sort((a, b) => a - b)
  let peak = 0
  let first = 0
  sorted.forEach((t, last) => {
    while ((sorted[first] ?? t) <= t - window) first++
    peak = Math.max(peak, last - first + 1)
  })
  return peak
}

/**
 * The wall time of sequential requests taking these times under the windows
 * of `limits`, margin included: each starts as soon as the one before has
 * answered and the windows allow (`Admission.schedule`).
 */
export const scheduledMillis = (latencies: ReadonlyArray<number>, limits: Admission.Limits): number => {
  let starts: ReadonlyArray<number> = []
  let previous = 0
  for (const latency of latencies) {
    starts = Admission.schedule(1, limits, starts, previous)
    previous = latency
  }
  return (starts.at(-1) ?? 0) + previous
}

/** The ideal wall time of sequential requests taking these times under the windows of `limits`, without the client's margin. */
export const idealMillis = (latencies: ReadonlyArray<number>, limits: Admission.Limits = Admission.contractLimits): number =>
  scheduledMillis(latencies, { ...limits, marginMillis: 0 })
