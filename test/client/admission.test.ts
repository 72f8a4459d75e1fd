/**
 * Admission's schedule on the TestClock: sliding windows booked at the
 * earliest start that keeps them (a burst of ten, then the per-minute rate),
 * pauses, and the start times a run leaves in a KeyValueStore for the next.
 * The window arithmetic itself, shared by both editions, is tested once in
 * rules/test/client/AdmissionWindows.test.ts.
 */
import * as KeyValueStore from "@effect/platform/KeyValueStore"
import { describe, expect, it } from "@effect/vitest"
import { Clock, Duration, Effect, Fiber, Layer, Ref, TestClock } from "effect"
import * as Admission from "../../common/src/client/Admission.js"

/** Starts `count` requests through the admission in context, `concurrency` at a time, moving the clock `seconds` on; gives the clock time each one started. */
const admitAll = (count: number, concurrency: number, seconds = 400) =>
  Effect.gen(function*() {
    const admission = yield* Admission.Admission
    const starts = yield* Ref.make<ReadonlyArray<number>>([])
    const fiber = yield* Effect.fork(
      Effect.forEach(
        Array.from({ length: count }, (_, index) => index),
        () => admission.admit(Effect.flatMap(Clock.currentTimeMillis, (now) => Ref.update(starts, (all) => [...all, now]))),
        { concurrency }
      )
    )
    for (let second = 0; second < seconds; second++) yield* TestClock.adjust("1 second")
    yield* Fiber.join(fiber)
    return yield* Ref.get(starts)
  })

/** The most `times` (ascending) in any span of `window` milliseconds. */
const mostIn = (times: ReadonlyArray<number>, window: number) =>
  Math.max(...times.map((start) => times.filter((time) => time >= start && time < start + window).length))

describe("Admission", () => {
  it.effect("a cold start sends ten at once, then one as each leaves its 10 s window, and settles at 60 a minute", () =>
    Effect.gen(function*() {
      const starts = yield* admitAll(130, 1)
      expect(starts.slice(0, 10)).toEqual(Array.from({ length: 10 }, () => 0))
      expect(starts[10]).toBe(10_100)
      expect(mostIn(starts, 10_100)).toBeLessThanOrEqual(10)
      expect(mostIn(starts, 60_100)).toBeLessThanOrEqual(60)
      // 130 requests: 60 in the first minute, 60 in the next, and the last ten after the second minute.
      expect(starts.filter((start) => start < 60_100)).toHaveLength(60)
      expect(starts.at(-1)).toBeLessThan(2 * 60_100 + 10_100)
    }).pipe(Effect.provide(Admission.layerMemory())))

  it.effect("two at once at most, whatever the concurrency asked for", () =>
    Effect.gen(function*() {
      const admission = yield* Admission.Admission
      const inFlight = yield* Ref.make(0)
      const most = yield* Ref.make(0)
      const request = Effect.acquireUseRelease(
        Effect.flatMap(Ref.updateAndGet(inFlight, (n) => n + 1), (n) => Ref.update(most, (m) => Math.max(m, n))),
        () => Effect.sleep("100 millis"),
        () => Ref.update(inFlight, (n) => n - 1)
      )
      const fiber = yield* Effect.fork(Effect.forEach(Array.from({ length: 10 }), () => admission.admit(request), { concurrency: 10 }))
      for (let step = 0; step < 20; step++) yield* TestClock.adjust("100 millis")
      yield* Fiber.join(fiber)
      expect(yield* Ref.get(most)).toBe(2)
    }).pipe(Effect.provide(Admission.layerMemory())))

  it.effect("two scans at once share the account fairly: each gets half of every window", () =>
    Effect.gen(function*() {
      const admission = yield* Admission.Admission
      const starts = yield* Ref.make<ReadonlyArray<readonly [scan: string, at: number]>>([])
      // A scan's pages are sequential: each request, 100 ms long, waits for the one before.
      const request = (name: string) =>
        Effect.zipRight(
          Effect.flatMap(Clock.currentTimeMillis, (now) => Ref.update(starts, (all) => [...all, [name, now] as const])),
          Effect.sleep("100 millis")
        )
      const scan = (name: string) => Effect.forEach(Array.from({ length: 30 }), () => admission.admit(request(name)), { discard: true })
      const fiber = yield* Effect.fork(Effect.all([scan("models"), scan("skills")], { concurrency: 2 }))
      for (let second = 0; second < 70; second++) yield* TestClock.adjust("1 second")
      yield* Fiber.join(fiber)
      const all = yield* Ref.get(starts)
      expect(all).toHaveLength(60)
      // In each 10 s window of the first minute, five requests of each scan.
      for (let window = 0; window < 6; window++) {
        const inWindow = all.filter(([, at]) => at >= window * 10_100 && at < (window + 1) * 10_100)
        expect(inWindow.filter(([name]) => name === "models"), `window ${window}`).toHaveLength(5)
        expect(inWindow.filter(([name]) => name === "skills"), `window ${window}`).toHaveLength(5)
      }
    }).pipe(Effect.provide(Admission.layerMemory())))

  it.effect("a pause holds every waiting request until it ends", () =>
    Effect.gen(function*() {
      const admission = yield* Admission.Admission
      yield* admission.pause(Duration.seconds(3))
      const fiber = yield* Effect.fork(admission.admit(Clock.currentTimeMillis))
      yield* TestClock.adjust("2 seconds")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 second")
      expect(yield* Fiber.join(fiber)).toBe(3_000)
    }).pipe(Effect.provide(Admission.layerMemory())))

  it.effect("a run that follows another on the same key knows its starts: no eleventh request within 10 s", () =>
    Effect.gen(function*() {
      const store = yield* KeyValueStore.KeyValueStore
      const run = (key: string, count: number, seconds: number) =>
        admitAll(count, 1, seconds).pipe(Effect.provide(Admission.layerKeyValueStore(Admission.contractLimits, key).pipe(
          Layer.provide(Layer.succeed(KeyValueStore.KeyValueStore, store))
        )))
      expect(yield* run("account", 10, 1)).toEqual(Array.from({ length: 10 }, () => 0))
      // One second later, a new run on the same account waits until the first run's first request leaves its window.
      expect(yield* run("account", 1, 20)).toEqual([10_100])
      expect(yield* store.has("account")).toBe(true)
      // A run on another account knows nothing of them: it starts at once.
      const now = yield* Clock.currentTimeMillis
      expect(yield* run("other", 10, 1)).toEqual(Array.from({ length: 10 }, () => now))
    }).pipe(Effect.provide(KeyValueStore.layerMemory)))
})
