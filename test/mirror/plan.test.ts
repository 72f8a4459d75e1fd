/**
 * `Mirror.plan` follows the client it runs with: a client configured with
 * `CATALOG_TIME_SCALE=0.01` admits under windows 100 times shorter, and the
 * plan schedules the sync's requests by those same limits, read back from
 * the client's admission, under the account's live `minute_limit` (5), with
 * the client's own read of `/usage/` (booked only when it was sent for the
 * plan: a read of the last 12 s is given again without a request). Its time is
 * within 20% of the sync's. The windows, not the machine's speed, set the
 * sync's pace, so the figure holds on a busy machine too.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Redacted, Stream } from "effect"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import * as Mirror from "../../common/src/mirror/Mirror.js"
import * as Simulator from "../../common/src/simulator/Simulator.js"
import * as MirrorStore from "../support/Mirror.js"

const timeScale = 0.01

/** A client configured from the environment, as an application is, on a simulator 100 times faster. */
const fromEnvironment = Layer.unwrapEffect(
  Effect.map(Simulator.Simulator, (simulator) =>
    CatalogClient.layerConfig().pipe(
      Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(
        new Map([
          ["CATALOG_BASE_URL", simulator.baseUrl],
          ["CATALOG_API_KEY", Redacted.value(simulator.keys.full)],
          ["CATALOG_TIME_SCALE", String(timeScale)]
        ])
      )))
    ))
)

describe("Mirror.plan", { timeout: 120_000 }, () => {
  it.live("under CATALOG_TIME_SCALE=0.01 it schedules the sync by the client's own limits: within 20% of the sync's time", () =>
    Effect.gen(function*() {
      // A first sync warms the process and gives the mirror its time per request; its requests then leave the account's minute (scaled).
      yield* Stream.runDrain(Mirror.sync("models"))
      yield* Effect.sleep("700 millis")
      const plan = yield* Mirror.plan(["models"])
      const started = Date.now()
      yield* Stream.runDrain(Mirror.sync("models"))
      const seconds = (Date.now() - started) / 1000
      expect(Math.abs(plan.seconds - seconds)).toBeLessThanOrEqual(seconds * 0.2)
      const simulator = yield* Simulator.Simulator
      expect((yield* simulator.statusCounts).get(429)).toBeUndefined()
    }).pipe(
      Effect.provide(fromEnvironment.pipe(Layer.provideMerge(Simulator.layer({ sizes: { models: 1_400 }, timeScale, limits: { perMinute: 5 } })), Layer.provide(NodeHttpClient.layerUndici))),
      Effect.provide(MirrorStore.layer("sqlite"))
    ))
})
