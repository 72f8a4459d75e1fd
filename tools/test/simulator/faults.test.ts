/**
 * The simulator's fault switches (503, dropped connections, slow answers) and
 * churn of the catalog during a scan, against the contract's Errors and List
 * rules. Every test runs its own simulator on the real clock.
 */
import type { HttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Schema } from "effect"
import * as Records from "../../src/simulator/data/Records.js"
import * as Simulator from "../../src/simulator/Simulator.js"
import { Resources } from "../../../src/index.js"
import * as Http from "../../../test/support/Http.js"

const Problem = Resources.Problem

const Model = Schema.Struct({ id: Schema.String, name: Schema.String, api_url: Schema.String })

const ModelPage = Schema.Struct({
  data: Schema.Array(Model),
  pagination: Schema.Struct({ limit: Schema.Number, has_more: Schema.Boolean, next_cursor: Schema.NullOr(Schema.String) }),
  links: Schema.Struct({ next: Schema.NullOr(Schema.String) })
})

type Env = Simulator.Simulator | HttpClient.HttpClient

/** Runs `effect` against a fresh simulator with these settings (real clock). */
const withSimulator = (settings: Simulator.Settings) => <A, E>(effect: Effect.Effect<A, E, Env>) =>
  Effect.provide(effect, Http.simulator(settings))

const expectUnavailable = (reply: Http.Reply) => {
  expect(reply.status).toBe(503)
  expect(reply.headers["content-type"]).toContain("application/problem+json")
  const problem = Schema.decodeUnknownSync(Problem)(reply.json)
  expect(problem.status).toBe(503)
  expect(problem.code).toBe("service_unavailable")
  expect(reply.headers["retry-after"]).toMatch(/^\d+(\.\d+)?$/)
  expect(Number(reply.headers["retry-after"])).toBeGreaterThan(0)
}

// Faults --------------------------------------------------------------------

describe("faults", () => {
  /** How many of 200 requests answer 503 on a fresh simulator with this seed. */
  const unavailableOf200 = (seed: number) =>
    Effect.gen(function*() {
      const replies = yield* Effect.all(Array.from({ length: 200 }, () => Http.get("/stats/")), { concurrency: 8 })
      const failed = replies.filter((reply) => reply.status !== 200)
      for (const reply of failed) expectUnavailable(reply)
      const simulator = yield* Simulator.Simulator
      const counts = yield* simulator.statusCounts
      expect(counts.get(503) ?? 0).toBe(failed.length)
      expect(counts.get(200) ?? 0).toBe(200 - failed.length)
      return failed.length
    }).pipe(withSimulator({ seed, sizes: { models: 50 }, enforceLimits: false, timeScale: 0.01, faults: { unavailable: 0.15 } }))

  it.live("unavailable 0.15: about 15% of requests answer 503 with Retry-After, the same share for the same seed", () =>
    Effect.gen(function*() {
      const first = yield* unavailableOf200(7)
      expect(first).toBeGreaterThanOrEqual(20)
      expect(first).toBeLessThanOrEqual(40)
      const second = yield* unavailableOf200(7)
      expect(second).toBe(first)
    }))

  it.live("drop 1: the connection closes without an answer (a transport error, not a status)", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      for (let n = 0; n < 3; n++) {
        const error = yield* Effect.flip(Http.get("/stats/"))
        expect(error._tag).toBe("RequestError")
      }
      // Dropped requests give their concurrency slots back.
      yield* simulator.setFaults({ drop: 0 })
      const replies = yield* Effect.all([Http.get("/stats/"), Http.get("/stats/")], { concurrency: "unbounded" })
      expect(replies.map((reply) => reply.status)).toEqual([200, 200])
    }).pipe(withSimulator({ timeScale: 0.01, sizes: { models: 50 }, faults: { drop: 1 } })))

  it.live("slow 1: the answer takes at least slowMillis", () =>
    Effect.gen(function*() {
      const [elapsed, reply] = yield* Effect.timed(Http.get("/stats/"))
      expect(reply.status).toBe(200)
      expect(Duration.toMillis(elapsed)).toBeGreaterThanOrEqual(195)
    }).pipe(withSimulator({ timeScale: 0.01, sizes: { models: 50 }, faults: { slow: 1, slowMillis: 200 } })))

  it.live("setFaults turns 503s on and off at runtime", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      expect((yield* Http.get("/stats/")).status).toBe(200)
      yield* simulator.setFaults({ unavailable: 1 })
      for (let n = 0; n < 3; n++) expectUnavailable(yield* Http.get("/stats/"))
      yield* simulator.setFaults({ unavailable: 0 })
      for (let n = 0; n < 3; n++) expect((yield* Http.get("/stats/")).status).toBe(200)
      const counts = yield* simulator.statusCounts
      expect(counts.get(503)).toBe(3)
      expect(counts.get(200)).toBe(4)
    }).pipe(withSimulator({ timeScale: 0.01, sizes: { models: 50 }, enforceLimits: false })))
})

