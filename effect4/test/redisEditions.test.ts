/**
 * Processes of both editions on one account, through one Redis: three
 * separate processes, two of the Effect 4 edition
 * (test/fixtures/scanModels.ts, with this edition's tsx) and one of the
 * Effect 3 edition (test/redis/fixtures/scanModels.ts, with the repository
 * root's tsx and its Effect 3), all run by this edition's Node 22, each with
 * its own Redis admission on the same prefix, scan every model of one
 * simulator that enforces an account of 20 requests a minute. Each builds
 * its client, says it is ready, and starts its scan on the test's signal,
 * so that the three scans run at once.
 *
 * What the simulator itself recorded of what it answered shows that the
 * three kept the account's limits together, as one client would: no 429,
 * and no window of the contract (a minute, 10 seconds, the 5 calls of
 * `/usage/` a minute, each at the time scale; the concurrent requests)
 * holding more than the account allows. So the keys, scripts and encodings
 * of the two editions agree. Each process saw every model of the
 * simulator's own list exactly once. The page size and the key-value entry
 * the Effect 3 process kept are the Effect 4 edition's to read.
 *
 * Real time (the simulator runs 20 times faster: a minute lasts 3 s, 10
 * seconds 0.5 s); Redis is the file's own. Each wait has a generous limit
 * that fails the test and kills the processes, and a process whose stdin
 * closes before the signal ends at once.
 */
import { describe, expect, it } from "@effect/vitest"
import { Context, Deferred, Duration, Effect, Layer, Option, Redacted, Schema, type Scope } from "effect"
import { spawn } from "node:child_process"
import { randomUUID } from "node:crypto"
import { cleanEnv } from "../../scripts/cleanEnv.js"
import * as PageSizes from "../../common/src/client/PageSizes.js"
import { RedisKeyValueStore, RedisPageSizes } from "effect-catalog/redis"
import * as Simulator from "../../common/src/simulator/Simulator.js"
import { editionCondition } from "./support/Process.js"
import * as RedisServer from "./support/Redis.js"

const redis = RedisServer.forFile("the test of both editions sharing one Redis needs it")

/** The repository root, home of the Effect 3 edition. */
const root = new URL("../../", import.meta.url).pathname

/** The Effect 4 edition's folder. */
const edition = new URL("../", import.meta.url).pathname

const timeScale = 0.05
const minuteLimit = 20
const models = 1_500

/** How long a process may take to build its client and say it is ready: tsx compiles its sources first, on a busy machine. */
const readyWithin = Duration.seconds(90)

/** How long the three scans may take together, from the signal: about 50 requests at 20 a (3 s) minute take some 8 s. */
const scansWithin = Duration.seconds(120)

/** What a process printed at its end: its edition, its Node.js version, the ids it saw in order, and when its scan started and ended. */
const Scan = Schema.Struct({
  edition: Schema.Literals(["effect3", "effect4"]),
  node: Schema.String,
  ids: Schema.Array(Schema.String),
  started: Schema.Number,
  ended: Schema.Number
})
type Scan = typeof Scan.Type

const decodeScan = Schema.decodeUnknownSync(Schema.fromJsonString(Scan))

