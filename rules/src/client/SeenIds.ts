/**
 * Every id a scan has emitted, kept compactly so that a scan of any length
 * can tell whether an id comes again: a 64-bit fingerprint of each id (two
 * 32-bit MurmurHash3 of its UTF-16 code units, with different seeds) in an
 * open-addressing table of 32-bit words, linearly probed, that doubles when
 * half full. A million ids take a table of 2^21 slots of 8 bytes: 16 MB
 * (48 MB for the moment the table doubles past 1,048,576 ids), where a `Set`
 * of the strings takes about 200 MB (ids of 30 characters).
 *
 * Two different ids may share a fingerprint: `add` then takes a new id for
 * one already there. A scan refuses a page on that answer, so a shared
 * fingerprint can make it fail for nothing, never drop an item. Taking the
 * fingerprints as uniform, the chance that two of the ids of a
 * 1,000,000-item scan share one is n(n-1)/2 / 2^64 ≈ 2.7 × 10^-8 (one scan
 * in 37 million). Over a million ids of the simulator's form, each 32-bit
 * half alone collides as often as a uniform hash does (111 and 121 pairs,
 * for 116 expected), and the two together never. MurmurHash3 is not a
 * keyed hash: a service could choose ids that collide, and so make a scan
 * fail, which it could do anyway.
 */

/** The first table: 1,024 slots, 8 KB. */
const initialSlots = 1024

/** MurmurHash3's mixing of one 32-bit block before it enters the state. */
const block = (k: number): number => {
  const scrambled = Math.imul(k, 0xcc9e2d51)
  return Math.imul((scrambled << 15) | (scrambled >>> 17), 0x1b873593)
}

/** MurmurHash3's step after a block: the state rotated, multiplied and offset. */
const round = (h: number): number => (Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64) | 0

/** MurmurHash3's finaliser: every bit of the state reaches every bit of the hash. */
const finalise = (state: number, bytes: number): number => {
  let h = state ^ bytes
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

/** The seeds of the two hashes. */
const firstSeed = 0x9747b28c
const secondSeed = 0x3c6ef372

/**
 * The fingerprint of an id, its two hashes (low and high half): MurmurHash3
 * of its UTF-16 code units, taken two to a block, under each seed. Never
 * both 0, which marks an empty slot: that one fingerprint becomes (1, 0).
 */
const fingerprintOf = (id: string): readonly [low: number, high: number] => {
  let first = firstSeed
  let second = secondSeed
  const length = id.length
  const paired = length - (length % 2)
  for (let i = 0; i < paired; i += 2) {
    const k = block(id.charCodeAt(i) | (id.charCodeAt(i + 1) << 16))
    first = round(first ^ k)
    second = round(second ^ k)
  }
  if (paired < length) {
    const k = block(id.charCodeAt(paired))
    first ^= k
    second ^= k
  }
  const low = finalise(first, length * 2)
  const high = finalise(second, length * 2)
  return low === 0 && high === 0 ? [1, 0] : [low, high]
}

/**
 * An open-addressing set of the 64-bit fingerprints of ids: mutable, owned
 * by the one scan that creates it.
 */
export class SeenIds {
  /** Two words a slot, the low half of a fingerprint then the high; both 0 is an empty slot. */
  private table = new Uint32Array(initialSlots * 2)
  private slots = initialSlots
  /** How many fingerprints the table holds. */
  private count = 0

  /** How many different fingerprints were added. */
  get size(): number {
    return this.count
  }

  /** Remembers the id: false when it, or an id with the same fingerprint, was there already. */
  add(id: string): boolean {
    const [low, high] = fingerprintOf(id)
    const added = this.insert(low, high)
    if (this.count * 2 > this.slots) this.grow()
    return added
  }

  private isEmpty(slot: number): boolean {
    return this.table[slot * 2] === 0 && this.table[slot * 2 + 1] === 0
  }

  /** The slot that holds this fingerprint, or the empty slot where it would go. */
  private slotOf(low: number, high: number): number {
    const mask = this.slots - 1
    let slot = low & mask
    while (!this.isEmpty(slot) && !(this.table[slot * 2] === low && this.table[slot * 2 + 1] === high)) slot = (slot + 1) & mask
    return slot
  }

  /** Puts the fingerprint in its slot: false when it is there already. */
  private insert(low: number, high: number): boolean {
    const slot = this.slotOf(low, high)
    if (!this.isEmpty(slot)) return false
    this.table[slot * 2] = low
    this.table[slot * 2 + 1] = high
    this.count++
    return true
  }

  /** Moves every fingerprint into a table of twice as many slots. */
  private grow(): void {
    const old = this.table
    this.slots *= 2
    this.table = new Uint32Array(this.slots * 2)
    this.count = 0
    for (let i = 0; i < old.length; i += 2) {
      const low = old[i] ?? 0
      const high = old[i + 1] ?? 0
      if (low !== 0 || high !== 0) this.insert(low, high)
    }
  }
}
