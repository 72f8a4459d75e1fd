/**
 * Ids and `api_url`s go back in as they came out, against the simulator over
 * HTTP: every operation whose table entry has a key reads the same resource
 * or list from the resource's id (or the resource itself, or a slug) as from
 * its path parameters; an id that does not fit is `InvalidRequest` before
 * anything is sent; `followList` streams the list a resource's `api_url` and
 * its sub-list name.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Chunk, Effect, Either, Option, Stream } from "effect"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import { Operations } from "../../src/index.js"
import * as Simulator from "../../common/src/simulator/Simulator.js"
import * as Client from "../support/Client.js"

const collect = <A, E>(stream: Stream.Stream<A, E>) => Effect.map(Stream.runCollect(stream), Chunk.toReadonlyArray)

const idsOf = <E>(stream: Stream.Stream<{ readonly id: string }, E>) =>
  Effect.map(collect(stream), (items) => items.map((item) => item.id))

const first = <A, E>(stream: Stream.Stream<A, E>, predicate: (item: A) => boolean, what: string) =>
  stream.pipe(
    Stream.filter(predicate),
    Stream.runHead,
    Effect.flatMap(Option.match({ onNone: () => Effect.dieMessage(`no ${what} found`), onSome: Effect.succeed }))
  )

const answeredCount = Effect.flatMap(Simulator.Simulator, (simulator) => Effect.map(simulator.answered, (answered) => answered.length))

/** The tag of a failure, or "succeeded". */
const outcome = <A, E extends { readonly _tag: string }>(effect: Effect.Effect<A, E>) =>
  Effect.map(Effect.either(effect), Either.match({ onLeft: (error) => error._tag, onRight: () => "succeeded" }))

