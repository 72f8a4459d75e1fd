/**
 * The command's messages in the user's words, and `--fields` in every
 * format: each message's exact text and exit code, its counts with their
 * nouns in the singular or the plural, its options spelled alike, from the
 * command run as a process against a simulator over real HTTP.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Layer, Schema } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as CatalogConfig from "../../../common/src/client/CatalogConfig.js"
import * as ExitCodes from "../../src/cli/ExitCodes.js"
import * as Simulator from "../../src/simulator/Simulator.js"
import { catalog, lines, simulatorForBlock } from "../../../test/support/CatalogProcess.js"

const sizes = { models: 20, skills: 4, mcps: 4, organizations: 4, providers: 4, families: 4, topics: 2, articles: 2 }

/** A run that fails before anything is sent: nothing on stdout, these lines on stderr, this code. */
const expectRefusal = (result: { readonly code: number | null; readonly stdout: string; readonly stderr: string }, ...stderr: ReadonlyArray<string>) => {
  expect(result.stdout).toBe("")
  expect(result.stderr).toBe(stderr.map((line) => `${line}\n`).join(""))
  expect(result.code).toBe(ExitCodes.usage)
}

const json = (text: string): unknown => JSON.parse(text)

/** What the projection test reads of an offer (the other fields are left out of the decoded value, not refused). */
const offerFields = Schema.Struct({ id: Schema.String, channel: Schema.String, pricing: Schema.Struct({ input: Schema.NullOr(Schema.String) }) })

