/**
 * Raw HTTP against a simulator, for tests of the service's rules.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { Effect, Layer, Redacted, Schema } from "effect"
import { Resources } from "../../src/index.js"
import * as Simulator from "../../common/src/simulator/Simulator.js"

export interface Reply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
  /** The parsed body, or `undefined` when it is not JSON. */
  readonly json: unknown
}

export interface RequestOptions {
  /** A simulator key name, a raw key, or `null` for no Authorization header. */
  readonly key?: Simulator.KeyName | Redacted.Redacted<string> | null
  readonly headers?: Readonly<Record<string, string>>
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** GET `url` (absolute, or a path below the simulator's base URL). */
export const get = (url: string, options: RequestOptions = {}) =>
  Effect.gen(function*() {
    const simulator = yield* Simulator.Simulator
    const client = yield* HttpClient.HttpClient
    const key = options.key === undefined ? simulator.keys.full : typeof options.key === "string" ? simulator.keys[options.key] : options.key
    const target = url.startsWith("http") ? url : `${simulator.baseUrl}${url}`
    const request = HttpClientRequest.get(target).pipe(
      HttpClientRequest.setHeaders(options.headers ?? {}),
      key === null ? (r) => r : HttpClientRequest.bearerToken(Redacted.value(key))
    )
    const response = yield* client.execute(request)
    const text = yield* response.text
    const reply: Reply = { status: response.status, headers: response.headers, text, json: parse(text) }
    return reply
  }).pipe(Effect.scoped)

/** The `data` member of a reply's body. */
export const data = (reply: Reply): unknown =>
  typeof reply.json === "object" && reply.json !== null && "data" in reply.json ? reply.json.data : undefined

const UsageBody = Schema.Struct({ data: Resources.Usage })

/** The account's `/usage/`, over plain HTTP. */
export const usage = Effect.flatMap(get("/usage/"), (reply) => Schema.decodeUnknown(UsageBody)(reply.json)).pipe(
  Effect.map((body) => body.data)
)

/** A simulator with these settings and an HTTP client for it. */
export const simulator = (settings: Simulator.Settings = {}) =>
  Layer.merge(Simulator.layer(settings), NodeHttpClient.layerUndici)