/** How a process ended: its exit code and what it printed. */
interface Ran {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** A process started by the test, waiting for the signal to scan. */
interface Scanner {
  readonly name: string
  /** Succeeds once the process has printed `ready`; dies if it ends before. */
  readonly ready: Effect.Effect<void>
  /** Tells the process to start its scan. */
  readonly go: Effect.Effect<void>
  /** How the process ended. */
  readonly ended: Effect.Effect<Ran>
}

/** Starts `command ...args` in `cwd` with `env` added to its environment; it is killed when the scope closes, if it still runs. */
const scanner = (
  name: string,
  command: string,
  args: ReadonlyArray<string>,
  cwd: string,
  env: Readonly<Record<string, string>>
): Effect.Effect<Scanner, never, Scope.Scope> =>
  Effect.gen(function*() {
    const ready = yield* Deferred.make<void>()
    const ended = yield* Deferred.make<Ran>()
    const child = yield* Effect.acquireRelease(
      Effect.sync(() => spawn(command, args, { cwd, env: cleanEnv(env), stdio: ["pipe", "pipe", "pipe"] })),
      (child) => Effect.sync(() => void (child.exitCode === null && child.signalCode === null && child.kill("SIGKILL")))
    )
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8")
      if (stdout.split("\n").includes("ready")) Deferred.doneUnsafe(ready, Effect.void)
    })
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")))
    // A process that ended has closed its stdin: the signal it no longer reads is no failure of the test's.
    child.stdin.on("error", () => undefined)
    const end = (ran: Ran) => {
      Deferred.doneUnsafe(ended, Effect.succeed(ran))
      Deferred.doneUnsafe(ready, Effect.die(`the ${name} process ended (code ${ran.code}) before it was ready: ${ran.stderr}`))
    }
    child.once("error", (error) => end({ code: null, stdout, stderr: `${stderr}${error.message}` }))
    child.once("close", (code) => end({ code, stdout, stderr }))
    return {
      name,
      ready: Deferred.await(ready).pipe(
        Effect.timeoutOrElse({ duration: readyWithin, orElse: () => Effect.die(`the ${name} process was not ready within ${Duration.format(readyWithin)}: ${stderr}`) })
      ),
      go: Effect.sync(() => void child.stdin.end("go\n")),
      ended: Deferred.await(ended)
    }
  })

/** The loaders of each edition's tsx: a process started with `--import` and one of them is one process, killed with its scan. */
const effect4Tsx = new URL("../node_modules/tsx/dist/loader.mjs", import.meta.url).href
const effect3Tsx = new URL("../../node_modules/tsx/dist/loader.mjs", import.meta.url).href

/** The most of `times` in any `window` milliseconds, counted as the simulator counts: at each time, those later than that time less the window, up to it. */
const busiest = (times: ReadonlyArray<number>, window: number): number => {
  const sorted = [...times].sort((a, b) => a - b)
  let most = 0
  let first = 0
  sorted.forEach((time, last) => {
    while ((sorted[first] ?? time) <= time - window) first++
    most = Math.max(most, last - first + 1)
  })
  return most
}

/** The account's minute and its 10 seconds at the time scale, in milliseconds: 3,000 and 500. */
const minute = Duration.toMillis(Duration.minutes(1)) * timeScale
const tenSeconds = Duration.toMillis(Duration.seconds(10)) * timeScale

/**
 * What the simulator answered, and its figures against the account's
 * windows at the time scale: the 429s, the most requests in a minute, in 10
 * seconds, the most calls of `/usage/` in a minute, the most requests at
 * once, and the time from the first arrival to the last.
 */
const accountFigures = (simulator: Simulator.Service) =>
  Effect.gen(function*() {
    const answered = yield* simulator.answered
    const arrivals = answered.map((request) => request.arrived)
    const figures = {
      refused: answered.filter((request) => request.status === 429).length,
      perMinute: busiest(arrivals, minute),
      perTenSeconds: busiest(arrivals, tenSeconds),
      usagePerMinute: busiest(answered.filter((request) => request.operation === "usage").map((request) => request.arrived), minute),
      concurrent: yield* simulator.peakConcurrency,
      span: Math.max(...arrivals) - Math.min(...arrivals)
    }
    return { answered, figures }
  })

