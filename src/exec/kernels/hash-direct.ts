/**
 * Direct-mapped group ids for one dense 32-bit key (hash.ts, group-by):
 * gid + 1 at `map[key - min]` (0 = absent), like DuckDB's perfect hash
 * aggregate. TPC-H Q18 groups lineitem by l_orderkey: 1.5M groups over
 * keys 1..6M, arriving in key order; hashing scattered them over a 4M-slot
 * table (a cache miss per row) and rehashed 3M groups on the way (~half of
 * the query's profile), while a direct map is read almost sequentially and
 * never rehashes.
 *
 * Decision: the range is chosen from the batches while every group so far
 * is in it, and only while it stays dense (≤ 4 × (groups + batch rows) +
 * 64K entries, ≤ 2^24): it widens by copying into a map with headroom. The
 * first key outside a range that may not widen goes to the hash slots, and
 * from then on the range is fixed, so a key has exactly one home: the map
 * when it is in range, else the slots. Interned string ids (0, 1, 2, ...)
 * are dense keys too.
 */

/** The largest map (entries). */
const MAX_ENTRIES = 1 << 24;

/** The direct map of one KeyTable. */
export class DirectKeys {
  /** gid + 1 by key − min (0 = absent), or null while no range was chosen. */
  map: Int32Array | null = null;
  min = 0;

  /**
   * Widens the range to cover the non-flagged keys of a batch, when dense
   * enough. Call only while no group lives in the hash slots (see header).
   */
  consider(words: Int32Array, flags: Uint8Array | null, n: number, groups: number): void {
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < n; i++) {
      if (flags !== null && flags[i] !== 0) continue;
      const k = words[i]!;
      if (k < lo) lo = k;
      if (k > hi) hi = k;
    }
    if (lo > hi) return;
    const map = this.map;
    const oldLen = map === null ? 0 : map.length;
    if (map !== null && lo >= this.min && hi < this.min + oldLen) return;
    const newLo = map === null ? lo : Math.min(lo, this.min);
    const newHi = map === null ? hi : Math.max(hi, this.min + oldLen - 1);
    const need = newHi - newLo + 1;
    const dense = 4 * (groups + n) + 65536;
    if (need > MAX_ENTRIES || need > dense) return;
    // Headroom above (keys often arrive in rising order), within twice the density bound.
    const len = Math.max(need, Math.min(MAX_ENTRIES, 2 * dense, Math.max(2 * oldLen, need + (need >> 1))));
    const next = new Int32Array(len);
    if (map !== null) next.set(map, this.min - newLo);
    this.map = next;
    this.min = newLo;
  }
}
