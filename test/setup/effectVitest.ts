/**
 * The methods of @effect/vitest's `it` that its `layer(...)` replaces, as
 * @effect/vitest made them: this module is evaluated once in a worker,
 * before the worker's first file (`eachFile.ts` imports it), and its modules
 * are kept for the files after it.
 */
import { it } from "@effect/vitest"

export const pristine: Pick<typeof it, "effect" | "scoped" | "layer" | "prop" | "flakyTest"> = {
  effect: it.effect,
  scoped: it.scoped,
  layer: it.layer,
  prop: it.prop,
  flakyTest: it.flakyTest
}
