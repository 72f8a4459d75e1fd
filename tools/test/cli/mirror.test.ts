/**
 * `catalog mirror` and `catalog plan` as processes, as the command ships
 * (bundled by the test setup), against simulators over HTTP, on both stores:
 * a sync killed with SIGKILL and run again, the plan against the sync it
 * predicts, two processes sharing the account through Redis and one
 * PostgreSQL, and bad input.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer, Redacted, Schedule } from "effect"
import { spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { createInterface } from "node:readline"
import { inject } from "vitest"
import { cleanEnv } from "../../../scripts/cleanEnv.js"
import * as Mirror from "../../../common/src/mirror/Mirror.js"
import * as MirrorDatabase from "../../../src/mirror/MirrorDatabase.js"
import * as Simulator from "../../src/simulator/Simulator.js"
import * as MirrorStore from "../../../test/support/Mirror.js"
import * as Process from "../../../test/support/Process.js"
import * as Servers from "../../../test/support/Servers.js"

const redis = Servers.redis("the test of mirrors sharing the account through Redis needs it")

const sizes = { models: 3000, skills: 60, mcps: 600, organizations: 200, providers: 10, families: 12, topics: 6, articles: 8 }

/** Runs the bundled command against a simulator, with its own state directory (the account's recent requests). */
const catalog = (simulator: Simulator.Service, args: ReadonlyArray<string>, env: Readonly<Record<string, string>> = {}) =>
  Process.runNode([inject("catalogCommand"), ...args], {
    cwd: tmpdir(),
    env: {
      ...cleanEnv(),
      CATALOG_BASE_URL: simulator.baseUrl,
      CATALOG_API_KEY: Redacted.value(simulator.keys.full),
      CATALOG_STATE_DIR: mkdtempSync(path.join(tmpdir(), "catalog-state-")),
      ...env
    }
  }).pipe(Effect.tap((ran) => Effect.sync(() => expect(ran.stderr + ran.stdout).not.toContain(Redacted.value(simulator.keys.full)))))

/** Reads the mirror at `database`. */
const inMirror = <A, E>(database: string, read: Effect.Effect<A, E, MirrorDatabase.MirrorDatabase>) =>
  Effect.scoped(Effect.provide(read, Layer.orDie(MirrorDatabase.layerFrom(database))))

const liveIds = Effect.flatMap(MirrorDatabase.MirrorDatabase, ({ sql }) =>
  sql<{ readonly id: string; readonly deleted_at: unknown }>`SELECT id, deleted_at FROM models`).pipe(
  Effect.map((rows) => ({ all: rows.length, live: rows.filter((row) => row.deleted_at === null).map((row) => row.id).sort() }))
)

const answeredOk = (simulator: Simulator.Service, operation: string) =>
  Effect.map(simulator.answered, (answered) => answered.filter((answer) => answer.operation === operation && answer.status === 200).length)

