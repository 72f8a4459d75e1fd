/**
 * `catalog mirror keep` and `catalog mirror status` as processes, as the
 * command ships (bundled by the test setup), against a simulator over HTTP
 * whose clock and the command's run 100 times faster (a target of 2
 * minutes is 1.2 s; with one collection to keep, the keeper spends its
 * requests on walks one after another, 304s but for what changed): in a pipe it writes a JSON line on stderr per plan and
 * per visit and the changes on stdout; Ctrl-C stops it and says how to go
 * on; killed with SIGKILL mid-walk and run again, it goes on from the
 * database at the page after its checkpoint, and no change is logged
 * twice, on both stores; three keepers on one PostgreSQL mirror and one
 * account shared through Redis divide the collections, one walking each at
 * a time, and when one is killed the other two take its work over: no
 * 429, targets met, every change once. A database that goes away and
 * comes back is waited for, said on stderr, and so is the reset of a day
 * whose units are spent. Status reports what it kept; bad
 * targets are usage errors, and targets that do not fit say what it can
 * promise.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Redacted, Schedule, type Scope, Stream } from "effect"
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { createInterface } from "node:readline"
import { inject } from "vitest"
import { cleanEnv } from "../../../scripts/cleanEnv.js"
import * as ChangeFeed from "../../../common/src/mirror/ChangeFeed.js"
import * as MirrorDatabase from "../../../src/mirror/MirrorDatabase.js"
import * as Simulator from "../../src/simulator/Simulator.js"
import * as MirrorStore from "../../../test/support/Mirror.js"
import * as Process from "../../../test/support/Process.js"
import * as Servers from "../../../test/support/Servers.js"
import { runOn } from "../../../scripts/postgresStatement.js"

const redis = Servers.redis("the test of keepers sharing the account through Redis needs it")

const sizes = { models: 600, skills: 40, mcps: 30, organizations: 10, providers: 6, families: 8, topics: 4, articles: 6 }

const envOf = (simulator: Simulator.Service) => ({
  ...cleanEnv(),
  CATALOG_BASE_URL: simulator.baseUrl,
  CATALOG_API_KEY: Redacted.value(simulator.keys.full),
  CATALOG_STATE_DIR: mkdtempSync(path.join(tmpdir(), "catalog-state-")),
  CATALOG_TIME_SCALE: "0.01"
})

/** A running keeper: its lines so far, on stdout and on stderr, and how it exits. */
interface Running {
  readonly child: ChildProcessWithoutNullStreams
  readonly stdout: Array<string>
  readonly stderr: Array<string>
  readonly exited: Promise<number | null>
}

/** Starts the bundled command for the life of the scope (killed with SIGKILL when it closes). */
const started = (
  simulator: Simulator.Service,
  args: ReadonlyArray<string>,
  env: Readonly<Record<string, string>> = {}
): Effect.Effect<Running, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.sync((): Running => {
      const child = spawn(process.execPath, [inject("catalogCommand"), ...args], { cwd: tmpdir(), env: { ...envOf(simulator), ...env } })
      const stdout: Array<string> = []
      const stderr: Array<string> = []
      createInterface({ input: child.stdout }).on("line", (line) => stdout.push(line))
      createInterface({ input: child.stderr }).on("line", (line) => stderr.push(line))
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code, signal) => resolve(code ?? (signal === "SIGKILL" ? 137 : null))))
      return { child, stdout, stderr, exited }
    }),
    ({ child }) => Effect.sync(() => void child.kill("SIGKILL"))
  )

/** A visit, as the keeper's JSON line on stderr gives it. */
interface VisitLine {
  readonly collection: string
  readonly pages: number
  readonly unchanged: number
  readonly changes: number
  readonly began: string
  readonly ended: string
}

/** The keeper's visits so far, from its JSON lines on stderr. */
const visitsOf = (running: Running) =>
  running.stderr.filter((line) => line.includes(`"event":"visit"`)).map((line): VisitLine => JSON.parse(line))

/** Waits until the keeper has made `count` visits. */
const visited = (running: Running, count: number) =>
  Effect.sync(() => visitsOf(running).length).pipe(
    Effect.repeat({ until: (seen) => seen >= count, schedule: Schedule.spaced("20 millis") }),
    Effect.timeoutFail({ duration: "30 seconds", onTimeout: () => new Error(`no ${count} visits: ${running.stderr.join("\n")}`) })
  )

