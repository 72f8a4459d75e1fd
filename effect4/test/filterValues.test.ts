/**
 * A filter whose contract names some of its values (an MCP server's
 * `status`: active, deprecated): its parameter is typed as the known values
 * or any other string, so that editors offer the known ones, and any other
 * value is still accepted and sent as given, since the list is open (the
 * `catalog` command's warning of such a value is the tools' test,
 * `tools/test/cli/filterValues.test.ts`). Over real HTTP against the
 * simulator: each request's status read back from the URL the client sent.
 */
import { describe, expect, expectTypeOf, it } from "@effect/vitest"
import { Effect, Option, Redacted, Ref, Stream } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { CatalogClient, type Operations } from "effect-catalog"
import { Simulator } from "effect-catalog/simulator"
import * as Client from "./support/Client.js"

type Status = "active" | "deprecated" | (string & {})

/** An optional parameter when given (`NonNullable` would reduce `string & {}` to `string`). */
type Given<T> = Exclude<T, undefined>

const sizes = { models: 10, skills: 4, mcps: 60, organizations: 4, providers: 4, families: 4, topics: 2, articles: 2 }

const simulatorLayer = Simulator.layer({ sizes, enforceLimits: false })

/** A client of the simulator in context that records the `status` of every request it sends, as its URL carries it. */
const recordingClient = Effect.gen(function*() {
  const simulator = yield* Simulator.Simulator
  const sent = yield* Ref.make<ReadonlyArray<string | null>>([])
  const recording: CatalogClient.Middleware = HttpClient.tapRequest((request) =>
    Ref.update(sent, (statuses) => [
      ...statuses,
      Option.match(HttpClientRequest.toUrl(request), { onNone: () => null, onSome: (url) => url.searchParams.get("status") })
    ])
  )
  const layer = Client.clientOf(Client.optionsOf(simulator.baseUrl, Redacted.value(simulator.keys.full), { middleware: [recording] }))
  return { sent, layer }
})

describe("a filter's known values", () => {
  it("are the parameter's type, with any other string beside them", () => {
    expectTypeOf<Given<(typeof Operations.mcps.query.Type)["status"]>>().toEqualTypeOf<Status>()
    expectTypeOf<Given<Given<Parameters<CatalogClient.Service["mcps"]>[0]>["status"]>>().toEqualTypeOf<Status>()
    expectTypeOf<Given<Given<Parameters<CatalogClient.Service["mcpsPage"]>[0]>["status"]>>().toEqualTypeOf<Status>()
  })

  it.live("a value none of them is sent as given, and the service answers it: a misspelt status lists no server", () =>
    Effect.gen(function*() {
      const { layer, sent } = yield* recordingClient
      const [misspelt, unknown, deprecated, all] = yield* Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        return yield* Effect.all([
          Stream.runCollect(catalog.mcps({ status: "deprecatd" })),
          Stream.runCollect(catalog.mcps({ status: "retired", limit: 10 })),
          Stream.runCollect(catalog.mcps({ status: "deprecated", limit: 100 })),
          Stream.runCollect(catalog.mcps({ limit: 100 }))
        ])
      }).pipe(Effect.provide(layer))
      expect(yield* Ref.get(sent)).toEqual(["deprecatd", "retired", "deprecated", null])
      expect(misspelt).toEqual([])
      expect(unknown).toEqual([])
      expect(deprecated.length).toBeGreaterThan(0)
      expect(deprecated.map((mcp) => mcp.id)).toEqual(all.filter((mcp) => mcp.status === "deprecated").map((mcp) => mcp.id))
      const answered = yield* Simulator.Simulator.use((simulator) => simulator.answered)
      expect(answered.map(({ operation, status }) => `${operation} ${status}`)).toEqual(Array.from({ length: 4 }, () => "mcps 200"))
    }).pipe(Effect.provide(simulatorLayer)))
})
