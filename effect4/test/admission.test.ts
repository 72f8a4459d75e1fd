/**
 * Admission on the TestClock, no HTTP server: sliding windows that let a
 * request leave only when each has room (a burst of ten, then one as each
 * answer leaves its window), concurrency slots, pauses, the store in memory
 * and in a KeyValueStore, the live allowance's reads (`following`), a store
 * that fails, and the middleware over an `HttpClient` that answers at once.
 */
import { describe, expect, it } from "@effect/vitest"
import { Clock, Duration, Effect, Fiber, Layer, Option, Ref } from "effect"
import { HttpClient, HttpClientResponse } from "effect/http"
import { KeyValueStore } from "effect/persistence"
import { TestClock } from "effect/testing"
import * as Admission from "../../common/src/client/Admission.js"
import * as AdmissionStore from "../../common/src/client/AdmissionStore.js"
import { AdmissionUnavailable } from "../../common/src/client/Errors.js"

/** Moves the clock `seconds` on, one second at a time. */
const seconds = (count: number) => Effect.forEach(Array.from({ length: count }), () => TestClock.adjust("1 second"), { discard: true })

/** The clock time at which `request` starts, recorded in `starts`. */
const recorded = <A, E, R>(starts: Ref.Ref<ReadonlyArray<number>>, request: Effect.Effect<A, E, R>) =>
  Effect.andThen(Effect.flatMap(Clock.currentTimeMillis, (now) => Ref.update(starts, (all) => [...all, now])), request)

/** How many requests, of how long each, how many at a time, while the clock moves how many seconds on (400 unless said). */
interface Run {
  readonly count: number
  readonly concurrency: number
  readonly millis?: number
  readonly span?: number
}

/** Runs the requests of `options` through `admission`; gives the clock time each one started. */
const admitAll = (admission: Admission.Service, options: Run) =>
  Effect.gen(function*() {
    const starts = yield* Ref.make<ReadonlyArray<number>>([])
    const request = recorded(starts, Effect.sleep(Duration.millis(options.millis ?? 0)))
    const fiber = yield* Effect.forkChild(
      Effect.forEach(Array.from({ length: options.count }), () => admission.admit(request), { concurrency: options.concurrency, discard: true })
    )
    yield* seconds(options.span ?? 400)
    yield* Fiber.join(fiber)
    return yield* Ref.get(starts)
  })

/** The same, through the admission in context. */
const admitAllInContext = (options: Run) =>
  Effect.flatMap(Admission.Admission, (admission) => admitAll(admission, options))

/** The most `times` (ascending) in any span of `window` milliseconds. */
const mostIn = (times: ReadonlyArray<number>, window: number) =>
  Math.max(...times.map((start) => times.filter((time) => time >= start && time < start + window).length))

const unavailable = new AdmissionUnavailable({
  address: "redis://127.0.0.1:1",
  reason: "Connection",
  detail: "Redis at redis://127.0.0.1:1 refused the connection"
})

/** A store whose server cannot be reached: every read and write fails. */
const failingStore: AdmissionStore.Store<AdmissionUnavailable> = {
  slot: Effect.fail(unavailable),
  turn: Effect.fail(unavailable),
  paused: Effect.fail(unavailable),
  pause: () => Effect.fail(unavailable)
}

