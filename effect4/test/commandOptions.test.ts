/**
 * The options of the `catalog` command both editions ship that are sent
 * under another name on the wire (`--page-size` as `limit`, a filter such
 * as `--open-weights` or `--open_weights` as `open_weights`): a value out
 * of range is refused under the name the user typed, with its range, and
 * nothing is sent; a value in range goes out under the wire's name. The
 * command runs against this edition's simulator over real HTTP.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Simulator } from "effect-catalog/simulator"
import * as Effect3 from "./support/Effect3.js"

const sizes = { models: 20, skills: 4, mcps: 4, organizations: 4, providers: 4, families: 4, topics: 2, articles: 2 }

const lines = (text: string) => text.split("\n").filter((line) => line !== "")

const refusals: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
  [["scan", "models", "--page-size", "500"], "--page-size must be a whole number from 1 to 100 for models; got 500"],
  [["scan", "modelOffers", "o0000-falcon/m0000000-kestrel-8b", "--page-size=0"], "--page-size must be a whole number from 1 to 100 for modelOffers; got 0"],
  [["search", "models", "kestrel", "--page-size", "26"], "--page-size must be a whole number from 1 to 25 for search; got 26"],
  [["scan", "models", "--open_weights", "maybe"], "--open_weights: a boolean filter must be exactly true or false"],
  [["scan", "models", "--open-weights", "maybe"], "--open-weights: a boolean filter must be exactly true or false"]
]

describe("the command's options named as typed", () => {
  it.live("an option out of range is refused under the name typed, with its range, and nothing is sent; in range, it is sent under the wire's name", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const results = yield* Effect.forEach(refusals, ([args]) => Effect3.catalog(simulator, args), { concurrency: 2 })
      refusals.forEach(([, detail], index) => {
        expect(results[index]).toEqual({ code: 2, stdout: "", stderr: `catalog: UsageError: ${detail}\n` })
      })
      expect(yield* simulator.answered).toEqual([])
      const inRange = yield* Effect3.catalog(simulator, ["--log-level", "debug", "scan", "models", "--page-size", "7", "--max", "7", "--open_weights", "true"])
      expect(inRange.code, inRange.stderr).toBe(0)
      expect(lines(inRange.stderr)).toContainEqual(expect.stringMatching(/^catalog: debug: GET \/api\/v1\/models\/\?open_weights=true&limit=7 200 /))
    }).pipe(Effect.provide(Simulator.layer({ sizes, enforceLimits: false }))))
})
