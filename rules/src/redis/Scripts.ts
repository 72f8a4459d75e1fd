/**
 * What every process of an account agrees on in its Redis, whichever
 * edition of the package runs it: the names of the keys, the Lua scripts
 * and the arguments they take, how the page sizes and the last read of the
 * live allowance are kept, and how the replies read. It imports nothing of
 * Effect: both editions' `effect-catalog/redis` use it, so that processes
 * of either edition on one account share its limits through one Redis.
 */
import { followsAllowance, type Limits, windows } from "../client/AdmissionWindows.js"

/** The prefix of an account's admission keys and page sizes unless told otherwise. */
export const defaultPrefix = "catalog:"

/** The prefix of a key-value store's keys unless told otherwise. */
export const defaultStorePrefix = "catalog:store:"

/** How long the last read of the live allowance is kept: a day (every process reads `/usage/` again on a new UTC day). */
const allowanceLifetimeMillis = 24 * 60 * 60 * 1_000

/** The keys of an account's admission. */
export interface AdmissionKeys {
  /** The concurrent slots: a sorted set of leases scored by their expiry. */
  readonly slots: string
  /** The recent requests: a sorted set scored by when each was answered, or when its lease ends while it is on its way. */
  readonly starts: string
  /** When the pause after a 429 ends (milliseconds on Redis's clock). */
  readonly pause: string
  /** The live minute limit last read. */
  readonly minuteLimit: string
  /** When it was read (milliseconds since the epoch, by the reader's clock). */
  readonly readAt: string
}

/** The keys of the account whose keys start with `prefix`. */
export const admissionKeys = (prefix: string = defaultPrefix): AdmissionKeys => ({
  slots: `${prefix}slots`,
  starts: `${prefix}starts`,
  pause: `${prefix}pause`,
  minuteLimit: `${prefix}minute-limit`,
  readAt: `${prefix}minute-limit-read-at`
})

/** The hash of the account's page sizes, by operation id. */
export const pageSizesKey = (prefix: string = defaultPrefix): string => `${prefix}page-sizes`

// Every script reads the time from Redis (in milliseconds, as `millis`), so that
// processes on different clocks agree.
const redisClock = `
local now = redis.call('TIME')
local millis = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)`

// A slot is a member of a sorted set scored by its expiry, on Redis's clock,
// so that a crashed process cannot hold a slot for ever.
const acquireSlot = `${redisClock}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', millis)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], millis + tonumber(ARGV[3]), ARGV[2])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
  return 1
end
return 0`

// The account's recent requests are one sorted set on Redis's clock: a request on its way is scored by when
// its lease ends (it counts in every window until then, in case its process dies), an answered one by when
// its answer came (the latest it can have reached the service). A request leaves only when, at that moment, no
// pause is in force and every window has room: then it is added, in the same step. Otherwise the script gives
// how long to wait. KEYS: the requests, the account's live minute limit, the pause. ARGV: the longest window,
// a member, the lease, then triples of window, limit, and 1 for the window the live minute limit lowers.
// Gives 0 when the request leaves, else the milliseconds to wait.
const turn = `${redisClock}
local pausedUntil = tonumber(redis.call('GET', KEYS[3]) or '0')
if pausedUntil > millis then return pausedUntil - millis end
local live = tonumber(redis.call('GET', KEYS[2]) or '')
local longest = tonumber(ARGV[1])
local lease = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', millis - longest)
local departure = millis
for i = 4, #ARGV - 2, 3 do
  local window = tonumber(ARGV[i])
  local limit = tonumber(ARGV[i + 1])
  if live and ARGV[i + 2] == '1' then limit = math.max(1, math.min(limit, live)) end
  if redis.call('ZCOUNT', KEYS[1], '(' .. (millis - window), '+inf') >= limit then
    local oldest = redis.call('ZREVRANGE', KEYS[1], limit - 1, limit - 1, 'WITHSCORES')
    departure = math.max(departure, math.min(tonumber(oldest[2]), millis) + window)
  end
end
if departure > millis then return departure - millis end
redis.call('ZADD', KEYS[1], millis + lease, ARGV[2])
redis.call('PEXPIRE', KEYS[1], longest + lease)
return 0`

// A request's answer came: it is scored by now from then on. KEYS: the requests. ARGV: the member.
const answered = `${redisClock}
redis.call('ZADD', KEYS[1], 'XX', millis, ARGV[1])
return 1`

const pause = `${redisClock}
local untilMillis = millis + tonumber(ARGV[1])
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if untilMillis > current then redis.call('SET', KEYS[1], untilMillis, 'PX', tonumber(ARGV[1])) end
return 1`

const paused = `${redisClock}
local untilMillis = tonumber(redis.call('GET', KEYS[1]) or '0')
if untilMillis > millis then return untilMillis - millis end
return 0`

