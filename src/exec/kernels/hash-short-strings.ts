/**
 * Interned ids of VARCHAR keys of at most 8 bytes (ship modes, order
 * priorities, brands, nation names) through a direct-mapped cache keyed by
 * the bytes packed into two ints and the length. KeyEncoder (hash-encode.ts)
 * asks it before the interner: a hit costs the packing, one multiply and
 * three compares instead of MurmurHash3 over the bytes, a probe of the
 * interner's table and a byte-by-byte compare. A plain-Utf8 `GROUP BY
 * l_shipmode` (the suite's Arrow files store it so) spent ~50 ns per row
 * interning. Batches too small for this cache use KeyEncoder's one-int
 * cache of strings of at most 3 bytes; longer strings go to the interner.
 *
 * Only found ids are cached (an id never changes) and a collision replaces
 * the slot: the cache can miss, never answer wrong. Made only for batches of
 * some size (its 16 KB are an off-heap allocation, not for a 10-row query).
 */

/** Slots of the cache (a power of two). */
const SLOTS = 1024;
const SHIFT = 32 - Math.log2(SLOTS);
/** The bits of the low / high packed word that hold bytes of a string of length 0–8. */
const LO_MASK = Int32Array.of(0, 0xff, 0xffff, 0xffffff, -1, -1, -1, -1, -1);
const HI_MASK = Int32Array.of(0, 0, 0, 0, 0, 0xff, 0xffff, 0xffffff, -1);

/** The cache of one KeyEncoder. */
export class ShortStringIds {
  /** Per slot: the packed low and high words and the length + 1 (0: empty; the empty string is length 0). */
  private readonly keys = new Int32Array(3 * SLOTS);
  private readonly ids = new Int32Array(SLOTS);
  /** The last `find`'s packed key and slot, for the `put` after a miss. */
  private lo = 0;
  private hi = 0;
  private slot = 0;

  /** The cached id of bytes [s, s + len) (len ≤ 8), or -1. */
  find(bytes: Uint8Array, s: number, len: number): number {
    let lo: number;
    let hi: number;
    if (s + 8 <= bytes.length) {
      // Eight bytes read whatever the length, then masked to it: no branch per length (they vary row to row).
      lo = (bytes[s]! | (bytes[s + 1]! << 8) | (bytes[s + 2]! << 16) | (bytes[s + 3]! << 24)) & LO_MASK[len]!;
      hi = (bytes[s + 4]! | (bytes[s + 5]! << 8) | (bytes[s + 6]! << 16) | (bytes[s + 7]! << 24)) & HI_MASK[len]!;
    } else {
      lo = 0;
      hi = 0;
      for (let k = 0; k < len; k++) {
        if (k < 4) lo |= bytes[s + k]! << (8 * k);
        else hi |= bytes[s + k]! << (8 * (k - 4));
      }
    }
    const slot = Math.imul(lo ^ Math.imul(hi + len, 0x85ebca6b), 0x9e3779b1) >>> SHIFT;
    const b = 3 * slot;
    const keys = this.keys;
    if (keys[b + 2] === len + 1 && keys[b] === lo && keys[b + 1] === hi) return this.ids[slot]!;
    this.lo = lo;
    this.hi = hi;
    this.slot = slot;
    return -1;
  }

  /** Records `id` for the string of length `len` the last `find` missed. */
  put(len: number, id: number): void {
    const b = 3 * this.slot;
    this.keys[b] = this.lo;
    this.keys[b + 1] = this.hi;
    this.keys[b + 2] = len + 1;
    this.ids[this.slot] = id;
  }
}
