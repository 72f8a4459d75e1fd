/**
 * A connection to Redis through ioredis, as `effect/persistence`'s `Redis`
 * service, whose commands fail, typed, within a time limit: a command waits
 * for a connection that was refused or dropped until it is back (ioredis
 * reconnects), and fails with `AdmissionUnavailable` when it is not back
 * within the limit; a refused password fails at once; a command with no
 * answer within the limit fails. No password is ever in a message.
 *
 * `ioredis` is an optional peer dependency: loading `effect-catalog/redis`
 * without it fails at once with a message that says how to install it. The
 * modules of this entry load `ioredis` itself only when a layer is built.
 *
 * @internal
 */
import { Clock, Data, Duration, Effect, Ref, type Scope } from "effect"
import { Redis } from "effect/persistence"
import type { Command as IoCommand, Redis as IoRedis } from "ioredis"
import { createRequire } from "node:module"
import * as Connections from "../../../../rules/src/redis/Connections.js"
import * as Scripts from "../../../../rules/src/redis/Scripts.js"
import { AdmissionUnavailable } from "../../../../common/src/client/Errors.js"

try {
  createRequire(import.meta.url).resolve("ioredis")
} catch (cause) {
  throw Connections.isIoredisMissing(cause) ? new Error(Connections.missingIoredis, { cause }) : cause
}

/** Where a Redis is: connection options, or a `redis://` or `rediss://` URL. */
export type Connection = Connections.Connection

/** How long a command waits for Redis unless told otherwise. */
export const defaultTimeout: Duration.Duration = Duration.millis(Connections.defaultTimeoutMillis)

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
  readonly timeout: Duration.Input
  /** Told once per outage, at its first failure. */
  readonly onOutage?: (outage: Outage) => Effect.Effect<void>
}

/** A connection of its own, whose commands fail within the time limit. */
export interface Client {
  /** Where Redis is, without user name, password or query. */
  readonly address: string
  /** The connection as `effect/persistence`'s service: its failures say why in their cause (`run` reads it). */
  readonly redis: Redis.Redis["Service"]
  /** Runs commands of `redis`, waiting for a connection that is down for at most the time limit. */
  readonly run: <A>(commands: Effect.Effect<A, Redis.RedisError>) => Effect.Effect<A, AdmissionUnavailable>
  /** Runs one of the shared scripts (`Scripts.lua`) with its keys and arguments, and gives its reply. */
  readonly script: (call: Scripts.Call) => Effect.Effect<unknown, AdmissionUnavailable>
  /** Runs one command, and gives its reply. */
  readonly ask: (command: string, ...args: ReadonlyArray<string>) => Effect.Effect<unknown, AdmissionUnavailable>
  /** Sends a command without waiting for its answer: Redis runs one connection's commands in order. */
  readonly post: (command: string, ...args: ReadonlyArray<string>) => Effect.Effect<void>
}

/** A script of the shared ones, as `effect/persistence` runs it: loaded once, then by its digest. */
const scriptOf = (lua: string) =>
  Redis.script((keys: ReadonlyArray<string>, args: ReadonlyArray<string | number>) => [...keys, ...args], {
    lua,
    numberOfKeys: (keys) => keys.length
  }).withReturnType<unknown>()

/** Every shared script, made once (the service caches a script's digest by the script). */
const scripts = {
  acquireSlot: scriptOf(Scripts.lua.acquireSlot),
  turn: scriptOf(Scripts.lua.turn),
  answered: scriptOf(Scripts.lua.answered),
  pause: scriptOf(Scripts.lua.pause),
  paused: scriptOf(Scripts.lua.paused),
  allow: scriptOf(Scripts.lua.allow)
} satisfies Record<Scripts.ScriptName, unknown>

/** The calls by name, over `run` and the service: the same in both editions' clients. */
const byName = (redis: Client["redis"], run: Client["run"]): Pick<Client, "script" | "ask"> => ({
  script: (call) => run(redis.eval(scripts[call.script])(call.keys, call.args)),
  ask: (command, ...args) => run(redis.send(command, ...args))
})

/** The connection failed (refused, dropped, not yet back): worth another attempt within the time limit. */
class Dropped extends Data.TaggedError("Dropped")<{ readonly cause: string }> {}

