/**
 * The `catalog` command as a process, against simulators over real HTTP:
 * what it writes on stdout and stderr, and its exit codes.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, ManagedRuntime, Redacted, Schema } from "effect"
import { inject } from "vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { freePort } from "../../../scripts/localServer.js"
import * as ExitCodes from "../../src/cli/ExitCodes.js"
import * as Resources from "../../../common/src/contract/Resources.js"
import * as Simulator from "../../src/simulator/Simulator.js"
import { catalog, expectErrorLine, keepSecret, fullAccess, keysOf, lines, root, spawnCatalog, stateDirectory, type Target } from "../../../test/support/CatalogProcess.js"
import { wireModel } from "../../../test/support/Fixtures.js"
import * as Stub from "../../../test/support/Stub.js"
import * as Servers from "../../../test/support/Servers.js"

const redis = Servers.redis("the test of two runs sharing the account through --redis needs it")

const parse = (line: string): unknown => JSON.parse(line)

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === "object" && value !== null

const sizes = { models: 300, skills: 60, mcps: 30, organizations: 20, providers: 10, families: 12, topics: 6, articles: 8 }

const summaryPattern = (label: string, items: number, pages: number, units: number) =>
  new RegExp(`^catalog: ${label}: ${items} items?, ${pages} pages?, ${units} units?, \\d+\\.\\d s$`)

describe("catalog", { timeout: 120_000 }, () => {
  const runtime = ManagedRuntime.make(Simulator.layer({ sizes, enforceLimits: false }))
  let full: Target = { baseUrl: "", key: "" }
  let simulator: Simulator.Service

  /** A GET of the simulator with the full key, as its raw JSON. */
  const fetchJson = async (path: string): Promise<unknown> => {
    const response = await fetch(`${full.baseUrl}${path}`, { headers: { authorization: `Bearer ${full.key}` } })
    return response.json()
  }

  beforeAll(async () => {
    simulator = await runtime.runPromise(Simulator.Simulator)
    full = fullAccess(simulator)
  })

  afterAll(async () => {
    await runtime.dispose()
    rmSync(stateDirectory, { recursive: true, force: true })
  })

  const as = (key: Simulator.KeyName): Target => ({ baseUrl: full.baseUrl, key: Redacted.value(simulator.keys[key]) })

  it("scan models writes exactly the catalog's models as NDJSON in their wire form, and a filter only matching items", async () => {
    const [all, reasoning, stats] = await Promise.all([
      catalog(["scan", "models", "--page-size", "100"], full),
      catalog(["scan", "models", "--reasoning", "true", "--page-size", "100"], full),
      fetchJson("/stats/")
    ])
    expect(all.code).toBe(0)
    const found = lines(all.stdout)
    const expected = isRecord(stats) && isRecord(stats.data) ? stats.data.models : undefined
    expect(found.length).toBe(expected)
    expect(found.length).toBe(sizes.models)

    const decode = Schema.decodeUnknownSync(Resources.Model)
    const encode = Schema.encodeSync(Resources.Model)
    const models = found.map((line) => {
      const wire = parse(line)
      const model = decode(wire)
      // Decoding and encoding again gives back the very line: it is the wire form.
      expect(JSON.stringify(encode(model))).toBe(line)
      return model
    })
    const ids = models.map((model) => model.id)
    expect(ids.every((id, index) => index === 0 || (ids[index - 1] ?? "") < id)).toBe(true)

    // A context size above 2^53 comes out verbatim, as the service wrote it.
    const large = models.find((model) => model.context_tokens !== null && model.context_tokens > BigInt(Number.MAX_SAFE_INTEGER))
    if (large === undefined || large.context_tokens === null) throw new Error("the simulator has no model with context_tokens above 2^53")
    expect(all.stdout).toContain(`"context_tokens":"${large.context_tokens.toString()}"`)
    const served = await fetchJson(new URL(large.api_url).pathname.slice(new URL(full.baseUrl).pathname.length))
    expect(isRecord(served) && isRecord(served.data) ? served.data.context_tokens : null).toBe(large.context_tokens.toString())

    expect(lines(all.stderr)).toHaveLength(1)
    expect(all.stderr.trim()).toMatch(summaryPattern("scan models", sizes.models, 3, 3))

    expect(reasoning.code).toBe(0)
    const matching = lines(reasoning.stdout).map((line) => decode(parse(line)))
    expect(matching.length).toBeGreaterThan(0)
    expect(matching.every((model) => model.reasoning === true)).toBe(true)
    expect(matching.map((model) => model.id)).toEqual(models.filter((model) => model.reasoning === true).map((model) => model.id))
    expect(reasoning.stderr.trim()).toMatch(/^catalog: scan models: \d+ items, \d+ pages?, \d+ units?, \d+\.\d s$/)
  })

  it("scan --out writes the file and nothing to stdout; --max stops early; path parameters are positional", async () => {
    const directory = mkdtempSync(join(tmpdir(), "catalog-cli-"))
    try {
      const file = join(directory, "skills.ndjson")
      const [written, first, offers] = await Promise.all([
        catalog(["scan", "skills", "--page-size", "25", "--out", file], full),
        catalog(["scan", "models", "--max", "5", "--page-size", "2"], full),
        catalog(["scan", "modelOffers", "o0000-falcon", "m0000000-kestrel-8b"], full)
      ])
      expect(written.code).toBe(0)
      expect(written.stdout).toBe("")
      const skills = lines(readFileSync(file, "utf8")).map((line) => Schema.decodeUnknownSync(Resources.Skill)(parse(line)))
      expect(skills).toHaveLength(sizes.skills)
      expect(written.stderr.trim()).toMatch(summaryPattern("scan skills", sizes.skills, 3, 3))

      expect(first.code).toBe(0)
      expect(lines(first.stdout)).toHaveLength(5)

      expect(offers.code).toBe(0)
      const found = lines(offers.stdout).map((line) => Schema.decodeUnknownSync(Resources.Offer)(parse(line)))
      expect(found.length).toBeGreaterThan(0)
      expect(found.every((offer) => offer.model_id === "o0000-falcon/m0000000-kestrel-8b")).toBe(true)
    } finally {
      rmSync(directory, { recursive: true, force: true })
    }
  })

  it("get, search, stats and usage write JSON", async () => {
    const served = await fetchJson("/models/o0000-falcon/m0000000-kestrel-8b/")
    const wire = isRecord(served) ? served.data : undefined
    const apiUrl = isRecord(wire) ? wire.api_url : undefined
    if (typeof apiUrl !== "string") throw new Error("no api_url")
    const skillsPage = await fetchJson("/skills/?limit=1")
    const [skill] = isRecord(skillsPage) && Array.isArray(skillsPage.data) ? skillsPage.data : []
    const word = isRecord(skill) && typeof skill.name === "string" ? skill.name.split(" ")[0] ?? "" : ""

    const [model, followed, search, stats, usage] = await Promise.all([
      catalog(["get", "model", "o0000-falcon", "m0000000-kestrel-8b"], full),
      catalog(["get", apiUrl], full),
      catalog(["search", "skills", word], full),
      catalog(["stats"], full),
      catalog(["usage"], full)
    ])
    for (const result of [model, followed, search, stats, usage]) {
      expect(result.code).toBe(0)
    }
    expect(parse(model.stdout)).toEqual(wire)
    expect(model.stderr).toBe("")
    expect(followed.stdout).toBe(model.stdout)

    const found = lines(search.stdout).map((line) => Schema.decodeUnknownSync(Resources.Skill)(parse(line)))
    expect(found.length).toBeGreaterThan(0)
    expect(search.stderr.trim()).toMatch(/^catalog: search skills: \d+ items?, \d+ pages?, \d+ units, \d+\.\d s$/)

    expect(lines(stats.stdout)).toHaveLength(1)
    expect(Schema.decodeUnknownSync(Resources.Stats)(parse(stats.stdout))).toMatchObject({ id: "catalog", models: sizes.models, skills: sizes.skills })
    expect(Schema.decodeUnknownSync(Resources.Usage)(parse(usage.stdout)).daily_limit).toBe(10_000)
  })

  it("writes its help and its usage errors without colours when piped or with NO_COLOR", async () => {
    for (const env of [{}, { NO_COLOR: "1" }]) {
      const help = await catalog(["mirror", "--help"], null, env)
      expect(help.code).toBe(0)
      expect(help.stdout).toContain("Usage: catalog mirror")
      expect(help.stdout).toContain("--allow-partial")
      expect(help.stdout + help.stderr).not.toContain("\u001b[")
      const wrong = await catalog(["scan", "models", "--page-size", "many"], full, env)
      expect(wrong.code).toBe(2)
      expect(wrong.stdout + wrong.stderr).not.toContain("\u001b[")
    }
  })

  it("exits with 2 on bad usage, with one line that says what is wrong, and sends nothing", async () => {
    const answered = runtime.runPromise(Effect.flatMap(Simulator.Simulator, (service) => service.answered))
    const before = (await answered).length
    const [unknown, filter, limit, detailAsList, missing, noKey] = await Promise.all([
      catalog(["scan", "nope"], full),
      catalog(["scan", "models", "--reasoning", "maybe"], full),
      catalog(["scan", "models", "--page-size", "101"], full),
      catalog(["scan", "model", "o0000-falcon", "m0000000-kestrel-8b"], full),
      catalog(["get", "model", "o0000-falcon"], full),
      catalog(["stats"], null)
    ])
    expect(expectErrorLine(unknown, 2, "UsageError")).toBe('catalog: UsageError: unknown operation "nope" (catalog help scan lists them)')
    expect(expectErrorLine(filter, 2, "UsageError")).toBe("catalog: UsageError: --reasoning: a boolean filter must be exactly true or false")
    expect(expectErrorLine(limit, 2, "UsageError")).toBe("catalog: UsageError: --page-size must be a whole number from 1 to 100 for models; got 101")
    expect(expectErrorLine(detailAsList, 2, "UsageError")).toMatch(/catalog get model <organization> <model>/)
    expect(expectErrorLine(missing, 2, "UsageError")).toMatch(/model takes 2 path parameters/)
    expect(expectErrorLine(noKey, 2, "UsageError")).toMatch(/CATALOG_API_KEY/)
    const after = await runtime.runPromise(Effect.flatMap(Simulator.Simulator, (service) => service.answered))
    expect(after.length).toBe(before)
  })

  it("exits with 3 when the key is refused, 8 when it lacks the scope (named), 4 when the resource is missing", async () => {
    const [revoked, scope, missing] = await Promise.all([
      catalog(["stats"], as("revoked")),
      catalog(["scan", "skills"], as("models_only")),
      catalog(["get", "model", "o0000-falcon", "m9999999-nothing"], full)
    ])
    expect(expectErrorLine(revoked, 3, "InvalidApiKey")).toMatch(/\(code invalid_api_key, request req_\w+\)$/)
    expect(expectErrorLine(scope, 8, "ScopeMissing")).toMatch(/skills:read.*\(code insufficient_scope, request req_\w+\)$/)
    expect(expectErrorLine(missing, 4, "NotFound")).toMatch(/\(code not_found, request req_\w+\)$/)
  })

  it("exits with 5 when the allowance is spent (saying when it resets) or the budget would pass, 9 when the service stays unavailable", async () => {
    const faulty = ManagedRuntime.make(Simulator.layer({ sizes, enforceLimits: false, faults: { unavailable: 1 } }))
    // Units are only refused by a simulator that enforces the limits.
    const spent = ManagedRuntime.make(Simulator.layer({ sizes, enforceLimits: true }))
    try {
      const unavailable = await faulty.runPromise(Simulator.Simulator)
      const exhausted = await spent.runPromise(Effect.tap(Simulator.Simulator, (service) => service.spendDailyUnits()))
      keysOf(unavailable)
      keysOf(exhausted)
      const [retried, quota, budget] = await Promise.all([
        catalog(["scan", "models", "--retries", "0"], { baseUrl: unavailable.baseUrl, key: Redacted.value(unavailable.keys.full) }),
        catalog(["stats"], { baseUrl: exhausted.baseUrl, key: Redacted.value(exhausted.keys.full) }),
        catalog(["stats", "--daily-budget", "0"], full)
      ])
      expect(expectErrorLine(retried, 9, "ServiceUnavailable")).toMatch(/\(code service_unavailable, request req_\w+\)$/)
      expect(expectErrorLine(quota, 5, "QuotaExhausted")).toMatch(/resets at \d{4}-\d\d-\d\dT.*\(code daily_quota_exhausted, request req_\w+\)$/)
      expect(expectErrorLine(budget, 5, "BudgetExceeded")).toMatch(/daily budget of 0/)
    } finally {
      await Promise.all([faulty.dispose(), spent.dispose()])
    }
  })

  it("stdout holds only complete NDJSON lines through a restart, smaller pages, a retry, ids out of code-unit order and a failure", async () => {
    const stub = ManagedRuntime.make(Stub.layer)
    try {
      const service = await stub.runPromise(Stub.Stub)
      // A case-insensitive service: `Charlie` comes after `beta`.
      const models = ["alpha", "beta", "Charlie", "delta", "Echo", "foxtrot", "golf"]
      const page = (after: string | null, limit: number) => {
        const rest = after === null ? models : models.slice(models.indexOf(after) + 1)
        const items = rest.slice(0, limit)
        const last = items.at(-1)
        const next = rest.length > items.length && last !== undefined ? last : null
        return Stub.json(200, {
          data: items.map((model) => wireModel(service.baseUrl, "acme", model)),
          pagination: { limit, has_more: next !== null, next_cursor: next },
          links: { next: next === null ? null : `${service.baseUrl}/models/?limit=${limit}&cursor=${next}` },
          meta: { observed_at: null, stale: null }
        })
      }
      const scripted = (failAt: number | null) => {
        let requests = 0
        return (request: Stub.Received): Stub.Reply => {
          const at = ++requests
          const url = new URL(request.url, service.origin)
          const limit = Number(url.searchParams.get("limit") ?? "100")
          if (at === failAt) return { status: 500, headers: { "content-type": "text/plain" }, body: "boom" }
          if (at === 3) return Stub.json(409, { code: "cursor_expired", detail: "The cursor expired" })
          if (at === 5) return Stub.json(422, { code: "response_too_large", detail: "Too large" })
          if (at === 6) return Stub.json(503, { code: "service_unavailable", detail: "Busy" }, { "retry-after": "0" })
          return page(url.searchParams.get("cursor"), limit)
        }
      }
      const target = { baseUrl: service.baseUrl, key: "cat_live_stubbed0123456789abcdef" }
      keepSecret(target.key)

      await stub.runPromise(service.answer(scripted(null)))
      const complete = await catalog(["scan", "models", "--page-size", "2", "--retries", "2", "--no-limits"], target)
      expect(complete.code, complete.stderr).toBe(0)
      expect(complete.stdout.endsWith("\n")).toBe(true)
      const ids = lines(complete.stdout).map((line) => {
        const item = parse(line)
        return isRecord(item) ? item.id : undefined
      })
      expect(ids).toEqual(models.map((model) => `acme/${model}`))
      expect(complete.stderr).toMatch(/restarting/)
      expect(complete.stderr).toMatch(/smaller pages/)
      expect(complete.stderr).toMatch(/code unit/)

      await stub.runPromise(service.answer(scripted(8)))
      const failed = await catalog(["scan", "models", "--page-size", "2", "--retries", "2", "--no-limits"], target)
      expect(failed.code).toBe(6)
      expect(failed.stdout === "" || failed.stdout.endsWith("\n")).toBe(true)
      for (const line of lines(failed.stdout)) expect(isRecord(parse(line))).toBe(true)
      expect(lines(failed.stderr).at(-1)).toMatch(/^catalog: UnexpectedResponse: /)
    } finally {
      await stub.dispose()
    }
  })

  it("exits with 9 on a closed port (naming the base URL and what to check), 2 on a foreign api_url, 6 on an answer outside the contract", async () => {
    const port = await freePort()
    const stub = ManagedRuntime.make(Stub.layer)
    try {
      const service = await stub.runPromise(Stub.Stub)
      const echoed = "cat_live_stubbed0123456789abcdef"
      keepSecret(echoed)
      await stub.runPromise(
        service.answer((request) => ({
          status: 500,
          headers: { "content-type": "text/plain", "x-request-id": "req_stub42" },
          body: `internal error for ${request.headers["authorization"] ?? ""}`
        }))
      )
      const [closed, foreign, unexpected] = await Promise.all([
        catalog(["stats", "--retries", "0"], { baseUrl: `http://127.0.0.1:${port}/api/v1`, key: full.key }),
        catalog(["get", "https://elsewhere.example/api/v1/stats/"], full),
        catalog(["stats", "--retries", "0", "--base-url", service.baseUrl, "--api-key", echoed], full)
      ])
      expect(expectErrorLine(closed, 9, "Unreachable")).toBe(
        `catalog: Unreachable: cannot reach http://127.0.0.1:${port}/api/v1 (connection refused) after 1 attempt; check that the service runs there and that CATALOG_BASE_URL (or --base-url) names it`
      )
      expect(expectErrorLine(foreign, 2, "UsageError")).toMatch(/https:\/\/elsewhere\.example/)
      expect(expectErrorLine(unexpected, 6, "UnexpectedResponse")).toMatch(/status 500: .*\[redacted\].*request req_stub42\)$/)
      const received = await stub.runPromise(service.received)
      expect(received.map((request) => request.headers["authorization"])).toEqual([`Bearer ${echoed}`])
    } finally {
      await stub.dispose()
    }
  })

  // The package's bin, compiled and installed, is run by the package's consumer test.
  // Each test has a simulator of its own (its own account) and waits mostly on windows: they run at once.
  describe.concurrent("an account with its limits enforced (10 s window scaled to 3 s)", () => {
    const limited = { sizes: { models: 100 }, timeScale: 0.3 } satisfies Simulator.Settings
    const scanArgs = ["scan", "models", "--page-size", "10", "--retries", "0", "--time-scale", "0.3"]

    /** A simulator of its own, its full key, and the count of 429s it answered. */
    const withLimitedSimulator = async (
      test: (target: Target, refused: () => Promise<number>, answered: () => Promise<ReadonlyArray<Simulator.Answered>>) => Promise<void>,
      settings: Simulator.Settings = limited
    ) => {
      const own = ManagedRuntime.make(Simulator.layer(settings))
      try {
        const service = await own.runPromise(Simulator.Simulator)
        await test(
          fullAccess(service),
          async () => (await own.runPromise(service.statusCounts)).get(429) ?? 0,
          () => own.runPromise(service.answered)
        )
      } finally {
        await own.dispose()
      }
    }

    it("two runs one after the other provoke no 429: the second knows when the first one's requests started", async () => {
      await withLimitedSimulator(async (target, refused) => {
        // Each run sends ten list requests at once, the whole 10 s window's worth.
        const first = await catalog(scanArgs, target, { CATALOG_TIME_SCALE: "0.3" })
        const second = await catalog(scanArgs, target, { CATALOG_TIME_SCALE: "0.3" })
        expect([first.code, second.code], second.stderr).toEqual([0, 0])
        expect(lines(second.stdout)).toHaveLength(100)
        expect(await refused()).toBe(0)
      })
    })

    it("six runs in a row read /usage/ once: the later ones take the first one's read of the live allowance from the state file", async () => {
      await withLimitedSimulator(async (target, refused, answered) => {
        for (let run = 0; run < 6; run++) {
          const result = await catalog(["scan", "models", "--page-size", "50", "--retries", "0", "--time-scale", "0.3"], target)
          expect(result.code, result.stderr).toBe(0)
          expect(lines(result.stdout)).toHaveLength(100)
        }
        const all = await answered()
        expect(await refused()).toBe(0)
        expect(all.filter((entry) => entry.operation === "usage")).toHaveLength(1)
        expect(all.filter((entry) => entry.operation === "models")).toHaveLength(12)
      }, { ...limited, limits: { perMinute: 20 } })
    })

    it("two runs at once sharing the account through --redis provoke no 429", async () => {
      await withLimitedSimulator(async (target, refused) => {
        const shared = ["--redis", redis.url]
        const [one, two] = await Promise.all([catalog([...scanArgs, ...shared], target), catalog([...scanArgs, ...shared], target)])
        expect([one.code, two.code], `${one.stderr}\n${two.stderr}`).toEqual([0, 0])
        expect(lines(one.stdout)).toHaveLength(100)
        expect(lines(two.stdout)).toHaveLength(100)
        expect(await refused()).toBe(0)
      })
    })

    it("--redis with something that is not a redis:// URL is a usage error", async () => {
      const result = await catalog(["stats", "--redis", "http://127.0.0.1:1"], full)
      expect(expectErrorLine(result, 2, "UsageError")).toContain("--redis")
    })

    it("--no-limits sends without the account's windows (the service refuses the 11th page of a window); with --redis it is a usage error", async () => {
      await withLimitedSimulator(async (target, refused) => {
        const unpaced = await catalog(["scan", "models", "--page-size", "5", "--retries", "0", "--no-limits"], target)
        expect(unpaced.code).not.toBe(0)
        expect(unpaced.stderr).toContain("RateLimited")
        expect(lines(unpaced.stdout)).toHaveLength(50)
        expect(await refused()).toBe(1)
      })
      const both = await catalog(["stats", "--no-limits", "--redis", redis.url], full)
      expect(expectErrorLine(both, 2, "UsageError")).toBe("catalog: UsageError: --no-limits and --redis do not go together")
    })
  })

  describe("interrupted mid-scan", () => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      it(`${signal} ends the process within 1 s, with exit code ${ExitCodes.ofSignal(signal)} and stdout ending on a complete line`, async () => {
        // Every answer is 300 ms late: the scan of 30 pages would take 9 s.
        const slow = ManagedRuntime.make(Simulator.layer({ sizes: { models: 300 }, enforceLimits: false, faults: { slow: 1, slowMillis: 300 } }))
        try {
          const service = await slow.runPromise(Simulator.Simulator)
          keysOf(service)
          const child = spawn(process.execPath, [inject("catalogCommand"), "scan", "models", "--page-size", "10"], {
            cwd: root,
            env: {
              ...process.env,
              CATALOG_BASE_URL: service.baseUrl,
              CATALOG_API_KEY: Redacted.value(service.keys.full),
              CATALOG_STATE_DIR: stateDirectory
            },
            stdio: ["ignore", "pipe", "pipe"]
          })
          let stdout = ""
          let stderr = ""
          child.stdout.on("data", (chunk) => (stdout += chunk))
          child.stderr.on("data", (chunk) => (stderr += chunk))
          const firstItems = new Promise<void>((resolve) => child.stdout.once("data", () => resolve()))
          const exited = once(child, "exit")
          await firstItems
          const signalled = Date.now()
          child.kill(signal)
          const [code] = await exited
          expect(Date.now() - signalled).toBeLessThan(1_000)
          expect(code).toBe(ExitCodes.ofSignal(signal))
          expect(stdout.endsWith("\n")).toBe(true)
          const items = lines(stdout).map((line) => parse(line))
          expect(lines(stderr)).toEqual([
            expect.stringMatching(
              new RegExp(`^catalog: interrupted after ${items.length} items?, \\d+ pages?, \\d+ units?; stdout holds them, each whole; `)
            )
          ])
          expect(items.length).toBeGreaterThan(0)
          expect(items.length).toBeLessThan(300)
          expect(items.every(isRecord)).toBe(true)
        } finally {
          await slow.dispose()
        }
      })
    }
  })

  it("runs through npm run --silent catalog", async () => {
    const npm = await spawnCatalog("npm", ["run", "--silent", "catalog", "--", "stats"], full)
    expect(npm.code).toBe(0)
    expect(parse(npm.stdout)).toMatchObject({ id: "catalog", models: sizes.models })
  })

  it("catalog simulator --port 0 prints its JSON line, serves, and stops on SIGTERM", async () => {
    const child: ChildProcess = spawn(process.execPath, [inject("catalogCommand"), "simulator", "--port", "0", "--models", "50"], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"]
    })
    try {
      const line = await new Promise<string>((resolve, reject) => {
        if (child.stdout === null) return reject(new Error("no stdout"))
        createInterface({ input: child.stdout }).once("line", resolve)
        child.once("exit", (code) => reject(new Error(`exited with ${code} before printing`)))
      })
      const announcement = parse(line)
      if (!isRecord(announcement) || typeof announcement.base_url !== "string" || !isRecord(announcement.keys)) {
        throw new Error(`unexpected line: ${line}`)
      }
      expect(announcement.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/)
      expect(Object.keys(announcement.keys).sort()).toEqual(["full", "models_only", "no_content", "revoked"])
      const key = announcement.keys.full
      if (typeof key !== "string") throw new Error("no full key")
      const stats = await catalog(["stats"], { baseUrl: announcement.base_url, key })
      expect(stats.code).toBe(0)
      expect(parse(stats.stdout)).toMatchObject({ models: 50 })
    } finally {
      const exited = once(child, "exit")
      child.kill("SIGTERM")
      const [code] = await exited
      expect(code).toBe(0)
    }
  })
})

describe("catalog against a service that orders ids case-insensitively", { timeout: 60_000 }, () => {
  const runtime = ManagedRuntime.make(Simulator.layer({ collation: "case-insensitive", sizes: { models: 450 }, enforceLimits: false }))
  afterAll(() => runtime.dispose())

  it("scan models prints every model once, in the service's order, and says once on stderr how it coped", async () => {
    const simulator = await runtime.runPromise(Simulator.Simulator)
    const result = await catalog(["scan", "models"], fullAccess(simulator))
    expect(result.code).toBe(0)
    const ids = lines(result.stdout).map((line) => {
      const model = parse(line)
      return isRecord(model) && typeof model.id === "string" ? model.id : ""
    })
    expect(new Set(ids).size).toBe(450)
    expect(ids.every((id, index) => index === 0 || (ids[index - 1] ?? "").toLowerCase() < id.toLowerCase())).toBe(true)
    expect(ids.some((id, index) => index > 0 && (ids[index - 1] ?? "") > id)).toBe(true)
    const notes = lines(result.stderr)
    expect(notes.filter((line) => line.includes("orders ids otherwise than by code unit"))).toHaveLength(1)
    expect(notes.at(-1)).toMatch(summaryPattern("scan models", 450, 5, 5))
  })
})