describe("Admission: the windows", () => {
  it.effect("a cold start sends ten at once, then one as each answer leaves its 10 s window, and settles at 60 a minute", () =>
    Effect.gen(function*() {
      const starts = yield* admitAllInContext({ count: 130, concurrency: 1 })
      expect(starts.slice(0, 10)).toEqual(Array.from({ length: 10 }, () => 0))
      expect(starts[10]).toBe(10_100)
      expect(mostIn(starts, 10_100)).toBeLessThanOrEqual(10)
      expect(mostIn(starts, 60_100)).toBeLessThanOrEqual(60)
      // 130 requests: 60 in the first minute, 60 in the next, and the last ten after the second minute.
      expect(starts.filter((start) => start < 60_100)).toHaveLength(60)
      expect(starts.at(-1)).toBeLessThan(2 * 60_100 + 10_100)
    }).pipe(Effect.provide(Admission.layerMemory())))

  it.effect("each earlier request counts from its answer: the eleventh waits for the first answer to leave the window", () =>
    Effect.gen(function*() {
      const admission = yield* Admission.Admission
      // Requests of one second, two at a time: the first two are answered at 1 s, the tenth at 5 s.
      const starts = yield* admitAll(admission, { count: 12, concurrency: 12, millis: 1_000, span: 20 })
      expect(starts.slice(0, 10)).toEqual([0, 0, 1_000, 1_000, 2_000, 2_000, 3_000, 3_000, 4_000, 4_000])
      expect(starts.slice(10)).toEqual([1_000 + 10_100, 1_000 + 10_100])
    }).pipe(Effect.provide(Admission.layerMemory())))

  it.effect("requests on their way count in every window: ten on their way hold the eleventh, however long they take", () =>
    Effect.gen(function*() {
      const store = yield* Admission.memoryStore({ ...Admission.contractLimits, concurrent: 20 })
      const admission = yield* Admission.make(store)
      // Ten requests that last 30 s each: ten on their way until 30 s, when all ten are answered.
      const starts = yield* admitAll(admission, { count: 11, concurrency: 11, millis: 30_000, span: 80 })
      expect(starts.slice(0, 10)).toEqual(Array.from({ length: 10 }, () => 0))
      expect(starts[10]).toBe(30_000 + 10_100)
    }))
})

describe("Admission: concurrency slots", () => {
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
      const fiber = yield* Effect.forkChild(Effect.forEach(Array.from({ length: 10 }), () => admission.admit(request), { concurrency: 10 }))
      for (let step = 0; step < 20; step++) yield* TestClock.adjust("100 millis")
      yield* Fiber.join(fiber)
      expect(yield* Ref.get(most)).toBe(2)
    }).pipe(Effect.provide(Admission.layerMemory())))

  it.effect("a slot is held until the request ends, interrupted or failed, and then counts as answered", () =>
    Effect.gen(function*() {
      const store = yield* Admission.memoryStore({ ...Admission.contractLimits, concurrent: 1 })
      const admission = yield* Admission.make(store)
      const endless = yield* Effect.forkChild(admission.admit(Effect.never))
      const next = yield* Effect.forkChild(admission.admit(Clock.currentTimeMillis))
      yield* TestClock.adjust("5 seconds")
      expect(next.pollUnsafe()).toBeUndefined()
      expect(yield* admission.waiting).toBe(1)
      // The endless request, on its way, counts as answered now.
      expect(yield* store.answered).toEqual([5_000])
      yield* Fiber.interrupt(endless)
      expect(yield* Fiber.join(next)).toBe(5_000)
      // Both answered at 5 s, the interrupted one too: neither is on its way still, counted as answered now.
      yield* TestClock.adjust("1 second")
      expect(yield* store.answered).toEqual([5_000, 5_000])
      // A request that fails gives its slot back too.
      expect(yield* Effect.flip(admission.admit(Effect.fail("refused")))).toBe("refused")
      expect(yield* admission.admit(Clock.currentTimeMillis)).toBe(6_000)
      expect(yield* admission.waiting).toBe(0)
    }))

  it.effect("a request interrupted while it waits for a slot takes none, and stops waiting", () =>
    Effect.gen(function*() {
      const store = yield* Admission.memoryStore({ ...Admission.contractLimits, concurrent: 1 })
      const admission = yield* Admission.make(store)
      const holding = yield* Effect.forkChild(admission.admit(Effect.sleep("10 seconds")))
      const waiting = yield* Effect.forkChild(admission.admit(Effect.void))
      yield* TestClock.adjust("1 second")
      expect(yield* admission.waiting).toBe(1)
      yield* Fiber.interrupt(waiting)
      expect(yield* admission.waiting).toBe(0)
      yield* TestClock.adjust("9 seconds")
      yield* Fiber.join(holding)
      // The slot is free: a request leaves at once.
      expect(yield* admission.admit(Clock.currentTimeMillis)).toBe(10_000)
      expect(yield* store.answered).toEqual([10_000, 10_000])
    }))
})

