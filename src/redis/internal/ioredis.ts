/**
 * `ioredis` is an optional peer dependency: loading `effect-catalog/redis`
 * without it fails at once with a message that says how to install it,
 * rather than with a module resolution error from deep inside the package.
 * The modules of this entry load `ioredis` itself only when a layer is built.
 *
 * A connection's commands fail, typed, within a time limit: a command waits
 * for a connection that was refused or dropped until it is back (ioredis
 * reconnects), and fails with `AdmissionUnavailable` when it is not back
 * within the limit; a refused password fails at once; a command with no
 * answer within the limit fails. No password is ever in a message.
 */
import { Clock, Data, Duration, Effect, Ref, type Scope } from "effect"
import type { Redis } from "ioredis"
import { createRequire } from "node:module"
import { AdmissionUnavailable } from "../../../common/src/client/Errors.js"
import * as Connections from "../../../rules/src/redis/Connections.js"
import * as Scripts from "../../../rules/src/redis/Scripts.js"

try {
  createRequire(import.meta.url).resolve("ioredis")
} catch (cause) {
  throw Connections.isIoredisMissing(cause) ? new Error(Connections.missingIoredis, { cause }) : cause
}

/** Where a Redis is: connection options, or a `redis://` or `rediss://` URL. */
export type Connection = Connections.Connection

/** How long a command waits for Redis unless told otherwise. */
export const defaultTimeout = Duration.millis(Connections.defaultTimeoutMillis)

/** The start of an outage: what failed first, and when the command that met it gives up at the latest. */
export interface Outage {
  /** Where Redis is, without user name, password or query. */
  readonly address: string
  /** What failed, such as `connect ECONNREFUSED 127.0.0.1:6379`. */
  readonly cause: string
  /** When the command fails with `AdmissionUnavailable` unless Redis is back. */
  readonly until: Date
}

/** How a connection's commands wait. */
export interface Settings {
  /** How long a command waits, from its first failure or for its answer. */
  readonly timeout: Duration.DurationInput
  /** Told once per outage, at its first failure. */
  readonly onOutage?: (outage: Outage) => Effect.Effect<void>
}

/** A connection of its own, whose commands fail within the time limit. */
export interface Client {
  /** Where Redis is, without user name, password or query. */
  readonly address: string
  /** Runs a command, waiting for a connection that is down for at most the time limit. */
  readonly run: <A>(command: (redis: Redis) => Promise<A>) => Effect.Effect<A, AdmissionUnavailable>
  /** Sends a command without waiting for its answer: Redis runs one connection's commands in order. */
  readonly send: (command: (redis: Redis) => Promise<unknown>) => Effect.Effect<void>
  /** Runs one of the shared scripts (`Scripts.lua`) with its keys and arguments, and gives its reply. */
  readonly script: (call: Scripts.Call) => Effect.Effect<unknown, AdmissionUnavailable>
  /** Runs one command, and gives its reply. */
  readonly ask: (command: string, ...args: ReadonlyArray<string>) => Effect.Effect<unknown, AdmissionUnavailable>
  /** `send` of one command by name. */
  readonly post: (command: string, ...args: ReadonlyArray<string>) => Effect.Effect<void>
}

/** The calls by name, over `run` and `send`: the same in both editions' clients. */
const byName = (run: Client["run"], send: Client["send"]): Pick<Client, "script" | "ask" | "post"> => ({
  script: (call) => run((redis) => redis.eval(Scripts.lua[call.script], call.keys.length, ...call.keys, ...call.args)),
  ask: (command, ...args) => run((redis) => redis.call(command, ...args)),
  post: (command, ...args) => send((redis) => redis.call(command, ...args))
})

/** Pause between two attempts of a command whose connection is down (ioredis reconnects meanwhile). */
const retrySpacing = Duration.millis(Connections.retrySpacingMillis)

/** The connection failed (refused, dropped, not yet back): worth another attempt within the time limit. */
class Dropped extends Data.TaggedError("Dropped")<{ readonly cause: string }> {}

/** Where a connection goes, for messages (see `Connections.addressOf`). */
export const addressOf = Connections.addressOf

