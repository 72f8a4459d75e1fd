/**
 * `Simulator.listed(collection)`: every item of a collection as the
 * simulator answers it, typed by the collection as the encoded side of the
 * edition's resource (`listed("models")` gives
 * `typeof Resources.Model.Encoded`), though the simulator behind it is the
 * tools' bundle, which lists them by its own schemas; and the items it
 * gives are exactly those a scan reads over HTTP, in their wire form and
 * order. One text, run by both editions' suites.
 */
import { describe, expect, expectTypeOf, it, layer } from "#edition-test/support/Vitest.js"
import { decodeUnknownResult, Effect, fromResult, Schema, Stream } from "#edition/internal/Edition.js"
import type { CollectionId } from "../../src/contract/Operations.js"
import * as Resources from "../../src/contract/Resources.js"
import * as CatalogClient from "../../src/client/CatalogClient.js"
import * as Simulator from "../../src/simulator/Simulator.js"
import type * as StandaloneBundle from "../../src/simulator/StandaloneBundle.js"

type ListedBy<F> = F extends (...args: ReadonlyArray<never>) => Effect.Effect<ReadonlyArray<infer Item>> ? Item : never

const sizes = { models: 40, skills: 30, mcps: 20, organizations: 10, providers: 6, families: 8, topics: 4, articles: 6 }

describe("Simulator.listed", () => {
  it("is typed by the collection, as the wire form of its resource", () => {
    const listed = (simulator: Simulator.Service) => ({
      models: simulator.listed("models"),
      families: simulator.listed("families"),
      providers: simulator.listed("providers"),
      organizations: simulator.listed("organizations"),
      skills: simulator.listed("skills"),
      publishers: simulator.listed("publishers"),
      mcps: simulator.listed("mcps"),
      topics: simulator.listed("topics"),
      articles: simulator.listed("articles")
    })
    type Listed = ReturnType<typeof listed>
    expectTypeOf<Listed["models"]>().toEqualTypeOf<Effect.Effect<ReadonlyArray<typeof Resources.Model.Encoded>>>()
    expectTypeOf<Listed["families"]>().toEqualTypeOf<Effect.Effect<ReadonlyArray<typeof Resources.Family.Encoded>>>()
    expectTypeOf<Listed["providers"]>().toEqualTypeOf<Effect.Effect<ReadonlyArray<typeof Resources.Provider.Encoded>>>()
    expectTypeOf<Listed["organizations"]>().toEqualTypeOf<Effect.Effect<ReadonlyArray<typeof Resources.Organization.Encoded>>>()
    expectTypeOf<Listed["skills"]>().toEqualTypeOf<Effect.Effect<ReadonlyArray<typeof Resources.Skill.Encoded>>>()
    expectTypeOf<Listed["publishers"]>().toEqualTypeOf<Effect.Effect<ReadonlyArray<typeof Resources.Publisher.Encoded>>>()
    expectTypeOf<Listed["mcps"]>().toEqualTypeOf<Effect.Effect<ReadonlyArray<typeof Resources.Mcp.Encoded>>>()
    expectTypeOf<Listed["topics"]>().toEqualTypeOf<Effect.Effect<ReadonlyArray<typeof Resources.Topic.Encoded>>>()
    expectTypeOf<Listed["articles"]>().toEqualTypeOf<Effect.Effect<ReadonlyArray<typeof Resources.Article.Encoded>>>()
    // A collection known only at run time gives an item of any of them.
    const anyOf = (simulator: Simulator.Service, collection: CollectionId) => simulator.listed(collection)
    expectTypeOf<ListedBy<typeof anyOf>>().toEqualTypeOf<
      | typeof Resources.Model.Encoded
      | typeof Resources.Family.Encoded
      | typeof Resources.Provider.Encoded
      | typeof Resources.Organization.Encoded
      | typeof Resources.Skill.Encoded
      | typeof Resources.Publisher.Encoded
      | typeof Resources.Mcp.Encoded
      | typeof Resources.Topic.Encoded
      | typeof Resources.Article.Encoded
    >()
    // The bundle's declaration gives the same types, with no Effect.
    const standalone = (running: StandaloneBundle.Running) => running.listed("mcps")
    expectTypeOf<ReturnType<typeof standalone>>().toEqualTypeOf<ReadonlyArray<typeof Resources.Mcp.Encoded>>()
    expect([listed, anyOf, standalone]).toEqual([expect.any(Function), expect.any(Function), expect.any(Function)])
  })

  layer(Simulator.layerClient({ sizes }))("against a scan over HTTP", (it) => {
    it.effect("gives what a scan reads, item for item in its wire form, and each decodes as the collection's resource", () =>
      Effect.gen(function*() {
        const simulator = yield* Simulator.Simulator
        const catalog = yield* CatalogClient.CatalogClient
        for (const collection of ["models", "mcps", "organizations", "articles"] as const) {
          const scanned = Array.from(yield* Stream.runCollect(catalog.wire(collection, { limit: 7 })))
          expect(yield* simulator.listed(collection)).toEqual(scanned)
        }
        const models = yield* simulator.listed("models")
        expect(models).toHaveLength(sizes.models)
        // The fields of the wire form, without a cast: context_tokens is the decimal string the service sends.
        expect(models.every((model) => model.context_tokens === null || /^\d+$/.test(model.context_tokens))).toBe(true)
        const decoded = yield* fromResult(decodeUnknownResult(Schema.Array(Resources.Model))(models))
        expect(decoded.map((model) => model.id)).toEqual(models.map((model) => model.id))
        const statuses = new Set((yield* simulator.listed("mcps")).map((mcp) => mcp.status))
        expect([...statuses].sort()).toEqual(["active", "deprecated"])
      }))
  })
})