describe("Admission: the pause", () => {
  it.effect("a pause holds every waiting request until it ends", () =>
    Effect.gen(function*() {
      const admission = yield* Admission.Admission
      yield* admission.pause(Duration.seconds(3))
      const first = yield* Effect.forkChild(admission.admit(Clock.currentTimeMillis))
      const second = yield* Effect.forkChild(admission.admit(Clock.currentTimeMillis))
      yield* TestClock.adjust("2 seconds")
      expect(first.pollUnsafe()).toBeUndefined()
      expect(second.pollUnsafe()).toBeUndefined()
      expect(yield* admission.waiting).toBe(2)
      // A shorter pause does not shorten it.
      yield* admission.pause(Duration.millis(500))
      yield* TestClock.adjust("1 second")
      expect(yield* Fiber.join(first)).toBe(3_000)
      expect(yield* Fiber.join(second)).toBe(3_000)
    }).pipe(Effect.provide(Admission.layerMemory())))

  it.effect("the store says how long the pause still lasts", () =>
    Effect.gen(function*() {
      const store = yield* Admission.memoryStore(Admission.contractLimits)
      expect(Duration.toMillis(yield* store.paused)).toBe(0)
      yield* store.pause(Duration.seconds(2))
      yield* TestClock.adjust("500 millis")
      expect(Duration.toMillis(yield* store.paused)).toBe(1_500)
      const turn = yield* store.turn
      expect(turn._tag === "Wait" ? Duration.toMillis(turn.wait) : null).toBe(1_500)
    }))
})

describe("Admission: the store in memory", () => {
  it.effect("answered: the earlier answers, ascending, with those on their way counted as answered now", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(5_000)
      const store = yield* Admission.memoryStore(Admission.contractLimits, [3_000, 1_000])
      expect(yield* store.answered).toEqual([1_000, 3_000])
      const turn = yield* store.turn
      expect(turn._tag).toBe("Leave")
      yield* TestClock.adjust("2 seconds")
      expect(yield* store.answered).toEqual([1_000, 3_000, 7_000])
      if (turn._tag === "Leave") yield* turn.answered
      yield* TestClock.adjust("1 second")
      expect(yield* store.answered).toEqual([1_000, 3_000, 7_000])
      expect(yield* store.starts).toEqual(yield* store.answered)
      // An answer recorded once every window has left the others behind keeps none of them.
      yield* TestClock.adjust("2 minutes")
      const later = yield* store.turn
      if (later._tag === "Leave") yield* later.answered
      expect(yield* store.answered).toEqual([128_000])
    }))

  it.effect("ten answered within the window: the next turn is to wait until the oldest leaves it", () =>
    Effect.gen(function*() {
      const store = yield* Admission.memoryStore(Admission.contractLimits, [500, ...Array.from({ length: 9 }, () => 2_000)])
      yield* TestClock.setTime(3_000)
      const turn = yield* store.turn
      expect(turn._tag === "Wait" ? Duration.toMillis(turn.wait) : null).toBe(500 + 10_100 - 3_000)
      expect(store.limits).toEqual(Admission.contractLimits)
    }))

  it.effect("the limits follow the live allowance unless they are explicit, and a read lowers the windows", () =>
    Effect.gen(function*() {
      const explicit = yield* Effect.flatMap(Admission.memoryStore({ ...Admission.contractLimits, live: false }), Admission.make)
      expect(explicit.allowance).toBeUndefined()
      expect(explicit.limits).toEqual({ ...Admission.contractLimits, live: false })
      // Under a read of 20 a minute: 20 answered in the last minute hold the next until the first leaves the minute.
      const read = Option.some({ minuteLimit: 20, readAt: 0 })
      const store = yield* Admission.memoryStore(Admission.contractLimits, Array.from({ length: 20 }, () => 0), read)
      yield* TestClock.setTime(30_000)
      const turn = yield* store.turn
      expect(turn._tag === "Wait" ? Duration.toMillis(turn.wait) : null).toBe(60_100 - 30_000)
      expect(yield* (store.allowance?.last ?? Effect.succeed(Option.none()))).toEqual(read)
    }))
})

