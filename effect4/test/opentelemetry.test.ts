/**
 * The OpenTelemetry example (`examples/opentelemetry.ts`): its program,
 * given the example's SDK layer with the SDK's in-memory exporters, against
 * the simulator over HTTP, exports the client's spans under the program's
 * own span, with the client's attributes, and the client's metrics when it
 * ends, never the key; run as a user runs it (its own Node 22 process, as
 * `examples.test.ts` runs the others), it sends its traces and metrics over
 * OTLP/HTTP to the collector at OTEL_EXPORTER_OTLP_ENDPOINT; and README's
 * Observability shows its code as it is.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import type { Attributes } from "@opentelemetry/api"
import { AggregationTemporality, InMemoryMetricExporter, type ResourceMetrics } from "@opentelemetry/sdk-metrics"
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-base"
import { Console, Context, Effect, Layer, Metric, Redacted } from "effect"
import { readFile } from "node:fs/promises"
import { createServer, type Server } from "node:http"
import { fileURLToPath } from "node:url"
import { Simulator } from "effect-catalog/simulator"
import { cleanEnv } from "../../scripts/cleanEnv.js"
import * as OpenTelemetryExample from "../examples/opentelemetry.js"
import { runExample } from "./support/Examples.js"

const timeout = 60_000

/** The ids of the reasoning models the simulator lists, in its order. */
const reasoningIds = Effect.gen(function*() {
  const simulator = yield* Simulator.Simulator
  const models = yield* simulator.listed("models")
  return models.filter((model) => "reasoning" in model && model.reasoning === true).map((model) => model.id)
})

/** The lines the program prints, captured from `Console.log`. */
const capturingConsole = (lines: Array<string>): Console.Console => ({
  ...console,
  log: (...args) => lines.push(args.join(" "))
})

/** An in-memory span exporter that keeps what it was sent when the SDK shuts it down, for the test to read after the program. */
class KeptSpans extends InMemorySpanExporter {
  override shutdown() {
    this._stopped = true
    return Promise.resolve()
  }
}

const parentOf = (span: ReadableSpan | undefined) => span?.parentSpanContext?.spanId

/**
 * Each of the client's request spans `spans` (labelled `LABEL INDEX`) carries
 * `attributes`, those of a request answered 200 for 1 unit without the cache,
 * and a request id, and passes `also`.
 */
const expectRequests = (
  spans: ReadonlyArray<ReadableSpan>,
  label: string,
  attributes: Attributes,
  also: (span: ReadableSpan) => void = () => {}
) => {
  for (const [index, span] of spans.entries()) {
    expect(span.attributes, `${label} ${index}`).toMatchObject({
      ...attributes,
      "http.response.status_code": 200,
      "catalog.units": 1,
      "catalog.cache": "miss"
    })
    expect(span.attributes["catalog.request_id"]).toMatch(/^req_/)
    also(span)
  }
}

/** A data point of any kind of metric: its labels and its value. */
interface Point {
  readonly attributes: Attributes
  readonly value: unknown
}

/** The data points of the metric named `name`, over every export. */
const pointsOf = (exports: ReadonlyArray<ResourceMetrics>, name: string) =>
  exports.flatMap((resource) =>
    resource.scopeMetrics.flatMap((scope) =>
      scope.metrics.filter((metric) => metric.descriptor.name === name).flatMap((metric): ReadonlyArray<Point> => metric.dataPoints)
    )
  )

/** How many values a histogram's data point holds. */
const countOf = (point: Point | undefined) =>
  typeof point?.value === "object" && point.value !== null && "count" in point.value ? point.value.count : undefined

/** What an OTLP/HTTP collector received: a request's target, headers and body. */
interface Export {
  readonly url: string
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  readonly body: string
}