describe("one Redis for both editions", () => {
  it.live(
    "two Effect 4 processes and an Effect 3 process scan one account of 20 a minute at once: no 429, every window kept, every item once in each; what the one edition keeps the other reads",
    () =>
      Effect.gen(function*() {
        const simulator = yield* Simulator.make({ enforceLimits: true, timeScale, sizes: { models }, limits: { perMinute: minuteLimit } })
        const prefix = `test:${randomUUID()}:`
        const apiKey = Redacted.value(simulator.keys.full)
        const env = {
          CATALOG_BASE_URL: simulator.baseUrl,
          CATALOG_API_KEY: apiKey,
          CATALOG_REDIS_URL: redis.url,
          CATALOG_REDIS_PREFIX: prefix,
          CATALOG_TIME_SCALE: String(timeScale)
        }
        // This edition's Node, 22, runs every process.
        const node22 = `${edition}node_modules/.bin/node`
        const effect4Fixture = [editionCondition, "--import", effect4Tsx, "test/fixtures/scanModels.ts"]
        const scanners = yield* Effect.all([
          scanner("first Effect 4", node22, effect4Fixture, edition, env),
          scanner("second Effect 4", node22, effect4Fixture, edition, env),
          scanner("Effect 3", node22, ["--import", effect3Tsx, "test/redis/fixtures/scanModels.ts"], root, env)
        ])
        yield* Effect.forEach(scanners, (scanner) => scanner.ready, { concurrency: "unbounded", discard: true })
        yield* Effect.forEach(scanners, (scanner) => scanner.go, { discard: true })
        const ran = yield* Effect.forEach(scanners, (scanner) => scanner.ended, { concurrency: "unbounded" }).pipe(
          Effect.timeoutOrElse({ duration: scansWithin, orElse: () => Effect.die(`the three scans did not end within ${Duration.format(scansWithin)}`) })
        )

        // Each process ended well, said nothing on stderr, and printed its scan last.
        const scans: Array<Scan> = []
        for (const [index, result] of ran.entries()) {
          const name = scanners[index]?.name
          expect({ name, code: result.code, stderr: result.stderr }).toEqual({ name, code: 0, stderr: "" })
          expect(result.stdout).not.toContain(apiKey)
          const lines = result.stdout.trim().split("\n")
          expect(lines[0]).toBe("ready")
          scans.push(decodeScan(lines.at(-1)))
        }
        expect(scans.map((scan) => scan.edition)).toEqual(["effect4", "effect4", "effect3"])
        // Each ran on this edition's Node, 22.
        expect(scans.map((scan) => scan.node.split(".")[0])).toEqual(["22", "22", "22"])

        // Every model of the simulator's own list, exactly once, in each process's scan.
        const listed = (yield* simulator.listed("models")).map((model) => model.id).sort()
        expect(listed.length).toBe(models)
        for (const scan of scans) {
          expect(scan.ids.length).toBe(models)
          expect([...scan.ids].sort()).toEqual(listed)
        }

        // The three scans ran at once: each started before any ended.
        expect(Math.max(...scans.map((scan) => scan.started))).toBeLessThan(Math.min(...scans.map((scan) => scan.ended)))

        // What the simulator answered: no 429, and within every window of the account, at the time scale.
        const { answered, figures } = yield* accountFigures(simulator)
        const limits = simulator.options.limits
        const shown = JSON.stringify(figures)
        expect(figures.refused, shown).toBe(0)
        expect(limits.perMinute).toBe(minuteLimit)
        expect(figures.perMinute, shown).toBeLessThanOrEqual(limits.perMinute)
        expect(figures.perTenSeconds, shown).toBeLessThanOrEqual(limits.perTenSeconds)
        expect(figures.usagePerMinute, shown).toBeLessThanOrEqual(limits.usagePerMinute)
        expect(figures.concurrent, shown).toBeLessThanOrEqual(limits.concurrent)
        // The three scans' pages alone are more than two minutes' worth: the pace was the account's.
        expect(answered.length).toBeGreaterThanOrEqual(3 * models / 100)
        expect(figures.span).toBeGreaterThanOrEqual(Math.floor((answered.length - 1) / minuteLimit) * minute)

        // One log of requests, one live allowance, under the names both editions give them.
        const kept = yield* RedisServer.entries(redis.port, `${prefix}*`)
        expect(kept.map((entry) => [entry.key, entry.type])).toEqual(expect.arrayContaining([
          [`${prefix}minute-limit`, "string"],
          [`${prefix}minute-limit-read-at`, "string"],
          [`${prefix}starts`, "zset"]
        ]))
        expect(kept.find((entry) => entry.key === `${prefix}minute-limit`)?.text).toBe(String(minuteLimit))
        expect(JSON.stringify(kept)).not.toContain(apiKey)
        const sizes = yield* Effect.map(Layer.build(RedisPageSizes.layer({ redis: redis.url, prefix })), Context.get(PageSizes.PageSizes))
        expect(yield* sizes.get("skills")).toEqual(Option.some(37))
        const store = yield* RedisKeyValueStore.make({ redis: redis.url, prefix: `${prefix}store:` })
        expect(yield* store.get("from")).toBe("effect3")
      }),
    300_000
  )
})