describe("messages in the user's words", { timeout: 60_000 }, () => {
  const { full, runtime } = simulatorForBlock({ sizes, enforceLimits: false })
  const answered = () => runtime.runPromise(Effect.flatMap(Simulator.Simulator, (simulator) => simulator.answered))

  describe("configuration", () => {
    it("a base URL that is not a URL names the flag it came from, what was expected and an example", async () => {
      expectRefusal(
        await catalog(["stats", "--base-url", "catalog.example.com"], full),
        "catalog: UsageError: --base-url \"catalog.example.com\" is not a URL; expected e.g. https://catalog.example/api/v1"
      )
    })

    it("from the environment, it names the variable", async () => {
      expectRefusal(
        await catalog(["stats"], null, { CATALOG_API_KEY: full.key, CATALOG_BASE_URL: "ftp://catalog.example/api/v1" }),
        "catalog: UsageError: CATALOG_BASE_URL \"ftp://catalog.example/api/v1\" is not an http or https URL; expected e.g. https://catalog.example/api/v1"
      )
    })

    it("a base URL with credentials is refused without showing them", async () => {
      expectRefusal(
        await catalog(["stats", "--base-url", "https://user:hunter2@catalog.example/api/v1"], full),
        "catalog: UsageError: --base-url must not carry credentials (the key goes in CATALOG_API_KEY); expected e.g. https://catalog.example/api/v1"
      )
    })

    it("a missing key says how to set it", async () => {
      expectRefusal(
        await catalog(["stats"], null, { CATALOG_BASE_URL: full.baseUrl }),
        "catalog: UsageError: no API key: export CATALOG_API_KEY=cat_live_…, or pass --api-key-file FILE (- for standard input), or --api-key KEY"
      )
    })

    it("a missing base URL says how to set it", async () => {
      expectRefusal(
        await catalog(["stats"], null, { CATALOG_API_KEY: full.key }),
        "catalog: UsageError: no base URL: export CATALOG_BASE_URL=https://catalog.example/api/v1, or pass --base-url URL"
      )
    })

    it("a malformed variable is named, with what was expected and an example", async () => {
      expectRefusal(
        await catalog(["stats"], full, { CATALOG_TIME_SCALE: "fast" }),
        "catalog: UsageError: CATALOG_TIME_SCALE: expected a number value but received \"fast\"; e.g. CATALOG_TIME_SCALE=0.1"
      )
      expectRefusal(
        await catalog(["stats"], full, { CATALOG_TIMEOUT: "soon" }),
        "catalog: UsageError: CATALOG_TIMEOUT: expected a duration but received \"soon\"; e.g. CATALOG_TIMEOUT=\"10 seconds\""
      )
    })
  })

  describe("the command line", () => {
    it("a missing argument gets the catalog: prefix and the subcommand's usage line, exit 2", async () => {
      expectRefusal(
        await catalog(["get"], full),
        "catalog: UsageError: Missing argument <operationId | api_url>",
        "Usage: catalog get <operationId | api_url> <parameter>... [options]"
      )
      expectRefusal(
        await catalog(["search", "models"], full),
        "catalog: UsageError: Missing argument <q>",
        "Usage: catalog search <type> <q> [options]"
      )
    })

    it("a value of the wrong kind is one line that names its option; options before the subcommand add a usage line", async () => {
      expectRefusal(await catalog(["scan", "models", "--max", "many"], full), "catalog: UsageError: --max: 'many' is not an integer")
      expectRefusal(await catalog(["scan", "models", "--page-size=lots"], full), "catalog: UsageError: --page-size: 'lots' is not an integer")
      expectRefusal(await catalog(["stats", "--time-scale", "fast"], full), "catalog: UsageError: --time-scale: 'fast' is not a number")
      expectRefusal(await catalog(["scan", "models", "--max", "1", "--max", "2"], full), "catalog: UsageError: --max is given twice")
      const early = await catalog(["--max", "2", "stats"], full)
      expect(lines(early.stderr)[1]).toBe("Usage: catalog <subcommand> [arguments] [options]")
      expect(early.stderr).toMatch(/^catalog: UsageError: /)
      expect(early.code).toBe(ExitCodes.usage)
    })

    it("an option sent under another name on the wire is refused under the name typed, with its range; nothing is sent", async () => {
      const before = (await answered()).length
      const refusals: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
        [["scan", "models", "--page-size", "500"], "--page-size must be a whole number from 1 to 100 for models; got 500"],
        [["scan", "modelOffers", "o0000-falcon/m0000000-kestrel-8b", "--page-size=0"], "--page-size must be a whole number from 1 to 100 for modelOffers; got 0"],
        [["search", "models", "kestrel", "--page-size", "26"], "--page-size must be a whole number from 1 to 25 for search; got 26"],
        [["scan", "models", "--open_weights", "maybe"], "--open_weights: a boolean filter must be exactly true or false"],
        [["scan", "models", "--open-weights", "maybe"], "--open-weights: a boolean filter must be exactly true or false"]
      ]
      const results = await Promise.all(refusals.map(([args]) => catalog(args, full)))
      refusals.forEach(([, detail], index) => {
        const result = results[index]
        if (result === undefined) throw new Error("no run")
        expectRefusal(result, `catalog: UsageError: ${detail}`)
      })
      expect((await answered()).length).toBe(before)
      const inRange = await catalog(["--log-level", "debug", "scan", "models", "--page-size", "7", "--max", "7", "--open_weights", "true"], full)
      expect(inRange.code, inRange.stderr).toBe(0)
      expect(lines(inRange.stderr)).toContainEqual(expect.stringMatching(/^catalog: debug: GET \/api\/v1\/models\/\?open_weights=true&limit=7 200 /))
    })

    it("catalog simulator refuses a bad option in words that name it, as every usage error: one line, exit code 2", async () => {
      const refusals: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
        [
          ["--faults", "unavailble=0.5"],
          "--faults unavailble=0.5: unknown fault \"unavailble\"; did you mean `unavailable`? (faults: unavailable, drop, slow, slow-ms, expire)"
        ],
        [["--faults", "unavailable=2"], "--faults unavailable=2: a fault's rate is a number from 0 to 1"],
        [["--faults", "drop=0.1,slow=lots"], "--faults slow=lots: a fault's rate is a number from 0 to 1"],
        [["--faults", "unavailable"], "--faults unavailable: a fault is given as name=rate, e.g. unavailable=0.15"],
        [["--faults", "slow-ms=-5"], "--faults slow-ms=-5: slow-ms is a number of milliseconds, 0 or more"],
        [["--time-scale", "0"], "--time-scale 0: the time scale must be more than 0"],
        [["--time-scale", "-1"], "--time-scale -1: the time scale must be more than 0"],
        [["--time-scale", "soon"], "--time-scale: 'soon' is not a number"],
        [["--churn", "2"], "--churn 2: the churn is a share from 0 to 1"],
        [["--models", "-1"], "--models -1: a count must be 0 or more"],
        [["--port", "70000"], "--port 70000: a port is a whole number from 0 to 65535"],
        [["--port", "abc"], "--port: 'abc' is not an integer"]
      ]
      const results = await Promise.all(refusals.map(([args]) => catalog(["simulator", ...args], null)))
      refusals.forEach(([, detail], index) => {
        const result = results[index]
        if (result === undefined) throw new Error("no run")
        expectRefusal(result, `catalog: UsageError: ${detail}`)
      })
    })

    it("an api_url of another origin given to get is a usage error, and nothing is sent", async () => {
      expectRefusal(
        await catalog(["get", "https://elsewhere.example/api/v1/models/o0000-falcon/m0000000-kestrel-8b/"], full),
        `catalog: UsageError: a link to https://elsewhere.example is not below the base URL ${full.baseUrl}: give an api_url the service returned, or an operation (catalog help get)`
      )
    })

    it("catalog --help lists every variable the command reads, one line each within 80 columns", async () => {
      const help = await catalog(["--help"], null)
      expect(help.code).toBe(0)
      const all = help.stdout.split("\n")
      const start = all.indexOf("Environment:")
      expect(start).toBeGreaterThan(0)
      const section = all.slice(start + 1, all.indexOf("", start))
      expect(section.map((line) => line.trim().split(/\s+/)[0])).toEqual([
        "CATALOG_API_KEY", "CATALOG_BASE_URL", "CATALOG_TIMEOUT", "CATALOG_TIME_SCALE", "CATALOG_DAILY_BUDGET",
        "CATALOG_REDIS_URL", "CATALOG_DB_URL", "CATALOG_STATE_DIR", "XDG_STATE_HOME", "NO_COLOR", "COLUMNS"
      ])
      for (const line of all) expect(line.length).toBeLessThanOrEqual(80)
    })
  })

  describe("words", () => {
    it("one of a thing is one: 1 item, 1 page, 1 unit, in a scan's summary and a mirror's", async () => {
      const scan = await catalog(["scan", "families", "--max", "1"], full)
      expect(scan.code).toBe(0)
      expect(lines(scan.stderr)).toEqual([expect.stringMatching(/^catalog: scan families: 1 item, 1 page, 1 unit, \d+\.\d s$/)])
      const folder = mkdtempSync(join(tmpdir(), "catalog-words-"))
      try {
        const mirror = await catalog(["mirror", "topics", "--db", join(folder, "mirror.sqlite")], full)
        expect(mirror.code, mirror.stderr).toBe(0)
        expect(lines(mirror.stderr)).toEqual([
          expect.stringMatching(/^catalog: mirror topics: complete, 2 items \(\+2 ~0 -0\), 1 page, 1 unit, \d+\.\d MiB, \d+\.\d s$/)
        ])
      } finally {
        rmSync(folder, { recursive: true, force: true })
      }
    })

    it("a budget that one more unit would pass says so in the singular", async () => {
      const refused = await catalog(["stats", "--daily-budget", "0"], full)
      expect(refused.stdout).toBe("")
      expect(refused.stderr).toBe("catalog: BudgetExceeded: The request would cost 1 unit; 0 of the daily budget of 0 are spent\n")
      expect(refused.code).toBe(ExitCodes.quota)
    })

    it("--open-weights is spelled as every other option, in the help and the suggestions; --open_weights still works", async () => {
      const [kebab, snake, help, mistyped, refused] = await Promise.all([
        catalog(["scan", "models", "--open-weights", "true", "--quiet"], full),
        catalog(["scan", "models", "--open_weights=true", "--quiet"], full),
        catalog(["help", "scan"], null),
        catalog(["scan", "models", "--open-weight", "true"], full),
        catalog(["scan", "models", "--open-weights", "maybe"], full)
      ])
      expect(kebab.code).toBe(0)
      const items = lines(kebab.stdout).map((line) => Schema.decodeUnknownSync(Schema.Struct({ open_weights: Schema.NullOr(Schema.Boolean) }))(json(line)))
      expect(items.length).toBeGreaterThan(0)
      expect(items.length).toBeLessThan(sizes.models)
      expect(items.every((model) => model.open_weights === true)).toBe(true)
      expect(snake.stdout).toBe(kebab.stdout)
      expect(help.stdout).toMatch(/^ +\[--reasoning value\] \[--open-weights value\]$/m)
      expect(help.stdout).not.toContain("open_weights")
      expectRefusal(
        mistyped,
        "catalog: UsageError: unknown option --open-weight for models; did you mean `--open-weights`? " +
          "(its filters: --q, --family, --provider, --organization, --reasoning, --open-weights)"
      )
      expectRefusal(refused, "catalog: UsageError: --open-weights: a boolean filter must be exactly true or false")
    })
  })

  describe("--fields in every format", () => {
    it("NDJSON keeps the named fields alone, in the order given, nested ones as objects", async () => {
      const result = await catalog(["scan", "models", "--max", "2", "--fields", "name,id", "--quiet"], full)
      expect(result.code).toBe(0)
      const items = lines(result.stdout).map(json)
      expect(items).toHaveLength(2)
      for (const line of lines(result.stdout)) expect(Object.keys(JSON.parse(line))).toEqual(["name", "id"])
      const offers = await catalog(
        ["scan", "modelOffers", "o0000-falcon", "m0000000-kestrel-8b", "--max", "3", "--fields", "pricing.output,id,pricing.input", "--quiet"],
        full
      )
      expect(offers.code).toBe(0)
      for (const line of lines(offers.stdout)) {
        expect(line).toMatch(/^\{"pricing":\{"output":"[^"]*","input":"[^"]*"\},"id":"[^"]*"\}$/)
      }
    })

    it("a JSON array keeps the same fields; without --fields, items are as the service sent them", async () => {
      const offers = ["scan", "modelOffers", "o0000-falcon", "m0000000-kestrel-8b", "--max", "3", "--quiet"]
      const [projected, whole, wire] = await Promise.all([
        catalog([...offers, "--format", "json", "--fields", "id,pricing.input,channel"], full),
        catalog([...offers, "--format", "json"], full),
        catalog(offers, full)
      ])
      const items = Schema.decodeUnknownSync(Schema.Array(Schema.Unknown))(json(whole.stdout))
      expect(items.length).toBeGreaterThan(0)
      expect(lines(wire.stdout)).toEqual(items.map((item) => JSON.stringify(item)))
      expect(projected.stdout).toBe(
        `[\n${
          items.map((item) => Schema.decodeUnknownSync(offerFields)(item)).map((item) =>
            JSON.stringify({ id: item.id, pricing: { input: item.pricing.input }, channel: item.channel })
          ).join(",\n")
        }\n]\n`
      )
    })

    it("get keeps the named fields of the resource", async () => {
      const result = await catalog(["get", "model", "o0000-falcon", "m0000000-kestrel-8b", "--fields", "name,id,reasoning"], full)
      expect(result.code).toBe(0)
      expect(Object.keys(JSON.parse(result.stdout))).toEqual(["name", "id", "reasoning"])
      expect(result.stdout).toMatch(/^\{"name":"[^"]*","id":"o0000-falcon\/m0000000-kestrel-8b","reasoning":(true|false)\}\n$/)
    })

    it("an unknown field is a usage error with the nearest name, in every format, before anything is sent", async () => {
      for (const format of ["ndjson", "json"]) {
        const result = await catalog(["scan", "families", "--format", format, "--fields", "id,nmae"], full)
        expectRefusal(
          result,
          "catalog: UsageError: --fields: unknown field \"nmae\" of families; did you mean `name`? (fields: id, name, model_count, updated_at)"
        )
      }
    })
  })
})