describe.each(MirrorStore.stores)("catalog mirror into %s", { timeout: 60_000 }, (store) => {
  it.live("killed with SIGKILL mid-sync, then run again: the table equals the catalog, nothing twice, one full scan plus one page spent", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const database = yield* MirrorStore.newDatabase(store)
      const killed = yield* Effect.fork(catalog(simulator, ["mirror", "models", "--db", database, "--no-limits"]))
      // Killed once a dozen pages have been answered: SIGKILL, from the interruption of the run.
      yield* answeredOk(simulator, "models").pipe(Effect.repeat({ until: (pages) => pages >= 12, schedule: Schedule.spaced("10 millis") }))
      yield* Fiber.interrupt(killed)
      const before = yield* inMirror(database, liveIds)
      expect(before.live.length).toBeGreaterThan(0)
      expect(before.live.length).toBeLessThan(sizes.models)

      const again = yield* catalog(simulator, ["mirror", "models", "--db", database, "--no-limits", "--changes"])
      expect(again.code).toBe(0)
      const changeLines = again.stdout.split("\n").filter((line) => line !== "")
      // The kind of a change comes first, as README shows it.
      for (const line of changeLines) expect(line).toMatch(/^\{"_tag":"Inserted","collection":"models",/)
      const inserted = changeLines.map((line) => JSON.parse(line))
      expect(inserted.every((change) => change._tag === "Inserted")).toBe(true)
      expect(inserted.length).toBe(sizes.models - before.live.length)

      const after = yield* inMirror(database, liveIds)
      const catalogIds = (yield* simulator.listed("models")).map((item) => item.id).sort()
      expect(after.live).toEqual(catalogIds)
      expect(after.all).toBe(sizes.models)
      const pagesOfAScan = sizes.models / 100
      expect(yield* answeredOk(simulator, "models")).toBeLessThanOrEqual(pagesOfAScan + 1)
      const [resumed, first] = yield* inMirror(database, Mirror.runs(["models"]))
      expect(first?.status).toBe("running")
      expect(resumed).toMatchObject({ status: "complete", scan: first?.scan })
    }).pipe(
      Effect.scoped,
      Effect.provide(Simulator.layer({ sizes, enforceLimits: false, faults: { slow: 1, slowMillis: 20 } }))
    ))

  it.live("catalog plan predicts the units of the sync exactly, and its time: no more than 15% too long, and too short only by what a busy machine adds", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const database = yield* MirrorStore.newDatabase(store)
      // In the order of the contract's table, as the plan and the sync take them.
      const collections = ["models", "organizations", "mcps"]
      const env = { CATALOG_TIME_SCALE: "0.1" }
      const planned = yield* catalog(simulator, ["plan", ...collections, "--db", database, "--format", "json"], env)
      expect(planned.code).toBe(0)
      const plan = JSON.parse(planned.stdout)
      expect(plan).toMatchObject({ units: 38, fits: true })
      expect(plan.collections.map((step: { readonly collection: string }) => step.collection)).toEqual(collections)
      // The plan's own requests leave the account's 10 s window (scaled) before the sync starts with a plan of its own.
      yield* Effect.sleep("1300 millis")
      const synced = yield* catalog(simulator, ["mirror", ...collections, "--db", database], env)
      expect(synced.code).toBe(0)
      const runs = yield* inMirror(database, Mirror.runs(["models", "mcps", "organizations"]))
      expect(runs.reduce((units, run) => units + run.units, 0)).toBe(plan.units)
      const started = Math.min(...runs.map((run) => run.startedAt.getTime()))
      const ended = Math.max(...runs.map((run) => run.endedAt?.getTime() ?? Number.NaN))
      const seconds = (ended - started) / 1000
      // No faster than the windows allow, as planned; slower by what a busy machine adds to the requests' own time.
      expect(seconds).toBeGreaterThan(plan.seconds * 0.85)
      expect(seconds).toBeLessThan(plan.seconds * 1.5)
      expect((yield* simulator.statusCounts).get(429)).toBeUndefined()
    }).pipe(Effect.scoped, Effect.provide(Simulator.layer({ sizes, timeScale: 0.1 }))))

  it.live("catalog changes gives what the syncs committed, in order, with positions; after a position, of some collections, and for a subscriber, where it stopped", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const database = yield* MirrorStore.newDatabase(store)
      const synced = yield* catalog(simulator, ["mirror", "topics", "families", "--db", database, "--no-limits", "--changes"])
      expect(synced.code).toBe(0)
      const changeLines = synced.stdout.split("\n").filter((line) => line !== "")
      const changes = (args: ReadonlyArray<string>) =>
        Effect.map(catalog(simulator, ["changes", ...args, "--db", database]), (ran) => {
          expect(ran.code, ran.stderr).toBe(0)
          return ran.stdout.split("\n").filter((line) => line !== "").map((line): { readonly position: number; readonly committed_at: string } => JSON.parse(line))
        })
      const all = yield* changes([])
      // Each line is the sync's change (its JSON as the store keeps it: PostgreSQL's jsonb orders the keys its own way),
      // its kind first, then its position and commit time.
      expect(all.map(({ committed_at, position, ...change }) => change)).toEqual(changeLines.map((line) => JSON.parse(line)))
      for (const line of all) expect(JSON.stringify(line)).toMatch(/^\{"_tag":"Inserted","collection":"(topics|families)",.*,"position":\d+,"committed_at":"[^"]+"\}$/)
      const positions = all.map(({ position }) => position)
      expect(positions).toEqual([...positions].sort((a, b) => a - b))
      expect(new Set(positions).size).toBe(positions.length)
      expect(all.every(({ committed_at }) => !Number.isNaN(Date.parse(committed_at)))).toBe(true)

      const cut = positions[4] ?? 0
      expect(yield* changes(["--after", String(cut)])).toEqual(all.slice(5))
      expect(yield* changes(["families"])).toEqual(all.filter((line) => JSON.stringify(line).startsWith('{"_tag":"Inserted","collection":"families",')))
      // A subscriber goes on where it stopped, and finds nothing new the second time.
      expect(yield* changes(["--subscriber", "indexer"])).toEqual(all)
      expect(yield* changes(["--subscriber", "indexer"])).toEqual([])
      // Following: what a sync commits next comes as it is committed; Ctrl-C says where it stopped.
      const follower = spawn(process.execPath, [inject("catalogCommand"), "changes", "--db", database, "--after", String(positions.at(-1)), "--follow"], {
        env: cleanEnv(),
        stdio: ["ignore", "pipe", "pipe"]
      })
      yield* Effect.addFinalizer(() => Effect.sync(() => void follower.kill("SIGKILL")))
      const followed: Array<{ readonly position: number }> = []
      createInterface({ input: follower.stdout }).on("line", (line) => followed.push(JSON.parse(line)))
      let stderr = ""
      follower.stderr.on("data", (chunk) => (stderr += String(chunk)))
      const exited = new Promise<number | null>((resolve) => follower.once("exit", (code) => resolve(code)))
      expect((yield* catalog(simulator, ["mirror", "organizations", "--db", database, "--no-limits"])).code).toBe(0)
      yield* Effect.sync(() => followed.length).pipe(Effect.repeat({ until: (count) => count >= sizes.organizations, schedule: Schedule.spaced("50 millis") }), Effect.timeout("20 seconds"))
      follower.kill("SIGINT")
      expect(yield* Effect.promise(() => exited)).toBe(130)
      expect(followed.map(({ position }) => position)).toEqual(followed.map((_, i) => (positions.at(-1) ?? 0) + 1 + i))
      expect(stderr.trim()).toBe(`catalog: changes: stopped after position ${followed.at(-1)?.position}; go on with --after ${followed.at(-1)?.position}`)

      const missing = yield* catalog(simulator, ["changes", "--db", path.join(mkdtempSync(path.join(tmpdir(), "no-mirror-")), "catalog.sqlite")])
      expect(missing.code).toBe(2)
      expect(missing.stderr).toMatch(/^catalog: UsageError: no mirror at .*catalog\.sqlite: make one with catalog mirror/)
    }).pipe(Effect.scoped, Effect.provide(Simulator.layer({ sizes, enforceLimits: false }))))
})

