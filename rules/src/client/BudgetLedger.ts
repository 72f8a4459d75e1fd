/**
 * What a client's budget has counted, and how each event changes it, as
 * plain functions of plain data: a new UTC day, a reservation (or why it
 * is refused), its settlement at what the service charged, and a read of
 * the account's usage.
 *
 * Imports nothing of Effect. `Budget` (common/src/client/Budget.ts) keeps a
 * `Ledger` in a `Ref` and gives a refusal as a `BudgetExceeded`.
 */

/** What was spent: requests, units and bytes. */
export interface Spending {
  readonly requests: number
  readonly units: number
  readonly bytes: number
}

/** Units and bytes the account has left today. */
export interface Left {
  readonly units: number
  readonly bytes: number
}

/** The account's day as the client last read it: its allowance and what is left of it. */
interface Account extends Left {
  readonly limit: number
}

/** What a budget has counted. */
export interface Ledger {
  /** The UTC day counted, as days since the epoch. */
  readonly day: number
  /** Units spent (or reserved) today. */
  readonly today: number
  readonly total: Spending
  readonly byOperation: ReadonlyMap<string, Spending>
  /** Units reserved by requests not settled yet. */
  readonly pending: number
  readonly account: Account | null
}

/** The figures of `/usage/` that bound the day: the account's daily units and bytes, and what it has used of them. */
export interface DailyUsage {
  readonly daily_limit: number
  readonly daily_units: number
  readonly daily_byte_limit: number
  readonly daily_bytes: number
}

const dayMillis = 86_400_000

const none: Spending = { requests: 0, units: 0, bytes: 0 }

/** A budget that has counted nothing. */
export const initial: Ledger = { day: -1, today: 0, total: none, byOperation: new Map(), pending: 0, account: null }

/** The ledger at `now`: a new UTC day starts with nothing spent today and no read of the account. */
export const rolledOver = (ledger: Ledger, now: number): Ledger =>
  Math.floor(now / dayMillis) === ledger.day ? ledger : { ...ledger, day: Math.floor(now / dayMillis), today: 0, account: null }

/**
 * Why a request of `units` is refused (the fields of `BudgetExceeded`): past
 * the client's `budget`, or past what the account has left; none when it is
 * not.
 */
export const refusal = (
  ledger: Ledger,
  units: number,
  budget: number
): { readonly units: number; readonly spent: number; readonly budget: number; readonly of: "budget" | "account" } | undefined =>
  ledger.today + units > budget
    ? { units, spent: ledger.today, budget, of: "budget" }
    : ledger.account !== null && units > ledger.account.units
    ? { units, spent: ledger.account.limit - ledger.account.units, budget: ledger.account.limit, of: "account" }
    : undefined

/** The ledger once a request of `units` is reserved. */
export const reserved = (ledger: Ledger, units: number): Ledger => ({
  ...ledger,
  today: ledger.today + units,
  pending: ledger.pending + units,
  account: ledger.account && { ...ledger.account, units: ledger.account.units - units }
})

/** The ledger once a reservation of `units` is settled at what was `charged`. */
export const settled = (
  ledger: Ledger,
  operation: string,
  units: number,
  charged: { readonly units: number; readonly bytes: number }
): Ledger => {
  const add = (spending: Spending): Spending => ({
    requests: spending.requests + 1,
    units: spending.units + charged.units,
    bytes: spending.bytes + charged.bytes
  })
  const byOperation = new Map(ledger.byOperation)
  byOperation.set(operation, add(byOperation.get(operation) ?? none))
  const account = ledger.account && {
    ...ledger.account,
    units: ledger.account.units + units - charged.units,
    bytes: Math.max(0, ledger.account.bytes - charged.bytes)
  }
  return { ...ledger, today: ledger.today - units + charged.units, total: add(ledger.total), byOperation, pending: ledger.pending - units, account }
}

/** The ledger once the account's usage is read: requests under way are counted as spent, as the service may not have counted them yet. */
export const accounted = (ledger: Ledger, usage: DailyUsage): Ledger => ({
  ...ledger,
  account: {
    limit: usage.daily_limit,
    units: Math.max(0, usage.daily_limit - usage.daily_units - ledger.pending),
    bytes: Math.max(0, usage.daily_byte_limit - usage.daily_bytes)
  }
})

/** What the account has left today, or null before a read today. */
export const accountLeft = (ledger: Ledger): Left | null =>
  ledger.account === null ? null : { units: ledger.account.units, bytes: ledger.account.bytes }

/** Statuses whose requests the service charges although they failed. */
const chargedStatuses = new Set([404, 409, 422])

/** The units the service charges for an answer of `status` to a request that costs `units`: a 200's, 404's, 409's or 422's; none otherwise. */
export const chargedUnits = (status: number, units: number): number => status === 200 || chargedStatuses.has(status) ? units : 0
