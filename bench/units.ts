/**
 * 4. Units: what a full scan with the client's default page size costs
 * against the least the largest page allows (ceil(N / 100)),
 * and what refreshing 1,000 already-fetched, unchanged model details costs
 * through the client (If-None-Match, 304 at 0 units) and through a plain
 * loop that fetches each detail again.
 */
import { Chunk, Effect, Redacted, Stream } from "effect"
import { Admission, Budget, CatalogClient } from "effect-catalog"
import { Simulator } from "effect-catalog/simulator"
import { dailyUnits, get, idOf, plainPages } from "./plain.js"
import { clientOf } from "./client.js"
import { type Benchmark, exactly, figure, secondsSince } from "./support.js"

// Not a multiple of the page size: the last page is a short one.
const models = 3_050
/** The largest page of `models`, which the client asks for by default. */
const pageSize = 100
const details = 1_000

/** A model's id is `organization/model`: the two path parameters of `model`. */
const pathOf = (id: string) => {
  const [organization = "", model = ""] = id.split("/")
  return { organization, model }
}

/** The plain loop's scan: every page, following `links.next`. */
const plainScan = async (baseUrl: string, key: string): Promise<Array<string>> => {
  const ids: Array<string> = []
  for await (const page of plainPages(`${baseUrl}/models/?limit=${pageSize}`, key)) {
    for (const item of page.data) ids.push(idOf(item))
  }
  return ids
}

export const run = (): Promise<Benchmark> => {
  const start = performance.now()
  return Effect.runPromise(
    Effect.scoped(
      Effect.gen(function*() {
        // Limits off: units are counted all the same, and 3,000 requests take seconds.
        const simulator = yield* Simulator.make({ sizes: { models }, enforceLimits: false })
        const key = Redacted.value(simulator.keys.full)
        const usage = Effect.promise(() => dailyUnits(simulator.baseUrl, key))

        const client = yield* Effect.gen(function*() {
          const catalog = yield* CatalogClient.CatalogClient
          const budget = yield* Budget.Budget
          const spent = Effect.map(budget.spent, (s) => s.units)
          const before = yield* usage
          const scanned = yield* catalog.models().pipe(Stream.runCollect)
          const scanUnits = yield* spent
          const scanCharged = (yield* usage) - before
          const ids = Chunk.toReadonlyArray(scanned).slice(0, details).map((model) => model.id)
          const readAll = Effect.forEach(ids, (id) => catalog.model(pathOf(id)), { concurrency: 4, discard: true })
          yield* readAll
          const afterFetch = yield* spent
          const chargedBefore = yield* usage
          yield* readAll
          return {
            ids,
            items: scanned.length,
            scanUnits,
            scanCharged,
            fetchUnits: afterFetch - scanUnits,
            refreshUnits: (yield* spent) - afterFetch,
            refreshCharged: (yield* usage) - chargedBefore
          }
        }).pipe(Effect.provide(clientOf(simulator.baseUrl, key, { limits: Admission.noLimits })))

        const plain = yield* Effect.promise(async () => {
          const before = await dailyUnits(simulator.baseUrl, key)
          const ids = await plainScan(simulator.baseUrl, key)
          const scanned = await dailyUnits(simulator.baseUrl, key)
          const fetchOnce = async () => {
            for (const id of client.ids) {
              const { organization, model } = pathOf(id)
              await (await get(`${simulator.baseUrl}/models/${organization}/${model}/`, key)).json()
            }
          }
          await fetchOnce()
          const fetched = await dailyUnits(simulator.baseUrl, key)
          await fetchOnce()
          return { items: ids.length, scanUnits: scanned - before, refreshUnits: (await dailyUnits(simulator.baseUrl, key)) - fetched }
        })

        const minimum = Math.ceil(models / pageSize)
        const benchmark: Benchmark = {
          name: "4. units",
          setup: `in-process simulator of ${models.toLocaleString("en-US")} models (limits off, units still counted); a full scan with the client's default page size (the largest, ${pageSize}), then ${details.toLocaleString("en-US")} model details read, then read again unchanged; the client's units from its Budget and the service's from /usage/`,
          seconds: secondsSince(start),
          figures: [
            figure("client: full scan units (Budget)", client.scanUnits, "units", exactly(minimum), `ceil(${models} / ${pageSize}) = ${minimum}`),
            figure("client: full scan units charged (/usage/)", client.scanCharged, "units", exactly(minimum)),
            figure("plain loop: full scan units charged", plain.scanUnits, "units"),
            figure("client: first read of 1,000 details", client.fetchUnits, "units"),
            figure("client: refresh of 1,000 unchanged details (Budget)", client.refreshUnits, "units", exactly(0)),
            figure("client: refresh units charged (/usage/)", client.refreshCharged, "units", exactly(0)),
            figure("plain loop: refresh of 1,000 unchanged details", plain.refreshUnits, "units")
          ]
        }
        return benchmark
      })
    )
  )
}