/** What a connection's commands need to say what failed. */
interface Failures {
  readonly address: string
  readonly redact: (text: string) => string
  /** The last connection error ioredis reported: a queued command is handed back with a generic one. */
  readonly lastError: () => string | undefined
}

const unavailableAt = (address: string) => (reason: AdmissionUnavailable["reason"], detail: string) =>
  new AdmissionUnavailable({ address, reason, detail: `Redis at ${address} ${detail}` })

/** Why a command failed: Redis refused it (the credentials, or the command), or the connection is down. */
const classify = (failures: Failures) => (cause: unknown): AdmissionUnavailable | Dropped => {
  const name = cause instanceof Error ? cause.name : ""
  const message = failures.redact(cause instanceof Error ? cause.message : String(cause))
  if (name === "ReplyError") {
    const reply = message.replace(/\.$/, "")
    return Connections.authenticationReply.test(reply)
      ? unavailableAt(failures.address)("Authentication", `refused the credentials: ${reply}`)
      : unavailableAt(failures.address)("Command", `refused a command: ${reply}`)
  }
  // ioredis hands a queued command back with a generic error at each failed connection.
  return new Dropped({ cause: failures.lastError() ?? (name === "MaxRetriesPerRequestError" ? "the connection closed" : message) })
}

/** What `run` reads of a failure of the service: why it failed, as `classify` said. */
const reasonOf = (failures: Failures) => (error: Redis.RedisError): AdmissionUnavailable | Dropped =>
  error.cause instanceof AdmissionUnavailable || error.cause instanceof Dropped ? error.cause : classify(failures)(error.cause)

/** What this module takes of ioredis beside its client: its command, whose reply type is the caller's to state. */
interface IoModule {
  readonly Command: typeof IoCommand
}

/**
 * Sends a command on `client`; a reply is text (UTF-8), as ioredis' `call`
 * gives it. Its type is the caller's to state, as the service's `send` has
 * it: this package's modules ask for `unknown` and read replies with the
 * shared readers of `Scripts`.
 */
const sender = (io: IoModule, client: IoRedis, failures: Failures) =>
<A = unknown>(command: string, ...args: ReadonlyArray<string>): Effect.Effect<A, Redis.RedisError> =>
  Effect.tryPromise({
    try: () => {
      const sent = new io.Command(command, [...args], { replyEncoding: "utf8" })
      void client.sendCommand(sent)
      return sent.promise
    },
    catch: (cause) => new Redis.RedisError({ cause: classify(failures)(cause) })
  })

/** A connection of its own (a subscriber or a reserved one), closed at once when it is given back. */
const duplicate = (io: IoModule, client: IoRedis, failures: Failures) => {
  const connection = client.duplicate()
  connection.on("error", () => undefined)
  return { connection, send: sender(io, connection, failures), close: Effect.sync(() => connection.disconnect()) }
}

/** The service over `client`: its commands, scripts (loaded once, then run by their digest), subscriptions and reserved connections. */
const serviceOf = (io: IoModule, client: IoRedis, failures: Failures) =>
  Redis.make({
    send: sender(io, client, failures),
    connect: Effect.sync(() => duplicate(io, client, failures)),
    subscribe: (channel, onMessage) =>
      Effect.gen(function*() {
        const subscriber = yield* Effect.acquireRelease(Effect.sync(() => duplicate(io, client, failures)), (opened) => opened.close)
        subscriber.connection.on("message", (from: string, message: string) => onMessage({ channel: from, message }))
        yield* Effect.tryPromise({
          try: () => subscriber.connection.subscribe(channel),
          catch: (cause) => new Redis.RedisError({ cause: classify(failures)(cause) })
        })
        return Effect.never
      })
  })

/**
 * Runs `commands`, once, then again while the connection is down, until
 * `deadline` (none before the first failure): a first failure is told
 * (`announce`), an answer clears it.
 */
