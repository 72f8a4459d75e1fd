// A consumer in TypeScript: handles every error a detail read can fail with,
// tag by tag, and nothing else. The annotation proves the handling is
// exhaustive; the @ts-expect-error proves the union is exact.
import { Duration, Effect } from "effect"
import { CatalogClient, type OperationErrors } from "effect-catalog"

export const describeModel = (organization: string, model: string): Effect.Effect<string, never, CatalogClient.CatalogClient> =>
  Effect.flatMap(CatalogClient.CatalogClient, (catalog) =>
    catalog.model({ organization, model }).pipe(
      Effect.map((found) => found.name),
      Effect.catchTags({
        InvalidRequest: (error) => Effect.succeed(`bad request: ${error.detail ?? "no detail"}`),
        InvalidApiKey: () => Effect.succeed("the key was refused"),
        ScopeMissing: (error) => Effect.succeed(`needs the scope ${error.requiredScope ?? "(not named)"}`),
        NotFound: () => Effect.succeed("absent"),
        ResponseTooLarge: () => Effect.succeed("too large"),
        RateLimited: (error) => Effect.succeed(`wait ${Duration.format(error.retryAfter)}`),
        ServiceUnavailable: (error) => Effect.succeed(`wait ${Duration.format(error.retryAfter)}`),
        QuotaExhausted: (error) => Effect.succeed(`come back after ${error.resetsAt.toISOString()}`),
        BudgetExceeded: (error) => Effect.succeed(`${error.spent} of ${error.budget} units spent`),
        TransportError: (error) => Effect.succeed(`network: ${error.reason}`),
        AdmissionUnavailable: (error) => Effect.succeed(`admission: ${error.reason}`),
        UnexpectedResponse: (error) => Effect.succeed(`unexpected status ${error.status}`)
      })
    ))

export const impossible = Effect.flatMap(CatalogClient.CatalogClient, (catalog) =>
  catalog.model({ organization: "o0000-acme", model: "m0000000-none" }).pipe(
    Effect.catchTags({
      // @ts-expect-error a detail read has no cursor: CursorExpired is not in its union
      CursorExpired: () => Effect.succeed("restart")
    })
  ))

export const tagOf = (error: OperationErrors.ErrorOf<"model">): string => error._tag
