/**
 * Deterministic pseudo-random values: every value is a pure function of the
 * seed, a salt naming what it is for, and the indices of the record, so that
 * any record of a catalog of any size can be made on demand.
 *
 * @since 0.1.0
 */

const mix = (input: number): number => {
  let h = input >>> 0
  h ^= h >>> 16
  h = Math.imul(h, 0x7feb352d)
  h ^= h >>> 15
  h = Math.imul(h, 0x846ca68b)
  h ^= h >>> 16
  return h >>> 0
}

/**
 * A seeded source of values: `new Seeded(42).int(7, 100, 3)` is the same
 * number for seed 42, salt 7 and index 3, every time.
 *
 * @since 0.1.0
 */
export class Seeded {
  constructor(readonly seed: number) {}

  /** A 32-bit unsigned value for a salt and up to three indices. */
  bits(salt: number, a: number, b = 0, c = 0): number {
    return mix(mix(mix(mix(this.seed ^ Math.imul(salt, 0x9e3779b1)) ^ a) ^ Math.imul(b, 0x85ebca6b)) ^ c)
  }

  /** A number in [0, 1). */
  unit(salt: number, a: number, b = 0, c = 0): number {
    return this.bits(salt, a, b, c) / 4294967296
  }

  /** A whole number in [0, bound). */
  int(salt: number, bound: number, a: number, b = 0, c = 0): number {
    return Math.floor(this.unit(salt, a, b, c) * bound)
  }

  /** One element of a non-empty list. */
  pick<A>(salt: number, list: readonly [A, ...Array<A>], a: number, b = 0, c = 0): A {
    return list[this.int(salt, list.length, a, b, c)] ?? list[0]
  }

  /** Lowercase hex digits. */
  hex(salt: number, length: number, a: number, b = 0): string {
    let out = ""
    for (let part = 0; out.length < length; part++) {
      out += this.bits(salt, a, b, part).toString(16).padStart(8, "0")
    }
    return out.slice(0, length)
  }
}

/** Left-pads a whole number with zeros. */
export const pad = (value: number, width: number): string => String(value).padStart(width, "0")
