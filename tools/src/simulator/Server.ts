/**
 * The simulator's HTTP application: one route per operation of the contract,
 * each applying the contract's rules in the service's order (credentials,
 * authentication, parameters, scope, admission, faults, the answer, size,
 * conditional request) and answering problem+json on every refusal.
 *
 * @since 0.1.0
 */
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { Clock, Data, Duration, Effect, Either, Schema } from "effect"
import { createHash } from "node:crypto"
import type { AnyOperation } from "../../../common/src/contract/Operations.js"
import * as Operations from "../../../common/src/contract/Operations.js"
import { cursorLifetime, maxResponseBytes } from "../../../common/src/contract/Limits.js"
import { defaultLimit, describeError, PathParameter } from "../../../common/src/contract/Parameters.js"
import * as Cursor from "./Cursor.js"
import type { ListAnswer, Wire } from "./data/Catalog.js"
import type { State } from "./State.js"


const second = 1_000
const observedAt = "2026-11-20T12:00:00.000Z"

class Problem extends Data.TaggedError("Problem")<{
  readonly status: number
  readonly code: string
  readonly detail: string
  readonly retryAfterMillis?: number
  readonly extra?: Readonly<Record<string, string>>
}> {}

const titles: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  503: "Service Unavailable"
}

/** Parameter names that would carry a key in the query string. */
const credentialNames = new Set(["api_key", "apikey", "key", "token", "access_token", "authorization"])

const retryAfterHeader = (state: State, millis: number): string =>
  state.options.timeScale === 1 ? String(Math.max(1, Math.ceil(millis / second))) : (Math.max(1, millis) / second).toFixed(3)

const json = (body: string, status: number, contentType: string, headers: Record<string, string>) =>
  HttpServerResponse.text(body, { status, contentType, headers })

const problemBody = (problem: Problem, requestId: string): string =>
  JSON.stringify({
    type: `https://catalog.example/problems/${problem.code}`,
    title: titles[problem.status] ?? "Error",
    status: problem.status,
    code: problem.code,
    detail: problem.detail,
    request_id: requestId,
    ...problem.extra
  })

const problemResponse = (state: State, problem: Problem, requestId: string) =>
  json(problemBody(problem, requestId), problem.status, "application/problem+json", {
    "x-request-id": requestId,
    ...(problem.retryAfterMillis === undefined ? {} : { "retry-after": retryAfterHeader(state, problem.retryAfterMillis) })
  })

const fail = (status: number, code: string, detail: string, more: Partial<Pick<Problem, "retryAfterMillis" | "extra">> = {}) =>
  Effect.fail(new Problem({ status, code, detail, ...more }))

const etagOf = (body: string) => `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`