describe("Admission: the store in a KeyValueStore", () => {
  /** Admission in the given KeyValueStore under `key`, as a layer of its own each time. */
  const inStore = (store: KeyValueStore.KeyValueStore, key: string) =>
    Admission.layerKeyValueStore(Admission.contractLimits, key).pipe(Layer.provide(Layer.succeed(KeyValueStore.KeyValueStore, store)))

  it.effect("a run that follows another on the same key knows its answers: no eleventh request within 10 s", () =>
    Effect.gen(function*() {
      const store = yield* KeyValueStore.KeyValueStore
      const run = (key: string, count: number, span: number) =>
        admitAllInContext({ count, concurrency: 1, span }).pipe(Effect.provide(inStore(store, key)))
      expect(yield* run("account", 10, 1)).toEqual(Array.from({ length: 10 }, () => 0))
      // One second later, a new run on the same account waits until the first run's first answer leaves its window.
      expect(yield* run("account", 1, 20)).toEqual([10_100])
      // Kept as the Effect 3 edition keeps it: a JSON array inside a JSON string.
      const kept = yield* store.get("account")
      expect(JSON.parse(JSON.parse(kept ?? "null"))).toHaveLength(11)
      // A run on another account knows nothing of them: it starts at once.
      const now = yield* Clock.currentTimeMillis
      expect(yield* run("other", 10, 1)).toEqual(Array.from({ length: 10 }, () => now))
    }).pipe(Effect.provide(KeyValueStore.layerMemory)))

  it.effect("the allowance read in one run is the next run's, and it admits under it", () =>
    Effect.gen(function*() {
      const store = yield* KeyValueStore.KeyValueStore
      yield* Effect.gen(function*() {
        const allowance = (yield* Admission.Admission).allowance
        if (allowance !== undefined) yield* allowance.set({ minuteLimit: 20, readAt: 0 })
      }).pipe(Effect.provide(inStore(store, "account")))
      expect(JSON.parse(JSON.parse((yield* store.get("account.allowance")) ?? "null"))).toEqual({ minuteLimit: 20, readAt: 0 })
      const next = Effect.gen(function*() {
        const admission = yield* Admission.Admission
        const last = yield* (admission.allowance?.last ?? Effect.succeed(Option.none()))
        return { last, starts: yield* admitAll(admission, { count: 21, concurrency: 1, span: 70 }) }
      })
      const { last, starts } = yield* Effect.provide(next, inStore(store, "account"))
      expect(last).toEqual(Option.some({ minuteLimit: 20, readAt: 0 }))
      // 20 a minute: ten at once, ten when they leave the 10 s window, the 21st when the first leaves the minute.
      expect(starts.slice(0, 10)).toEqual(Array.from({ length: 10 }, () => 0))
      expect(starts.slice(10, 20)).toEqual(Array.from({ length: 10 }, () => 10_100))
      expect(starts[20]).toBe(60_100)
    }).pipe(Effect.provide(KeyValueStore.layerMemory)))

  it.effect("a KeyValueStore that fails, or holds what cannot be read, is treated as empty", () =>
    Effect.gen(function*() {
      const down = (method: string, key: string) => Effect.fail(new KeyValueStore.KeyValueStoreError({ message: "down", method, key }))
      const broken = KeyValueStore.makeStringOnly({
        get: (key) => key === "garbled" ? Effect.succeed("{not json") : down("get", key),
        set: (key) => down("set", key),
        remove: () => Effect.void,
        clear: Effect.void,
        size: Effect.succeed(0),
        keys: Effect.succeed([])
      })
      for (const key of ["account", "garbled"]) {
        const starts = yield* admitAllInContext({ count: 11, concurrency: 1, span: 20 }).pipe(Effect.provide(inStore(broken, key)))
        const now = yield* Clock.currentTimeMillis
        expect(starts[0]).toBe(now - 20_000)
        expect(starts[10]).toBe(now - 20_000 + 10_100)
      }
    }))
})

