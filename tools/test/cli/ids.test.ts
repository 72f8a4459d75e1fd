/**
 * Ids and `api_url`s go back into the `catalog` command as it printed them:
 * `get` and `scan` take a resource's id where it holds the path parameters,
 * `get` of a list's `api_url` scans it. The command runs as a process
 * against the simulator over real HTTP.
 */
import { describe, expect, it } from "@effect/vitest"
import * as ExitCodes from "../../src/cli/ExitCodes.js"
import { catalog, expectErrorLine, lines, simulatorForBlock, type Target } from "../../../test/support/CatalogProcess.js"

const sizes = { models: 60, skills: 60, mcps: 10, organizations: 8, providers: 6, families: 6, topics: 4, articles: 4 }

/** The NDJSON lines of a successful run, parsed. */
const items = (stdout: string): ReadonlyArray<Record<string, unknown>> =>
  lines(stdout).map((line): Record<string, unknown> => JSON.parse(line))

const idOf = (item: Record<string, unknown> | undefined) => (typeof item?.["id"] === "string" ? item["id"] : "")

describe("catalog takes ids and api_urls as it printed them", { timeout: 60_000 }, () => {
  const { full } = simulatorForBlock({ sizes, enforceLimits: false })

  it("get model <id> and scan modelOffers <model id> take the id scan printed", async () => {
    const models = items((await catalog(["scan", "models", "--quiet"], full)).stdout)
    const model = models.find((candidate) => typeof candidate["offer_count"] === "number" && candidate["offer_count"] > 0)
    const id = idOf(model)
    expect(id.split("/").length).toBe(2)
    const [byId, byPath] = await Promise.all([
      catalog(["get", "model", id], full),
      catalog(["get", "model", ...id.split("/")], full)
    ])
    expect(byId.code).toBe(ExitCodes.success)
    expect(byId.stdout).toBe(byPath.stdout)
    expect(idOf(JSON.parse(byId.stdout))).toBe(id)
    const [offersById, offersByPath] = await Promise.all([
      catalog(["scan", "modelOffers", id, "--quiet"], full),
      catalog(["scan", "modelOffers", ...id.split("/"), "--quiet"], full)
    ])
    expect(offersById.code).toBe(ExitCodes.success)
    expect(items(offersById.stdout).length).toBe(model?.["offer_count"])
    expect(offersById.stdout).toBe(offersByPath.stdout)
  })

  it("Skills and MCP servers by their ids, well-known ones too", async () => {
    const skills = items((await catalog(["scan", "skills", "--quiet"], full)).stdout)
    for (const sourceType of ["github", "well-known"]) {
      const skill = skills.find((candidate) => candidate["source_type"] === sourceType)
      const read = await catalog(["get", "skillAudits", idOf(skill)], full)
      expect(read.code, `${sourceType}: ${read.stderr}`).toBe(ExitCodes.success)
      expect(idOf(JSON.parse(read.stdout))).toBe(idOf(skill))
    }
    const mcp = items((await catalog(["scan", "mcps", "--max", "1", "--quiet"], full)).stdout)[0]
    const read = await catalog(["get", "mcp", idOf(mcp)], full)
    expect(read.code).toBe(ExitCodes.success)
    expect(JSON.parse(read.stdout)).toEqual(mcp)
  })

  it("an id that does not fit is a usage error naming the forms, before any request", async () => {
    const unreachable: Target = { baseUrl: "http://127.0.0.1:1/api/v1", key: full.key }
    const oneSegment = expectErrorLine(await catalog(["get", "model", "o0000-falcon"], unreachable), ExitCodes.usage, "UsageError")
    expect(oneSegment).toContain('model takes 2 path parameters (<organization> <model>) or its id <organization>/<model>; got "o0000-falcon", and the id must have the form <organization>/<model>; it has 1 part')
    const threeValues = expectErrorLine(await catalog(["scan", "modelOffers", "a", "b", "c"], unreachable), ExitCodes.usage, "UsageError")
    expect(threeValues).toContain("modelOffers takes 2 path parameters (<organization> <model>) or its id <organization>/<model>; got 3")
    const skill = expectErrorLine(await catalog(["get", "skill", "a/b/c/d"], unreachable), ExitCodes.usage, "UsageError")
    expect(skill).toContain("<owner>/<repository>/<skill> or <domain>/<skill>")
  })

  it("get <api_url> of a sub-list scans it as NDJSON; of a resource it reads it", async () => {
    const model = items((await catalog(["scan", "models", "--max", "20", "--quiet"], full)).stdout).find((candidate) =>
      typeof candidate["offer_count"] === "number" && candidate["offer_count"] > 1
    )
    const apiUrl = typeof model?.["api_url"] === "string" ? model["api_url"] : ""
    const [listed, scanned, resource] = await Promise.all([
      catalog(["get", `${apiUrl}offers/`], full),
      catalog(["scan", "modelOffers", idOf(model), "--quiet"], full),
      catalog(["get", apiUrl], full)
    ])
    expect(listed.code, listed.stderr).toBe(ExitCodes.success)
    expect(listed.stderr).toBe("")
    expect(listed.stdout).toBe(scanned.stdout)
    expect(items(listed.stdout).length).toBe(model?.["offer_count"])
    expect(idOf(JSON.parse(resource.stdout))).toBe(idOf(model))
    const table = await catalog(["get", `${apiUrl}offers/`, "--format", "table", "--fields", "id"], full)
    expect(table.code).toBe(ExitCodes.success)
    for (const offer of items(listed.stdout)) expect(table.stdout).toContain(idOf(offer))
    const cursor = expectErrorLine(await catalog(["get", `${apiUrl}offers/?cursor=abc`], full), ExitCodes.usage, "InvalidRequest")
    expect(cursor).toContain("cursor")
  })
})