// Churn ---------------------------------------------------------------------

describe("churn", () => {
  const models = 2000
  const settings: Simulator.Settings = { sizes: { models }, churn: 0.1, churnHorizon: 20, enforceLimits: false }

  /** Every id a model can have in this catalog: each base id and its `-preview` sibling. */
  const possibleIds = (simulator: Simulator.Service): ReadonlyArray<string> => {
    const records = new Records.Records(simulator.options.seed, simulator.options.sizes, simulator.baseUrl)
    const ids: Array<string> = []
    for (let i = 0; i < models; i++) ids.push(records.modelId(i), `${records.modelId(i)}-preview`)
    return ids
  }

  const lifetimes = (simulator: Simulator.Service) =>
    Effect.forEach(possibleIds(simulator), (id) => Effect.map(simulator.lifetimeOf("models", id), (lifetime) => ({ id, lifetime })))

  /** Every page of /models/?limit=100, following links.next. */
  const scan = Effect.gen(function*() {
    const pages: Array<typeof ModelPage.Type> = []
    let next: string | null = "/models/?limit=100"
    while (next !== null) {
      const reply: Http.Reply = yield* Http.get(next)
      expect(reply.status).toBe(200)
      const page = Schema.decodeUnknownSync(ModelPage)(reply.json)
      pages.push(page)
      next = page.links.next
      expect(pages.length).toBeLessThan(100)
    }
    return pages
  })

  it.live("a scan under churn yields each record once, every record that lived throughout, and only records that lived during it", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const all = yield* lifetimes(simulator)
      for (const { id, lifetime } of all) expect(lifetime, id).toBeDefined()

      const epochBefore = yield* simulator.epoch
      const pages = yield* scan
      const epochAfter = yield* simulator.epoch
      // Each list page is one epoch.
      expect(epochAfter - epochBefore).toBe(pages.length)

      const items = pages.flatMap((page) => page.data)
      const ids = items.map((item) => item.id)
      // No id twice, in ascending order.
      expect(new Set(ids).size).toBe(ids.length)
      expect([...ids].sort()).toEqual(ids)

      const yielded = new Set(ids)
      // The pages were served at epochs epochBefore .. epochAfter - 1.
      const last = epochAfter - 1
      for (const { id, lifetime } of all) {
        if (lifetime === undefined) continue
        const throughout = lifetime.born <= epochBefore && lifetime.died > last
        const never = lifetime.died <= epochBefore || lifetime.born > last
        if (throughout) expect(yielded.has(id), `${id} lived throughout the scan`).toBe(true)
        if (never) expect(yielded.has(id), `${id} did not live during the scan`).toBe(false)
      }

      // Churn happened: inserted siblings were yielded, removed records were missed, edits were seen.
      expect(ids.some((id) => id.endsWith("-preview"))).toBe(true)
      const removedDuring = all.filter(({ lifetime }) =>
        lifetime !== undefined && lifetime.born <= epochBefore && lifetime.died > epochBefore && lifetime.died <= last
      )
      expect(removedDuring.length).toBeGreaterThan(0)
      expect(removedDuring.some(({ id }) => !yielded.has(id))).toBe(true)
      expect(items.some((item) => item.name.endsWith("(rev)"))).toBe(true)
    }).pipe(withSimulator(settings)))

  it.live("a removed record answers 404 after its removal epoch, an inserted one 200 after its birth", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const all = yield* lifetimes(simulator)
      const start = yield* simulator.epoch
      const removed = all.find(({ lifetime }) => lifetime !== undefined && lifetime.born <= start && Number.isFinite(lifetime.died))
      const inserted = all.find(({ lifetime }) => lifetime !== undefined && lifetime.born > start && Number.isFinite(lifetime.born))
      expect(removed).toBeDefined()
      expect(inserted).toBeDefined()
      if (removed?.lifetime === undefined || inserted?.lifetime === undefined) return
      const detail = (id: string) => Http.get(`/models/${id}/`)

      // Details do not advance the epoch.
      const before = yield* detail(removed.id)
      expect(before.status).toBe(200)
      expect(Schema.decodeUnknownSync(Schema.Struct({ data: Model }))(before.json).data.id).toBe(removed.id)
      expect((yield* detail(inserted.id)).status).toBe(404)
      expect(yield* simulator.epoch).toBe(start)

      // List pages advance it past both epochs.
      const target = Math.max(removed.lifetime.died, inserted.lifetime.born)
      while ((yield* simulator.epoch) < target) expect((yield* Http.get("/models/?limit=1")).status).toBe(200)

      const after = yield* detail(removed.id)
      expect(after.status).toBe(404)
      expect(Schema.decodeUnknownSync(Problem)(after.json).code).toBe("not_found")
      expect((yield* detail(inserted.id)).status).toBe(200)
    }).pipe(withSimulator(settings)))
})