const attempts = (
  timeout: Duration.Duration,
  reason: (error: Redis.RedisError) => AdmissionUnavailable | Dropped,
  failures: Failures,
  announce: (cause: string, until: number) => Effect.Effect<void>,
  down: Ref.Ref<boolean>
) => {
  const unavailable = unavailableAt(failures.address)
  const notBack = (cause: string) => unavailable("Connection", `was not back within ${Duration.format(timeout)}: ${cause}`)
  const attempt = <A>(commands: Effect.Effect<A, Redis.RedisError>, deadline: number | null): Effect.Effect<A, AdmissionUnavailable> =>
    Effect.flatMap(Clock.currentTimeMillis, (now) =>
      commands.pipe(
        Effect.mapError(reason),
        Effect.timeoutOrElse({
          duration: deadline === null ? timeout : Duration.millis(Math.max(0, deadline - now)),
          orElse: () =>
            Effect.fail(
              deadline === null
                ? unavailable("Timeout", `did not answer within ${Duration.format(timeout)}`)
                : notBack(failures.lastError() ?? "the connection is down")
            )
        }),
        Effect.tap(() => Ref.set(down, false)),
        Effect.catchTag("Dropped", (dropped) =>
          Effect.flatMap(Clock.currentTimeMillis, (at) => {
            const until = deadline ?? at + Duration.toMillis(timeout)
            return at >= until
              ? Effect.fail(notBack(dropped.cause))
              : announce(dropped.cause, until).pipe(
                Effect.andThen(Effect.sleep(Duration.millis(Connections.retrySpacingMillis))),
                Effect.andThen(attempt(commands, until))
              )
          }))
      ))
  return attempt
}

/**
 * Opens a connection of its own, closed with the scope (at once: a Redis
 * that is down holds nothing up), with the ioredis settings the time limit
 * needs (`Connections.ownSettings`), whatever `connection` says of them. A
 * URL that ioredis cannot read fails every command.
 */
export const connect = (connection: Connection, settings: Settings): Effect.Effect<Client, never, Scope.Scope> =>
  Effect.gen(function*() {
    const timeout = Duration.fromInputUnsafe(settings.timeout)
    const address = Connections.addressOf(connection)
    let lastError: string | undefined
    const failures: Failures = { address, redact: Connections.redactorOf(connection), lastError: () => lastError }
    const io = yield* Effect.promise(() => import("ioredis"))
    const own = Connections.ownSettings(Duration.toMillis(timeout))
    // Its error (`Invalid URL`) may hold the URL, password included: it is not kept.
    const opened = yield* Effect.option(Effect.try(() =>
      typeof connection === "string" ? new io.Redis(connection, own) : new io.Redis({ ...connection, ...own })
    ))
    if (opened._tag === "None") return unreadable(address)
    const client = opened.value
    yield* Effect.addFinalizer(() => Effect.sync(() => client.disconnect()))
    client.on("error", (error: Error) => (lastError = failures.redact(error.message))).on("ready", () => (lastError = undefined))
    const down = yield* Ref.make(false)
    const announce = (cause: string, until: number) =>
      Effect.flatMap(Ref.getAndSet(down, true), (before) =>
        before || settings.onOutage === undefined ? Effect.void : settings.onOutage({ address, cause, until: new Date(until) }))
    const attempt = attempts(timeout, reasonOf(failures), failures, announce, down)
    const redis = yield* serviceOf(io, client, failures)
    const run: Client["run"] = (commands) => attempt(commands, null)
    const service: Client = {
      address,
      redis,
      run,
      ...byName(redis, run),
      post: (command, ...args) => Effect.sync(() => void client.call(command, ...args).catch(() => undefined))
    }
    return service
  })

/** A connection whose URL ioredis cannot read: every command fails. */
const unreadable = (address: string): Client => {
  const refusal = unavailableAt(address)("Connection", "cannot be connected to: ioredis cannot read its URL")
  const failing = <A>(): Effect.Effect<A, Redis.RedisError> => Effect.fail(new Redis.RedisError({ cause: refusal }))
  return {
    address,
    redis: {
      send: failing,
      eval: () => failing,
      subscribe: () => Effect.die(refusal),
      reserve: Effect.fail(new Redis.RedisError({ cause: refusal }))
    },
    run: () => Effect.fail(refusal),
    script: () => Effect.fail(refusal),
    ask: () => Effect.fail(refusal),
    post: () => Effect.void
  }
}
