/**
 * The tags of each operation's errors, computed from the contract's table
 * (`rules/src/client/OperationErrorTags`), tested once for both editions,
 * whose `OperationErrors.errorKindOf` gives these sets: what an answer may
 * produce by rule (any request; parameterized: a list or a detail below a
 * path; paged; below a path), and what the client lets through besides
 * (admission and quota everywhere, the budget where units are spent, never
 * `UnsafeLink` for one answer). The editions' tests check the unions' types
 * and their error classes against these tags.
 */
import { describe, expect, it } from "vitest"
import * as OperationErrorTags from "../../src/client/OperationErrorTags.js"
import * as OperationTable from "../../src/contract/OperationTable.js"

const operations = Object.values(OperationTable.rows)
const account = ["InvalidApiKey", "InvalidRequest", "RateLimited", "ServiceUnavailable", "TransportError", "UnexpectedResponse"]
const parameterized = [...account, "ResponseTooLarge", "ScopeMissing"]
const answeredOf = (operation: OperationErrorTags.Described) => [...OperationErrorTags.tagsOf(operation).answered].sort()

describe("OperationErrorTags.tagsOf", () => {
  it("computes the tags of an answer from the table", () => {
    expect(operations).toHaveLength(35)
    const expected = (operation: OperationErrorTags.Described) =>
      [
        ...(operation.kind === "list" || operation.pathParameters.length > 0 ? parameterized : account),
        ...(operation.kind === "list" ? ["CursorExpired"] : []),
        ...(operation.pathParameters.length > 0 ? ["NotFound"] : [])
      ].sort()
    for (const operation of operations) expect(answeredOf(operation), operation.id).toEqual(expected(operation))
    expect(answeredOf(OperationTable.rows.stats)).toEqual([...account].sort())
    expect(answeredOf(OperationTable.rows.usage)).toEqual([...account].sort())
    expect(answeredOf(OperationTable.rows.models)).toEqual([...parameterized, "CursorExpired"].sort())
    expect(answeredOf(OperationTable.rows.modelOffers)).toEqual([...parameterized, "CursorExpired", "NotFound"].sort())
    expect(answeredOf(OperationTable.rows.model)).toEqual([...parameterized, "NotFound"].sort())
  })

  it("lets AdmissionUnavailable and QuotaExhausted through everywhere, BudgetExceeded where units are spent, UnsafeLink nowhere", () => {
    for (const operation of operations) {
      const { answered, allowed } = OperationErrorTags.tagsOf(operation)
      expect([...answered].filter((tag) => !allowed.has(tag)), operation.id).toEqual([])
      expect(allowed.has("AdmissionUnavailable"), operation.id).toBe(true)
      expect(allowed.has("QuotaExhausted"), operation.id).toBe(true)
      expect(allowed.has("BudgetExceeded"), operation.id).toBe(operation.units > 0)
      expect(allowed.has("UnsafeLink"), operation.id).toBe(false)
    }
    expect(OperationTable.rows.usage.units).toBe(0)
  })
})
