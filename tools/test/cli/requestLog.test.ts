/**
 * The request log on demand: with `--log-level debug` or `CATALOG_LOG=debug`
 * the `catalog` command (as it ships, a process) writes one line per
 * request to stderr, with its method, path and query, status, time, units,
 * request id, what the ETag cache did, its attempt and the admission wait
 * before it; stdout keeps only the NDJSON; no line holds the key.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Simulator from "../../src/simulator/Simulator.js"
import { catalog, fullAccess, lines } from "../../../test/support/CatalogProcess.js"

const sizes = { models: 250, skills: 10, mcps: 10, organizations: 10, providers: 5, families: 6, topics: 4, articles: 4 }

/** A request line: `catalog: debug: GET <path?query> <status> <ms> ms, <units> unit(s), request <id>, cache <what>, attempt <n>, waited <ms> ms`. */
const requestLine = /^catalog: debug: GET (\/\S+) (\d{3}) \d+ ms, (\d+) units?, request (\S+), cache (hit|revalidated|miss), attempt (\d+), waited \d+ ms$/

const requestLines = (stderr: string) => lines(stderr).filter((line) => line.startsWith("catalog: debug: GET "))

/** Runs the command against the simulator with its full key, within a minute. */
const run = (args: ReadonlyArray<string>, env: Readonly<Record<string, string>> = {}) =>
  Effect.flatMap(Simulator.Simulator, (simulator) => {
    const target = fullAccess(simulator)
    return Effect.promise(() => catalog(args, target, env)).pipe(Effect.timeoutFail({ duration: "60 seconds", onTimeout: () => new Error(`catalog ${args.join(" ")} did not end`) }))
  })

describe("the request log", { timeout: 90_000 }, () => {
  layer(Simulator.layer({ sizes, enforceLimits: false }), { excludeTestServices: true })((it) => {
    it.effect("--log-level debug writes one line per page to stderr, and stdout holds only the NDJSON", () =>
      Effect.gen(function*() {
        const result = yield* run(["--log-level", "debug", "scan", "models", "--page-size", "100"])
        expect(result.code).toBe(0)
        const items = lines(result.stdout)
        expect(items.length).toBe(250)
        for (const item of items) expect(() => JSON.parse(item)).not.toThrow()
        const requests = requestLines(result.stderr)
        expect(requests.length).toBe(3)
        for (const [index, line] of requests.entries()) {
          const [, pathAndQuery = "", status, units, requestId, cache, attempt] = requestLine.exec(line) ?? []
          expect(line, line).toMatch(requestLine)
          const url = new URL(pathAndQuery, "http://catalog.invalid")
          expect(url.pathname).toMatch(/\/models\/$/)
          expect(url.searchParams.get("limit")).toBe("100")
          expect(url.searchParams.has("cursor")).toBe(index > 0)
          expect([status, units, cache, attempt]).toEqual(["200", "1", "miss", "1"])
          expect(requestId).not.toBe("none")
        }
      }))

    it.effect("CATALOG_LOG=debug does the same; without either, no request line; a level it does not know is a usage error", () =>
      Effect.gen(function*() {
        const logged = yield* run(["stats"], { CATALOG_LOG: "debug" })
        expect(logged.code).toBe(0)
        expect(requestLines(logged.stderr).map((line) => requestLine.exec(line)?.slice(2, 4))).toEqual([["200", "1"]])
        expect(lines(logged.stdout).every((line) => !line.startsWith("catalog:"))).toBe(true)

        const quiet = yield* run(["stats"])
        expect(quiet.code).toBe(0)
        expect(requestLines(quiet.stderr)).toEqual([])

        // The flag wins over the variable.
        const flagged = yield* run(["--log-level", "info", "stats"], { CATALOG_LOG: "debug" })
        expect(requestLines(flagged.stderr)).toEqual([])

        const unknown = yield* run(["stats"], { CATALOG_LOG: "loud" })
        expect(unknown.code).toBe(2)
        expect(unknown.stdout).toBe("")
        expect(unknown.stderr).toMatch(/^catalog: UsageError: CATALOG_LOG: .*e\.g\. CATALOG_LOG=debug/)
      }))
  })
})
