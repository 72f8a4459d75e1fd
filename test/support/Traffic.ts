/**
 * What a test's clients put on the wire: an HTTP client that records each
 * request as it leaves and each answer as it arrives, and an admission that
 * notes each pause a 429 asks for, all in one log, `Traffic`, oldest first.
 *
 * @example
 * it.live("a client alone never provokes a 429", () =>
 *   Effect.gen(function*() {
 *     const catalog = yield* CatalogClient.CatalogClient
 *     yield* catalog.modelsPage()
 *     Pace.expectSendsWithinWindows(yield* Traffic.sendTimes, 0.02)
 *   }).pipe(Traffic.withHarness({ timeScale: 0.02 })))
 */
import { HttpClient } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { Clock, Context, Duration, Effect, Layer, Ref } from "effect"
import * as Admission from "../../common/src/client/Admission.js"
import type * as Budget from "../../common/src/client/Budget.js"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import * as Simulator from "../../common/src/simulator/Simulator.js"
import { limitsOf } from "./Client.js"
import * as WallClock from "./WallClock.js"

/** A request leaving, an answer arriving, or a pause of a client's admission. */
export interface Exchange {
  /** `pause`: the client's admission was told to pause (a 429 was answered). */
  readonly kind: "send" | "answer" | "pause"
  readonly at: number
  /** The URL's path (`""` for a pause). */
  readonly path: string
  /** The query of a request (`null` for an answer or a pause). */
  readonly query: URLSearchParams | null
  /** The status of an answer. */
  readonly status: number | null
  /** How long a pause was asked for: a pause's own, or an answer's `Retry-After`. */
  readonly millis: number | null
}

/** The log of every exchange of the clients in a test, oldest first. */
export class Traffic extends Context.Tag("test/support/Traffic")<Traffic, Ref.Ref<ReadonlyArray<Exchange>>>() {}

const note = (log: Ref.Ref<ReadonlyArray<Exchange>>, entry: Omit<Exchange, "at">) =>
  Effect.flatMap(Clock.currentTimeMillis, (at) => Ref.update(log, (all) => [...all, { ...entry, at }]))

const retryAfterMillis = (header: string | undefined): number | null => {
  const seconds = Number(header)
  return header === undefined || !Number.isFinite(seconds) ? null : seconds * 1000
}

/** An HTTP client (its own undici pool) that records its exchanges in `log`. */
export const recordingHttpClient = (log: Ref.Ref<ReadonlyArray<Exchange>>) =>
  Layer.effect(
    HttpClient.HttpClient,
    Effect.map(HttpClient.HttpClient, (client) =>
      client.pipe(
        HttpClient.tapRequest((request) =>
          note(log, {
            kind: "send",
            path: new URL(request.url).pathname,
            query: new URLSearchParams(request.urlParams.map(([name, value]): [string, string] => [name, value])),
            status: null,
            millis: null
          })
        ),
        HttpClient.tap((response) =>
          note(log, {
            kind: "answer",
            path: new URL(response.request.url).pathname,
            query: null,
            status: response.status,
            millis: retryAfterMillis(response.headers["retry-after"])
          })
        )
      ))
  ).pipe(Layer.provide(NodeHttpClient.layerUndici))

/** An admission that does what `admission` does, and notes each pause in `log`. */
export const notingPauses = (admission: Layer.Layer<Admission.Admission>, log: Ref.Ref<ReadonlyArray<Exchange>>) =>
  Layer.map(admission, (context) => {
    const inner = Context.get(context, Admission.Admission)
    return Context.make(Admission.Admission, {
      ...inner,
      pause: (retryAfter) =>
        Effect.zipRight(
          note(log, { kind: "pause", path: "", query: null, status: null, millis: Duration.toMillis(Duration.decode(retryAfter)) }),
          inner.pause(retryAfter)
        )
    })
  })

/** A simulator with these settings and a recording HTTP client, with its `Traffic`. */
export const simulatorWithTraffic = (settings: Simulator.Settings) =>
  Layer.unwrapEffect(
    Effect.map(Ref.make<ReadonlyArray<Exchange>>([]), (log) =>
      Layer.mergeAll(Simulator.layer(settings), Layer.succeed(Traffic, log), recordingHttpClient(log)))
  )

/** Every exchange so far, oldest first. */
export const exchanges = Effect.flatMap(Traffic, Ref.get)

/** When each request left. */
export const sendTimes = Effect.map(exchanges, (all) => all.filter((entry) => entry.kind === "send").map((entry) => entry.at))

/** Waits until a client's admission has been paused for `millis`. */
export const pausedFor = (millis: number) =>
  WallClock.eventually(Effect.map(exchanges, (all) => all.some((entry) => entry.kind === "pause" && entry.millis === millis)))

/** How a harness's client differs from the default one: any option, and the simulator's key it uses (`full` by default). */
export type HarnessOptions = Omit<CatalogClient.Options, "baseUrl" | "apiKey"> & { readonly key?: Simulator.KeyName }

/**
 * A simulator with these settings, a recording HTTP client, and a
 * CatalogClient of it whose shared services (`Budget`, `Admission`,
 * `ResponseCache`) stay in context, so that tests can read `Budget.spent`.
 * Unless options say otherwise the client never retries and keeps to the
 * simulator's limits (its admission is `Admission.layerMemory`, as
 * `layer` builds it, with its pauses noted in `Traffic`).
 */
export const harness = (settings: Simulator.Settings, options: HarnessOptions = {}) =>
  Layer.unwrapEffect(
    Effect.map(Effect.all([Simulator.Simulator, Traffic]), ([simulator, log]) => {
      const { key = "full", retry, ...services } = options
      const limits = { ...Admission.contractLimits, ...limitsOf(simulator), ...services.limits }
      return CatalogClient.layer({
        ...services,
        baseUrl: simulator.baseUrl,
        apiKey: simulator.keys[key],
        admission: notingPauses(services.admission ?? Admission.layerMemory(limits), log),
        retry: { retries: 0, ...retry }
      })
    })
  ).pipe(Layer.provideMerge(simulatorWithTraffic(settings)))

/** What a test run in a harness may use. */
export type HarnessServices = Simulator.Simulator | HttpClient.HttpClient | CatalogClient.CatalogClient | Budget.Budget | Traffic

/** Runs `effect` against a fresh `harness`. */
export const withHarness = (settings: Simulator.Settings, options: HarnessOptions = {}) =>
<A, E>(effect: Effect.Effect<A, E, HarnessServices>) => Effect.provide(effect, harness(settings, options))
