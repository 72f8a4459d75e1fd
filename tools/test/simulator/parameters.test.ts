/**
 * Parameter rules and filters, over raw HTTP against the simulator: every
 * broken rule answers 400 problem+json naming the parameter, and every
 * documented filter keeps only the items that satisfy it.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Http from "../../../test/support/Http.js"

// Loose decoding ---------------------------------------------------------------

type Json = Readonly<Record<string, unknown>>

const isRecord = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

const stringOf = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined)

interface Problem {
  readonly status: number
  readonly code: string
  readonly detail: string
}

const isProblem = (value: unknown): value is Problem =>
  isRecord(value) && typeof value.status === "number" && typeof value.code === "string" && typeof value.detail === "string"

interface Page {
  readonly items: ReadonlyArray<Json>
  readonly hasMore: boolean
  readonly nextCursor: unknown
  readonly next: unknown
}

/** Asserts a 200 list answer and decodes its page. */
const expectPage = (reply: Http.Reply): Page => {
  expect(reply.status, reply.text.slice(0, 300)).toBe(200)
  const body = reply.json
  const data: unknown = Http.data(reply)
  if (!isRecord(body) || !Array.isArray(data)) throw new Error(`not a list body: ${reply.text.slice(0, 300)}`)
  const items: ReadonlyArray<unknown> = data
  const pagination = body.pagination
  const links = body.links
  if (!isRecord(pagination) || !isRecord(links)) throw new Error(`no pagination or links: ${reply.text.slice(0, 300)}`)
  expect(items.every(isRecord)).toBe(true)
  expect(typeof pagination.has_more).toBe("boolean")
  return {
    items: items.filter(isRecord),
    hasMore: pagination.has_more === true,
    nextCursor: pagination.next_cursor,
    next: links.next
  }
}

/** Asserts a 400 problem+json with this code whose detail names `parameter`. */
const expectBadRequest = (reply: Http.Reply, code: string, parameter: string) => {
  expect(reply.status, reply.text).toBe(400)
  expect(reply.headers["content-type"]).toMatch(/^application\/problem\+json\b/)
  const body = reply.json
  if (!isProblem(body)) throw new Error(`not a problem body: ${reply.text}`)
  expect(body.status).toBe(400)
  expect(body.code).toBe(code)
  expect(body.detail).toContain(parameter)
}

const list = (path: string) => Effect.map(Http.get(path), expectPage)

/** A filtered list: at least one item, and every item satisfies `keep`. */
const expectFiltered = (path: string, keep: (item: Json) => boolean) =>
  Effect.gen(function*() {
    const page = yield* list(path)
    expect(page.items.length, path).toBeGreaterThan(0)
    for (const item of page.items) expect(keep(item), `${path}: ${JSON.stringify(item.id)}`).toBe(true)
    return page
  })

/** An empty page: nothing matched, nothing more. */
const expectEmpty = (path: string) =>
  Effect.gen(function*() {
    const page = yield* list(path)
    expect(page.items, path).toEqual([])
    expect(page.hasMore).toBe(false)
    expect(page.nextCursor).toBeNull()
    expect(page.next).toBeNull()
  })

/** The first item of `path` with a string `field`, and that string. */
const pick = (path: string, field: string, where: (item: Json) => boolean = () => true) =>
  Effect.gen(function*() {
    const page = yield* list(path)
    for (const item of page.items) {
      const value = stringOf(item[field])
      if (value !== undefined && where(item)) return value
    }
    throw new Error(`no item of ${path} has a string ${field}`)
  })

const field = (name: string) => (item: Json) => item[name]
const includes = (needle: string, ...names: ReadonlyArray<string>) => (item: Json) =>
  names.some((name) => stringOf(item[name])?.toLowerCase().includes(needle.toLowerCase()) === true)
const equals = (name: string, value: unknown) => (item: Json) => item[name] === value
const firstWord = (text: string) => text.split(" ")[0] ?? text
const enc = encodeURIComponent

const noMatch = "zz-no-such-value-zz"

