/**
 * Everything a running simulator knows: its options, keys, catalog, account,
 * fault switches and the record of what it answered.
 *
 * @since 0.1.0
 */
import type { Scope } from "../../../common/src/contract/Parameters.js"
import { Scope as ScopeSchema } from "../../../common/src/contract/Parameters.js"
import { Account, defaultLimits } from "./Account.js"
import { Catalog } from "./data/Catalog.js"
import { Seeded } from "./data/Random.js"
import { defaultSizes } from "./data/Records.js"
import type { Answered, Faults, KeyName, Options } from "../../../rules/src/simulator/Settings.js"

/**
 * No faults.
 *
 * @since 0.1.0
 */
export const noFaults: Faults = { unavailable: 0, drop: 0, slow: 0, slowMillis: 0, expire: 0 }

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
  changes: "none",
  collation: "code-unit"
}

const allScopes: ReadonlyArray<Scope> = ScopeSchema.literals

const grants: Readonly<Record<KeyName, ReadonlyArray<Scope> | "revoked">> = {
  full: allScopes,
  models_only: ["models:read"],
  no_content: allScopes.filter((scope) => scope !== "skill_content:read"),
  revoked: "revoked"
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

  constructor(readonly options: Options, readonly baseUrl: string, readonly startedAt: number) {
    this.random = new Seeded(options.seed ^ 0x5eed)
    this.catalog = new Catalog({
      seed: options.seed,
      sizes: options.sizes,
      baseUrl,
      churn: options.churn,
      collation: options.collation,
      changes: options.changes
    })
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

  /** The catalog as it is at `now` (the clock's milliseconds): the change process's clock set to the service's seconds. */
  catalogAt(now: number): Catalog {
    this.catalog.seconds = (now - this.startedAt) / 1000 / this.options.timeScale
    return this.catalog
  }

  /** A time of the change process (seconds of the service since the start) on the clock (milliseconds). */
  clockTime(seconds: number): number {
    return this.startedAt + seconds * 1000 * this.options.timeScale
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
