/**
 * `Simulator.layerClient` under `@effect/vitest`'s default test services: a
 * `TestClock` that nothing moves unless the test does. Without limits nothing
 * waits on it (many requests, faults retried at once, a test clock moved far
 * ahead while a request is in flight); with the account's limits on, the
 * client's pacing follows it. README's "Testing your application" is the
 * fixture the consumer test runs.
 */
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Fiber, Layer, Stream, TestClock } from "effect"
import { readFile } from "node:fs/promises"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import * as Simulator from "../../common/src/simulator/Simulator.js"
import * as Answers from "../support/Answers.js"
import * as WallClock from "../support/WallClock.js"

/** Real milliseconds an effect takes, whatever the clock in context. */
const timed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const started = performance.now()
    const value = yield* effect
    return { value, millis: performance.now() - started }
  })

describe("Simulator.layerClient, one layer for a block of tests", () => {
  it.layer(Simulator.layerClient({ sizes: { models: 120 } }))((it) => {
    it.effect("60 list pages and a read under the TestClock, with no wait", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const before = yield* Answers.withStatus(200)
        const { value: ids, millis } = yield* timed(Stream.runCollect(Stream.map(catalog.models({ limit: 2 }), (model) => model.id)))
        expect(ids.length).toBe(120)
        expect(new Set(ids).size).toBe(120)
        expect((yield* catalog.stats()).models).toBe(120)
        expect((yield* Answers.withStatus(200)) - before).toBe(61)
        expect(millis).toBeLessThan(5_000)
      }))

    it.effect("a 503 is retried at once, twice, then reaches the caller as ServiceUnavailable, in well under a second", () =>
      Effect.gen(function*() {
        const simulator = yield* Simulator.Simulator
        const catalog = yield* CatalogClient.CatalogClient
        const before = yield* Answers.withStatus(503)
        yield* simulator.setFaults({ unavailable: 1 })
        const { value: error, millis } = yield* timed(Effect.flip(catalog.stats())).pipe(
          Effect.ensuring(simulator.setFaults({ unavailable: 0 }))
        )
        expect(error._tag).toBe("ServiceUnavailable")
        expect((yield* Answers.withStatus(503)) - before).toBe(3)
        expect(millis).toBeLessThan(500)
        expect((yield* catalog.stats()).models).toBe(120)
      }))

    it.effect("a dropped connection is retried at once", () =>
      Effect.gen(function*() {
        const simulator = yield* Simulator.Simulator
        const catalog = yield* CatalogClient.CatalogClient
        yield* simulator.setFaults({ drop: 1 })
        const { value: error, millis } = yield* timed(Effect.flip(catalog.stats())).pipe(Effect.ensuring(simulator.setFaults({ drop: 0 })))
        expect(error._tag).toBe("TransportError")
        expect(millis).toBeLessThan(500)
      }))

    it.effect("an injected 429 is waited out on the real clock, not the TestClock", () =>
      Effect.gen(function*() {
        const simulator = yield* Simulator.Simulator
        const catalog = yield* CatalogClient.CatalogClient
        yield* simulator.injectRateLimit(1, 50)
        const { value: stats, millis } = yield* timed(catalog.stats())
        expect(stats.models).toBe(120)
        expect(millis).toBeGreaterThanOrEqual(45)
        expect(millis).toBeLessThan(1_000)
      }))

    it.effect("moving the TestClock a day ahead while a request is in flight does not time it out", () =>
      Effect.gen(function*() {
        const simulator = yield* Simulator.Simulator
        const catalog = yield* CatalogClient.CatalogClient
        // The simulator answers after 100 ms of its clock, the TestClock.
        yield* simulator.setFaults({ slow: 1, slowMillis: 100 })
        const reading = yield* Effect.fork(catalog.stats().pipe(Effect.ensuring(simulator.setFaults({ slow: 0 }))))
        yield* WallClock.pause(100)
        yield* TestClock.adjust("1 day")
        const stats = yield* Fiber.join(reading).pipe(Effect.timeout("2 seconds"))
        expect(stats.models).toBe(120)
      }))
  })
})

describe("Simulator.layerClient, in one test", () => {
  it.effect("provided to an it.effect", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      expect((yield* catalog.stats()).models).toBe(30)
    }).pipe(Effect.provide(Simulator.layerClient({ sizes: { models: 30 } }))))

  it.scoped("built in an it.scoped's scope, with the key that may read models only", () =>
    Effect.gen(function*() {
      const context = yield* Layer.build(Simulator.layerClient({ sizes: { models: 30 }, key: "models_only" }))
      const catalog = Context.get(context, CatalogClient.CatalogClient)
      expect(yield* Stream.runCount(catalog.models())).toBe(30)
      expect((yield* Effect.flip(Stream.runCount(catalog.skills())))._tag).toBe("ScopeMissing")
    }))

  it.effect("with enforceLimits, the client's pacing follows the TestClock: the 11th request goes when it has moved by exactly the scaled 10 s window, 100 ms", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const simulator = yield* Simulator.Simulator
      const reads = yield* Effect.fork(Effect.all(Array.from({ length: 11 }, () => catalog.stats()), { concurrency: "unbounded" }))
      yield* WallClock.eventually(Effect.map(Answers.withStatus(200), (answered) => answered === 10), 2_000)
      // The 11th is held, however long the real wait.
      yield* WallClock.pause(200)
      expect(yield* Answers.withStatus(200)).toBe(10)
      // The window is 10 s × 0.01, as README says, and nothing more.
      yield* TestClock.adjust("99 millis")
      yield* WallClock.pause(100)
      expect(yield* Answers.withStatus(200)).toBe(10)
      yield* TestClock.adjust("1 millis")
      const all = yield* Fiber.join(reads).pipe(Effect.timeout("2 seconds"))
      expect(all).toHaveLength(11)
      expect(yield* Answers.withStatus(429)).toBe(0)
      const times = (yield* simulator.answered).map((answer) => answer.at)
      expect(times.map((at) => at - (times[0] ?? 0))).toEqual([...Array.from({ length: 10 }, () => 0), 100])
    }).pipe(Effect.provide(Simulator.layerClient({ sizes: { models: 30 }, enforceLimits: true }))))
})

describe("README's Testing your application, whose Effect 3 file is in docs/reference.md", () => {
  it.effect("is the consumer's test file, as the consumer test runs it", () =>
    Effect.gen(function*() {
      const reference = yield* Effect.promise(() => readFile(new URL("../../docs/reference.md", import.meta.url), "utf8"))
      const fixture = yield* Effect.promise(() => readFile(new URL("../package/consumer/app.test.ts", import.meta.url), "utf8"))
      const section = reference.split("\n### Testing your application in Effect 3\n")[1]?.split("\n## ")[0] ?? ""
      const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1]
      expect(block).toBe(fixture)
    }))
})