describe("CatalogConfig.layerConfig()", () => {
  const built = (entries: ReadonlyArray<readonly [string, string]>) =>
    Layer.build(CatalogConfig.layerConfig()).pipe(
      Effect.scoped,
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map(entries))),
      Effect.either,
      Effect.map(Either.match({ onLeft: String, onRight: () => "built" }))
    )

  it.effect("a ConfigError names the variable, what was expected and an example", () =>
    Effect.gen(function*() {
      expect(yield* built([["CATALOG_BASE_URL", "https://catalog.example/api/v1"]])).toBe(
        "(Missing data at CATALOG_API_KEY: \"CATALOG_API_KEY is not set; expected the account's API key, e.g. export CATALOG_API_KEY=cat_live_…\")"
      )
      expect(yield* built([["CATALOG_API_KEY", "cat_live_x"]])).toBe(
        "(Missing data at CATALOG_BASE_URL: \"CATALOG_BASE_URL is not set; expected the service's base URL, e.g. export CATALOG_BASE_URL=https://catalog.example/api/v1\")"
      )
      expect(yield* built([["CATALOG_API_KEY", "cat_live_x"], ["CATALOG_BASE_URL", "catalog.example.com"]])).toBe(
        "(Invalid data at CATALOG_BASE_URL: \"CATALOG_BASE_URL \"catalog.example.com\" is not a URL; expected e.g. https://catalog.example/api/v1\")"
      )
      expect(yield* built([["CATALOG_API_KEY", "cat_live_x"], ["CATALOG_BASE_URL", "https://catalog.example/api/v1"], ["CATALOG_TIMEOUT", "soon"]])).toBe(
        "(Invalid data at CATALOG_TIMEOUT: \"CATALOG_TIMEOUT is not valid; expected a duration, e.g. export CATALOG_TIMEOUT=\"10 seconds\"\")"
      )
      expect(yield* built([["CATALOG_API_KEY", "cat_live_x"], ["CATALOG_BASE_URL", "https://catalog.example/api/v1"]])).toBe("built")
    }))
})