const stopped = (running: Running, signal: NodeJS.Signals) => Effect.andThen(Effect.sync(() => running.child.kill(signal)), Effect.promise(() => running.exited))

const catalog = (simulator: Simulator.Service, args: ReadonlyArray<string>) =>
  Process.runNode([inject("catalogCommand"), ...args], { cwd: tmpdir(), env: envOf(simulator) })

const inMirror = <A, E>(database: string, read: Effect.Effect<A, E, MirrorDatabase.MirrorDatabase>) =>
  Effect.scoped(Effect.provide(read, Layer.orDie(MirrorDatabase.layerFrom(database))))

/**
 * Replays the mirror's change log: each change is a change of what the one
 * before it for its id left (nothing logged twice), and the end of it is
 * what the service lists, collection by collection.
 */
const loggedOnce = (simulator: Simulator.Service, database: string, collections: ReadonlyArray<"models" | "skills" | "mcps">) =>
  Effect.gen(function*() {
    const logged = yield* inMirror(database, Effect.map(Stream.runCollect(ChangeFeed.stream()), (chunk) => [...chunk]))
    const live = new Map<string, string>()
    const repeated: Array<string> = []
    for (const { change } of logged) {
      const key = `${change.collection} ${change.id}`
      const kept = live.get(key)
      if (change._tag === "Deleted") {
        if (kept === undefined) repeated.push(`Deleted ${key}`)
        live.delete(key)
        continue
      }
      const after = JSON.stringify(change.after)
      if ((change._tag === "Inserted") !== (kept === undefined) || kept === after) repeated.push(`${change._tag} ${key}`)
      live.set(key, after)
    }
    expect(repeated).toEqual([])
    for (const collection of collections) {
      const listed = (yield* simulator.listed(collection)).map((item) => `${collection} ${item.id}`).sort()
      expect([...live.keys()].filter((key) => key.startsWith(`${collection} `)).sort()).toEqual(listed)
    }
  })

const simulatorLayer = Simulator.layer({ sizes, timeScale: 0.01, churn: 0.3, churnHorizon: 40, churnClock: "manual" })

describe("catalog mirror keep in a pipe", { timeout: 90_000 }, () => {
  it.live("writes a JSON line per plan and visit on stderr and the changes on stdout; Ctrl-C stops it and says how to go on; status reports it", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const database = yield* MirrorStore.sqliteFile
      // A target of 20 minutes (12 s here), so that status, a process of its own started after, still finds models within it.
      const running = yield* started(simulator, ["mirror", "keep", "--db", database, "--fresh", "models=20m", "--changes"])
      yield* visited(running, 2)
      yield* Effect.sync(() => running.stdout.length).pipe(Effect.repeat({ until: (lines) => lines >= sizes.models, schedule: Schedule.spaced("20 millis") }))
      expect(yield* stopped(running, "SIGINT")).toBe(130)
      const [plan] = running.stderr.filter((line) => line.includes(`"event":"plan"`)).map((line) => JSON.parse(line))
      expect(plan).toMatchObject({ feasible: true, promises: { models: 1200 } })
      const [cold, warm] = visitsOf(running)
      expect(cold).toMatchObject({ collection: "models", pages: 6, unchanged: 0, items: sizes.models, changes: sizes.models })
      expect(warm).toMatchObject({ pages: 6, unchanged: 6, changes: 0 })
      expect(running.stdout.length).toBe(sizes.models)
      for (const line of running.stdout) expect(line).toMatch(/^\{"_tag":"Inserted","collection":"models",.*"position":\d+,"committed_at":"/)
      expect(running.stderr.at(-1)).toMatch(/^catalog: mirror keep: stopped; the mirror stands whole at its last committed page: run .*mirror keep .* again to go on$/)

      const report = yield* catalog(simulator, ["mirror", "status", "--db", database, "--format", "json"])
      expect(report.code, report.stderr).toBe(0)
      const [row] = report.stdout.trim().split("\n").map((line) => JSON.parse(line))
      expect(row).toMatchObject({ collection: "models", target: 1200, promise: 1200, withinTarget: true })
      const table = yield* catalog(simulator, ["mirror", "status", "--db", database])
      expect(table.stdout).toMatch(/^collection +age +target +promise +fresh +next walk +changes\/day\nmodels +/)
    }).pipe(Effect.scoped, Effect.provide(simulatorLayer)))

  it.live("bad targets are usage errors (exit 2); targets that do not fit say what it can promise (exit 5)", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const database = yield* MirrorStore.sqliteFile
      const unknown = yield* catalog(simulator, ["mirror", "keep", "--db", database, "--fresh", "modles=1h"])
      expect(unknown.code).toBe(2)
      expect(unknown.stderr.trim()).toBe(
        `catalog: UsageError: --fresh: unknown collection "modles"; did you mean \`models\`? (collections: models, families, providers, organizations, skills, publishers, mcps, topics, articles, and modelOffers)`
      )
      const noAge = yield* catalog(simulator, ["mirror", "keep", "--db", database, "--fresh", "models=soon"])
      expect(noAge.code).toBe(2)
      expect(noAge.stderr).toContain("--fresh: models=soon is no age: give one as 90s, 30m, 1h or 2d")
      const share = yield* catalog(simulator, ["mirror", "keep", "--db", database, "--fresh", "models=1h", "--share", "1.5"])
      expect(share.code).toBe(2)
      const tooTight = yield* catalog(simulator, ["mirror", "keep", "--db", database, "--fresh", "models=1s,skills=1s"])
      expect(tooTight.code).toBe(5)
      expect(tooTight.stderr.trim().split("\n").at(-1)).toMatch(
        /^catalog: TargetsInfeasible: The freshness targets do not fit the keeper's share of the allowance; the best it can promise: models within [\d.]+ s \(asked 1 s\), skills within [\d.]+ s \(asked 1 s\); relax the targets/
      )
    }).pipe(Effect.scoped, Effect.provide(simulatorLayer)))
})

