/**
 * Spans a user can read in a tracing backend, recorded with Effect's own
 * tracer against the simulator over HTTP: each call is a span
 * `catalog.<operation>` (a whole scan one span, with a child
 * `catalog.<operation>.page` per page) around the HTTP client's own span
 * for each attempt, carrying the operation, the contract's path template,
 * the request id, the units, the attempt, the admission wait, what the ETag
 * cache did and the status, and on failure the error's tag; never the key
 * (the HTTP client's spans redact it, whatever headers they record), and no
 * id in a span's name.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted, Stream, type Tracer } from "effect"
import { HttpClient } from "effect/http"
import { CatalogClient } from "effect-catalog"
import { Simulator } from "effect-catalog/simulator"
import { parentOf, recordingTracer, textsOf } from "./support/Tracing.js"

/** A scan of 30 models, 10 to a page, a model read twice (the second from the ETag cache), and a model that does not exist. */
const exercise = Effect.gen(function*() {
  const catalog = yield* CatalogClient.CatalogClient
  const models = yield* Stream.runCollect(catalog.models({ limit: 10 }))
  const first = models[0]
  if (first === undefined) return yield* Effect.die("the simulator has no models")
  yield* catalog.model(first.id)
  yield* catalog.model(first.id)
  const missing = yield* Effect.flip(catalog.model(`${first.id}-absent`))
  return { models, first, missing }
})

describe("spans", () => {
  it.effect("a scan is one span with a child per page, each around the HTTP client's span, with the call's attributes and never the key", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const spans: Array<Tracer.Span> = []
      // Every header recorded on the HTTP client's spans: the key's is redacted.
      const { first, missing, models } = yield* Effect.withTracer(exercise, yield* recordingTracer(spans)).pipe(
        Effect.provideService(HttpClient.TracerHeaderFilter, () => true)
      )
      expect(models).toHaveLength(30)

      const scans = spans.filter((span) => span.name === "catalog.models")
      expect(scans).toHaveLength(1)
      const scan = scans[0]
      expect(scan?.attributes.get("url.template")).toBe("/models/")
      expect(scan?.attributes.get("catalog.operation")).toBe("models")
      const pages = spans.filter((span) => span.name === "catalog.models.page")
      expect(pages).toHaveLength(3)
      for (const [index, page] of pages.entries()) {
        expect(parentOf(page), `page ${index}`).toBe(scan?.spanId)
        expect(page.kind).toBe("client")
        expect(Object.fromEntries(page.attributes)).toMatchObject({
          "catalog.operation": "models",
          "url.template": "/models/",
          "http.response.status_code": 200,
          "catalog.retry.attempt": 1,
          "catalog.units": 1,
          "catalog.cache": "miss"
        })
        expect(typeof page.attributes.get("catalog.admission.wait_ms")).toBe("number")
        expect(page.attributes.get("catalog.request_id")).toMatch(/^req_/)
        const http = spans.filter((span) => parentOf(span) === page.spanId)
        expect(http.map((span) => span.name), `page ${index}`).toEqual(["GET"])
        expect(http[0]?.attributes.get("http.response.status_code")).toBe(200)
        expect(http[0]?.attributes.get("http.request.header.authorization")).toBe("<redacted>")
        expect(page.status._tag).toBe("Ended")
      }

      const reads = spans.filter((span) => span.name === "catalog.model")
      expect(reads).toHaveLength(3)
      expect(reads.map((span) => span.attributes.get("url.template"))).toEqual(Array(3).fill("/models/{organization}/{model}/"))
      expect(reads.map((span) => span.attributes.get("catalog.cache"))).toEqual(["miss", "hit", "miss"])
      expect(reads.map((span) => span.attributes.get("http.response.status_code"))).toEqual([200, 304, 404])
      expect(reads.map((span) => span.attributes.get("catalog.units"))).toEqual([1, 0, 0])
      expect(missing._tag).toBe("NotFound")
      expect(reads[2]?.attributes.get("error.type")).toBe("NotFound")
      expect(reads[0]?.attributes.has("error.type")).toBe(false)
      for (const read of reads) expect(spans.filter((span) => parentOf(span) === read.spanId).map((span) => span.name)).toEqual(["GET"])

      // Low cardinality: no span of the client names an id; and no text of any span holds the key.
      const key = Redacted.value(simulator.keys.full)
      const [, name = first.id] = first.id.split("/")
      for (const span of spans) {
        expect(span.name.includes(name), span.name).toBe(false)
        for (const text of textsOf(span)) expect(text.includes(key), `span ${span.name}`).toBe(false)
      }
    }).pipe(Effect.provide(Simulator.layerClient({ sizes: { models: 30 } }))))

  it.effect("a retried attempt: one call span, the attempt that answered on it, an HTTP span per attempt", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const catalog = yield* CatalogClient.CatalogClient
      const spans: Array<Tracer.Span> = []
      yield* simulator.injectRateLimit(1, 0)
      yield* Effect.withTracer(catalog.stats(), yield* recordingTracer(spans))
      const calls = spans.filter((span) => span.name === "catalog.stats")
      expect(calls).toHaveLength(1)
      const call = calls[0]
      expect(call?.attributes.get("catalog.retry.attempt")).toBe(2)
      expect(call?.attributes.get("http.response.status_code")).toBe(200)
      expect(call?.attributes.has("error.type")).toBe(false)
      const http = spans.filter((span) => parentOf(span) === call?.spanId)
      expect(http.map((span) => span.attributes.get("http.response.status_code"))).toEqual([429, 200])
    }).pipe(Effect.provide(Simulator.layerClient({ sizes: { models: 5 } }))))
})
