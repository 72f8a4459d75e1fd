/**
 * The account's live allowance, read from `/usage/` in one place. The read
 * is a request of its own: admitted under the account's windows like any
 * other, its answer judged as `usage`'s, and kept for the contract's
 * spacing of `/usage/` calls (`Limits.usageCallsPerMinute` a minute: 12 s),
 * so that those who ask within it share one read. It costs no units and is
 * not retried; it is never part of another request's admission, budget or
 * attempt.
 *
 * Who asks it: admission, which follows the account's `minute_limit` (read
 * before a client's second request, and again after a 429 the admission
 * did not expect or on a new UTC day); the budget, which learns what the
 * account has left today; and the quota, for when a spent allowance resets.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { LiveAllowance } from "effect-catalog"
 *
 * const minuteLimit = Effect.gen(function*() {
 *   const allowance = yield* LiveAllowance.LiveAllowance
 *   return (yield* allowance.read).minute_limit
 * })
 * ```
 * @since 0.7.0 (1.x: 1.0.0)
 */
import { Clock, Effect, fromNullable, Function, HttpClient, HttpClientRequest, Layer, makeSemaphore, Option, perRequestScope, Ref, ServiceTag } from "#edition/internal/Edition.js"
import * as AllowanceResets from "../../../rules/src/client/AllowanceResets.js"
import * as SentAttempt from "../../../rules/src/client/SentAttempt.js"
import { DetailEnvelope } from "../contract/Envelopes.js"
import * as Operations from "../contract/Operations.js"
import type * as Resources from "../contract/Resources.js"
import * as Admission from "./Admission.js"
import * as Budget from "./Budget.js"
import * as CatalogConfig from "./CatalogConfig.js"
import type * as Errors from "./Errors.js"
import * as AnswerErrors from "#edition/client/internal/AnswerErrors.js"
import * as Call from "#edition/client/internal/Call.js"
import { decoder } from "#edition/client/internal/Decoder.js"
import * as Exchange from "#edition/client/internal/Exchange.js"
import * as Following from "#edition/client/internal/Following.js"
import * as Links from "./internal/Links.js"
import { type ErrorOf, errorKindOf } from "./OperationErrors.js"

/**
 * The live allowance of one client's account.
 *
 * @example
 * ```ts
 * import { Effect, Option } from "effect"
 * import type { LiveAllowance } from "effect-catalog"
 *
 * // When the daily allowance resets.
 * const resets = (allowance: LiveAllowance.Service) =>
 *   Effect.map(allowance.resetsAt(null), Option.map((date) => date.toISOString()))
 * ```
 * @category models
 * @since 0.7.0 (1.x: 1.0.0)
 */
export interface Service {
  /** The account's usage: read now, or the read made less than 12 s ago. */
  readonly read: Effect.Effect<Resources.Usage, ErrorOf<"usage">>
  /** When the allowance a 429's code names resets (the monthly one for a `monthly_…` code, else the daily one), if `/usage/` says. */
  readonly resetsAt: (code: string | null) => Effect.Effect<Option.Option<Date>>
  /** Before a request is sent: reads the allowance again if admission follows it and a read is due. */
  readonly beforeRequest: Effect.Effect<void>
  /** A 429 the admission did not expect: the allowance read may be out of date. */
  readonly outdated: Effect.Effect<void>
  /** When the read `read` gives now was made (by the reader's clock), if one was: a plan books that request only if it was made for it. */
  readonly readAt: Effect.Effect<Option.Option<number>>
}

/**
 * The live allowance of the client's account, provided by every client layer.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { LiveAllowance } from "effect-catalog"
 *
 * const unitsLeft = Effect.gen(function*() {
 *   const allowance = yield* LiveAllowance.LiveAllowance
 *   const usage = yield* allowance.read
 *   return usage.daily_limit - usage.daily_units
 * })
 * ```
 * @category services
 * @since 0.7.0 (1.x: 1.0.0)
 */
export class LiveAllowance extends ServiceTag<LiveAllowance, Service>()("effect-catalog/LiveAllowance") {}

const decodeUsage = decoder(DetailEnvelope(Operations.usage.item))

const usageErrors = errorKindOf(Operations.usage)

/** A read kept, and when it was made. */
interface Kept {
  readonly usage: Resources.Usage
  readonly readAt: number
}

/** One read of `/usage/` through `client`: accounted in the budget, set as the allowance admission follows, and kept. */
const freshRead = <E extends Errors.CatalogError>(
  config: CatalogConfig.Service,
  client: HttpClient.HttpClient.With<E>,
  admission: Admission.Service,
  budget: Budget.Service,
  kept: Ref.Ref<Option.Option<Kept>>
): Effect.Effect<Resources.Usage, ErrorOf<"usage">> =>
  Effect.gen(function*() {
    const readAt = yield* Clock.currentTimeMillis
    const url = yield* Links.operationUrl(config.baseUrl, Operations.usage, {})
    const { body, data } = yield* Effect.gen(function*() {
      const answer = yield* client.execute(HttpClientRequest.get(url))
      const body = yield* Exchange.bodyOf(answer)
      const redact = SentAttempt.redactOf(yield* Call.observed)
      return { body, ...yield* Effect.mapError(decodeUsage(body), AnswerErrors.malformed(answer, null, redact)) }
    }).pipe(
      Call.within({ operation: Operations.usage, url: url.href, scope: null, cacheable: false, revalidate: true, isAllowed: usageErrors.is })
    )
    // The answer's own bytes count too, after the figures it reports.
    yield* budget.account({ ...data, daily_bytes: data.daily_bytes + new TextEncoder().encode(body).byteLength })
    if (admission.allowance !== undefined) yield* admission.allowance.set({ minuteLimit: data.minute_limit, readAt })
    yield* Ref.set(kept, Option.some({ usage: data, readAt }))
    return data
  }).pipe(AnswerErrors.withinUnion(Operations.usage.id, usageErrors.allows))