describe.each(MirrorStore.stores)("catalog mirror keep into %s", { timeout: 90_000 }, (store) => {
  it.live("killed with SIGKILL mid-walk and run again: goes on at the page after its checkpoint, no change logged twice", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const database = yield* MirrorStore.newDatabase(store)
      const first = yield* started(simulator, ["mirror", "keep", "--db", database, "--fresh", "models=2m"])
      yield* visited(first, 1)
      // The catalog changes; the next walk finds the changed pages and is killed after the third page of it.
      yield* simulator.advance(simulator.options.churn.horizon + 1)
      const answered = Effect.map(simulator.answered, (all) => all.filter((answer) => answer.operation === "models").length)
      const before = yield* answered
      yield* answered.pipe(Effect.repeat({ until: (count) => count >= before + 3, schedule: Schedule.spaced("2 millis") }))
      expect(yield* stopped(first, "SIGKILL")).toBe(137)
      expect(visitsOf(first).length).toBe(1)

      // Run again: the walk goes on after its checkpoint, and the next one, whole, brings what changed before the first page.
      const again = yield* started(simulator, ["mirror", "keep", "--db", database, "--fresh", "models=2m"])
      yield* visited(again, 2)
      yield* stopped(again, "SIGINT")
      const [resumed] = visitsOf(again)
      expect(resumed?.pages).toBeLessThan(6)

      yield* loggedOnce(simulator, database, ["models"])
    }).pipe(Effect.scoped, Effect.provide(simulatorLayer)))
})