const matchesEtag = (ifNoneMatch: string | undefined, etag: string): boolean =>
  ifNoneMatch !== undefined &&
  ifNoneMatch.split(",").map((tag) => tag.trim().replace(/^W\//, "")).some((tag) => tag === "*" || tag === etag)

/** Refuses a key sent in the query string, under any name or as any value. */
const refuseKeysInQuery = (state: State, url: URL) =>
  Array.from(url.searchParams).some(([name, value]) => credentialNames.has(name.toLowerCase()) || state.isKey(name) || state.isKey(value))
    ? fail(400, "key_in_query", "Keys must not be sent in the query string; use the Authorization header.")
    : Effect.void

/** Reads the query string strictly: no unknown and no repeated names. */
const readQuery = (operation: AnyOperation, url: URL) =>
  Effect.gen(function*() {
    const allowed = new Set(Object.keys(operation.query.fields))
    const query: Record<string, string> = {}
    for (const [name, value] of url.searchParams) {
      if (!allowed.has(name)) return yield* fail(400, "unknown_parameter", `Unknown parameter: ${name}.`)
      if (name in query) return yield* fail(400, "repeated_parameter", `Repeated parameter: ${name}.`)
      query[name] = value
    }
    return query
  })

const authenticate = (state: State, authorization: string | undefined) => {
  const match = authorization === undefined ? null : /^Bearer ([^\s]+)$/.exec(authorization)
  const grant = match?.[1] === undefined ? undefined : state.grantOf(match[1])
  if (grant === undefined) return fail(401, "invalid_api_key", "A valid key is required in the Authorization header.")
  if (grant === "revoked") return fail(401, "invalid_api_key", "This key has been revoked.")
  return Effect.succeed(grant)
}

const decodeParameters = <A, I>(schema: Schema.Schema<A, I>, input: unknown, name?: string) =>
  Either.match(Schema.decodeUnknownEither(schema, { errors: "first", onExcessProperty: "error" })(input), {
    onLeft: (error) => fail(400, "invalid_parameter", name === undefined ? describeError(error) : `${name}: ${describeError(error)}`),
    onRight: Effect.succeed
  })


/** The listing a cursor belongs to: operation, path and filters. */
const listingOf = (operation: AnyOperation, path: Readonly<Record<string, string>>, query: Readonly<Record<string, string>>) => {
  const filters = Object.entries(query).filter(([name]) => name !== "cursor" && name !== "limit").sort()
  return JSON.stringify([operation.id, path, filters])
}

const take = <A>(items: Iterable<A>, count: number): Array<A> => {
  const out: Array<A> = []
  if (count <= 0) return out
  for (const item of items) {
    out.push(item)
    if (out.length >= count) break
  }
  return out
}

/**
 * A successful answer: its body, and what its entity tag is computed from
 * (the body, but for the issue time inside a list's cursor, so that an
 * unchanged page keeps its tag).
 */
interface Answer {
  readonly body: string
  readonly identity: string
}

const plain = (body: string): Answer => ({ body, identity: body })

/** The body of a successful answer, or the problem that replaces it. */
const answer = (
  state: State,
  operation: AnyOperation,
  url: URL,
  path: Readonly<Record<string, string>>,
  raw: Readonly<Record<string, string>>,
  query: Readonly<Record<string, unknown>>,
  now: number,
  /** Whether to refuse the cursor as expired whatever its age (the `expire` fault). */
  expireCursor: boolean
) =>
  Effect.gen(function*() {
    const catalog = state.catalogAt(now)
    const request = { path, query }
    if (operation.id === "usage") return plain(JSON.stringify({ data: state.account.usage(now) }))
    if (operation.kind === "detail") {
      const found = catalog.details[operation.id](path)
      if (found === undefined) return yield* fail(404, "not_found", `No such resource: ${url.pathname}`)
      return plain(JSON.stringify({ data: found }))
    }
    const listing = listingOf(operation, path, raw)
    let after: string | null = null
    if (raw.cursor !== undefined) {
      const position = Cursor.decode(state.cursorSecret, listing, raw.cursor)
      if (position === "malformed") return yield* fail(400, "invalid_cursor", "The cursor is not one this service issued.")
      if (position === "foreign") {
        return yield* fail(400, "invalid_cursor", "The cursor belongs to another listing; keep the same filters.")
      }
      if (expireCursor || now - position.issuedAt > state.scaled(Duration.toMillis(cursorLifetime))) {
        return yield* fail(409, "cursor_expired", "The cursor is older than one hour; restart the listing.")
      }
      after = position.after
    }
    const items: ListAnswer = catalog.lists[operation.id](request, after)
    if (items === undefined) return yield* fail(404, "not_found", `No such resource: ${url.pathname}`)
    const limit = typeof query.limit === "number" ? query.limit : defaultLimit(operation.maxLimit)
    const page: Array<Wire> = take(items, limit + 1)
    if (catalog.churn.rate > 0 && state.options.churnClock === "pages") catalog.epoch++
    const hasMore = page.length > limit
    const data = hasMore ? page.slice(0, limit) : page
    const last = data[data.length - 1]
    const nextCursor = hasMore && last !== undefined
      ? Cursor.encode(state.cursorSecret, { listing, after: last.id, issuedAt: now })
      : null
    const next = new URL(url.pathname, state.baseUrl)
    for (const [name, value] of Object.entries(raw)) if (name !== "cursor" && name !== "limit") next.searchParams.set(name, value)
    next.searchParams.set("limit", String(limit))
    if (nextCursor !== null) next.searchParams.set("cursor", nextCursor)
    const fresh = operation.id !== "topics" && operation.id !== "articles"
    const body = JSON.stringify({
      data,
      pagination: { limit, has_more: hasMore, next_cursor: nextCursor },
      links: { next: nextCursor === null ? null : next.href },
      meta: { observed_at: fresh ? observedAt : null, stale: fresh ? false : null }
    })
    return { body, identity: nextCursor === null ? body : body.split(nextCursor).join(`@${last?.id ?? ""}`) }
  })

const handle = (state: State, operation: AnyOperation) => {
  const querySchema: Schema.Schema.AnyNoContext = operation.query
  return Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const params = yield* HttpRouter.params
    const { draw, expiryDraw, requestId } = state.nextRequest()
    const url = new URL(request.url, state.baseUrl)
    const arrived = yield* Clock.currentTimeMillis

    const serve = Effect.gen(function*() {
      yield* refuseKeysInQuery(state, url)
      const grant = yield* authenticate(state, request.headers["authorization"])
      const raw = yield* readQuery(operation, url)
      const path: Record<string, string> = {}
      for (const name of operation.pathParameters) {
        path[name] = yield* decodeParameters(PathParameter, params[name] ?? "", name)
      }
      const query: Readonly<Record<string, unknown>> = yield* decodeParameters(querySchema, raw)
      const scope = Operations.requiredScope(operation, query)
      if (scope !== undefined && !grant.includes(scope)) {
        return yield* fail(403, "insufficient_scope", `This operation requires the ${scope} scope.`, { extra: { required_scope: scope } })
      }
      if (state.injected.remaining > 0) {
        state.injected.remaining--
        return yield* fail(429, "rate_limited", "The account's request rate was exceeded.", { retryAfterMillis: state.injected.retryAfterMillis })
      }
      const now = arrived
      const admission = state.account.admit(now, { units: operation.units, usage: operation.id === "usage" })
      if (admission._tag === "Refused") {
        return yield* fail(429, admission.code, admission.detail, { retryAfterMillis: admission.retryAfterMillis })
      }
      const ticket = admission.ticket
      // An answer that never completes keeps its units and its whole byte reservation.
      let outcome = { units: operation.units, bytes: maxResponseBytes }
      return yield* Effect.gen(function*() {
        const faults = state.faults
        if (draw < faults.unavailable) {
          outcome = { units: 0, bytes: 0 }
          return yield* fail(503, "service_unavailable", "The service is temporarily unavailable.", {
            retryAfterMillis: state.scaled((1 + Math.floor(draw * 1000) % 3) * second)
          })
        }
        if (draw < faults.unavailable + faults.slow) yield* Effect.sleep(faults.slowMillis)
        if (draw >= 1 - faults.drop) {
          NodeHttpServerRequest.toIncomingMessage(request).socket.destroy()
          return HttpServerResponse.empty({ status: 499 })
        }
        const { body, identity } = yield* answer(state, operation, url, path, raw, query, now, expiryDraw < faults.expire).pipe(
          Effect.tapError((problem) => Effect.sync(() => (outcome = { units: operation.units, bytes: problemBody(problem, requestId).length })))
        )
        const bytes = Buffer.byteLength(body)
        if (bytes > maxResponseBytes) {
          return yield* fail(422, "response_too_large", `The response would be ${bytes} bytes, over the limit of ${maxResponseBytes}; request a smaller page.`)
        }
        const etag = etagOf(identity)
        if (matchesEtag(request.headers["if-none-match"], etag)) {
          outcome = { units: 0, bytes: 0 }
          return HttpServerResponse.empty({ status: 304, headers: { etag, "x-request-id": requestId } })
        }
        outcome = { units: operation.units, bytes }
        return json(body, 200, "application/json", { etag, "x-request-id": requestId, "cache-control": "private, no-cache" })
      }).pipe(Effect.ensuring(Effect.sync(() => state.account.settle(ticket, outcome))))
    })

    const response = yield* serve.pipe(Effect.catchTag("Problem", (problem) => Effect.succeed(problemResponse(state, problem, requestId))))
    state.record({ at: yield* Clock.currentTimeMillis, arrived, operation: operation.id, status: response.status })
    return response
  })
}

/** The router's form of a contract path: `{name}` becomes `:name`. */
const routePath = (path: string): HttpRouter.PathInput => `/api/v1${path.replace(/\{([^}]+)\}/g, ":$1")}`

/**
 * The simulator's application: every operation at its path below `/api/v1`,
 * and 404 problem+json for any other path.
 *
 * @since 0.1.0
 */
export const make = (state: State) =>
  Operations.all
    .reduce(
      (router, operation) =>
        HttpRouter.get(router, routePath(operation.path), handle(state, operation)),
      HttpRouter.empty
    )
    .pipe(
      // Path parameters may be up to 200 characters; longer ones get a 400 from the handler, not a 404.
      HttpRouter.withRouterConfig({ maxParamLength: 1000 }),
      Effect.catchTag("RouteNotFound", () =>
        Effect.sync(() => {
          const { requestId } = state.nextRequest()
          return problemResponse(state, new Problem({ status: 404, code: "not_found", detail: "No such path." }), requestId)
        })
      )
    )