describe("Admission.following", () => {
  it.effect("reads the allowance before the second request, not the first; again after a 429 it did not expect, never twice in 12 s; and on a new UTC day", () =>
    Effect.gen(function*() {
      const reads = yield* Ref.make(0)
      const base = yield* Effect.flatMap(Admission.memoryStore(Admission.contractLimits), Admission.make)
      const admission = yield* Admission.following(base, Effect.as(Ref.update(reads, (n) => n + 1), 20))
      yield* admission.admit(Effect.void)
      expect(yield* Ref.get(reads)).toBe(0)
      yield* admission.admit(Effect.void)
      expect(yield* Ref.get(reads)).toBe(1)
      expect(yield* (base.allowance?.last ?? Effect.succeed(Option.none()))).toEqual(Option.some({ minuteLimit: 20, readAt: 0 }))
      yield* admission.admit(Effect.void)
      expect(yield* Ref.get(reads)).toBe(1)
      // A 429 the admission did not expect, 2 s after the read: the read may be out of date, but 12 s have not passed.
      yield* TestClock.adjust("2 seconds")
      yield* admission.pause(Duration.seconds(1))
      const paused = yield* Effect.forkChild(admission.admit(Clock.currentTimeMillis))
      yield* TestClock.adjust("1 second")
      expect(yield* Fiber.join(paused)).toBe(3_000)
      expect(yield* Ref.get(reads)).toBe(1)
      yield* TestClock.adjust("8 seconds")
      yield* admission.admit(Effect.void)
      expect(yield* Ref.get(reads)).toBe(1)
      // 12 s after the read: read again.
      yield* TestClock.adjust("1 second")
      yield* admission.admit(Effect.void)
      expect(yield* Ref.get(reads)).toBe(2)
      yield* admission.admit(Effect.void)
      expect(yield* Ref.get(reads)).toBe(2)
      // A new UTC day: read again.
      yield* TestClock.setTime(Duration.toMillis(Duration.days(1)))
      yield* admission.admit(Effect.void)
      expect(yield* Ref.get(reads)).toBe(3)
    }))

  it.effect("a read that fails leaves the limits as they were, and is tried again after 12 s", () =>
    Effect.gen(function*() {
      const tries = yield* Ref.make(0)
      const base = yield* Effect.flatMap(Admission.memoryStore(Admission.contractLimits), Admission.make)
      const admission = yield* Admission.following(base, Effect.andThen(Ref.update(tries, (n) => n + 1), Effect.fail("usage refused")))
      yield* admission.admit(Effect.void)
      yield* admission.admit(Effect.void)
      expect(yield* Ref.get(tries)).toBe(1)
      yield* TestClock.adjust("11 seconds")
      yield* admission.admit(Effect.void)
      expect(yield* Ref.get(tries)).toBe(1)
      yield* TestClock.adjust("1 second")
      yield* admission.admit(Effect.void)
      expect(yield* Ref.get(tries)).toBe(2)
      expect(yield* (base.allowance?.last ?? Effect.succeed(Option.none()))).toEqual(Option.none())
    }))

  it.effect("takes a read the store holds already (another client's), and gives an admission with explicit limits back as it is", () =>
    Effect.gen(function*() {
      const reads = yield* Ref.make(0)
      const minuteLimit = Effect.as(Ref.update(reads, (n) => n + 1), 20)
      const store = yield* Admission.memoryStore(Admission.contractLimits)
      const first = yield* Effect.flatMap(Admission.make(store), (admission) => Admission.following(admission, minuteLimit))
      const second = yield* Effect.flatMap(Admission.make(store), (admission) => Admission.following(admission, minuteLimit))
      yield* Effect.forEach([first, first, second, second], (admission) => admission.admit(Effect.void), { discard: true })
      expect(yield* Ref.get(reads)).toBe(1)
      const explicit = yield* Effect.flatMap(Admission.memoryStore(Admission.noLimits), Admission.make)
      expect(yield* Admission.following(explicit, minuteLimit)).toBe(explicit)
    }))
})

