/**
 * Nothing is lost under any order: scans of simulators switched to each of
 * their collations (code unit, case-insensitive, the en-US locale's), with
 * churn and forced cursor expiry, seeded, over HTTP. A scan gives every
 * model that existed throughout exactly once and nothing that never
 * existed, or, only under churn, fails with the one typed error allowed (a
 * restart that cannot find its place after deletions); it says at most once
 * that the service orders ids otherwise than by code unit.
 */
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer, Logger, Result, Stream } from "effect"
import { CatalogClient } from "effect-catalog"
import { Simulator } from "effect-catalog/simulator"
import * as Churn from "./support/Churn.js"
import { simulatorWithClient } from "./support/Client.js"

/** Runs `effect` keeping the client's log lines, and gives them beside its result. */
const withLines = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const capture = Logger.make((options) => {
      lines.push(Logger.formatLogFmt.log(options))
    })
    const result = yield* Effect.result(Effect.provide(effect, Logger.layer([capture])))
    return { result, lines }
  })

const orderNotes = (lines: ReadonlyArray<string>) => lines.filter((line) => line.includes("orders ids otherwise")).length

/** Numbers in [0, 1) from a seed (mulberry32). */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
}

const collations: ReadonlyArray<Simulator.Collation> = ["code-unit", "case-insensitive", "locale"]

interface SimulatedScan {
  readonly collation: Simulator.Collation
  readonly seed: number
  readonly models: number
  readonly pages: number
  readonly churn: number
  readonly expire: number
}

const scanOf = (next: () => number): SimulatedScan => ({
  collation: collations[Math.floor(next() * collations.length)] ?? "code-unit",
  seed: Math.floor(next() * 10_000),
  models: Math.floor(next() * 241),
  pages: 1 + Math.floor(next() * 12),
  churn: [0, 0.1, 0.3][Math.floor(next() * 3)] ?? 0,
  expire: [0, 0.1, 0.2][Math.floor(next() * 3)] ?? 0
})

/** Scans the models of a simulator set up as `scan` says, and checks what came; gives how the scan ended. */
const checkSimulatedScan = (scan: SimulatedScan) =>
  Effect.gen(function*() {
    const context = yield* Layer.build(simulatorWithClient(
      { seed: scan.seed, collation: scan.collation, sizes: { models: scan.models }, churn: scan.churn, churnHorizon: 10, faults: { expire: scan.expire } },
      { retry: { retries: 0, restarts: 1_000 } }
    ))
    const simulator = Context.get(context, Simulator.Simulator)
    const catalog = Context.get(context, CatalogClient.CatalogClient)
    const listedBefore = yield* Effect.provide(Churn.listedIds, context)
    const before = yield* simulator.epoch
    const limit = Math.min(100, Math.max(1, Math.ceil(scan.models / scan.pages)))
    const { lines, result } = yield* withLines(Stream.runCollect(catalog.models({ limit })))
    const after = yield* simulator.epoch
    const where = JSON.stringify(scan)
    expect(orderNotes(lines), `the note on the order, at most once, ${where}`).toBeLessThanOrEqual(1)
    if (Result.isFailure(result)) {
      expect(result.failure._tag, where).toBe("UnexpectedResponse")
      expect(result.failure.message, where).toContain("after a restart")
      expect(scan.churn, where).toBeGreaterThan(0)
      return "lost track"
    }
    yield* Effect.provide(Churn.expectExactlyOnce(result.success.map((model) => model.id), before, after, listedBefore), context)
    return "once"
  }).pipe(Effect.scoped)

describe("scans of the simulator under each collation", () => {
  it.effect("with churn and forced cursor expiry: every model that existed throughout once, nothing that never existed", () =>
    Effect.gen(function*() {
      const next = random(20_261_126)
      const outcomes: Array<string> = []
      for (let run = 0; run < 60; run++) outcomes.push(yield* checkSimulatedScan(scanOf(next)))
      expect(outcomes.filter((outcome) => outcome === "once").length).toBeGreaterThan(40)
    }), 120_000)

  it.effect("a full scan in the locale's order, 100 models a page, gives the catalog once and says once how it coped", () =>
    Effect.gen(function*() {
      const catalog = yield* CatalogClient.CatalogClient
      const { lines, result } = yield* withLines(Stream.runCollect(catalog.models()))
      if (Result.isFailure(result)) return expect.fail(result.failure.message)
      const ids = result.success.map((model) => model.id)
      expect(Churn.duplicatesOf(ids)).toEqual([])
      expect([...ids].sort()).toEqual(yield* Churn.listedIds)
      expect(orderNotes(lines)).toBe(1)
    }).pipe(Effect.provide(simulatorWithClient({ collation: "locale", sizes: { models: 1200 } }))))
})
