/**
 * What fits is remembered: on a simulator whose Skills do not fit 100 to a
 * page (the service refuses a page over 512 KiB with 422), the first scan
 * of skills is refused once and records the size that fitted; a later scan
 * through the same page sizes starts there and is never refused, in one
 * client and from one run of the `catalog` command to the next (the
 * account's state files, or Redis with `--redis`); `catalog plan` then predicts the requests of the
 * next sync exactly and its bytes within 10%, for every collection.
 */
import * as KeyValueStore from "@effect/platform/KeyValueStore"
import { describe, expect, it } from "@effect/vitest"
import { NodeHttpClient } from "@effect/platform-node"
import { Effect, Layer, Option, Redacted, Stream } from "effect"
import { randomUUID } from "node:crypto"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import * as PageSizes from "../../common/src/client/PageSizes.js"
import * as Operations from "../../common/src/contract/Operations.js"
import * as Mirror from "../../common/src/mirror/Mirror.js"
import * as MirrorDatabase from "../../src/mirror/MirrorDatabase.js"
import * as RedisPageSizes from "../../common/src/redis/RedisPageSizes.js"
import * as Simulator from "../../common/src/simulator/Simulator.js"
import * as Answers from "../support/Answers.js"
import { catalog, keysOf, lines } from "../support/CatalogProcess.js"
import * as Client from "../support/Client.js"
import { closedPort } from "../support/Loopback.js"
import * as MirrorStore from "../support/Mirror.js"
import * as Servers from "../support/Servers.js"

const skills = 300

/** The simulator's 422 answers so far. */
const refused = Answers.withStatus(422)

/** A state directory of the command's own, removed after the test. */
const stateDirectory = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "catalog-page-sizes-"))),
  (directory) => Effect.sync(() => rmSync(directory, { recursive: true, force: true }))
)

/** Collections of a simulator whose Skills do not fit 100 to a page, for the plan. */
const mirrorSizes = { models: 450, skills, mcps: 230, organizations: 40, providers: 12, families: 30, topics: 24, articles: 40 }

/** Runs the command against the simulator in context, every run with the same state directory, each within 30 s. */
const command = Effect.gen(function*() {
  const simulator = yield* Simulator.Simulator
  keysOf(simulator)
  const state = yield* stateDirectory
  const target = { baseUrl: simulator.baseUrl, key: Redacted.value(simulator.keys.full) }
  const run = (args: ReadonlyArray<string>) =>
    Effect.promise(() => catalog(args, target, { CATALOG_STATE_DIR: state, CATALOG_TIME_SCALE: "0.01" })).pipe(
      Effect.timeoutFail({ duration: "30 seconds", onTimeout: () => new Error(`catalog ${args.join(" ")} did not end within 30 s`) })
    )
  return { run, state }
})

const redis = Servers.redis("the tests of page sizes shared through Redis need it")

const redisUrl = () => redis.url

/** Scans every Skill, within a bound no correct scan comes near. */
const scanSkills = Effect.flatMap(CatalogClient.CatalogClient, (catalog) => Stream.runCount(catalog.skills())).pipe(
  Effect.timeoutFail({ duration: "20 seconds", onTimeout: () => new Error("the scan did not end within 20 s") })
)