describe("Admission over a store that fails", () => {
  it.effect("the request fails with AdmissionUnavailable, unsent; a pause it cannot record is let go", () =>
    Effect.gen(function*() {
      const sent = yield* Ref.make(false)
      const admission = yield* Admission.Admission
      const error = yield* Effect.flip(admission.admit(Ref.set(sent, true)))
      expect(error).toBe(unavailable)
      expect(yield* Ref.get(sent)).toBe(false)
      expect(yield* admission.waiting).toBe(0)
      yield* admission.pause(Duration.seconds(1))
    }).pipe(Effect.provide(Admission.layer.pipe(Layer.provide(Layer.succeed(AdmissionStore.AdmissionStore, failingStore))))))

  it.effect("a store whose slots answer and whose turns fail: the same, and the slot is given back", () =>
    Effect.gen(function*() {
      const slots = yield* Ref.make(0)
      const admission = yield* Admission.make({
        ...failingStore,
        slot: Effect.acquireRelease(Ref.update(slots, (n) => n + 1), () => Ref.update(slots, (n) => n - 1))
      })
      const error = yield* Effect.flip(admission.admit(Effect.succeed("sent")))
      expect(error._tag).toBe("AdmissionUnavailable")
      expect(yield* Ref.get(slots)).toBe(0)
    }))
})

describe("Admission.step", () => {
  /** A client that answers every request at once, recording when each was sent. */
  const answering = (sent: Ref.Ref<ReadonlyArray<number>>) =>
    HttpClient.make((request) => recorded(sent, Effect.sync(() => HttpClientResponse.fromWeb(request, new Response("{}", { status: 200 })))))

  it.effect("admits each request of an HttpClient: ten at once, the eleventh when the first answer leaves the window", () =>
    Effect.gen(function*() {
      const sent = yield* Ref.make<ReadonlyArray<number>>([])
      const admitted = Admission.step(yield* Admission.Admission)(answering(sent))
      const status = Effect.map(admitted.get("http://catalog.test/api/v1/models"), (response) => response.status)
      const fiber = yield* Effect.forkChild(Effect.forEach(Array.from({ length: 11 }), () => status, { concurrency: "unbounded" }))
      yield* seconds(20)
      expect(yield* Fiber.join(fiber)).toEqual(Array.from({ length: 11 }, () => 200))
      expect(yield* Ref.get(sent)).toEqual([...Array.from({ length: 10 }, () => 0), 10_100])
    }).pipe(Effect.provide(Admission.layerMemory())))

  it.effect("a store that fails fails the request with AdmissionUnavailable, and the client sends nothing", () =>
    Effect.gen(function*() {
      const sent = yield* Ref.make<ReadonlyArray<number>>([])
      // Client first or last (`dual`): the same step.
      const admitted = Admission.step(answering(sent), yield* Admission.make(failingStore))
      const error = yield* Effect.flip(admitted.get("http://catalog.test/api/v1/models"))
      expect(error._tag).toBe("AdmissionUnavailable")
      expect(yield* Ref.get(sent)).toEqual([])
    }))
})
