/**
 * The client's spans and metrics, exported to an OpenTelemetry collector.
 *
 *   OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318 node opentelemetry.ts
 *
 * (configured from CATALOG_API_KEY, CATALOG_BASE_URL and optionally
 * CATALOG_TIME_SCALE, as in first-call.ts)
 *
 * The package depends on no OpenTelemetry package: the application provides
 * `@effect/opentelemetry`'s NodeSdk layer, which turns every Effect span
 * (the client's among them) into an OpenTelemetry span and reads every
 * Effect metric (`CatalogClient.metrics` among them) for the metric reader.
 * When the program ends, the layer flushes what is left to the collector.
 */
import * as NodeSdk from "@effect/opentelemetry/NodeSdk"
import { NodeHttpClient, NodeRuntime } from "@effect/platform-node"
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http"
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http"
import { PeriodicExportingMetricReader, type PushMetricExporter } from "@opentelemetry/sdk-metrics"
import { BatchSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace-base"
import { Console, Effect, Layer, Stream } from "effect"
import { CatalogClient } from "effect-catalog"
import { fileURLToPath } from "node:url"

// The application's own span, `reasoning-report`, is the parent of the
// client's: `catalog.models` (the whole scan) with a `catalog.models.page`
// per page, then a `catalog.model` per detail read, each around the HTTP
// client's span of each attempt (`GET`).
export const program = Effect.gen(function*() {
  const catalog = yield* CatalogClient.CatalogClient
  const reasoning = yield* catalog.models({ reasoning: true, limit: 100 }).pipe(Stream.runCollect)
  const details = yield* Effect.forEach(reasoning.slice(0, 3), (model) => catalog.model(model))
  yield* Console.log(`${reasoning.length} reasoning models`)
  for (const model of details) yield* Console.log(`  ${model.id}: ${model.offer_count} offers`)
}).pipe(Effect.withSpan("reasoning-report"))

// The OpenTelemetry SDK of this service, sending spans in batches and
// metrics every 10 seconds to these exporters (a test gives in-memory ones).
export const Telemetry = (exporters: { readonly spans: SpanExporter; readonly metrics: PushMetricExporter }) =>
  NodeSdk.layer(() => ({
    resource: { serviceName: "reasoning-report" },
    spanProcessor: new BatchSpanProcessor(exporters.spans),
    metricReader: new PeriodicExportingMetricReader({ exporter: exporters.metrics, exportIntervalMillis: 10_000 })
  }))

// Run as a program (and not when a test imports `program` and `Telemetry`).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const CatalogLive = CatalogClient.layerConfig().pipe(Layer.provide(NodeHttpClient.layerUndici))
  // OTLP over HTTP to OTEL_EXPORTER_OTLP_ENDPOINT (http://localhost:4318 by
  // default), at /v1/traces and /v1/metrics.
  const TelemetryLive = Telemetry({ spans: new OTLPTraceExporter(), metrics: new OTLPMetricExporter() })
  program.pipe(Effect.provide(Layer.merge(CatalogLive, TelemetryLive)), NodeRuntime.runMain)
}
