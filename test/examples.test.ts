/**
 * Every program of `examples/` runs as a user would run it, as its own
 * process configured from the environment, against a simulator started here
 * (scaled time, account limits enforced), and prints what it promises; the
 * example test file passes under its own vitest config. The OpenTelemetry
 * example also runs here, its program and SDK layer given the SDK's
 * in-memory exporters, and README shows it as it is.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it, layer } from "@effect/vitest"
import type { Attributes } from "@opentelemetry/api"
import { AggregationTemporality, InMemoryMetricExporter, type ResourceMetrics } from "@opentelemetry/sdk-metrics"
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-base"
import { Effect, Layer, Metric, MetricState, Redacted } from "effect"
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Simulator from "../common/src/simulator/Simulator.js"
import { cleanEnv } from "../scripts/cleanEnv.js"
import * as OpenTelemetryExample from "../examples/opentelemetry.js"
import { client } from "./support/Client.js"
import { runNode } from "./support/Process.js"
import * as Stub from "./support/Stub.js"

const root = fileURLToPath(new URL("..", import.meta.url))

const timeScale = 0.01
const sizes = { models: 200, skills: 250, mcps: 60, organizations: 40 }

/** Runs `examples/NAME.ts` with tsx, configured for the simulator in context. */
const example = (name: string, args: ReadonlyArray<string> = [], env: Readonly<Record<string, string>> = {}) =>
  Effect.gen(function*() {
    const simulator = yield* Simulator.Simulator
    const ran = yield* runNode(["--import", "tsx", `examples/${name}.ts`, ...args], {
      cwd: root,
      env: cleanEnv({
        CATALOG_BASE_URL: simulator.baseUrl,
        CATALOG_API_KEY: Redacted.value(simulator.keys.full),
        CATALOG_TIME_SCALE: String(timeScale),
        ...env
      })
    })
    expect(ran.code, `examples/${name}.ts exited with ${ran.code}\n${ran.stderr}`).toBe(0)
    return ran
  })

const timeout = 60_000

/** An in-memory span exporter that keeps what it was sent when the SDK shuts it down, for the test to read after the program. */
class KeptSpans extends InMemorySpanExporter {
  override shutdown() {
    this._stopped = true
    return Promise.resolve()
  }
}

const parentOf = (span: ReadableSpan | undefined) => span?.parentSpanContext?.spanId

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

/**
 * The answers of `models` with status 200 Effect's metric registry has
 * counted so far: the registry is the process's, and files before this one
 * in the worker have counted theirs.
 */
const modelsAnswered = Effect.map(Metric.snapshot, (pairs) =>
  pairs
    .filter(({ metricKey }) =>
      metricKey.name === "catalog_requests" &&
      metricKey.tags.some((tag) => tag.key === "operation" && tag.value === "models") &&
      metricKey.tags.some((tag) => tag.key === "status" && tag.value === "200")
    )
    .reduce((count, { metricState }) => count + (MetricState.isCounterState(metricState) ? Number(metricState.count) : 0), 0))

/** The lines of the first ```ts block of docs/reference.md after `heading`. */
const referenceBlockAfter = async (heading: string) => {
  const lines = (await readFile(join(root, "docs", "reference.md"), "utf8")).split("\n")
  const start = lines.findIndex((line, index) => index > lines.indexOf(heading) && line === "```ts") + 1
  return lines.slice(start, lines.indexOf("```", start))
}