describe("Operations' keys", () => {
  layer(Client.simulatorWithClient({ sizes: { models: 300, skills: 200, mcps: 40, organizations: 30 }, enforceLimits: false }), {
    excludeTestServices: true
  })((it) => {
    it.effect("a model's id, or the model, reads it and its lists as its path parameters do", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const model = yield* first(catalog.models(), (candidate) => candidate.offer_count > 1, "model with offers")
        const [organization = "", slug = ""] = model.id.split("/")
        const byPath = yield* catalog.model({ organization, model: slug })
        expect((yield* catalog.model(model.id)).api_url).toBe(byPath.api_url)
        expect((yield* catalog.model({ id: model.id })).api_url).toBe(byPath.api_url)
        expect((yield* catalog.model(model)).api_url).toBe(byPath.api_url)
        const offers = yield* idsOf(catalog.modelOffers({ organization, model: slug }))
        expect(offers.length).toBe(model.offer_count)
        expect(yield* idsOf(catalog.modelOffers(model))).toEqual(offers)
        expect(yield* idsOf(catalog.modelOffers(model.id, { limit: 1 }))).toEqual(offers)
        const page = yield* catalog.modelOffersPage(model, { limit: 1 })
        expect(page.items.map((offer) => offer.id)).toEqual(offers.slice(0, 1))
        expect(page.nextCursor).not.toBeNull()
        const second = yield* catalog.modelOffersPage(model, { limit: 1, cursor: page.nextCursor ?? "" })
        expect(second.items.map((offer) => offer.id)).toEqual(offers.slice(1, 2))
        expect(yield* idsOf(catalog.modelActivity(model))).toEqual(yield* idsOf(catalog.modelActivity({ organization, model: slug })))
        const offer = yield* catalog.offer(offers[0] ?? "")
        expect(offer.model_id).toBe(model.id)
      }))

    it.effect("Skills by their id, GitHub's owner/repository/skill and well-known's domain/skill (its path's literal _)", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const skills = yield* collect(catalog.skills())
        for (const sourceType of ["github", "well-known"]) {
          const skill = skills.find((candidate) => candidate.source_type === sourceType)
          if (skill === undefined) return yield* Effect.dieMessage(`no ${sourceType} skill`)
          expect(skill.id.split("/").length, skill.id).toBe(sourceType === "github" ? 3 : 2)
          const read = yield* catalog.skill(skill.id)
          expect(read.api_url).toBe(skill.api_url)
          expect((yield* catalog.skill(skill)).id).toBe(skill.id)
          expect((yield* catalog.skillAudits(skill)).id).toBe(skill.id)
          expect((yield* catalog.skillDocument(skill.id)).id).toBe(skill.id)
        }
        expect(Operations.skill.key?.parse("s0001-nimbus.example/k0000007-wren")).toEqual(
          Either.right({ sourceType: "well-known", owner: "s0001-nimbus.example", repository: "_", skill: "k0000007-wren" })
        )
      }))

    it.effect("MCP servers by namespace/name; families, providers, topics by id; organizations and articles by slug", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const mcp = yield* first(catalog.mcps(), () => true, "mcp")
        expect((yield* catalog.mcp(mcp.id)).api_url).toBe(mcp.api_url)
        expect((yield* catalog.mcpConnection(mcp)).id).toBe(mcp.id)
        const family = yield* first(catalog.families(), (candidate) => candidate.model_count > 0, "family with models")
        expect((yield* catalog.family(family)).id).toBe(family.id)
        expect(yield* idsOf(catalog.familyModels(family))).toEqual(yield* idsOf(catalog.familyModels({ id: family.id })))
        const provider = yield* first(catalog.providers(), (candidate) => candidate.model_count > 0, "provider with models")
        expect(yield* idsOf(catalog.providerOffers(provider.id))).toEqual(yield* idsOf(catalog.providerOffers({ id: provider.id })))
        const topic = yield* first(catalog.topics(), () => true, "topic")
        expect(yield* idsOf(catalog.topicSkills(topic))).toEqual(yield* idsOf(catalog.topicSkills({ slug: topic.id })))
        const organization = yield* first(catalog.organizations(), () => true, "organization")
        expect((yield* catalog.organization(organization.slug)).id).toBe(organization.id)
        expect((yield* catalog.organization(organization)).id).toBe(organization.id)
        expect(yield* idsOf(catalog.organizationModels(organization.slug))).toEqual(
          yield* idsOf(catalog.organizationModels({ slug: organization.slug }))
        )
        const article = yield* first(catalog.articles(), () => true, "article")
        expect((yield* catalog.article(article.slug)).id).toBe(article.id)
      }))

    it.effect("an id that does not fit is InvalidRequest naming its form, and nothing is sent", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const before = yield* answeredCount
        const refused: ReadonlyArray<Effect.Effect<unknown, { readonly _tag: string }>> = [
          catalog.model("o0000-falcon"),
          catalog.model("o0000-falcon/m0000000-kestrel-8b/extra"),
          catalog.model("/m0000000-kestrel-8b"),
          catalog.model({ id: "o0000-falcon//m" }),
          catalog.skill("s0000-a.example"),
          catalog.skill("a/b/c/d"),
          catalog.mcp("io.example.n0000-x"),
          catalog.mcpConnection("a/b/c")
        ]
        for (const read of refused) expect(yield* outcome(read)).toBe("InvalidRequest")
        expect(yield* outcome(Stream.runDrain(catalog.modelOffers("o0000-falcon")))).toBe("InvalidRequest")
        expect(yield* outcome(catalog.modelOffersPage("o0000-falcon", { limit: 1 }))).toBe("InvalidRequest")
        const error = yield* Effect.flip(catalog.model("o0000-falcon"))
        expect(error.message).toContain("model: the id must have the form <organization>/<model>; it has 1 part")
        expect(yield* answeredCount).toBe(before)
        // A model that does not exist is the service's answer, not a local refusal.
        expect(yield* outcome(catalog.model("o0000-falcon/m9999999-none"))).toBe("NotFound")
      }))

    it.effect("followList streams the list of a resource's api_url and its sub-list, tagged with the list", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const model = yield* first(catalog.models(), (candidate) => candidate.offer_count > 1, "model with offers")
        const followed = yield* collect(catalog.followList(`${model.api_url}offers/`))
        expect(followed.map((item) => item.operation)).toEqual(followed.map(() => "modelOffers"))
        expect(followed.map((item) => item.value.id)).toEqual(yield* idsOf(catalog.modelOffers(model)))
        const limited = yield* collect(catalog.followList(`${model.api_url}offers/?limit=1`))
        expect(limited.map((item) => item.value.id)).toEqual(followed.map((item) => item.value.id))
        const simulator = yield* Simulator.Simulator
        const models = yield* collect(Stream.take(catalog.followList(`${simulator.baseUrl}/models/?reasoning=true`), 3))
        for (const item of models) {
          expect(item.operation).toBe("models")
          if (item.operation === "models") expect(item.value.reasoning).toBe(true)
        }
        const located = yield* catalog.locate(`${model.api_url}benchmarks/`)
        expect(located.operation.id).toBe("modelBenchmarks")
        expect(located.parameters).toEqual(Operations.model.key?.parse(model.id).pipe(Either.getOrThrow))
      }))

    it.effect("followList and follow refuse what they do not read, before sending anything", () =>
      Effect.gen(function*() {
        const catalog = yield* CatalogClient.CatalogClient
        const simulator = yield* Simulator.Simulator
        const model = yield* first(catalog.models(), () => true, "model")
        const before = yield* answeredCount
        const listOutcome = (apiUrl: string) => outcome(Stream.runDrain(catalog.followList(apiUrl)))
        expect(yield* listOutcome(model.api_url)).toBe("InvalidRequest")
        expect(yield* listOutcome(`${model.api_url}offers/?cursor=abc`)).toBe("InvalidRequest")
        expect(yield* listOutcome(`${model.api_url}offers/?limit=1000`)).toBe("InvalidRequest")
        expect(yield* listOutcome(`${model.api_url}offers/?colour=red`)).toBe("InvalidRequest")
        expect(yield* listOutcome(`${simulator.baseUrl}/nothing/`)).toBe("InvalidRequest")
        expect(yield* listOutcome("https://elsewhere.example/api/v1/models/")).toBe("UnsafeLink")
        expect(yield* outcome(catalog.follow(`${model.api_url}offers/`))).toBe("InvalidRequest")
        expect(yield* answeredCount).toBe(before)
      }))
  })
})
