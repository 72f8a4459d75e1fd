/**
 * Spans a user can read in a tracing backend: each operation call is a span
 * `catalog.<operation>` (a whole scan one span, with a child per page)
 * around the HTTP client's own span for each attempt, carrying the
 * operation, the contract's path template, the request id, units, attempt,
 * admission wait, what the ETag cache did and the status, and on failure
 * the error's tag; never the key. Recorded with Effect's own tracer, and
 * once through `@effect/opentelemetry` into the OpenTelemetry SDK's
 * in-memory exporter.
 */
import * as NodeSdk from "@effect/opentelemetry/NodeSdk"
import { describe, expect, layer } from "@effect/vitest"
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { Chunk, Effect, Redacted, Stream, Tracer } from "effect"
import * as CatalogClient from "../../common/src/client/CatalogClient.js"
import * as Simulator from "../../common/src/simulator/Simulator.js"
import { direct, simulatorWithClient } from "../support/Client.js"
import { recordingTracer } from "../support/Tracing.js"

/** A scan of 30 models, 10 to a page, a model read twice (the second from the ETag cache), and a model that does not exist. */
const exercise = Effect.gen(function*() {
  const catalog = yield* CatalogClient.CatalogClient
  const models = Chunk.toReadonlyArray(yield* Stream.runCollect(catalog.models({ limit: 10 })))
  const first = models[0]
  if (first === undefined) return yield* Effect.dieMessage("the simulator has no models")
  yield* catalog.model(first.id)
  yield* catalog.model(first.id)
  const missing = yield* Effect.flip(catalog.model(`${first.id}-absent`))
  return { models, first, missing }
})

const parentOf = (span: Tracer.Span) => span.parent._tag === "Some" ? span.parent.value.spanId : undefined

describe("spans", () => {
  layer(simulatorWithClient({ sizes: { models: 30 }, enforceLimits: false }, "full", direct), { excludeTestServices: true })((it) => {
    it.effect("a scan is one span with a child per page, each around the HTTP client's span, with the call's attributes and never the key", () =>
      Effect.gen(function*() {
        const simulator = yield* Simulator.Simulator
        const spans: Array<Tracer.Span> = []
        const { first, missing, models } = yield* Effect.withTracer(exercise, yield* recordingTracer(spans))
        expect(models.length).toBe(30)

        const scans = spans.filter((span) => span.name === "catalog.models")
        expect(scans.length).toBe(1)
        const scan = scans[0]
        expect(scan?.attributes.get("url.template")).toBe("/models/")
        const pages = spans.filter((span) => span.name === "catalog.models.page")
        expect(pages.length).toBe(3)
        for (const [index, page] of pages.entries()) {
          expect(parentOf(page)).toBe(scan?.spanId)
          expect(page.kind).toBe("client")
          expect(page.attributes.get("catalog.operation")).toBe("models")
          expect(page.attributes.get("url.template")).toBe("/models/")
          expect(page.attributes.get("http.response.status_code")).toBe(200)
          expect(page.attributes.get("catalog.retry.attempt")).toBe(1)
          expect(page.attributes.get("catalog.units")).toBe(1)
          expect(page.attributes.get("catalog.cache")).toBe("miss")
          expect(typeof page.attributes.get("catalog.admission.wait_ms")).toBe("number")
          expect(page.attributes.get("catalog.request_id")).toMatch(/\S/)
          const http = spans.filter((span) => parentOf(span) === page.spanId)
          expect(http.map((span) => span.name), `page ${index}`).toEqual(["http.client GET"])
          expect(http[0]?.attributes.get("http.response.status_code")).toBe(200)
        }

        const reads = spans.filter((span) => span.name === "catalog.model")
        expect(reads.length).toBe(3)
        expect(reads.map((span) => span.attributes.get("url.template"))).toEqual(Array(3).fill("/models/{organization}/{model}/"))
        expect(reads.map((span) => span.attributes.get("catalog.cache"))).toEqual(["miss", "hit", "miss"])
        expect(reads.map((span) => span.attributes.get("http.response.status_code"))).toEqual([200, 304, 404])
        expect(reads.map((span) => span.attributes.get("catalog.units"))).toEqual([1, 0, 0])
        expect(missing._tag).toBe("NotFound")
        expect(reads[2]?.attributes.get("error.type")).toBe("NotFound")
        expect(reads[0]?.attributes.has("error.type")).toBe(false)

        // Low cardinality: no span of the client names an id in its name or template.
        const key = Redacted.value(simulator.keys.full)
        for (const span of spans) {
          expect(span.name).not.toContain(first.id.split("/")[1] ?? first.id)
          for (const [name, value] of span.attributes) {
            expect(`${name}=${String(value)}`, `span ${span.name}`).not.toContain(key)
          }
        }
      }))

    it.effect("through @effect/opentelemetry, the OpenTelemetry SDK exports the same spans, parented the same way", () =>
      Effect.gen(function*() {
        const exporter = new InMemorySpanExporter()
        const simulator = yield* Simulator.Simulator
        // Read before the SDK shuts down: shutting down empties the exporter.
        const spans = yield* exercise.pipe(
          Effect.zipRight(Effect.sync(() => exporter.getFinishedSpans())),
          Effect.provide(NodeSdk.layer(() => ({ resource: { serviceName: "catalog-tracing-test" }, spanProcessor: new SimpleSpanProcessor(exporter) })))
        )
        const scan = spans.find((span) => span.name === "catalog.models")
        const pages = spans.filter((span) => span.name === "catalog.models.page")
        expect(pages.length).toBe(3)
        for (const page of pages) {
          expect(page.parentSpanContext?.spanId).toBe(scan?.spanContext().spanId)
          expect(page.attributes["url.template"]).toBe("/models/")
          expect(page.attributes["catalog.retry.attempt"]).toBe(1)
          // The first page may be kept from the test above: then it is a 304, a hit.
          expect(page.attributes["http.response.status_code"]).toBe(
            page.attributes["catalog.cache"] === "hit" ? 304 : 200
          )
          const http = spans.filter((span) => span.parentSpanContext?.spanId === page.spanContext().spanId)
          expect(http.map((span) => span.name)).toEqual(["http.client GET"])
        }
        const failed = spans.filter((span) => span.name === "catalog.model" && span.attributes["error.type"] === "NotFound")
        expect(failed.length).toBe(1)
        const key = Redacted.value(simulator.keys.full)
        for (const span of spans) expect(JSON.stringify({ name: span.name, attributes: span.attributes, events: span.events })).not.toContain(key)
      }))
  })
})