// The last read of the live allowance: its minute limit (which `turn`
// reads) and when it was read, kept together for a day. KEYS: the minute
// limit, the read time. ARGV: the limit, the read time, the lifetime.
const allow = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', tonumber(ARGV[3]))
redis.call('SET', KEYS[2], ARGV[2], 'PX', tonumber(ARGV[3]))
return 1`

/** The Lua text of every script, by name; each gives an integer. */
export const lua = { acquireSlot, turn, answered, pause, paused, allow } as const

/** The name of a script. */
export type ScriptName = keyof typeof lua

/** One run of a script: which, its keys, and its arguments. */
export interface Call {
  readonly script: ScriptName
  readonly keys: ReadonlyArray<string>
  readonly args: ReadonlyArray<string | number>
}

/** What an account's admission sends, worked out once from its limits. */
export interface Admitting {
  readonly keys: AdmissionKeys
  readonly limits: Limits
  /** How long a slot is held, and a request on its way counted, at most if its process dies. */
  readonly leaseMillis: number
  /** Whether any window limits the requests (else a turn only waits for the pause). */
  readonly windowed: boolean
  /** Whether the live minute limit lowers the per-minute window. */
  readonly follows: boolean
  /** The arguments of `turn` after its member and lease: the longest window, then the triples. */
  readonly longest: number
  readonly triples: ReadonlyArray<number>
}

/** The admission of the account whose keys start with `prefix`, under `limits`. */
export const admitting = (limits: Limits, prefix: string, leaseMillis: number): Admitting => {
  const windowsOf = windows(limits)
  const follows = followsAllowance(limits)
  return {
    keys: admissionKeys(prefix),
    limits,
    leaseMillis,
    windowed: windowsOf.length > 0,
    follows,
    longest: Math.max(0, ...windowsOf.map((window) => window.millis)),
    triples: windowsOf.flatMap((window) => [window.millis, window.limit, window.limit === limits.perMinute && follows ? 1 : 0])
  }
}

/** Asks for a slot under the id `id`: 1 when it is held, 0 when every slot is taken. */
export const acquireSlotCall = (admission: Admitting, id: string): Call => ({
  script: "acquireSlot",
  keys: [admission.keys.slots],
  args: [admission.limits.concurrent, id, admission.leaseMillis]
})

/** Gives the slot `id` back: the command and its arguments (`ZREM`). */
export const releaseSlotCommand = (admission: Admitting, id: string): readonly [command: string, ...args: Array<string>] => [
  "ZREM",
  admission.keys.slots,
  id
]

/** Asks whether the request `id` leaves now: 0 when it leaves (and is recorded), else the milliseconds to wait. */
export const turnCall = (admission: Admitting, id: string): Call => ({
  script: "turn",
  keys: [admission.keys.starts, admission.keys.minuteLimit, admission.keys.pause],
  args: [admission.longest, id, admission.leaseMillis, ...admission.triples]
})

/** Records that the answer of the request `id` came now. */
export const answeredCall = (admission: Admitting, id: string): Call => ({
  script: "answered",
  keys: [admission.keys.starts],
  args: [id]
})

/** Starts or extends the pause to at least `millis` from now (a whole millisecond at least). */
export const pauseCall = (admission: Admitting, millis: number): Call => ({
  script: "pause",
  keys: [admission.keys.pause],
  args: [Math.max(1, Math.ceil(millis))]
})

/** How long the pause in force still lasts, in milliseconds (0 when none). */
export const pausedCall = (admission: Admitting): Call => ({ script: "paused", keys: [admission.keys.pause], args: [] })

/** Keeps the last read of the live allowance for a day. */
export const allowCall = (admission: Admitting, read: Allowance): Call => ({
  script: "allow",
  keys: [admission.keys.minuteLimit, admission.keys.readAt],
  args: [read.minuteLimit, read.readAt, allowanceLifetimeMillis]
})

/** The keys to read (with `MGET`) for the last read of the live allowance. */
export const allowanceKeys = (admission: Admitting): readonly [minuteLimit: string, readAt: string] => [
  admission.keys.minuteLimit,
  admission.keys.readAt
]

/** A read of the live allowance: its minute limit, and when it was read. */
export interface Allowance {
  readonly minuteLimit: number
  readonly readAt: number
}

/** The last read of the live allowance from the reply to `MGET` of `allowanceKeys`, or `undefined` when there is none. */
export const allowanceOf = (reply: unknown): Allowance | undefined => {
  if (!Array.isArray(reply)) return undefined
  const [minuteLimit, readAt]: ReadonlyArray<unknown> = reply
  return typeof minuteLimit === "string" && typeof readAt === "string"
    ? { minuteLimit: Number(minuteLimit), readAt: Number(readAt) }
    : undefined
}

/** A script's reply, an integer. */
export const integerOf = (reply: unknown): number => Number(reply)

/** A text reply (a string's value), or `undefined` when there is none (`nil`). */
export const textOf = (reply: unknown): string | undefined => typeof reply === "string" ? reply : undefined

/** A page size as Redis keeps it: a positive integer, or `undefined` when there is nothing usable. */
export const pageSizeOf = (reply: unknown): number | undefined => {
  const size = typeof reply === "string" ? Number(reply) : Number.NaN
  return Number.isSafeInteger(size) && size > 0 ? size : undefined
}

/** A page size as Redis keeps it. */
export const pageSizeText = (size: number): string => String(size)

/** A prefix as a literal in a Redis glob pattern. */
export const escapeGlob = (text: string): string => text.replace(/[*?[\]\\]/g, (special) => `\\${special}`)

/** The `SCAN` pattern of every key under `prefix`. */
export const keysUnder = (prefix: string): string => `${escapeGlob(prefix)}*`

/** How many keys a `SCAN` asks for at a time. */
export const scanCount = 500

/** A `SCAN` reply: the next cursor ("0" at the end) and a batch of keys, or `undefined` when the reply is not one. */
export const scanReplyOf = (reply: unknown): { readonly cursor: string; readonly keys: ReadonlyArray<string> } | undefined => {
  if (!Array.isArray(reply)) return undefined
  const [cursor, keys]: ReadonlyArray<unknown> = reply
  if (typeof cursor !== "string" || !Array.isArray(keys)) return undefined
  const found: ReadonlyArray<unknown> = keys
  return { cursor, keys: found.filter((key): key is string => typeof key === "string") }
}
