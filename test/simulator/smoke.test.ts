import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Http from "../support/Http.js"

describe("simulator", () => {
  it.layer(Http.simulator({ sizes: { models: 50 } }))((it) => {
    it.effect("answers a list", () =>
      Effect.gen(function*() {
        const reply = yield* Http.get("/models/?limit=5")
        expect(reply.status).toBe(200)
        expect(Http.data(reply)).toHaveLength(5)
      }))
  })
})