describe("PageSizes", () => {
  it.layer(Client.simulatorWithClient({ sizes: { skills }, enforceLimits: false }))("in one client", (it) => {
    it.effect("the second scan of skills starts at the size that fitted: no request is refused", () =>
      Effect.gen(function*() {
        expect(yield* scanSkills).toBe(skills)
        expect(yield* refused).toBe(1)
        const fitted = yield* Effect.flatMap(PageSizes.PageSizes, (pageSizes) => pageSizes.get("skills"))
        expect(fitted).toEqual(Option.some(50))
        expect(yield* scanSkills).toBe(skills)
        expect(yield* refused).toBe(1)
        // A list whose pages fit records nothing.
        expect(yield* Effect.flatMap(PageSizes.PageSizes, (pageSizes) => pageSizes.get("models"))).toEqual(Option.none())
      }))
  })

  it.effect("sizes kept in a store are read back by the next layer over it, and an unreadable record starts empty", () =>
    Effect.gen(function*() {
      const store = yield* KeyValueStore.KeyValueStore
      const layer = PageSizes.layerKeyValueStore("account.page-sizes").pipe(Layer.provide(Layer.succeed(KeyValueStore.KeyValueStore, store)))
      yield* Effect.flatMap(PageSizes.PageSizes, (pageSizes) => pageSizes.set("skills", 25)).pipe(Effect.provide(layer))
      expect(yield* store.get("account.page-sizes")).toEqual(Option.some(JSON.stringify({ skills: 25 })))
      expect(yield* Effect.flatMap(PageSizes.PageSizes, (pageSizes) => pageSizes.get("skills")).pipe(Effect.provide(layer))).toEqual(Option.some(25))
      yield* store.set("account.page-sizes", "{\"skills\":-3}")
      expect(yield* Effect.flatMap(PageSizes.PageSizes, (pageSizes) => pageSizes.get("skills")).pipe(Effect.provide(layer))).toEqual(Option.none())
    }).pipe(Effect.provide(KeyValueStore.layerMemory)))

  describe("in Redis", () => {
    it.live("a client that learned the size that fits spares another client of the account the refused request", () =>
      Effect.gen(function*() {
        const simulator = yield* Simulator.Simulator
        const pageSizes = RedisPageSizes.layer({ redis: redisUrl(), prefix: `test:${randomUUID()}:` })
        const client = () =>
          Client.client("full", { pageSizes }).pipe(Layer.provide(Layer.succeed(Simulator.Simulator, simulator)), Layer.provide(NodeHttpClient.layerUndici))
        expect(yield* Effect.provide(scanSkills, client())).toBe(skills)
        expect(yield* refused).toBe(1)
        expect(yield* Effect.provide(scanSkills, client())).toBe(skills)
        expect(yield* refused).toBe(1)
      }).pipe(Effect.provide(Simulator.layer({ sizes: { skills }, enforceLimits: false }))))

    it.live("a value that is no page size is none, and a Redis that is down is no size known and none kept, within the timeout", () =>
      Effect.gen(function*() {
        const prefix = `test:${randomUUID()}:`
        const shared = yield* Layer.build(RedisPageSizes.layer({ redis: redisUrl(), prefix }))
        const pageSizes = yield* PageSizes.PageSizes.pipe(Effect.provide(shared))
        const { Redis } = yield* Effect.promise(() => import("ioredis"))
        const raw = yield* Effect.acquireRelease(Effect.sync(() => new Redis(redisUrl())), (connection) => Effect.promise(() => connection.quit()))
        for (const text of ["0", "-5", "2.5", "fifty", ""]) {
          yield* pageSizes.set("skills", 50)
          expect(yield* pageSizes.get("skills")).toEqual(Option.some(50))
          yield* Effect.promise(() => raw.hset(`${prefix}page-sizes`, "skills", text))
          expect(yield* pageSizes.get("skills"), text).toEqual(Option.none())
        }
        const port = yield* closedPort
        const down = yield* Layer.build(RedisPageSizes.layer({ redis: `redis://127.0.0.1:${port}`, timeout: "300 millis" }))
        const unreachable = yield* PageSizes.PageSizes.pipe(Effect.provide(down))
        const timed = Effect.timeoutFail({ duration: "5 seconds", onTimeout: () => new Error("Redis was waited for past its timeout") })
        yield* timed(unreachable.set("skills", 50))
        expect(yield* timed(unreachable.get("skills"))).toEqual(Option.none())
      }).pipe(Effect.scoped))
  })

  describe("the command", () => {
    it.live("two runs of catalog scan skills sharing a state directory: the second sends no refused request", () =>
      Effect.gen(function*() {
        const { run, state } = yield* command
        const first = yield* run(["scan", "skills", "--quiet"])
        expect(first.code).toBe(0)
        expect(lines(first.stdout)).toHaveLength(skills)
        expect(yield* refused).toBe(1)
        expect(readdirSync(state).filter((file) => file.endsWith(".page-sizes"))).toHaveLength(1)
        const second = yield* run(["scan", "skills", "--quiet"])
        expect(second.code).toBe(0)
        expect(second.stdout).toBe(first.stdout)
        expect(yield* refused).toBe(1)
      }).pipe(Effect.scoped, Effect.provide(Simulator.layer({ sizes: { skills }, enforceLimits: false, timeScale: 0.01 }))))

    it.live("with --redis, a run of catalog scan skills with a state directory of its own sends no refused request after another's", () =>
      Effect.gen(function*() {
        const redis = ["--redis", redisUrl()]
        const first = yield* Effect.flatMap(command, ({ run }) => run(["scan", "skills", "--quiet", ...redis]))
        expect(first.code).toBe(0)
        expect(yield* refused).toBe(1)
        const second = yield* Effect.flatMap(command, ({ run }) => run(["scan", "skills", "--quiet", ...redis]))
        expect(second.code).toBe(0)
        expect(lines(second.stdout)).toHaveLength(skills)
        expect(yield* refused).toBe(1)
      }).pipe(Effect.scoped, Effect.provide(Simulator.layer({ sizes: { skills }, enforceLimits: false, timeScale: 0.01 }))))

    it.live("after a sync, catalog plan predicts the next sync's requests exactly and its bytes within 10%, for every collection", () =>
      Effect.gen(function*() {
        const simulator = yield* Simulator.Simulator
        const { run } = yield* command
        const database = yield* MirrorStore.sqliteFile
        const collections = Operations.collections.map((operation) => operation.id)
        expect((yield* run(["mirror", ...collections, "--db", database])).code).toBe(0)
        const planned = yield* run(["plan", ...collections, "--db", database, "--format", "json"])
        expect(planned.code).toBe(0)
        const plan: { readonly collections: ReadonlyArray<{ readonly collection: string; readonly requests: number; readonly bytes: number }> } =
          JSON.parse(planned.stdout)
        const before = (yield* simulator.answered).length
        expect((yield* run(["mirror", ...collections, "--db", database])).code).toBe(0)
        const answered = (yield* simulator.answered).slice(before)
        const runs = yield* Mirror.runs(collections).pipe(Effect.provide(Layer.orDie(MirrorDatabase.layerFrom(database))))
        expect(answered.filter((answer) => answer.status === 422)).toEqual([])
        for (const step of plan.collections) {
          const synced = runs.find((candidate) => candidate.collection === step.collection)
          expect(answered.filter((answer) => answer.operation === step.collection), step.collection).toHaveLength(step.requests)
          expect(Math.abs(step.bytes - (synced?.bytes ?? 0)) / step.bytes, step.collection).toBeLessThan(0.1)
        }
        expect(plan.collections.map((step) => step.collection)).toEqual(collections)
      }).pipe(Effect.scoped, Effect.provide(Simulator.layer({ sizes: mirrorSizes, enforceLimits: false, timeScale: 0.01 }))))
  })
})