describe("parameters", () => {
  it.layer(Http.simulator({ sizes: { models: 300, skills: 200, mcps: 120, organizations: 60 }, enforceLimits: false }))((it) => {
    describe("strict query strings", () => {
      it.effect("refuses unknown parameters", () =>
        Effect.gen(function*() {
          const modelUrl = yield* pick("/models/?limit=1", "api_url")
          expectBadRequest(yield* Http.get("/models/?foo=1"), "unknown_parameter", "foo")
          expectBadRequest(yield* Http.get("/families/?kind=company"), "unknown_parameter", "kind")
          expectBadRequest(yield* Http.get("/publishers/?q=ab"), "unknown_parameter", "q")
          expectBadRequest(yield* Http.get(`${modelUrl}?limit=1`), "unknown_parameter", "limit")
          expectBadRequest(yield* Http.get(`${modelUrl}?cursor=abc`), "unknown_parameter", "cursor")
          expectBadRequest(yield* Http.get("/stats/?limit=1"), "unknown_parameter", "limit")
          expectBadRequest(yield* Http.get("/usage/?cursor=abc"), "unknown_parameter", "cursor")
        }))

      it.effect("refuses repeated parameters", () =>
        Effect.gen(function*() {
          expectBadRequest(yield* Http.get("/models/?limit=2&limit=2"), "repeated_parameter", "limit")
          expectBadRequest(yield* Http.get("/models/?q=a&q=b"), "repeated_parameter", "q")
          expectBadRequest(yield* Http.get("/search/?q=ab&type=models&type=models"), "repeated_parameter", "type")
        }))
    })

    describe("limit and cursor", () => {
      it.effect("refuses a limit outside 1 to 100", () =>
        Effect.gen(function*() {
          for (const limit of ["0", "101", "abc", "1.5", "-1", ""]) {
            expectBadRequest(yield* Http.get(`/models/?limit=${limit}`), "invalid_parameter", "limit")
          }
          expect((yield* list("/models/?limit=1")).items).toHaveLength(1)
          expect((yield* list("/models/?limit=100")).items).toHaveLength(100)
        }))

      it.effect("search accepts a limit of 25 and refuses 26", () =>
        Effect.gen(function*() {
          expect((yield* list("/search/?q=m0&type=models&limit=25")).items).toHaveLength(25)
          expectBadRequest(yield* Http.get("/search/?q=m0&type=models&limit=26"), "invalid_parameter", "limit")
        }))

      it.effect("refuses a cursor over 1600 characters", () =>
        Effect.gen(function*() {
          expectBadRequest(yield* Http.get(`/models/?cursor=${"c".repeat(1601)}`), "invalid_parameter", "cursor")
        }))
    })

    describe("value rules", () => {
      it.effect("boolean filters accept exactly true or false", () =>
        Effect.gen(function*() {
          expectBadRequest(yield* Http.get("/models/?reasoning=TRUE"), "invalid_parameter", "reasoning")
          expectBadRequest(yield* Http.get("/models/?reasoning=yes"), "invalid_parameter", "reasoning")
          expectBadRequest(yield* Http.get("/skills/?official=1"), "invalid_parameter", "official")
          expectBadRequest(yield* Http.get("/models/?open_weights="), "invalid_parameter", "open_weights")
          yield* list("/models/?reasoning=true&open_weights=false")
          yield* list("/skills/?official=false&limit=5")
        }))

      it.effect("search needs q of 2 to 120 characters and a type from the list", () =>
        Effect.gen(function*() {
          expectBadRequest(yield* Http.get("/search/?type=models"), "invalid_parameter", "q")
          expectBadRequest(yield* Http.get("/search/?q=a&type=models"), "invalid_parameter", "q")
          expectBadRequest(yield* Http.get(`/search/?q=${"a".repeat(121)}&type=models`), "invalid_parameter", "q")
          expectBadRequest(yield* Http.get("/search/?q=ab"), "invalid_parameter", "type")
          expectBadRequest(yield* Http.get("/search/?q=ab&type=users"), "invalid_parameter", "type")
          expectBadRequest(yield* Http.get("/search/?q=ab&type=Models"), "invalid_parameter", "type")
          yield* list("/search/?q=ab&type=models")
          yield* list(`/search/?q=${"a".repeat(120)}&type=models`)
        }))

      it.effect("refuses filters over 160 characters", () =>
        Effect.gen(function*() {
          const long = "f".repeat(161)
          const cases: ReadonlyArray<readonly [string, string]> = [
            ["/models/", "q"], ["/models/", "family"], ["/models/", "provider"], ["/models/", "organization"],
            ["/families/", "q"], ["/providers/", "q"], ["/organizations/", "q"],
            ["/skills/", "q"], ["/skills/", "source"], ["/skills/", "topic"],
            ["/mcps/", "q"], ["/mcps/", "namespace"], ["/mcps/", "status"]
          ]
          for (const [path, name] of cases) {
            expectBadRequest(yield* Http.get(`${path}?${name}=${long}`), "invalid_parameter", name)
          }
          yield* expectEmpty(`/models/?q=${"f".repeat(160)}`)
        }))

      it.effect("refuses a path parameter over 200 characters", () =>
        Effect.gen(function*() {
          const long = "p".repeat(201)
          expectBadRequest(yield* Http.get(`/models/some-org/${long}/`), "invalid_parameter", "model")
          expectBadRequest(yield* Http.get(`/offers/${long}/`), "invalid_parameter", "id")
          expectBadRequest(yield* Http.get(`/organizations/${long}/`), "invalid_parameter", "slug")
        }))

      it.effect("refuses an organization kind outside the closed list", () =>
        Effect.gen(function*() {
          for (const kind of ["startup", "Company", "companies"]) {
            expectBadRequest(yield* Http.get(`/organizations/?kind=${kind}`), "invalid_parameter", "kind")
          }
          for (const kind of ["company", "university", "classroom", "nonprofit", "government", "community"]) {
            yield* list(`/organizations/?kind=${kind}`)
          }
        }))
    })

    describe("model filters", () => {
      it.effect("q", () =>
        Effect.gen(function*() {
          const word = firstWord(yield* pick("/models/?limit=5", "name"))
          yield* expectFiltered(`/models/?q=${enc(word)}&limit=100`, includes(word, "name", "id"))
          yield* expectEmpty(`/models/?q=${noMatch}`)
        }))

      it.effect("family", () =>
        Effect.gen(function*() {
          const family = yield* pick("/models/?limit=20", "family_id")
          yield* expectFiltered(`/models/?family=${enc(family)}&limit=100`, equals("family_id", family))
          yield* expectEmpty(`/models/?family=${noMatch}`)
        }))

      it.effect("provider (checked through each model's offers)", () =>
        Effect.gen(function*() {
          const offerModel = yield* pick("/models/?limit=20", "api_url", (item) => typeof item.offer_count === "number" && item.offer_count > 0)
          const provider = yield* pick(`${offerModel}offers/`, "provider_id")
          const page = yield* expectFiltered(`/models/?provider=${enc(provider)}&limit=10`, (item) => typeof item.api_url === "string")
          for (const model of page.items) {
            const offers = yield* list(`${stringOf(model.api_url) ?? ""}offers/?limit=100`)
            expect(offers.items.map(field("provider_id")), stringOf(model.id)).toContain(provider)
          }
          yield* expectEmpty(`/models/?provider=${noMatch}`)
        }))

      it.effect("organization, by catalog id and by slug", () =>
        Effect.gen(function*() {
          const catalogId = yield* pick("/models/?limit=50", "organization_catalog_id")
          yield* expectFiltered(`/models/?organization=${enc(catalogId)}&limit=100`, equals("organization_catalog_id", catalogId))
          const slug = yield* pick("/models/?limit=50", "organization_slug")
          yield* expectFiltered(`/models/?organization=${enc(slug)}&limit=100`, equals("organization_slug", slug))
          yield* expectEmpty(`/models/?organization=${noMatch}`)
        }))

      it.effect("reasoning and open_weights", () =>
        Effect.gen(function*() {
          for (const name of ["reasoning", "open_weights"]) {
            for (const value of [true, false]) {
              yield* expectFiltered(`/models/?${name}=${value}&limit=100`, equals(name, value))
            }
          }
          yield* expectFiltered("/models/?reasoning=true&open_weights=true&limit=100", (item) =>
            item.reasoning === true && item.open_weights === true)
        }))
    })

    describe("family, provider and organization filters", () => {
      it.effect("families: q", () =>
        Effect.gen(function*() {
          const word = firstWord(yield* pick("/families/?limit=5", "name"))
          yield* expectFiltered(`/families/?q=${enc(word)}&limit=100`, includes(word, "name", "id"))
          yield* expectEmpty(`/families/?q=${noMatch}`)
        }))

      it.effect("providers: q", () =>
        Effect.gen(function*() {
          const word = firstWord(yield* pick("/providers/?limit=5", "name"))
          yield* expectFiltered(`/providers/?q=${enc(word)}&limit=100`, includes(word, "name", "id"))
          yield* expectEmpty(`/providers/?q=${noMatch}`)
        }))

      it.effect("organizations: q and kind", () =>
        Effect.gen(function*() {
          const word = firstWord(yield* pick("/organizations/?limit=5", "name"))
          yield* expectFiltered(`/organizations/?q=${enc(word)}&limit=100`, includes(word, "name", "slug", "id"))
          yield* expectEmpty(`/organizations/?q=${noMatch}`)
          const kinds = new Set((yield* list("/organizations/?limit=100")).items.map(field("kind")))
          expect(kinds.size).toBeGreaterThan(1)
          for (const kind of kinds) {
            if (typeof kind === "string") yield* expectFiltered(`/organizations/?kind=${kind}&limit=100`, equals("kind", kind))
          }
        }))
    })

    describe("Skill filters", () => {
      it.effect("q", () =>
        Effect.gen(function*() {
          const word = firstWord(yield* pick("/skills/?limit=5", "name"))
          yield* expectFiltered(`/skills/?q=${enc(word)}&limit=20`, includes(word, "name", "id", "slug", "description"))
          yield* expectEmpty(`/skills/?q=${noMatch}`)
        }))

      it.effect("source", () =>
        Effect.gen(function*() {
          for (const sourceType of ["github", "well-known"]) {
            const source = yield* pick("/skills/?limit=30", "source", equals("source_type", sourceType)).pipe(
              Effect.orElse(() => pick("/skills/?limit=30", "source"))
            )
            yield* expectFiltered(`/skills/?source=${enc(source)}&limit=20`, equals("source", source))
          }
          yield* expectEmpty(`/skills/?source=${noMatch}`)
        }))

      it.effect("official", () =>
        Effect.gen(function*() {
          for (const value of [true, false]) {
            yield* expectFiltered(`/skills/?official=${value}&limit=20`, equals("official", value))
          }
        }))

      it.effect("topic (checked against the topic's own Skill list)", () =>
        Effect.gen(function*() {
          const topics = (yield* list("/topics/?limit=100")).items.map(field("id")).filter((id) => typeof id === "string")
          let checked = 0
          for (const topic of topics.slice(0, 4)) {
            const members = new Set((yield* list(`/topics/${enc(topic)}/skills/?limit=30`)).items.map(field("id")))
            const page = yield* list(`/skills/?topic=${enc(topic)}&limit=30`)
            for (const skill of page.items) expect(members.has(skill.id), `${topic}: ${String(skill.id)}`).toBe(true)
            expect(page.items.length).toBe(members.size)
            checked += page.items.length
          }
          expect(checked).toBeGreaterThan(0)
          yield* expectEmpty(`/skills/?topic=${noMatch}`)
        }))
    })

    describe("MCP filters", () => {
      it.effect("q", () =>
        Effect.gen(function*() {
          const name = yield* pick("/mcps/?limit=5", "name")
          yield* expectFiltered(`/mcps/?q=${enc(name)}&limit=100`, includes(name, "name", "id", "title"))
          yield* expectEmpty(`/mcps/?q=${noMatch}`)
        }))

      it.effect("namespace", () =>
        Effect.gen(function*() {
          const namespace = yield* pick("/mcps/?limit=5", "namespace")
          yield* expectFiltered(`/mcps/?namespace=${enc(namespace)}&limit=100`, equals("namespace", namespace))
          yield* expectEmpty(`/mcps/?namespace=${noMatch}`)
        }))

      it.effect("status (active and deprecated are both listed)", () =>
        Effect.gen(function*() {
          const statuses = new Set((yield* list("/mcps/?limit=100")).items.map(field("status")))
          expect(statuses).toContain("active")
          expect(statuses).toContain("deprecated")
          for (const status of statuses) {
            if (typeof status === "string") yield* expectFiltered(`/mcps/?status=${status}&limit=100`, equals("status", status))
          }
          yield* expectEmpty(`/mcps/?status=${noMatch}`)
        }))
    })

    describe("search", () => {
      const shapes: ReadonlyArray<readonly [type: string, q: (item: Json) => string | undefined, is: (item: Json) => boolean]> = [
        ["models", (item) => stringOf(item.id), (item) => typeof item.organization_catalog_id === "string" && "reasoning" in item],
        ["skills", (item) => stringOf(item.id), (item) => typeof item.source_type === "string" && typeof item.installs === "string"],
        ["mcps", (item) => stringOf(item.id), (item) => typeof item.namespace === "string" && typeof item.has_packages === "boolean"],
        ["organizations", (item) => stringOf(item.slug), (item) => typeof item.slug === "string" && typeof item.kind === "string"],
        ["providers", (item) => stringOf(item.id), (item) => "documentation_url" in item && typeof item.model_count === "number"],
        ["families", (item) => stringOf(item.id), (item) => typeof item.model_count === "number" && !("documentation_url" in item)]
      ]

      it.effect("each type returns items of its catalog", () =>
        Effect.gen(function*() {
          for (const [type, queryOf, is] of shapes) {
            const first = (yield* list(`/${type}/?limit=1`)).items[0]
            const q = first === undefined ? undefined : queryOf(first)
            if (q === undefined) throw new Error(`no ${type} to search for`)
            const page = yield* expectFiltered(`/search/?type=${type}&q=${enc(q)}`, is)
            expect(page.items.map(field("id"))).toContain(first?.id)
          }
        }))

      it.effect("returns at most 25 items per page", () =>
        Effect.gen(function*() {
          for (const [type, q] of [["models", "m0"], ["skills", "k0"], ["mcps", "s0"]] as const) {
            const page = yield* list(`/search/?type=${type}&q=${q}`)
            expect(page.items).toHaveLength(25)
            expect(page.hasMore).toBe(true)
            expect(typeof page.next).toBe("string")
          }
          yield* expectEmpty(`/search/?type=models&q=${noMatch}`)
        }))
    })
  })
})
