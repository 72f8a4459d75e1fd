/**
 * What both editions' connections to Redis share, nothing of Effect: where
 * a connection goes, for messages (never its user name, password or
 * query), the passwords it carries (which no message may hold), the
 * settings of ioredis that a command's time limit needs, and which replies
 * refuse the credentials.
 */
import type { RedisOptions } from "ioredis"

/** Where a Redis is: connection options, or a `redis://` or `rediss://` URL. */
export type Connection = RedisOptions | string

/** How long a command waits for Redis unless told otherwise, in milliseconds. */
export const defaultTimeoutMillis = 5_000

/** Pause between two attempts of a command whose connection is down (ioredis reconnects meanwhile), in milliseconds. */
export const retrySpacingMillis = 50

/** How long a store waits before asking again for a slot when every slot is taken, in milliseconds. */
export const slotRetryMillis = 15

/** ioredis waits at most this long between two reconnections. */
const longestReconnectMillis = 500

/** The message when ioredis, an optional peer dependency, is not installed. */
export const missingIoredis = "effect-catalog/redis needs the optional peer dependency ioredis, which is not installed: npm install ioredis"

/** Whether a failure to resolve a module is ioredis missing. */
export const isIoredisMissing = (cause: unknown): boolean =>
  cause instanceof Error && "code" in cause && cause.code === "MODULE_NOT_FOUND" && cause.message.includes("ioredis")

/**
 * ioredis' settings that the time limit needs, whatever the connection says
 * of them: commands queue while it reconnects (every 500 ms at most), and
 * are handed back at each failed connection, so that their wait is counted
 * by the store.
 */
export const ownSettings = (timeoutMillis: number): RedisOptions => ({
  enableOfflineQueue: true,
  maxRetriesPerRequest: 0,
  connectTimeout: timeoutMillis,
  retryStrategy: (attempts: number) => Math.min(attempts * 50, longestReconnectMillis)
})

/** Replies that say the password or the user's rights were refused. */
export const authenticationReply = /^(NOAUTH|WRONGPASS|NOPERM)\b|invalid password/i

/** A URL as ioredis reads it: with a scheme, or `host:port` taken as `redis://host:port`. */
const urlOf = (text: string): URL | undefined => {
  const full = /^[a-z][a-z\d+.-]*:\/\//i.test(text) ? text : `redis://${text}`
  return URL.canParse(full) ? new URL(full) : undefined
}

/**
 * Where a connection goes, for messages: scheme, host, port and database of a
 * URL (never its user name, password or query), or the host and port of
 * options, or a Unix socket's path.
 */
export const addressOf = (connection: Connection): string => {
  if (typeof connection !== "string") {
    if (connection.path !== undefined) return connection.path
    const scheme = connection.tls === undefined ? "redis" : "rediss"
    const database = connection.db === undefined || connection.db === 0 ? "" : `/${connection.db}`
    return `${scheme}://${connection.host ?? "localhost"}:${connection.port ?? 6379}${database}`
  }
  if (connection.startsWith("/")) return connection.split("?")[0] ?? connection
  const url = urlOf(connection)
  return url === undefined ? "an unreadable URL" : `${url.protocol}//${url.host}${url.pathname === "/" ? "" : url.pathname}`
}

const decoded = (text: string) => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** Every password a connection carries: in a URL's user information or query, or in options. */
const passwordsOf = (connection: Connection): ReadonlyArray<string> => {
  if (typeof connection !== "string") return [connection.password ?? ""].filter((password) => password !== "")
  const url = urlOf(connection.startsWith("/") ? `redis://localhost${connection}` : connection)
  if (url === undefined) return []
  // ioredis decodes the password of the user information; either form could reach a message.
  return [url.password, decoded(url.password), ...url.searchParams.getAll("password")].filter((password) => password !== "")
}

/** Takes every password of `connection` out of a text. */
export const redactorOf = (connection: Connection): (text: string) => string => {
  const passwords = passwordsOf(connection)
  return (text) => passwords.reduce((kept, password) => kept.split(password).join("[redacted]"), text)
}