/**
 * Opens a connection of its own, closed with the scope (at once: a Redis
 * that is down holds nothing up). ioredis' settings are the ones the time
 * limit needs, whatever `connection` says of them: commands queue while it
 * reconnects (every 500 ms at most), and are handed back at each failed
 * connection, so that their wait is counted here. A URL that ioredis cannot
 * read fails every command.
 */
export const connect = (connection: Connection, settings: Settings): Effect.Effect<Client, never, Scope.Scope> =>
  Effect.gen(function*() {
    const timeout = Duration.decode(settings.timeout)
    const timeoutMillis = Duration.toMillis(timeout)
    const address = addressOf(connection)
    const redact = Connections.redactorOf(connection)
    const unavailable = (reason: AdmissionUnavailable["reason"], detail: string) =>
      new AdmissionUnavailable({ address, reason, detail: `Redis at ${address} ${detail}` })
    const { Redis } = yield* Effect.promise(() => import("ioredis"))
    const own = Connections.ownSettings(timeoutMillis)
    // Its error (`Invalid URL`) may hold the URL, password included: it is not kept.
    const opened = yield* Effect.option(Effect.try(() =>
      typeof connection === "string" ? new Redis(connection, own) : new Redis({ ...connection, ...own })
    ))
    if (opened._tag === "None") {
      const unreadable = unavailable("Connection", "cannot be connected to: ioredis cannot read its URL")
      const run: Client["run"] = () => Effect.fail(unreadable)
      const send: Client["send"] = () => Effect.void
      return { address, run, send, ...byName(run, send) }
    }
    const redis = opened.value
    yield* Effect.addFinalizer(() => Effect.sync(() => redis.disconnect()))
    // The last connection error ioredis reported: a queued command is handed back with a generic one.
    let lastError: string | undefined
    redis.on("error", (error: Error) => (lastError = redact(error.message))).on("ready", () => (lastError = undefined))
    const down = yield* Ref.make(false)
    const classify = (cause: unknown): AdmissionUnavailable | Dropped => {
      const name = cause instanceof Error ? cause.name : ""
      const message = redact(cause instanceof Error ? cause.message : String(cause))
      if (name === "ReplyError") {
        const reply = message.replace(/\.$/, "")
        return Connections.authenticationReply.test(reply)
          ? unavailable("Authentication", `refused the credentials: ${reply}`)
          : unavailable("Command", `refused a command: ${reply}`)
      }
      // ioredis hands a queued command back with a generic error at each failed connection.
      return new Dropped({ cause: lastError ?? (name === "MaxRetriesPerRequestError" ? "the connection closed" : message) })
    }
    const announce = (cause: string, until: number) =>
      Effect.whenEffect(
        settings.onOutage === undefined ? Effect.void : settings.onOutage({ address, cause, until: new Date(until) }),
        Effect.map(Ref.getAndSet(down, true), (before) => !before)
      )
    /** One attempt, then others while the connection is down, until `deadline` (none before the first failure). */
    const attempt = <A>(command: (redis: Redis) => Promise<A>, deadline: number | null): Effect.Effect<A, AdmissionUnavailable> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.tryPromise({ try: () => command(redis), catch: classify }).pipe(
          Effect.timeoutFail({
            duration: deadline === null ? timeout : Duration.millis(Math.max(0, deadline - now)),
            onTimeout: () =>
              deadline === null
                ? unavailable("Timeout", `did not answer within ${Duration.format(timeout)}`)
                : unavailable("Connection", `was not back within ${Duration.format(timeout)}: ${lastError ?? "the connection is down"}`)
          }),
          Effect.tap(() => Ref.set(down, false)),
          Effect.catchTag("Dropped", (dropped) =>
            Effect.flatMap(Clock.currentTimeMillis, (at) => {
              const until = deadline ?? at + timeoutMillis
              return at >= until
                ? Effect.fail(unavailable("Connection", `was not back within ${Duration.format(timeout)}: ${dropped.cause}`))
                : announce(dropped.cause, until).pipe(Effect.zipRight(Effect.sleep(retrySpacing)), Effect.zipRight(attempt(command, until)))
            }))
        ))
    const run: Client["run"] = (command) => attempt(command, null)
    const send: Client["send"] = (command) => Effect.sync(() => void command(redis).catch(() => undefined))
    return { address, run, send, ...byName(run, send) }
  })