describe("examples", () => {
  layer(Simulator.layer({ sizes, timeScale }), { excludeTestServices: true })((it) => {
    it.effect("first-call: the catalog's counts, then the first model through follow", () =>
      Effect.gen(function*() {
        const { stdout } = yield* example("first-call")
        expect(stdout).toContain(`The catalog holds ${sizes.models} models, ${sizes.skills} Skills and ${sizes.mcps} MCP servers`)
        expect(stdout).toMatch(/First model: .+ \(o\d+-[a-z]+\/m\d+-[a-z0-9-]+\)/)
        expect(stdout).toMatch(/context tokens: (\d+|unknown)/)
      }), timeout)

    it.effect("scan-skills: every Skill once, in wire form, to the NDJSON file; progress on stderr", () =>
      Effect.acquireUseRelease(
        Effect.promise(async () => {
          await mkdir(join(root, ".tmp"), { recursive: true })
          return mkdtemp(join(root, ".tmp", "examples-"))
        }),
        (dir) =>
          Effect.gen(function*() {
            const file = join(dir, "skills.ndjson")
            const { stderr, stdout } = yield* example("scan-skills", [file])
            expect(stdout).toContain(`Wrote ${sizes.skills} Skills to ${file}`)
            expect(stderr).toContain("100 Skills…")
            expect(stderr).toContain("200 Skills…")
            const lines = (yield* Effect.promise(() => readFile(file, "utf8"))).split("\n").filter((line) => line !== "")
            expect(lines).toHaveLength(sizes.skills)
            const ids = lines.map((line) => {
              const skill: unknown = JSON.parse(line)
              if (typeof skill !== "object" || skill === null || !("id" in skill) || !("installs" in skill)) {
                throw new Error(`not a Skill: ${line.slice(0, 200)}`)
              }
              // Exact integers stay decimal strings on the wire.
              expect(skill.installs).toMatch(/^\d+$/)
              return String(skill.id)
            })
            expect(new Set(ids).size).toBe(sizes.skills)
          }),
        (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
      ), timeout)

    it.effect("exhaustive-errors: a missing model takes the NotFound branch", () =>
      Effect.gen(function*() {
        const { stdout } = yield* example("exhaustive-errors")
        expect(stdout).toContain("No model o9999-nowhere/m9999999-missing: treat it as absent (request req_")
      }), timeout)

    it.effect("cheapest-offers: a table of the cheapest offer of 20 reasoning models", () =>
      Effect.gen(function*() {
        const { stdout } = yield* example("cheapest-offers")
        const lines = stdout.trim().split("\n")
        expect(lines[0]).toMatch(/^model\s+cheapest provider\s+input \$\/Mtok$/)
        expect(lines.at(-1)).toBe("20 reasoning models")
        const rows = lines.slice(1, -1)
        expect(rows).toHaveLength(20)
        expect(rows.some((row) => /\s\d+(\.\d+)?$/.test(row))).toBe(true)
      }), timeout)

    it.effect("refresh: the second pass of the same reads costs 0 units", () =>
      Effect.gen(function*() {
        const { stdout } = yield* example("refresh")
        expect(stdout).toContain("First pass:  20 models, 20 units")
        expect(stdout).toContain("Second pass: 20 models, 0 units")
        expect(stdout).toContain("Changed: 0")
      }), timeout)

    it.effect("opentelemetry: the program's spans, under its own, and its metrics reach the exporters when it ends, without the key", () =>
      Effect.gen(function*() {
        const simulator = yield* Simulator.Simulator
        const spans = new KeptSpans()
        const metrics = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE)
        const answeredBefore = yield* modelsAnswered
        yield* OpenTelemetryExample.program.pipe(
          Effect.provide(Layer.merge(client(), OpenTelemetryExample.Telemetry({ spans, metrics })).pipe(Layer.provide(NodeHttpClient.layerUndici)))
        )
        const finished = spans.getFinishedSpans()
        const named = (name: string) => finished.filter((span) => span.name === name)

        const report = named("reasoning-report")
        expect(report.length).toBe(1)
        expect(report[0]?.resource.attributes["service.name"]).toBe("reasoning-report")
        const scans = named("catalog.models")
        expect(scans.length).toBe(1)
        expect(parentOf(scans[0])).toBe(report[0]?.spanContext().spanId)
        const pages = named("catalog.models.page")
        expect(pages.length).toBeGreaterThan(0)
        for (const page of pages) {
          expect(parentOf(page)).toBe(scans[0]?.spanContext().spanId)
          expect(page.attributes).toMatchObject({
            "catalog.operation": "models",
            "url.template": "/models/",
            "http.response.status_code": 200,
            "catalog.units": 1,
            "catalog.retry.attempt": 1,
            "catalog.cache": "miss"
          })
          expect(page.attributes["catalog.request_id"]).toMatch(/^req_/)
          expect(typeof page.attributes["catalog.admission.wait_ms"]).toBe("number")
          expect(finished.filter((span) => parentOf(span) === page.spanContext().spanId).map((span) => span.name)).toEqual(["http.client GET"])
        }
        const reads = named("catalog.model")
        expect(reads.length).toBe(3)
        for (const read of reads) {
          expect(parentOf(read)).toBe(report[0]?.spanContext().spanId)
          expect(read.attributes).toMatchObject({ "catalog.operation": "model", "url.template": "/models/{organization}/{model}/", "http.response.status_code": 200 })
        }
        const key = Redacted.value(simulator.keys.full)
        for (const span of finished) expect(JSON.stringify({ name: span.name, attributes: span.attributes, events: span.events })).not.toContain(key)

        // The client's metrics, read by the SDK's reader from Effect's registry, labelled by operation.
        const exported = metrics.getMetrics()
        const requests = pointsOf(exported, "catalog_requests").filter((point) => point.attributes.operation === "models" && point.attributes.status === "200")
        expect(requests.map((point) => point.value)).toContainEqual(answeredBefore + pages.length)
        expect(pointsOf(exported, "catalog_request_duration_ms").some((point) => point.attributes.operation === "model")).toBe(true)
        expect(JSON.stringify(exported)).not.toContain(key)
      }), timeout)

    it.effect("opentelemetry: as a program, it sends its traces and metrics to OTEL_EXPORTER_OTLP_ENDPOINT", () =>
      Effect.gen(function*() {
        const collector = yield* Stub.Stub
        yield* collector.answer(() => Stub.json(200, {}))
        const simulator = yield* Simulator.Simulator
        const { stdout } = yield* example("opentelemetry", [], { OTEL_EXPORTER_OTLP_ENDPOINT: collector.origin })
        expect(stdout).toMatch(/^\d+ reasoning models\n/)
        const received = yield* collector.received
        expect(received.map((request) => request.url)).toEqual(expect.arrayContaining(["/v1/traces", "/v1/metrics"]))
        expect(JSON.stringify(received)).not.toContain(Redacted.value(simulator.keys.full))
      }).pipe(Effect.provide(Stub.layer)), timeout)

    it.effect("testing-your-app: the example test file passes under its vitest config", () =>
      Effect.gen(function*() {
        const ran = yield* runNode(
          [join(root, "node_modules", "vitest", "vitest.mjs"), "run", "--config", "examples/vitest.config.ts"],
          { cwd: root }
        )
        expect(ran.code, `${ran.stdout}\n${ran.stderr}`).toBe(0)
        expect(ran.stdout.replace(/\x1b\[[0-9;]*m/g, "")).toMatch(/Tests\s+3 passed/)
      }), timeout)
  })

  it("opentelemetry: the reference's Observability shows the example as it is, below its header", async () => {
    const source = (await readFile(join(root, "examples", "opentelemetry.ts"), "utf8")).split("\n")
    const code = source.slice(source.indexOf(" */") + 1, source.at(-1) === "" ? -1 : undefined)
    expect(await referenceBlockAfter("### Observability")).toEqual(code)
  })
})
