/**
 * Counters of the client's requests, kept by the steps of the request path
 * that see each event, and exposed as `CatalogClient.metrics`.
 */
import { Metric } from "effect"

/** Requests sent, requests sent again after a retryable error, answers served from the ETag cache. */
export const metrics = {
  requests: Metric.counter("catalog_requests", { description: "Requests sent", incremental: true }),
  retries: Metric.counter("catalog_retries", { description: "Requests sent again after a retryable error", incremental: true }),
  notModified: Metric.counter("catalog_not_modified", { description: "Answers served from the ETag cache (304)", incremental: true })
}
