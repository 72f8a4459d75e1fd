/**
 * The ids a test reads, and the models' path parameters they hold.
 *
 * @example
 * const found = yield* Ids.idsOf(catalog.models({ limit: 25 }))
 * Ids.expectEachOnce(found, 400)
 * const [model] = yield* Ids.firstModels(1)
 */
import { expect } from "@effect/vitest"
import { Chunk, Effect, Schema, Stream } from "effect"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import * as Http from "./Http.js"

/** The ids of every item of a stream, in order. */
export const idsOf = <A extends { readonly id: string }, E, R>(stream: Stream.Stream<A, E, R>) =>
  Effect.map(Stream.runCollect(stream), (items) => Chunk.toReadonlyArray(items).map((item) => item.id))

/** Every item once: no repeat, and as many as the catalog holds. */
export const expectEachOnce = (found: ReadonlyArray<string>, size: number) => {
  expect(new Set(found).size).toBe(found.length)
  expect(found).toHaveLength(size)
}

/** The path parameters of a model's id (`organization/model`). */
export interface ModelParameters {
  readonly organization: string
  readonly model: string
}

/** The path parameters a model's id holds. */
export const modelParameters = (id: string): ModelParameters => {
  const [organization = "", model = ""] = id.split("/")
  return { organization, model }
}

const ModelsBody = Schema.Struct({
  data: Schema.Array(Schema.Struct({ id: Schema.String })),
  links: Schema.Struct({ next: Schema.NullOr(Schema.String) })
})

/** The path parameters of the simulator's first `count` models, read over plain HTTP (not through the client). */
export const firstModels = (count: number) =>
  Effect.gen(function*() {
    const found: Array<ModelParameters> = []
    let next: string | null = `/models/?limit=${Math.min(100, count)}`
    while (next !== null && found.length < count) {
      const reply: Http.Reply = yield* Http.get(next)
      expect(reply.status).toBe(200)
      const page = yield* Schema.decodeUnknown(ModelsBody)(reply.json)
      found.push(...page.data.map((model) => modelParameters(model.id)))
      next = page.links.next
    }
    return found.slice(0, count)
  })

/** The path parameters of the simulator's first model, read over plain HTTP. */
export const firstModel = Effect.flatMap(firstModels(1), ([model]) => model === undefined ? Effect.dieMessage("no model") : Effect.succeed(model))

/** The path parameters of the first `count` models, read through the client in context (so that its pace covers them). */
export const firstModelsThroughClient = (count: number) =>
  Effect.flatMap(CatalogClient.CatalogClient, (catalog) => catalog.modelsPage({ limit: count })).pipe(
    Effect.map((page) => page.items.map((model) => modelParameters(model.id)))
  )
