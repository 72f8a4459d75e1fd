/**
 * The `catalog` command for people: help within 80 columns, suggestions for
 * mistyped names, quick and clear failures, formats for humans, `--out`
 * anywhere, and the exit codes of README's table. The command runs as a
 * process against simulators and stubs over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ManagedRuntime, Redacted } from "effect"
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { inject } from "vitest"
import { freePort } from "../../../scripts/localServer.js"
import * as ExitCodes from "../../src/cli/ExitCodes.js"
import * as Simulator from "../../src/simulator/Simulator.js"
import { catalog, expectErrorLine, keepSecret, fullAccess, lines, stateDirectory, type Target } from "../../../test/support/CatalogProcess.js"
import { wireModel } from "../../../test/support/Fixtures.js"
import * as Stub from "../../../test/support/Stub.js"

const sizes = { models: 120, skills: 30, mcps: 12, organizations: 8, providers: 6, families: 6, topics: 4, articles: 4 }

const subcommands = ["scan", "get", "search", "stats", "usage", "mirror", "mirror keep", "mirror status", "changes", "plan", "simulator"]

/** A server that accepts connections and never answers. */
const silentServer = () =>
  new Promise<{ readonly server: Server; readonly port: number }>((resolve, reject) => {
    const server = createServer(() => {})
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      resolve({ server, port: typeof address === "object" && address !== null ? address.port : 0 })
    })
  })

/** Runs the command and gives its lines on stderr with the milliseconds since its start at which each came, and its exit code. */
const timed = (args: ReadonlyArray<string>, target: Target, env: Readonly<Record<string, string>> = {}) =>
  new Promise<{ readonly lines: ReadonlyArray<{ readonly text: string; readonly at: number }>; readonly code: number | null }>(
    (resolve, reject) => {
      const started = Date.now()
      const child = spawn(process.execPath, [inject("catalogCommand"), ...args], {
        env: { ...process.env, CATALOG_API_KEY: target.key, CATALOG_BASE_URL: target.baseUrl, CATALOG_STATE_DIR: stateDirectory, ...env },
        stdio: ["ignore", "ignore", "pipe"]
      })
      const lines: Array<{ readonly text: string; readonly at: number }> = []
      createInterface({ input: child.stderr }).on("line", (text) => lines.push({ text, at: Date.now() - started }))
      child.once("error", reject)
      child.once("close", (code) => resolve({ lines, code }))
    }
  )

const hasAnsi = (text: string) => text.includes("\u001b[")

