/**
 * Handling every error an operation can fail with, each in its own way.
 *
 *   node exhaustive-errors.ts [organization/model]
 *
 * (configured from CATALOG_API_KEY, CATALOG_BASE_URL and optionally
 * CATALOG_TIME_SCALE, as in first-call.ts)
 *
 * Every method fails with the exact union of tagged errors its operation can
 * produce (`OperationErrors.ErrorOf<"model">` for `model`). `Effect.catchTags` with
 * a handler per tag leaves `never` in the error channel; the annotation on
 * `describeModel` makes that a compile-time check: when a tag is added to the
 * union, this file stops compiling until it is handled.
 */
import { NodeHttpClient, NodeRuntime } from "@effect/platform-node"
import { Console, Duration, Effect, Layer } from "effect"
import { CatalogClient } from "effect-catalog"

const describeModel = (id: string): Effect.Effect<string, never, CatalogClient.CatalogClient> =>
  Effect.gen(function*() {
    const catalog = yield* CatalogClient.CatalogClient
    return yield* catalog.model(id).pipe(
      Effect.map((found) => `Found ${found.name}: ${found.context_tokens?.toString() ?? "unknown"} context tokens`),
      Effect.catchTags({
        // 400, or refused before sending (code "local_validation"): fix the request.
        InvalidRequest: (error) => Effect.succeed(`Bad request, fix it: ${error.detail ?? "no detail"}`),
        // 401: retrying with the same key cannot succeed.
        InvalidApiKey: () => Effect.succeed("The key was refused: replace CATALOG_API_KEY"),
        // 403: this key may not read models.
        ScopeMissing: (error) => Effect.succeed(`Use a key with the scope ${error.requiredScope ?? "(not named)"}`),
        // 404: the model does not exist; treat it as absent (it still cost a unit).
        NotFound: (error) =>
          Effect.succeed(`No model ${id}: treat it as absent (request ${error.requestId ?? "unknown"})`),
        // 422: the answer would pass 512 KiB; a detail read rarely does.
        ResponseTooLarge: () => Effect.succeed("The answer was too large: ask for less"),
        // 429 and 503 come out only once the retry policy has given up.
        RateLimited: (error) => Effect.succeed(`Rate limited: wait at least ${Duration.format(error.retryAfter)}`),
        ServiceUnavailable: (error) => Effect.succeed(`Service unavailable: wait at least ${Duration.format(error.retryAfter)}`),
        // The daily or monthly allowance is spent; later requests fail at once until then.
        QuotaExhausted: (error) => Effect.succeed(`Allowance used up: come back after ${error.resetsAt.toISOString()}`),
        // The client's own daily budget (CATALOG_DAILY_BUDGET) would be passed; nothing was sent.
        BudgetExceeded: (error) => Effect.succeed(`Budget reached: ${error.spent} of ${error.budget} units spent today`),
        // No answer: connection failed, body cut, or timeout.
        TransportError: (error) => Effect.succeed(`Network problem (${error.reason}): retry later`),
        // The admission's Redis (effect-catalog/redis) failed; nothing was sent.
        AdmissionUnavailable: (error) => Effect.succeed(`Admission unavailable: ${error.detail}`),
        // An answer outside the contract: report it with its request id.
        UnexpectedResponse: (error) =>
          Effect.succeed(`Unexpected status ${error.status}: report request ${error.requestId ?? "unknown"}`)
      })
    )
  })

// A model that does not exist, unless one is given: the NotFound branch.
const id = process.argv[2] ?? "o9999-nowhere/m9999999-missing"

const program = Effect.gen(function*() {
  const message = yield* describeModel(id)
  yield* Console.log(message)
})

const CatalogLive = CatalogClient.layerConfig().pipe(Layer.provide(NodeHttpClient.layerUndici))

program.pipe(Effect.provide(CatalogLive), NodeRuntime.runMain)
