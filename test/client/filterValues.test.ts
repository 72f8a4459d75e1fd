/**
 * A filter whose contract names some of its values (an MCP server's
 * `status`: active, deprecated): its parameter is typed as the known values
 * or any other string, so that editors offer the known ones, and any other
 * value is still accepted and sent as given, since the list is open. Over
 * real HTTP against the simulator, each request's status read back from the
 * URL the client sent.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, expectTypeOf, it } from "@effect/vitest"
import { Chunk, Effect, Layer, Option, Ref, Stream } from "effect"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import type * as Operations from "../../common/src/contract/Operations.js"
import * as Simulator from "../../common/src/simulator/Simulator.js"
import * as Client from "../support/Client.js"

type Status = "active" | "deprecated" | (string & {})

/** An optional parameter when given (`NonNullable` would reduce `string & {}` to `string`). */
type Given<T> = Exclude<T, undefined>

const sizes = { models: 20, skills: 10, mcps: 60, organizations: 4, providers: 4, families: 4, topics: 2, articles: 2 }

/** The `status` of every request the client sends, as its URL carries it. */
const sentStatuses = Effect.gen(function*() {
  const sent = yield* Ref.make<ReadonlyArray<string | null>>([])
  const recording: CatalogClient.Middleware = HttpClient.tapRequest((request) =>
    Ref.update(sent, (statuses) => [
      ...statuses,
      Option.match(HttpClientRequest.toUrl(request), { onNone: () => null, onSome: (url) => url.searchParams.get("status") })
    ])
  )
  return { sent, layer: Client.client("full", { middleware: [recording] }) }
})

const collect = <A, E>(stream: Stream.Stream<A, E>) => Effect.map(Stream.runCollect(stream), Chunk.toReadonlyArray)

describe("a filter's known values", () => {
  it("are the parameter's type, with any other string beside them", () => {
    expectTypeOf<Given<(typeof Operations.mcps.query.Type)["status"]>>().toEqualTypeOf<Status>()
    expectTypeOf<Given<Given<Parameters<CatalogClient.Service["mcps"]>[0]>["status"]>>().toEqualTypeOf<Status>()
    expectTypeOf<Given<Given<Parameters<CatalogClient.Service["mcpsPage"]>[0]>["status"]>>().toEqualTypeOf<Status>()
  })

  it.live("a value none of them is sent as given, and the service answers it: a misspelt status lists no server", () =>
    Effect.gen(function*() {
      const { layer, sent } = yield* sentStatuses
      const [misspelt, unknown, deprecated, all] = yield* Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        return yield* Effect.all([
          collect(catalog.mcps({ status: "deprecatd" })),
          collect(catalog.mcps({ status: "retired", limit: 10 })),
          collect(catalog.mcps({ status: "deprecated", limit: 100 })),
          collect(catalog.mcps({ limit: 100 }))
        ])
      }).pipe(Effect.provide(layer))
      expect(yield* Ref.get(sent)).toEqual(["deprecatd", "retired", "deprecated", null])
      expect(misspelt).toEqual([])
      expect(unknown).toEqual([])
      expect(deprecated.length).toBeGreaterThan(0)
      expect(deprecated.map((mcp) => mcp.id)).toEqual(all.filter((mcp) => mcp.status === "deprecated").map((mcp) => mcp.id))
      const answered = yield* Effect.flatMap(Simulator.Simulator, (simulator) => simulator.answered)
      expect(answered.map(({ operation, status }) => `${operation} ${status}`)).toEqual(Array.from({ length: 4 }, () => "mcps 200"))
    }).pipe(Effect.provide(Layer.merge(Simulator.layer({ sizes, enforceLimits: false }), NodeHttpClient.layerUndici))))
})
