/**
 * What a simulator is set up with and what it reports, as plain types with
 * nothing of Effect in them: the settings, the options they resolve to, the
 * account's limits, the sizes of the catalog, the faults, churn, the
 * collations, the keys and the record of answered requests. The simulator
 * (`tools/`) and both editions' `Simulator` state them from here, so that
 * the editions name them without naming the Effect the simulator runs on.
 *
 * @example
 * ```ts
 * import { Simulator } from "effect-catalog/simulator"
 *
 * const settings: Simulator.Settings = { sizes: { models: 200 }, collation: "locale", faults: { unavailable: 0.1 } }
 * ```
 * @since 0.7.1
 */
/**
 * The collations the simulator can sort ids by.
 *
 * @since 0.2.0
 */
export const collations = ["code-unit", "case-insensitive", "locale"] as const

/**
 * One of {@link collations}.
 *
 * @category models
 * @since 0.2.0
 */
export type Collation = (typeof collations)[number]

/**
 * The share of records that churn, and over how many epochs it spreads.
 *
 * @since 0.1.0
 */
export interface Churn {
  readonly rate: number
  readonly horizon: number
}

/**
 * The epochs during which a record exists: `born <= epoch < died`.
 *
 * @since 0.1.0
 */
export interface Lifetime {
  readonly born: number
  readonly died: number
}

/**
 * The ways records can change over time on the simulator's clock:
 * `"none"`, or each record at a hidden rate of its own (`"steady"`), or
 * those rates under a daily cycle with an hour's burst a day (`"daily"`).
 *
 * @since 0.7.3
 */
export const changePatterns = ["none", "steady", "daily"] as const

/**
 * One of {@link changePatterns}.
 *
 * @since 0.7.3
 */
export type ChangePattern = (typeof changePatterns)[number]

/**
 * The kinds of record that change over time: models, Skills and MCP
 * servers (edited, added and removed) and each model's offers (edited).
 *
 * @since 0.7.3
 */
export const changingFamilies = ["models", "skills", "mcps", "modelOffers"] as const

/**
 * One of {@link changingFamilies}.
 *
 * @since 0.7.3
 */
export type ChangingFamily = (typeof changingFamilies)[number]

/**
 * The truth of one record under a change pattern: its hidden rate and when
 * it changed, appeared and went, as times of the simulator's clock
 * (milliseconds, as `Clock.now` reads them).
 *
 * @since 0.7.3
 */
export interface Truth {
  /** Its mean rate, changes a day of the service's (scaled) clock. */
  readonly perDay: number
  /** When it changed, up to the moment asked, in order. */
  readonly changes: ReadonlyArray<number>
  /** When it appeared (`null`: it was there from the start). */
  readonly born: number | null
  /** When it was removed (`null`: not by the moment asked). */
  readonly died: number | null
}

/**
 * Options of a simulator; every member has a default.
 *
 * @example
 * ```ts
 * import { Simulator } from "effect-catalog/simulator"
 *
 * const settings: Simulator.Settings = { seed: 7, sizes: { models: 200 }, timeScale: 0.01, churn: 0.05 }
 * const SimulatorLive = Simulator.layer(settings)
 * ```
 * @category models
 * @since 0.1.0
 */
