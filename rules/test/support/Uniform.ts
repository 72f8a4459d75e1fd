/**
 * A seeded uniform generator in [0, 1) (mulberry32), for the rules' tests
 * that draw random histories: every run draws the same ones.
 */
export const uniform = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