describe("catalog mirror keep when its database goes away", { timeout: 90_000 }, () => {
  it.live("says so, waits, and goes on when it comes back: nothing lost, nothing logged twice", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const { admin, name, url } = yield* MirrorStore.postgresDatabase
      const running = yield* started(simulator, ["mirror", "keep", "--db", url, "--fresh", "models=2m"])
      yield* visited(running, 1)
      yield* simulator.advance(simulator.options.churn.horizon + 1)
      // Away for a second and a half: no connection accepted, those open ended.
      yield* runOn(admin, `ALTER DATABASE ${name} ALLOW_CONNECTIONS false`)
      yield* runOn(admin, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`)
      const away = visitsOf(running).length
      yield* Effect.sleep("1500 millis")
      yield* runOn(admin, `ALTER DATABASE ${name} ALLOW_CONNECTIONS true`)
      yield* visited(running, away + 2)
      expect(yield* stopped(running, "SIGINT")).toBe(130)
      expect(running.stderr.some((line) => /^catalog: warn: keeper: .*; trying again in [\d.]+ s$/.test(line)), running.stderr.join("\n")).toBe(true)
      yield* loggedOnce(simulator, url, ["models"])
    }).pipe(Effect.scoped, Effect.provide(simulatorLayer)))
})

describe("catalog mirror keep when the day's units are spent", { timeout: 90_000 }, () => {
  // A day of the service is 8.64 s here.
  const quickDays = Simulator.layer({ sizes, timeScale: 0.0001, churn: 0.3, churnHorizon: 40, churnClock: "manual" })

  it.live("says it waits for the allowance's reset, waits, and goes on after it", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const database = yield* MirrorStore.sqliteFile
      const running = yield* started(simulator, ["mirror", "keep", "--db", database, "--fresh", "models=1h"], { CATALOG_TIME_SCALE: "0.0001" })
      yield* visited(running, 1)
      yield* simulator.spendDailyUnits()
      yield* simulator.advance(simulator.options.churn.horizon + 1)
      const spentAt = visitsOf(running).length
      yield* Effect.sync(() => visitsOf(running).slice(spentAt).some((visit) => visit.changes > 0)).pipe(
        Effect.repeat({ until: (changed) => changed, schedule: Schedule.spaced("50 millis") }),
        Effect.timeoutFail({ duration: "30 seconds", onTimeout: () => new Error(running.stderr.join("\n")) })
      )
      expect(yield* stopped(running, "SIGINT")).toBe(130)
      expect(running.stderr.some((line) => /^catalog: warn: keeper: today's allowance is spent; waiting for its reset at \d{4}-\d\d-\d\dT/.test(line)), running.stderr.join("\n"))
        .toBe(true)
      yield* loggedOnce(simulator, database, ["models"])
    }).pipe(Effect.scoped, Effect.provide(quickDays)))
})

describe("three keepers of one mirror", { timeout: 120_000 }, () => {
  it.live("on one PostgreSQL and one account through Redis divide the collections; one killed, the other two take over: no 429, targets met, every change once", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const database = yield* MirrorStore.newDatabase("postgres")
      const collections = ["models", "skills", "mcps"] as const
      // Targets of 10 minutes (6 s here): the work of a keeper killed mid-walk, taken over by another, must still meet them.
      const args = ["mirror", "keep", "--db", database, "--redis", redis.url, "--fresh", "models=10m,skills=10m,mcps=10m"]
      const keepers = [yield* started(simulator, args), yield* started(simulator, args), yield* started(simulator, args)]
      const visits = () => keepers.flatMap(visitsOf)
      const walkedEach = (since: number) => {
        const after = visits().filter((visit) => Date.parse(visit.began) >= since)
        return collections.every((collection) => after.filter((visit) => visit.collection === collection).length >= 2)
      }
      const waitFor = (done: () => boolean) =>
        Effect.sync(done).pipe(
          Effect.repeat({ until: (yes) => yes, schedule: Schedule.spaced("50 millis") }),
          Effect.timeoutFail({ duration: "40 seconds", onTimeout: () => new Error(keepers.map((keeper) => keeper.stderr.join("\n")).join("\n---\n")) })
        )
      yield* waitFor(() => walkedEach(0))
      expect(keepers.filter((keeper) => visitsOf(keeper).length > 0).length).toBeGreaterThanOrEqual(2)

      // The catalog changes, and the first keeper is killed: the other two walk every collection again, twice.
      yield* simulator.advance(simulator.options.churn.horizon + 1)
      const [killed, ...others] = keepers
      if (killed === undefined) return
      expect(yield* stopped(killed, "SIGKILL")).toBe(137)
      const killedAt = Date.now()
      yield* waitFor(() => walkedEach(killedAt))
      for (const keeper of others) expect(yield* stopped(keeper, "SIGINT")).toBe(130)

      // One keeper at a time walked each collection, and no collection went longer than its target unwalked.
      for (const collection of collections) {
        const walks = visits().filter((visit) => visit.collection === collection).map((visit) => [Date.parse(visit.began), Date.parse(visit.ended)] as const).sort((a, b) => a[0] - b[0])
        for (const [i, [began]] of walks.entries()) {
          const [, endedBefore = -Infinity] = walks[i - 1] ?? []
          expect(began, collection).toBeGreaterThanOrEqual(endedBefore)
        }
        const gaps = walks.slice(1).map(([began], i) => began - (walks[i]?.[0] ?? began))
        expect(Math.max(...gaps), collection).toBeLessThanOrEqual(6000)
      }
      expect((yield* simulator.statusCounts).get(429) ?? 0).toBe(0)
      yield* loggedOnce(simulator, database, collections)
    }).pipe(Effect.scoped, Effect.provide(Simulator.layer({ sizes, timeScale: 0.01, churn: 0.3, churnHorizon: 40, churnClock: "manual" }))))
})

