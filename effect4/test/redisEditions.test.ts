/**
 * Both editions on one account, through one Redis: an Effect 3 process
 * (test/redis/fixtures/scanModels.ts under tsx, from the repository root)
 * and an Effect 4 client scan every model of one simulator that enforces an
 * account of 20 requests a minute, at once, each with its own Redis
 * admission on the same prefix. Neither sees a 429, each sees every item
 * once, the pace is the account's: the keys, scripts and encodings of the
 * two editions agree. The page size and the key-value entry the Effect 3
 * process kept are the Effect 4 edition's to read. Real time (the simulator runs 20 times faster, a
 * minute lasts 3 s); Redis is the file's own.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Context, Duration, Effect, Fiber, Layer, Option, Redacted, Stream } from "effect"
import { spawn } from "node:child_process"
import { randomUUID } from "node:crypto"
import { cleanEnv } from "../../scripts/cleanEnv.js"
import * as Admission from "../src/client/Admission.js"
import * as CatalogClient from "../src/client/CatalogClient.js"
import * as PageSizes from "../src/client/PageSizes.js"
import { RedisAdmission, RedisKeyValueStore, RedisPageSizes } from "effect-catalog/redis"
import * as Simulator from "../src/simulator/Simulator.js"
import * as RedisServer from "./support/Redis.js"

const redis = RedisServer.forFile("the test of both editions sharing one Redis needs it")

/** The repository root, home of the Effect 3 edition. */
const root = new URL("../../", import.meta.url).pathname

const timeScale = 0.05
const minuteLimit = 20
const models = 1_500

/** How a child process ended: its exit code and what it printed. */
interface Ran {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** The Effect 3 process's scan, with `env` added to its environment; killed if the test is interrupted. */
const effect3Scan = (env: Readonly<Record<string, string>>) =>
  Effect.callback<Ran>((resume) => {
    const child = spawn(`${root}node_modules/.bin/tsx`, ["test/redis/fixtures/scanModels.ts"], { cwd: root, env: cleanEnv(env) })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")))
    child.once("error", (error) => resume(Effect.succeed({ code: null, stdout, stderr: `${stderr}${error.message}` })))
    child.once("close", (code) => resume(Effect.succeed({ code, stdout, stderr })))
    return Effect.sync(() => void child.kill("SIGKILL"))
  }).pipe(Effect.timeoutOrElse({ duration: "60 seconds", orElse: () => Effect.die("the Effect 3 process did not end within 60 s") }))

/** Waits until the simulator has answered a first request. */
const firstAnswer = (simulator: Simulator.Service): Effect.Effect<void> =>
  Effect.flatMap(simulator.answered, (answered) => answered.length > 0 ? Effect.void : Effect.andThen(Effect.sleep("20 millis"), firstAnswer(simulator)))

describe("one Redis for both editions", () => {
  it.live("an Effect 3 process and an Effect 4 client scan one account of 20 a minute at once: no 429, every item once each; what the one keeps the other reads", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.make({ enforceLimits: true, timeScale, sizes: { models }, limits: { perMinute: minuteLimit } })
      const prefix = `test:${randomUUID()}:`
      const apiKey = Redacted.value(simulator.keys.full)
      const child = yield* Effect.forkChild(effect3Scan({
        CATALOG_BASE_URL: simulator.baseUrl,
        CATALOG_API_KEY: apiKey,
        CATALOG_REDIS_URL: redis.url,
        CATALOG_REDIS_PREFIX: prefix,
        CATALOG_TIME_SCALE: String(timeScale)
      }))
      // The Effect 4 client starts once the Effect 3 process has been answered: the two scans overlap.
      yield* firstAnswer(simulator).pipe(
        Effect.timeoutOrElse({ duration: "30 seconds", orElse: () => Effect.die("the Effect 3 process sent nothing within 30 s") })
      )
      const sentBeforeEffect4 = (yield* simulator.answered).length
      const catalog = yield* Layer.build(
        CatalogClient.layer({
          baseUrl: simulator.baseUrl,
          apiKey: simulator.keys.full,
          admission: RedisAdmission.layer({ ...Admission.contractLimits, timeScale }, { redis: redis.url, prefix })
        }).pipe(Layer.provide(NodeHttpClient.layerUndici))
      ).pipe(Effect.map(Context.get(CatalogClient.CatalogClient)))
      const seen = yield* Stream.runCollect(Stream.map(catalog.models(), (model) => model.id))
      const ran = yield* Fiber.join(child)
      expect(ran.stderr).toBe("")
      expect(JSON.parse(ran.stdout)).toEqual({ items: models, distinct: models })
      expect(seen.length).toBe(models)
      expect(new Set(seen).size).toBe(models)
      const answered = yield* simulator.answered
      expect(answered.filter((entry) => entry.status === 429)).toEqual([])
      // The Effect 3 process had sent fewer requests than its scan's pages when the Effect 4 client started: they overlapped.
      expect(sentBeforeEffect4).toBeLessThan(models / 100)
      expect(answered.length).toBeGreaterThan(minuteLimit)
      const span = (answered.at(-1)?.at ?? 0) - (answered[0]?.at ?? 0)
      expect(span).toBeGreaterThan(Duration.toMillis(Duration.minutes(1)) * timeScale)
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
      expect(`${ran.stdout}${ran.stderr}`).not.toContain(apiKey)
    }))
})