describe("catalog for people", { timeout: 120_000 }, () => {
  const runtime = ManagedRuntime.make(Simulator.layer({ sizes, enforceLimits: false }))
  let full: Target = { baseUrl: "", key: "" }
  const scratch = mkdtempSync(join(tmpdir(), "catalog-usability-"))

  beforeAll(async () => {
    const simulator = await runtime.runPromise(Simulator.Simulator)
    full = fullAccess(simulator)
  })

  afterAll(async () => {
    await runtime.dispose()
    rmSync(scratch, { recursive: true, force: true })
    rmSync(stateDirectory, { recursive: true, force: true })
  })

  describe("help", () => {
    it("fits 80 columns without colours, lists the subcommands, an example of each and the exit codes", async () => {
      const [root, piped, colourless] = await Promise.all([
        catalog(["--help"], null),
        catalog(["help"], null),
        catalog(["-h"], null, { NO_COLOR: "1" })
      ])
      expect(root.code).toBe(0)
      expect(piped.stdout).toBe(root.stdout)
      expect(colourless.stdout).toBe(root.stdout)
      const text = root.stdout
      expect(hasAnsi(text)).toBe(false)
      for (const line of lines(text)) expect(line.length, line).toBeLessThanOrEqual(80)
      for (const name of subcommands) {
        expect(text).toMatch(new RegExp(`^  ${name} +\\S`, "m"))
        expect(text).toMatch(new RegExp(`^  catalog ${name}\\b`, "m"))
      }
      for (const { code, meaning } of ExitCodes.table) {
        expect(text).toContain(`  ${String(code).padEnd(4)}  ${meaning.split(" ").slice(0, 3).join(" ")}`)
      }
      expect(text).toContain("--log-level")
    })

    it("of every subcommand, by `catalog help <subcommand>` or `--help`: within 80 columns, with usage, options and examples", async () => {
      for (const name of subcommands) {
        const [byHelp, byOption] = await Promise.all([catalog(["help", ...name.split(" ")], null), catalog([...name.split(" "), "--help"], null)])
        expect(byHelp.code).toBe(0)
        expect(byOption.stdout).toBe(byHelp.stdout)
        const text = byHelp.stdout
        expect(hasAnsi(text)).toBe(false)
        for (const line of lines(text)) expect(line.length, `${name}: ${line}`).toBeLessThanOrEqual(80)
        expect(text).toMatch(new RegExp(`^Usage: catalog ${name}`))
        expect(text).toMatch(/^Options:$/m)
        expect(text).toMatch(new RegExp(`^Examples:\\n  catalog ${name}\\b`, "m"))
      }
    })

    it("lists the operations one per line, with their path parameters and filters", async () => {
      const scan = await catalog(["help", "scan"], null)
      expect(scan.stdout).toMatch(/^  modelOffers <organization> <model>$/m)
      expect(scan.stdout).toMatch(/^  skills \[--q value\] \[--source value\] \[--official value\] \[--topic value\]$/m)
      expect(scan.stdout).toContain("/stats/ (1 unit")
      const get = await catalog(["help", "get"], null)
      expect(get.stdout).toMatch(/^  skill <sourceType> <owner> <repository> <skill>$/m)
    })
  })

  describe("suggestions", () => {
    it("a mistyped subcommand, operation, filter, option, collection or field gets the nearest names and exit code 2", async () => {
      const [subcommand, operation, detail, option, detailOption, filter, collection, field, help] = await Promise.all([
        catalog(["scna", "models"], full),
        catalog(["scan", "modles"], full),
        catalog(["get", "modle", "o0000-falcon", "m0000001-atlas-70b"], full),
        catalog(["scan", "models", "--pagesize", "10"], full),
        catalog(["get", "model", "o0000-falcon", "m0000001-atlas-70b", "--formt", "table"], full),
        catalog(["scan", "skills", "--offical", "true"], full),
        catalog(["plan", "skils"], full),
        catalog(["scan", "models", "--format", "table", "--fields", "id,nmae"], full),
        catalog(["help", "mirorr"], null)
      ])
      const [planOption, searchOption, choice] = await Promise.all([
        catalog(["plan", "--dbb", "mirror.sqlite"], full),
        catalog(["search", "models", "kestrel", "--pagesize", "3"], full),
        catalog(["scan", "models", "--format", "tabel"], full)
      ])
      expect(expectErrorLine(choice, 2, "UsageError")).toBe(
        "catalog: UsageError: --format \"tabel\" is not one of ndjson, json, table, csv; did you mean `table`?"
      )
      expect(expectErrorLine(planOption, 2, "UsageError")).toBe(
        "catalog: UsageError: unknown option --dbb for plan; did you mean `--db`? (catalog help plan lists them)"
      )
      expect(expectErrorLine(searchOption, 2, "UsageError")).toMatch(/unknown option --pagesize for search; did you mean `--page-size`\?/)
      expect(expectErrorLine(subcommand, 2, "UsageError")).toBe(
        "catalog: UsageError: unknown subcommand \"scna\"; did you mean `scan`? (catalog --help lists them)"
      )
      expect(expectErrorLine(operation, 2, "UsageError")).toMatch(/^catalog: UsageError: unknown operation "modles"; did you mean `models`/)
      expect(expectErrorLine(detail, 2, "UsageError")).toMatch(/unknown operation "modle"; did you mean `model`/)
      expect(expectErrorLine(option, 2, "UsageError")).toMatch(/^catalog: UsageError: unknown option --pagesize for models; did you mean `--page-size`\?/)
      expect(expectErrorLine(detailOption, 2, "UsageError")).toBe("catalog: UsageError: unknown option --formt for model; did you mean `--format`?")
      expect(expectErrorLine(filter, 2, "UsageError")).toMatch(/unknown option --offical for skills; did you mean `--official`\?/)
      expect(expectErrorLine(collection, 2, "UsageError")).toMatch(/unknown collection "skils"; did you mean `skills`\?/)
      expect(expectErrorLine(field, 2, "UsageError")).toMatch(/--fields: unknown field "nmae" of models; did you mean `name`\?/)
      expect(expectErrorLine(help, 2, "UsageError")).toMatch(/unknown subcommand "mirorr"; did you mean `mirror`\?/)
    })
  })

  describe("formats", () => {
    it("scan writes NDJSON, one JSON array, a table cut to the width, or CSV, of the same items", async () => {
      const args = ["scan", "models", "--max", "7", "--page-size", "3"]
      const [ndjson, json, table, csv, narrow] = await Promise.all([
        catalog(args, full),
        catalog([...args, "--format", "json"], full),
        catalog([...args, "--format", "table"], full),
        catalog([...args, "--format", "csv", "--fields", "id,name,reasoning"], full),
        catalog([...args, "--format", "table"], full, { COLUMNS: "50" })
      ])
      for (const result of [ndjson, json, table, csv, narrow]) expect(result.code, result.stderr).toBe(0)
      const items: ReadonlyArray<{ readonly id: string; readonly name: string; readonly reasoning: boolean | null }> = lines(ndjson.stdout).map((
        line
      ) => JSON.parse(line))
      expect(items).toHaveLength(7)
      expect(JSON.parse(json.stdout)).toEqual(items)
      const [header, separator, ...rows] = lines(table.stdout)
      expect(header).toMatch(/^id +name +organization_slug +context_tokens/)
      expect(separator).toMatch(/^-+  -+/)
      expect(rows.map((row) => row.split("  ")[0]?.trim())).toEqual(items.map((item) => item.id))
      for (const line of lines(table.stdout)) expect(line).toBe(line.trimEnd())
      for (const line of lines(narrow.stdout)) expect(line.length).toBeLessThanOrEqual(50)
      expect(lines(csv.stdout)).toEqual([
        "id,name,reasoning",
        ...items.map((item) => `${item.id},${item.name},${item.reasoning === null ? "" : String(item.reasoning)}`)
      ])
    })

    it("get writes one line of JSON when piped, a table of the fields with --format table, and --fields picks them", async () => {
      const model = ["get", "model", "o0000-falcon", "m0000001-atlas-70b"]
      const [json, table, picked, stats] = await Promise.all([
        catalog(model, full),
        catalog([...model, "--format", "table"], full),
        catalog([...model, "--format", "table", "--fields", "id,name,reasoning"], full),
        catalog(["stats", "--format", "table"], full)
      ])
      expect(lines(json.stdout)).toHaveLength(1)
      const wire: Readonly<Record<string, unknown>> = JSON.parse(json.stdout)
      const tableLines = lines(table.stdout)
      expect(tableLines[0]).toMatch(/^field +value$/)
      expect(tableLines.slice(2).map((line) => line.split(/\s+/)[0])).toEqual(Object.keys(wire))
      expect(lines(picked.stdout).slice(2)).toEqual([
        `id         ${String(wire["id"])}`,
        `name       ${String(wire["name"])}`,
        `reasoning  ${String(wire["reasoning"])}`
      ])
      expect(stats.stdout).toMatch(/^models +120$/m)
    })

    it("--out writes to any writable path: a file, /dev/null, or stdout with -; an unwritable one exits 1", async () => {
      const file = join(scratch, "models.csv")
      const args = ["scan", "models", "--max", "3", "--format", "csv"]
      const [toFile, toNull, toStdout, nowhere] = await Promise.all([
        catalog([...args, "--out", file], full),
        catalog([...args, "--out", "/dev/null"], full),
        catalog([...args, "--out", "-"], full),
        catalog([...args, "--out", join(scratch, "missing", "models.csv")], full)
      ])
      expect(toFile.code).toBe(0)
      expect(toFile.stdout).toBe("")
      expect(toNull.code).toBe(0)
      expect(toNull.stdout).toBe("")
      expect(lines(toStdout.stdout)).toHaveLength(4)
      expect(readFileSync(file, "utf8")).toBe(toStdout.stdout)
      expect(expectErrorLine(nowhere, 1, "OutputError")).toMatch(/ENOENT/)
    })

    it("without a terminal there is no progress line: one summary line, none with --quiet", async () => {
      const [plain, quiet] = await Promise.all([
        catalog(["scan", "models", "--max", "5"], full),
        catalog(["scan", "models", "--max", "5", "--quiet"], full)
      ])
      expect(lines(plain.stderr)).toEqual([expect.stringMatching(/^catalog: scan models: 5 items, 1 page, 1 unit, /)])
      expect(quiet.stderr).toBe("")
      expect(quiet.stdout).toBe(plain.stdout)
    })

    it("a few items with --max are one small request: no page too large to send, one unit", async () => {
      // A page of 100 Skills passes the service's 512 KiB.
      const many = ManagedRuntime.make(Simulator.layer({ sizes: { skills: 300 }, enforceLimits: false }))
      try {
        const simulator = await many.runPromise(Simulator.Simulator)
        const run = await catalog(["scan", "skills", "--max", "3"], { baseUrl: simulator.baseUrl, key: Redacted.value(simulator.keys.full) })
        expect(run.code).toBe(0)
        expect(lines(run.stdout)).toHaveLength(3)
        expect(lines(run.stderr)).toEqual([expect.stringMatching(/^catalog: scan skills: 3 items, 1 page, 1 unit, /)])
      } finally {
        await many.dispose()
      }
    })
  })

  describe("failures", () => {
    it("an unreachable service: the first retry is announced at once, the last failure names the base URL and what to check (9)", async () => {
      const port = await freePort()
      const target = { baseUrl: `http://127.0.0.1:${port}/api/v1`, key: full.key }
      const run = await timed(["stats", "--retries", "3"], target)
      expect(run.code).toBe(ExitCodes.unavailable)
      const [announced, failed, ...more] = run.lines
      expect(more).toEqual([])
      expect(announced?.text).toMatch(
        new RegExp(
          `^catalog: cannot reach http://127\\.0\\.0\\.1:${port}/api/v1 \\(connection refused\\); retrying up to 3 times, until \\d\\d:\\d\\d:\\d\\d UTC at the latest`
        )
      )
      expect(failed?.text).toMatch(/^catalog: Unreachable: cannot reach .* \(connection refused\) after 4 attempts; check that the service runs there/)
      // At once: before the three backoffs (2.8 s at the least), not after them.
      expect((failed?.at ?? 0) - (announced?.at ?? 0)).toBeGreaterThan(2_500)
    })

    it("a host that does not resolve, a TLS failure and a service that never answers each say what failed and what to check", async () => {
      const silent = await silentServer()
      try {
        const [dns, tls, timeout] = await Promise.all([
          catalog(["stats", "--retries", "0"], { baseUrl: "http://catalog.invalid/api/v1", key: full.key }),
          catalog(["stats", "--retries", "0"], { baseUrl: full.baseUrl.replace("http://", "https://"), key: full.key }),
          timed(["stats", "--retries", "1"], { baseUrl: `http://127.0.0.1:${silent.port}/api/v1`, key: full.key }, { CATALOG_TIMEOUT: "500 millis" })
        ])
        expect(expectErrorLine(dns, 9, "Unreachable")).toMatch(/catalog\.invalid.*\(the host name does not resolve\).*check the host name/)
        expect(expectErrorLine(tls, 9, "Unreachable")).toMatch(/\(TLS failed\).*https:\/\/ or http:\/\//)
        expect(timeout.code).toBe(9)
        const [announced, failed] = timeout.lines
        expect(announced?.text).toMatch(/^catalog: cannot reach .* \(no answer in time: No answer within 500ms\); retrying up to 1 time,/)
        expect(failed?.text).toMatch(/^catalog: Unreachable: .*after 2 attempts; check the service's health and the network; CATALOG_TIMEOUT/)
        // At once: before the second attempt's backoff (0.4 s at the least) and time limit (0.5 s).
        expect((failed?.at ?? 0) - (announced?.at ?? 0)).toBeGreaterThan(800)
      } finally {
        silent.server.close()
      }
    })

    it("a malformed answer is one line: the field, what was expected, what came and the request id (6); --log-level debug adds the detail", async () => {
      const stub = ManagedRuntime.make(Stub.layer)
      try {
        const service = await stub.runPromise(Stub.Stub)
        const models = ["alpha", "beta", "gamma"].map((name) => wireModel(service.baseUrl, "acme", name))
        await stub.runPromise(service.answer(() =>
          Stub.json(200, {
            data: models.map((model, index) => index === 2 ? { ...model, id: 12 } : model),
            pagination: { limit: 100, has_more: false, next_cursor: null },
            links: { next: null },
            meta: { observed_at: null, stale: null }
          }, { "x-request-id": "req_malformed1" })
        ))
        const target = { baseUrl: service.baseUrl, key: "cat_live_malformed0123456789abcd" }
        keepSecret(target.key)
        const [plain, debug] = await Promise.all([
          catalog(["scan", "models", "--retries", "0"], target),
          catalog(["scan", "models", "--retries", "0", "--log-level", "debug"], target)
        ])
        const line = expectErrorLine(plain, 6, "UnexpectedResponse")
        expect(line).toMatch(/data\[2\]\.id.*12.*request req_malformed1\)$/)
        expect(line.length).toBeLessThan(300)
        expect(debug.code).toBe(6)
        expect(lines(debug.stderr).length).toBeGreaterThan(1)
        expect(lines(debug.stderr).at(-1)).toBe(line)
      } finally {
        await stub.dispose()
      }
    })
  })

  it("every exit code of the table is one the command gives, and the reference (docs/reference.md) lists the same table", () => {
    const reference = readFileSync(new URL("../../../docs/reference.md", import.meta.url), "utf8")
    for (const { code, meaning } of ExitCodes.table) expect(reference).toContain(`| ${code} | ${meaning} |`)
    expect(ExitCodes.table.map(({ code }) => code)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 130, 143])
  })
})
