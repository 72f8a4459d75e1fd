/**
 * `catalog scan` with a filter value that is none of the values the
 * contract names for it (an MCP server's `--status`: active, deprecated):
 * a warning on stderr with the nearest known value, the value sent as
 * given all the same (the list is open), and only data on stdout. The
 * command runs as a process against a simulator over real HTTP; its
 * request log (`--log-level debug`) shows the URL it sent.
 */
import { describe, expect, it } from "@effect/vitest"
import { catalog, lines, simulatorForBlock } from "../../../test/support/CatalogProcess.js"

const sizes = { models: 10, skills: 4, mcps: 40, organizations: 4, providers: 4, families: 4, topics: 2, articles: 2 }

const warning = (shown: string, suggestion: string) =>
  `catalog: warn: ${shown} is not a value the contract names (active, deprecated)${suggestion} Sent as given: the service may know it, or answer no items.`

/** The request lines of `--log-level debug`: method, URL and status. */
const requestsOf = (stderr: string) =>
  lines(stderr).flatMap((line) => {
    const request = /^catalog: debug: (GET \S+ \d{3}) /.exec(line)
    return request?.[1] === undefined ? [] : [request[1]]
  })

describe("catalog scan with a filter value the contract does not name", { timeout: 120_000 }, () => {
  const { full } = simulatorForBlock({ sizes, enforceLimits: false })

  it("warns with the nearest known value, sends the value as given, and writes only data on stdout", async () => {
    const [misspelt, known] = await Promise.all([
      catalog(["--log-level", "debug", "scan", "mcps", "--status", "deprecatd"], full),
      catalog(["--log-level", "debug", "scan", "mcps", "--status", "deprecated"], full)
    ])
    expect(misspelt.code, misspelt.stderr).toBe(0)
    expect(misspelt.stdout).toBe("")
    const misspeltLines = lines(misspelt.stderr)
    expect(misspeltLines[0]).toBe(warning('--status "deprecatd"', '; did you mean "deprecated"?'))
    expect(requestsOf(misspelt.stderr)).toEqual(["GET /api/v1/mcps/?status=deprecatd&limit=100 200"])
    expect(misspeltLines.at(-1)).toMatch(/^catalog: scan mcps: 0 items, 1 page, 1 unit, /)

    expect(known.code, known.stderr).toBe(0)
    expect(known.stderr).not.toContain("warn")
    expect(requestsOf(known.stderr)).toEqual(["GET /api/v1/mcps/?status=deprecated&limit=100 200"])
    const items = lines(known.stdout).map((line): unknown => JSON.parse(line))
    expect(items.length).toBeGreaterThan(0)
    expect(items).toEqual(items.map(() => expect.objectContaining({ status: "deprecated" })))
  })

  it("names no value when none is near (--status=retired), and still sends it", async () => {
    const result = await catalog(["--log-level", "debug", "scan", "mcps", "--status=retired"], full)
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toBe("")
    expect(lines(result.stderr)[0]).toBe(warning('--status "retired"', "."))
    expect(requestsOf(result.stderr)).toEqual(["GET /api/v1/mcps/?status=retired&limit=100 200"])
  })

  it("warns of the filter values of an api_url's query too", async () => {
    const result = await catalog(["get", `${full.baseUrl}/mcps/?status=activ`], full)
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toBe("")
    expect(lines(result.stderr)).toEqual([warning(`the link's status "activ"`, '; did you mean "active"?')])
  })

  it("shows the value inert on a terminal: its control characters as JSON escapes, still sent as given", async () => {
    const hostile = "\u001b]0;pwned\u0007\u009b2J\u202e"
    const result = await catalog(["--log-level", "debug", "scan", "mcps", "--status", hostile], full)
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toBe("")
    expect(lines(result.stderr)[0]).toBe(warning('--status "\\u001b]0;pwned\\u0007\\u009b2J\\u202e"', "."))
    expect(result.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u)
    expect(requestsOf(result.stderr)).toEqual([`GET /api/v1/mcps/?status=${encodeURIComponent(hostile)}&limit=100 200`])
  })
})
