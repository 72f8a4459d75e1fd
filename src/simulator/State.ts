/**
 * Everything a running simulator knows: its options, keys, catalog, account,
 * fault switches and the record of what it answered.
 *
 * @since 0.1.0
 */
import type { Scope } from "../contract/Parameters.js"
import { Scope as ScopeSchema } from "../contract/Parameters.js"
import { Account, defaultLimits, type Limits } from "./Account.js"
import { Catalog } from "./data/Catalog.js"
import type { Collation } from "./data/Collation.js"
import { Seeded } from "./data/Random.js"
import { defaultSizes, type Sizes } from "./data/Records.js"
import type { Churn } from "./data/Slots.js"

/**
 * Faults the simulator can inject: shares (0 to 1) of requests answered 503,
 * dropped without an answer, or answered slowly, and of requests with a
 * cursor answered 409 `cursor_expired` however young the cursor.
 *
 * @category models
 * @since 0.1.0
 */
export interface Faults {
  readonly unavailable: number
  readonly drop: number
  readonly slow: number
  readonly slowMillis: number
  readonly expire: number
}

/**
 * No faults.
 *
 * @since 0.1.0
 */
export const noFaults: Faults = { unavailable: 0, drop: 0, slow: 0, slowMillis: 0, expire: 0 }

/**
 * How a simulator is set up.
 *
 * @category models
 * @since 0.1.0
 */
export interface Options {
  readonly seed: number
  readonly sizes: Sizes
  /** Multiplies every window: 10 s, minute, day, month, cursor hour, Retry-After. Scaled days and months count from the start. */
  readonly timeScale: number
  readonly limits: Limits
  /** `false` turns the account limits off (units and bytes are still counted). */
  readonly enforceLimits: boolean
  readonly faults: Faults
  readonly churn: Churn
  /**
   * What moves churn on: every list page served (`"pages"`, so that data
   * changes during a scan), or only `Simulator.Service.advance`
   * (`"manual"`, so that a test changes the catalog between scans).
   */
  readonly churnClock: "pages" | "manual"
  /** The order of ids in lists. */
  readonly collation: Collation
}

/**
 * The options used where none are given.
 *
 * @since 0.1.0
 */
export const defaultOptions: Options = {
  seed: 1,
  sizes: defaultSizes,
  timeScale: 1,
  limits: defaultLimits,
  enforceLimits: true,
  faults: noFaults,
  churn: { rate: 0, horizon: 40 },
  churnClock: "pages",
  collation: "code-unit"
}

/**
 * The simulator's keys, by what they may do.
 *
 * @category models
 * @since 0.1.0
 */
export type KeyName = "full" | "models_only" | "no_content" | "revoked"

const allScopes: ReadonlyArray<Scope> = ScopeSchema.literals

const grants: Readonly<Record<KeyName, ReadonlyArray<Scope> | "revoked">> = {
  full: allScopes,
  models_only: ["models:read"],
  no_content: allScopes.filter((scope) => scope !== "skill_content:read"),
  revoked: "revoked"
}

/**
 * One answered request, for tests that check pacing and limits.
 *
 * @category models
 * @since 0.1.0
 */
export interface Answered {
  /** When it was answered. */
  readonly at: number
  /** When it arrived: the moment the account's windows count it at. */
  readonly arrived: number
  readonly operation: string
  readonly status: number
}

/**
 * The mutable state of one simulator.
 *
 * @since 0.1.0
 */
export class State {
  readonly catalog: Catalog
  readonly account: Account
  readonly keys: Readonly<Record<KeyName, string>>
  readonly cursorSecret: string
  faults: Faults
  /** Requests still to be refused with an injected 429, and its wait. */
  injected = { remaining: 0, retryAfterMillis: 0 }
  readonly statusCounts = new Map<number, number>()
  readonly answered: Array<Answered> = []
  private requests = 0
  private readonly random: Seeded

  constructor(readonly options: Options, readonly baseUrl: string, startedAt: number) {
    this.random = new Seeded(options.seed ^ 0x5eed)
    this.catalog = new Catalog({ seed: options.seed, sizes: options.sizes, baseUrl, churn: options.churn, collation: options.collation })
    this.account = new Account(options.limits, options.enforceLimits, options.timeScale, startedAt)
    this.faults = options.faults
    const key = (name: KeyName, salt: number) => `cat_test_${name}_${this.random.hex(salt, 32, 1)}`
    this.keys = { full: key("full", 1), models_only: key("models_only", 2), no_content: key("no_content", 3), revoked: key("revoked", 4) }
    this.cursorSecret = this.random.hex(5, 32, 2)
  }

  /** The scopes of a key, `"revoked"`, or `undefined` for an unknown key. */
  grantOf(key: string): ReadonlyArray<Scope> | "revoked" | undefined {
    for (const name of ["full", "models_only", "no_content", "revoked"] as const) {
      if (this.keys[name] === key) return grants[name]
    }
    return undefined
  }

  isKey(value: string): boolean {
    return this.grantOf(value) !== undefined
  }

  /** A new request: its id, a draw in [0, 1) for faults, and one for cursor expiry. */
  nextRequest(): { readonly requestId: string; readonly draw: number; readonly expiryDraw: number } {
    const n = ++this.requests
    return { requestId: `req_${this.random.hex(6, 12, n)}${n.toString(36)}`, draw: this.random.unit(7, n), expiryDraw: this.random.unit(8, n) }
  }

  /** Scales a duration of the contract by the time scale. */
  scaled(millis: number): number {
    return millis * this.options.timeScale
  }

  record(answered: Answered): void {
    this.statusCounts.set(answered.status, (this.statusCounts.get(answered.status) ?? 0) + 1)
    this.answered.push(answered)
    if (this.answered.length > 100_000) this.answered.splice(0, 50_000)
  }
}