export interface Settings {
  /** The port to listen on, on `127.0.0.1` (default 0: a free port, read from `baseUrl`). */
  readonly port?: number
  /** Seeds every generated record, key and draw of faults: the same seed gives the same catalog (default 1). */
  readonly seed?: number
  /** How many records of each kind the catalog holds; kinds not given keep their default sizes. */
  readonly sizes?: Partial<Sizes>
  /**
   * Multiplies every span of time of the service: the 10 s and minute
   * windows, the day and month of the allowances, the hour a cursor lives,
   * and each `Retry-After` (default 1; 0.01 runs the account 100 times faster).
   */
  readonly timeScale?: number
  /** The account's limits; those not given are the contract's (10 per 10 s, 60 per minute, 2 at once, 10,000 units a day, …). */
  readonly limits?: Partial<Limits>
  /**
   * Whether the account's limits refuse requests with 429 (default `true`;
   * `false` in `layerClient`). Units and bytes are counted either way.
   */
  readonly enforceLimits?: boolean
  /** Shares of requests answered with a fault (default none); `Service.setFaults` changes them while it runs. */
  readonly faults?: Partial<Faults>
  /**
   * The share (0 to 1) of models, Skills and MCP servers that change while
   * the catalog is read (default 0: none): half of them are removed or
   * added, half edited, each once, at an epoch of its own (see `churnHorizon`).
   */
  readonly churn?: number
  /**
   * The epochs over which churn spreads (default 40): each changing record
   * changes at one epoch drawn evenly from 1 to `churnHorizon`, and never
   * again. After `advance(3)` only the changes drawn for epochs 1 to 3 have
   * happened, about 3/40 of them, which in a small catalog may be none; the
   * catalog is final from epoch `churnHorizon` on. A test that wants every
   * change in one step advances by `churnHorizon`.
   */
  readonly churnHorizon?: number
  /** What moves the epoch on: each list page served (`"pages"`, the default) or only `Service.advance` (`"manual"`). */
  readonly churnClock?: Options["churnClock"]
  /**
   * Whether records change over time on the simulator's clock (scaled by
   * `timeScale`, or a test's clock), each at a hidden heavy-tailed rate the
   * seed fixes, with additions and removals at rates of their own; ETags
   * change exactly when content does, and `truth` reports each record's
   * history (default `"none"`; churn is apart from it).
   */
  readonly changes?: ChangePattern
  /** The order of ids in lists (default `"code-unit"`): one a service's database might use. */
  readonly collation?: Collation
}

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
  /** How records change over time. */
  readonly changes: ChangePattern
  /** The order of ids in lists. */
  readonly collation: Collation
}

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
 * The simulator's keys, by what they may do.
 *
 * @category models
 * @since 0.1.0
 */
export type KeyName = "full" | "models_only" | "no_content" | "revoked"

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
 * The account limits of the contract.
 *
 * @since 0.1.0
 */
export interface Limits {
  readonly perTenSeconds: number
  readonly perMinute: number
  readonly concurrent: number
  readonly dailyUnits: number
  readonly monthlyUnits: number
  readonly dailyBytes: number
  readonly usagePerMinute: number
}

/**
 * How many records of each kind the catalog holds.
 *
 * @since 0.1.0
 */
export interface Sizes {
  readonly models: number
  readonly skills: number
  readonly mcps: number
  readonly organizations: number
  readonly providers: number
  readonly families: number
  readonly topics: number
  readonly articles: number
}

/** Where the simulator reads the time (`SimulatorStandalone.Clock`, which says more). */
export interface Clock {
  readonly now: () => number
}

/**
 * A running simulator with plain values: its switches functions, its keys
 * strings, and the items of each collection (`WireItems`, by collection id)
 * JSON values in their wire form (`SimulatorStandalone.Running`, which says more).
 */
export interface Running<WireItems extends object = { readonly [collection: string]: unknown }> {
  /** `http://127.0.0.1:PORT/api/v1` */
  readonly baseUrl: string
  readonly keys: Readonly<Record<KeyName, string>>
  readonly options: Options
  readonly setFaults: (faults: Partial<Faults>) => void
  readonly injectRateLimit: (count: number, retryAfterMillis: number) => void
  readonly spendDailyUnits: (units?: number) => void
  readonly statusCounts: () => ReadonlyMap<number, number>
  readonly answered: () => ReadonlyArray<Answered>
  readonly peakConcurrency: () => number
  readonly epoch: () => number
  readonly advance: (epochs: number) => void
  /** Every item of a collection as it is now, in its wire form and order (`Simulator.Service.listed`). */
  readonly listed: <Id extends keyof WireItems & string>(collection: Id) => ReadonlyArray<WireItems[Id]>
  readonly lifetimeOf: (collection: "models" | "skills" | "mcps", id: string) => Lifetime | undefined
  /** The history of a record (by its id; a model's for its offers) up to now, under a change pattern; `undefined` for no such record or none. */
  readonly truth: (family: ChangingFamily, id: string) => Truth | undefined
  /** Stops listening; what was in flight is cut off. */
  readonly stop: () => Promise<void>
}