/**
 * The live allowance over the client's configuration, `HttpClient`,
 * `Admission` and `Budget`.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { LiveAllowance } from "effect-catalog"
 *
 * const program = Effect.flatMap(LiveAllowance.make, (allowance) => allowance.read)
 * ```
 * @category constructors
 * @since 0.7.0 (1.x: 1.0.0)
 */
export const make: Effect.Effect<
  Service,
  never,
  CatalogConfig.CatalogConfig | HttpClient.HttpClient | Admission.Admission | Budget.Budget
> = Effect.gen(function*() {
  const config = yield* CatalogConfig.CatalogConfig
  const admission = yield* Admission.Admission
  const budget = yield* Budget.Budget
  const client = Exchange.step({ apiKey: config.apiKey, timeout: config.timeout })(perRequestScope(yield* HttpClient.HttpClient)).pipe(
    Admission.step(admission),
    AnswerErrors.step
  )
  const kept = yield* Ref.make(Option.none<Kept>())
  const lock = yield* makeSemaphore(1)
  const fresh = freshRead(config, client, admission, budget, kept)
  const read = lock.withPermits(1)(
    Effect.flatMap(Effect.zip(Ref.get(kept), Clock.currentTimeMillis), ([last, now]) =>
      Option.match(Option.filter(last, ({ readAt }) => AllowanceResets.isShared(readAt, now)), {
        onNone: () => fresh,
        onSome: ({ usage }) => Effect.succeed(usage)
      }))
  )
  const following = admission.allowance === undefined ? undefined : yield* Following.refresher(admission.allowance, lock.withPermits(1)(fresh))
  const service: Service = {
    read,
    resetsAt: (code) =>
      read.pipe(
        Effect.map((usage) => fromNullable(AllowanceResets.resetOf(usage, code))),
        Effect.orElseSucceed(() => Option.none())
      ),
    beforeRequest: following?.refresh ?? Effect.void,
    outdated: following?.outdated ?? Effect.void,
    readAt: Effect.map(Ref.get(kept), Option.map((last) => last.readAt))
  }
  return service
})

/**
 * The live allowance, as every client layer provides it.
 *
 * @example
 * ```ts
 * import { Layer } from "effect"
 * import { Admission, Budget, LiveAllowance } from "effect-catalog"
 *
 * const AllowanceLive = LiveAllowance.layer.pipe(Layer.provide(Layer.merge(Admission.layerMemory(), Budget.layer())))
 * ```
 * @category layers
 * @since 0.7.0 (1.x: 1.0.0)
 */
export const layer: Layer.Layer<LiveAllowance, never, CatalogConfig.CatalogConfig | HttpClient.HttpClient | Admission.Admission | Budget.Budget> =
  Layer.effect(LiveAllowance, make)

/**
 * The step of the request path that reads the live allowance when a read
 * is due, before each attempt and outside its admission.
 *
 * @example
 * ```ts effect4
 * import { Effect } from "effect"
 * import { HttpClient } from "effect/http"
 * import { LiveAllowance } from "effect-catalog"
 *
 * const following = Effect.gen(function*() {
 *   const allowance = yield* LiveAllowance.LiveAllowance
 *   const client = yield* HttpClient.HttpClient
 *   return LiveAllowance.step(allowance)(client)
 * })
 * ```
 *
 * In Effect 3, `HttpClient` is `@effect/platform`'s:
 *
 * ```ts effect3
 * import { HttpClient } from "@effect/platform"
 * import { Effect } from "effect"
 * import { LiveAllowance } from "effect-catalog"
 *
 * const following = Effect.gen(function*() {
 *   const allowance = yield* LiveAllowance.LiveAllowance
 *   const client = yield* HttpClient.HttpClient
 *   return LiveAllowance.step(allowance)(client)
 * })
 * ```
 * @category combinators
 * @since 0.7.0 (1.x: 1.0.0)
 */
export const step: {
  (allowance: Service): <E, R>(client: HttpClient.HttpClient.With<E, R>) => HttpClient.HttpClient.With<E, R>
  <E, R>(client: HttpClient.HttpClient.With<E, R>, allowance: Service): HttpClient.HttpClient.With<E, R>
} = Function.dual(
  2,
  <E, R>(client: HttpClient.HttpClient.With<E, R>, allowance: Service): HttpClient.HttpClient.With<E, R> =>
    HttpClient.transform(client, (response) => Effect.andThen(allowance.beforeRequest, response))
)
