/**
 * Sorted runs: a group-by KeyTable (hash.ts) whose keys have so far arrived in ascending order
 * keeps its groups in its group words only, without hashing them into slots (the loop is
 * hash-probe.ts `appendSorted`; this file has the key order and the search of such groups).
 *
 * Decision: a table clustered by its group key (TPC-H lineitem by l_orderkey: Q18's inner
 * aggregate, 6M rows into 1.5M groups, and each parallel worker's contiguous key range) hashed
 * every row and missed the cache once per group in a 32 MB slot array: ~80 ns a row, the
 * largest share of Q18. While every new key is greater than the last group's key, a row costs one
 * comparison: equal to the last key → the last group, greater → a new group appended. The first
 * key out of order ends the mode for good; the groups so far then move into the slots
 * incrementally (hash-slots.ts `startFromSorted`): until they are all moved, a lookup that misses
 * in the slots binary-searches the not-yet-moved groups, whose words are still ascending. Unsorted
 * input leaves the mode at its second or third row, for nothing. Group ids stay first-seen order
 * either way, so answers keep their bits.
 *
 * The order is any strict total order on a key's words: one word compares as a signed int; two
 * words (a BIGINT / TIMESTAMP / DOUBLE key, or two 32-bit keys) by the second word signed, then the
 * first unsigned — the order of a little-endian int64, so ascending BIGINT keys stay in the mode.
 * Keys of three words or more, and keys containing a NULL, are never in the mode.
 */

/** Compares the key of W (1 or 2) words at `a[ai..]` with the key at `b[bi..]`: < 0, 0 or > 0. */
export function compareKey(a: Int32Array, ai: number, b: Int32Array, bi: number, W: number): number {
  if (W === 1) { const x = a[ai]!; const y = b[bi]!; return x < y ? -1 : x > y ? 1 : 0; }
  const xh = a[ai + 1]!;
  const yh = b[bi + 1]!;
  if (xh !== yh) return xh < yh ? -1 : 1;
  const xl = a[ai]! >>> 0;
  const yl = b[bi]! >>> 0;
  return xl < yl ? -1 : xl > yl ? 1 : 0;
}

/**
 * The gid among groups [lo, hi) whose words (W per gid in `groupWords`, ascending) equal the key at
 * `words[base..]`, or -1.
 */
export function findSorted(words: Int32Array, base: number, W: number, groupWords: Int32Array, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareKey(groupWords, mid * W, words, base, W);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}