describe("catalog mirror", { timeout: 60_000 }, () => {
  it.live("two processes sharing the account through Redis and one PostgreSQL, different collections: no 429, both complete", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const database = yield* MirrorStore.newDatabase("postgres")
      const shared = ["--db", database, "--redis", redis.url]
      const env = { CATALOG_TIME_SCALE: "0.1" }
      const [models, mcps] = yield* Effect.all([
        catalog(simulator, ["mirror", "models", ...shared], env),
        catalog(simulator, ["mirror", "mcps", "organizations", ...shared], env)
      ], { concurrency: 2 })
      expect([models.code, mcps.code]).toEqual([0, 0])
      expect((yield* simulator.statusCounts).get(429)).toBeUndefined()
      const runs = yield* inMirror(database, Mirror.runs(["models", "mcps", "organizations"]))
      expect(runs.map((run) => [run.collection, run.status, run.items]).sort()).toEqual([
        ["mcps", "complete", sizes.mcps],
        ["models", "complete", sizes.models],
        ["organizations", "complete", sizes.organizations]
      ])
    }).pipe(Effect.scoped, Effect.provide(Simulator.layer({ sizes, timeScale: 0.1 }))))

  it.live("bad input: an unknown collection (2), a database that cannot be opened (7)", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const unknown = yield* catalog(simulator, ["mirror", "modles", "--no-limits"])
      expect(unknown.code).toBe(2)
      expect(unknown.stderr).toMatch(/^catalog: UsageError: unknown collection "modles"; did you mean `models`\? \(collections: models, /)
      const unopenable = yield* catalog(simulator, ["mirror", "models", "--db", "/nonexistent/directory/catalog.sqlite", "--no-limits"])
      expect(unopenable.code).toBe(7)
      expect(unopenable.stderr.trim().split("\n")).toEqual([
        expect.stringMatching(/^catalog: DatabaseUnavailable: The mirror's database \/nonexistent\/directory\/catalog.sqlite cannot be used: /)
      ])
    }).pipe(Effect.scoped, Effect.provide(Simulator.layer({ sizes, enforceLimits: false }))))

  it.live("a sync that does not fit in what is left today is refused (5); with --allow-partial it syncs what fits and stops cleanly", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const database = yield* MirrorStore.newDatabase("sqlite")
      const env = { CATALOG_TIME_SCALE: "0.01" }
      yield* simulator.spendDailyUnits(simulator.options.limits.dailyUnits - 12)
      const refused = yield* catalog(simulator, ["mirror", "models", "--db", database], env)
      expect(refused.code).toBe(5)
      expect(refused.stderr).toMatch(/^catalog: AllowanceShort: the sync needs 30 units and [\d.]+ MiB; 11 units and [\d.]+ MiB are left today/)
      // Its own plan takes 1 of the 11 units left: 10 pages fit.
      const partial = yield* catalog(simulator, ["mirror", "models", "--db", database, "--allow-partial"], env)
      expect(partial.code).toBe(0)
      expect(partial.stderr).toContain("catalog: mirror models: partial, 1000 items (+1000 ~0 -0), 10 pages, 10 units")
      expect(partial.stderr).toContain("the next run goes on from page 11")
      const [run] = yield* inMirror(database, Mirror.runs(["models"], 1))
      expect(run).toMatchObject({ status: "partial", pages: 10 })
    }).pipe(Effect.scoped, Effect.provide(Simulator.layer({ sizes, timeScale: 0.01 }))))
})