/** A collector on a free loopback port that accepts every export and keeps it, closed when the scope closes. */
const collector = Effect.gen(function*() {
  const received: Array<Export> = []
  const server = yield* Effect.acquireRelease(
    Effect.callback<Server>((resume) => {
      const server = createServer((request, response) => {
        let body = ""
        request.setEncoding("utf8")
        request.on("data", (chunk: string) => (body += chunk))
        request.on("end", () => {
          received.push({ url: request.url ?? "", headers: request.headers, body })
          response.writeHead(200, { "content-type": "application/json" })
          response.end("{}")
        })
      })
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
    }),
    (server) =>
      Effect.callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return { origin: `http://127.0.0.1:${port}`, received: Effect.sync(() => [...received]) }
})

/** The lines of the first ```ts effect4 block of docs/reference.md's section `heading` (up to its next heading), or none. */
const referenceBlockOf = async (heading: string) => {
  const lines = (await readFile(fileURLToPath(new URL("../../docs/reference.md", import.meta.url)), "utf8")).split("\n")
  const section = lines.indexOf(heading)
  const end = lines.findIndex((line, index) => index > section && /^#{1,3} /.test(line))
  const start = lines.findIndex((line, index) => index > section && (end === -1 || index < end) && line === "```ts effect4") + 1
  return section === -1 || start === 0 ? [] : lines.slice(start, lines.indexOf("```", start))
}

/** One run of the program with the example's SDK layer, against a simulator: what it printed and what the in-memory exporters hold after it. */
interface Run {
  /** The ids of the reasoning models the simulator lists, in its order. */
  readonly reasoning: ReadonlyArray<string>
  /** The pages of 100 the scan of them takes. */
  readonly pages: number
  /** The key the client sent. */
  readonly key: string
  readonly printed: ReadonlyArray<string>
  readonly spans: ReadonlyArray<ReadableSpan>
  readonly metrics: ReadonlyArray<ResourceMetrics>
}

class ProgramRun extends Context.Service<ProgramRun, Run>()("test/ProgramRun") {}

/** Runs the program once, with the SDK layer of its own (closed when the program ends) and a metric registry of its own (the counts are the program's alone). */
const runProgram = Layer.effect(
  ProgramRun,
  Effect.gen(function*() {
    const simulator = yield* Simulator.Simulator
    const reasoning = yield* reasoningIds
    const spans = new KeptSpans()
    const metrics = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE)
    const printed: Array<string> = []
    yield* OpenTelemetryExample.program.pipe(
      Effect.provide(OpenTelemetryExample.Telemetry({ spans, metrics })),
      Effect.provideService(Console.Console, capturingConsole(printed))
    )
    return {
      reasoning,
      pages: Math.ceil(reasoning.length / 100),
      key: Redacted.value(simulator.keys.full),
      printed,
      spans: spans.getFinishedSpans(),
      metrics: metrics.getMetrics()
    }
  }).pipe(Effect.provideService(Metric.MetricRegistry, new Map()))
).pipe(Layer.provide(Simulator.layerClient({ sizes: { models: 400 } })))

describe("the OpenTelemetry example", () => {
  layer(runProgram, { timeout })((it) => {
    it.effect("the program prints how many reasoning models there are, and the offers of the first three", () =>
      Effect.gen(function*() {
        const { printed, reasoning } = yield* ProgramRun
        expect(printed[0]).toBe(`${reasoning.length} reasoning models`)
        expect(printed.slice(1).map((line) => line.replace(/: \d+ offers$/, ""))).toEqual(reasoning.slice(0, 3).map((id) => `  ${id}`))
      }))

    it.effect("the client's spans are under the program's own, in its trace: the scan with a span per page, and a span per read, each around its HTTP span", () =>
      Effect.gen(function*() {
        const run = yield* ProgramRun
        // More than one page, so that every page is seen under the one scan.
        expect(run.pages).toBeGreaterThanOrEqual(2)
        const named = (name: string) => run.spans.filter((span) => span.name === name)
        const childrenOf = (span: ReadableSpan) => run.spans.filter((child) => parentOf(child) === span.spanContext().spanId)

        const report = named("reasoning-report")
        expect(report).toHaveLength(1)
        const root = report[0]
        expect(parentOf(root)).toBeUndefined()
        expect(root?.resource.attributes["service.name"]).toBe("reasoning-report")
        for (const span of run.spans) expect(span.spanContext().traceId, span.name).toBe(root?.spanContext().traceId)
        const scans = named("catalog.models")
        expect(scans).toHaveLength(1)
        expect(parentOf(scans[0])).toBe(root?.spanContext().spanId)
        const pages = named("catalog.models.page")
        expect(pages).toHaveLength(run.pages)
        for (const page of pages) expect(parentOf(page)).toBe(scans[0]?.spanContext().spanId)
        const reads = named("catalog.model")
        expect(reads).toHaveLength(3)
        for (const read of reads) expect(parentOf(read)).toBe(root?.spanContext().spanId)
        for (const request of [...pages, ...reads]) expect(childrenOf(request).map((span) => span.name), request.name).toEqual(["GET"])
        // Nothing else: the program's, the scan's, the pages' and the reads', and an HTTP span under each page and read.
        expect(run.spans).toHaveLength(2 + 2 * (run.pages + 3))
      }))

    it.effect("each page and read carries the client's attributes", () =>
      Effect.gen(function*() {
        const { spans } = yield* ProgramRun
        const named = (name: string) => spans.filter((span) => span.name === name)
        expect(named("catalog.models")[0]?.attributes).toMatchObject({ "catalog.operation": "models", "url.template": "/models/" })
        const pages = named("catalog.models.page")
        expect(pages.length).toBeGreaterThan(0)
        expectRequests(
          pages,
          "page",
          { "catalog.operation": "models", "url.template": "/models/", "catalog.retry.attempt": 1 },
          (page) => expect(typeof page.attributes["catalog.admission.wait_ms"]).toBe("number")
        )
        const reads = named("catalog.model")
        expect(reads.length).toBe(3)
        expectRequests(reads, "read", { "catalog.operation": "model", "url.template": "/models/{organization}/{model}/" })
        for (const http of named("GET")) expect(http.attributes["http.response.status_code"]).toBe(200)
      }))

    it.effect("the client's metrics, labelled by operation, reach the metric exporter when the program ends", () =>
      Effect.gen(function*() {
        const { metrics, pages } = yield* ProgramRun
        expect(metrics.length).toBeGreaterThan(0)
        for (const resource of metrics) expect(resource.resource.attributes["service.name"]).toBe("reasoning-report")
        const answered = (operation: string) =>
          pointsOf(metrics, "catalog_requests").filter((point) => point.attributes.operation === operation && point.attributes.status === "200")
        expect(answered("models").map((point) => point.value)).toEqual([pages])
        expect(answered("model").map((point) => point.value)).toEqual([3])
        const durations = pointsOf(metrics, "catalog_request_duration_ms").filter((point) => point.attributes.operation === "model")
        expect(durations.map(countOf)).toEqual([3])
      }))

    it.effect("the key is in no span (name, attributes, events, status, links), no resource and no metric", () =>
      Effect.gen(function*() {
        const { key, metrics, spans } = yield* ProgramRun
        expect(spans.length).toBeGreaterThan(0)
        for (const span of spans) {
          const exported = { name: span.name, attributes: span.attributes, events: span.events, status: span.status, links: span.links }
          expect(JSON.stringify(exported), span.name).not.toContain(key)
          expect(JSON.stringify(span.resource.attributes), span.name).not.toContain(key)
        }
        expect(metrics.length).toBeGreaterThan(0)
        expect(JSON.stringify(metrics)).not.toContain(key)
      }))
  })

  it.live("as a program, it sends its traces and metrics to OTEL_EXPORTER_OTLP_ENDPOINT, without the key", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const otlp = yield* collector
      const reasoning = yield* reasoningIds
      const environment = Object.fromEntries(Object.entries(cleanEnv()).filter(([name]) => !name.startsWith("OTEL_")))
      const ran = yield* runExample("opentelemetry", [], {
        ...environment,
        CATALOG_BASE_URL: simulator.baseUrl,
        CATALOG_API_KEY: Redacted.value(simulator.keys.full),
        CATALOG_TIME_SCALE: String(simulator.options.timeScale),
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.origin
      })
      expect(ran.code, `examples/opentelemetry.ts exited with ${ran.code}\n${ran.stderr}`).toBe(0)
      expect(ran.stdout).toMatch(new RegExp(`^${reasoning.length} reasoning models\n`))
      expect((yield* simulator.statusCounts).get(429) ?? 0, "a 429").toBe(0)

      const received = yield* otlp.received
      const at = (url: string) => received.filter((request) => request.url === url).map((request) => request.body).join("\n")
      const traces = at("/v1/traces")
      for (const name of ["reasoning-report", "catalog.models", "catalog.models.page", "catalog.model"]) {
        expect(traces).toContain(`"name":"${name}"`)
      }
      expect(traces).toContain(`"stringValue":"reasoning-report"`)
      expect(at("/v1/metrics")).toContain(`"name":"catalog_requests"`)
      expect(JSON.stringify(received)).not.toContain(Redacted.value(simulator.keys.full))
    }).pipe(Effect.scoped, Effect.provide(Simulator.layer({ sizes: { models: 400 }, timeScale: 0.01 }))), timeout)

  it("the reference's Observability shows its code as it is, below its header, in a ```ts effect4 block", async () => {
    const source = (await readFile(new URL("../examples/opentelemetry.ts", import.meta.url), "utf8")).split("\n")
    const code = source.slice(source.indexOf(" */") + 1, source.at(-1) === "" ? -1 : undefined)
    expect(code[0]).toBe(`import * as NodeSdk from "@effect/opentelemetry/NodeSdk"`)
    expect(await referenceBlockOf("### Observability")).toEqual(code)
  })
})
