/**
 * The test functions of this edition's `@effect/vitest`, for the tests both
 * editions share (`common/test`), which import them as
 * `#edition-test/support/Vitest.js` so that each runs under its own
 * edition's Vitest and Effect 4.
 *
 * @example
 * import { describe, expect, it } from "#edition-test/support/Vitest.js"
 */
export { describe, expect, expectTypeOf, it, layer } from "@effect/vitest"
