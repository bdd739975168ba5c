/**
 * Sorted runs: a group-by KeyTable (hash.ts) whose keys have so far arrived in *clustered* order
 * keeps its groups in its group words only, without hashing them into slots (the loop is
 * hash-probe.ts `appendSorted`; this file has the key order and the segments of such groups).
 *
 * Decision: a table clustered by its group key (TPC-H lineitem by l_orderkey: Q18's inner
 * aggregate, 6M rows into 1.5M groups) hashed every row and missed the cache once per group in a
 * 32 MB slot array: ~80 ns a row, the largest share of Q18. While keys keep coming in ascending
 * order, a row costs one comparison: equal to the newest group's key → that group, greater → a new
 * group appended. The groups form segments: runs of consecutive gids with ascending keys, kept in
 * key order. A key out of order is looked up among the segments (binary searches); found → its
 * gid; absent → a new segment starts there (splitting the segment whose range it falls in). So
 * batches each sorted but read in another order (a memory table's partitions read batches p,
 * p + P, ...: parallelism 1 reads lineitem's batches 0, 64, 1, 65, ...) stay in the mode with
 * about two segments per batch. Too many segments for the groups (unsorted input: at its second
 * or third row), or too many searches (input revisiting old keys) ends the mode for good; the groups then move into the slots incrementally
 * (hash-slots.ts `startFromSorted`) and lookups search the segments until all are moved. Group ids
 * stay first-seen order either way, so answers keep their bits.
 *
 * The order is any strict total order on a key's words: one word compares as a signed int; two
 * words (a BIGINT / TIMESTAMP / DOUBLE key, or two 32-bit keys) by the second word signed, then the
 * first unsigned — the order of a little-endian int64, so ascending BIGINT keys stay in the mode.
 * Keys of three words or more, and keys containing a NULL, are never in the mode.
 */
import { FLAG_MISS, FLAG_NULL } from './hash-encode.js';

/** Segments a table keeps before the ratio below applies (unsorted input leaves after about this many rows). */
const SEGMENTS_FREE = 16;
/** Groups per segment on average, at least (else the input is not clustered enough to pay). */
const GROUPS_PER_SEGMENT = 64;
/** Segments at most: creating one shifts the lists, so their count is bounded. */
const SEGMENTS_MAX = 4096;
/**
 * Searches (keys out of order) allowed before the ratio below applies: a search costs a few times
 * a hashed lookup, so input that keeps revisiting old keys (a sorted table read twice) hashes.
 */
const SEARCHES_FREE = 1024;
/** Groups per search, at least. */
const GROUPS_PER_SEARCH = 4;

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
  const r = searchSorted(words, base, W, groupWords, lo, hi);
  return r >= 0 ? r : -1;
}

/** Binary search of groups [lo, hi): the gid of the key when present, else −(the first gid above it) − 1. */
function searchSorted(words: Int32Array, base: number, W: number, groupWords: Int32Array, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareKey(groupWords, mid * W, words, base, W);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return -lo - 1;
}

/**
 * The segments of a table in sorted runs: per segment, in key order, its gids [start, end) (keys
 * ascending with the gid). `cur` holds the newest group, where appends go.
 */
export class SortedSegments {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  /** Index of the segment holding the newest group (-1: no group yet). */
  private cur = -1;
  /** Calls of `place` so far. */
  private searches = 0;

  /** Number of segments. */
  get count(): number { return this.starts.length; }

  /** The first gid of the segment after the newest group's in key order (its key bounds appends), or -1. */
  limit(): number {
    return this.cur + 1 < this.starts.length ? this.starts[this.cur + 1]! : -1;
  }

  /** Records gid `g` appended to the newest group's segment. */
  extend(g: number): void {
    this.ends[this.cur] = g + 1;
  }

  /** Segment j's first gid (segments in key order). */
  start(j: number): number { return this.starts[j]!; }

  /** One past segment j's last gid. */
  end(j: number): number { return this.ends[j]!; }

  /** The segment whose first key is the last ≤ the key at `words[base..]` (-1: below all). */
  segmentOf(words: Int32Array, base: number, W: number, groupWords: Int32Array): number {
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareKey(groupWords, this.starts[mid]! * W, words, base, W) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  /** The gid of the key at `words[base..]`, or -1. */
  find(words: Int32Array, base: number, W: number, groupWords: Int32Array): number {
    const j = this.segmentOf(words, base, W, groupWords);
    return j < 0 ? -1 : findSorted(words, base, W, groupWords, this.starts[j]!, this.ends[j]!);
  }

  /**
   * The gid of the key at `words[base..]` when present; else, when the segments may grow, a new
   * segment [size, size + 1) where the key belongs (splitting the segment it falls inside) and -1 —
   * the caller appends that group; -2 when they may not, or after too many searches (the caller
   * leaves sorted runs).
   */
  place(words: Int32Array, base: number, W: number, groupWords: Int32Array, size: number): number {
    if (++this.searches > SEARCHES_FREE && this.searches * GROUPS_PER_SEARCH > size) return -2;
    const j = this.segmentOf(words, base, W, groupWords);
    const at = j + 1;
    // The first gid of segment j whose key is above the key (keys ascend with the gid).
    const e = j >= 0 ? this.ends[j]! : 0;
    const r = searchSorted(words, base, W, groupWords, j >= 0 ? this.starts[j]! : 0, e);
    if (r >= 0) return r;
    const lo = -r - 1;
    const n = this.starts.length;
    if (n >= SEGMENTS_MAX || (n >= SEGMENTS_FREE && n * GROUPS_PER_SEGMENT > size)) return -2;
    if (lo < e) {
      // Inside segment j: split it at `lo`; the new segment goes between the halves.
      this.ends[j] = lo;
      this.starts.splice(j + 1, 0, lo);
      this.ends.splice(j + 1, 0, e);
    }
    this.starts.splice(at, 0, size);
    this.ends.splice(at, 0, size + 1);
    this.cur = at;
    return -1;
  }
}

/**
 * A join probe of a frozen table still in sorted runs, one 32-bit key word per row (W = 1): the
 * group ids of rows 0, 1, ... (-1: absent, or a NULL / absent-string row) found by merging the
 * rows' keys against the groups' ascending segments, as long as the rows' keys ascend. Returns the
 * first row not taken: a key below the previous row's (the probe is not sorted) once `searches`
 * repositionings are spent, or a key kept apart (FLAG_APART); n when every row was.
 *
 * Decision: a build whose keys arrive in order (TPC-H orders by o_orderkey, also each share's key
 * range of a co-partitioned stage) keeps its groups in key order and is never hashed; a probe
 * whose keys ascend too (lineitem by l_orderkey) walks them with a cursor — the next key is at or
 * just after the last one found, so a row costs a compare or two on memory read in order. Hashing
 * both sides cost a cache miss per build row and per distinct probe key (Q3's 147K-key build:
 * 2^18 slots, 2 MB). The cursor moves by galloping (1, 2, 4, ... groups, then a binary search),
 * so sparse probe keys skip ahead in O(log gap). A descent (the next batch of another partition)
 * repositions it by binary search over the segments.
 */
export function findAscending(
  segs: SortedSegments, groupWords: Int32Array, words: Int32Array, flags: Uint8Array | null, n: number, out: Int32Array, searches: number,
): number {
  const count = segs.count;
  if (count === 0) {
    for (let i = 0; i < n; i++) {
      if (flags !== null && (flags[i]! & ~(FLAG_NULL | FLAG_MISS)) !== 0) return i;
      out[i] = -1;
    }
    return n;
  }
  let j = -1; // the cursor's segment (-1: not placed)
  let g = 0; // the cursor: the first gid of segment j whose key may be ≥ the next key
  let e = 0; // segment j's end
  let pk = 0;
  let pg = -2; // the previous key's result (-2: none yet)
  for (let i = 0; i < n; i++) {
    if (flags !== null && flags[i] !== 0) {
      if ((flags[i]! & (FLAG_NULL | FLAG_MISS)) === 0) return i;
      out[i] = -1;
      continue;
    }
    const k = words[i]!;
    if (k === pk && pg !== -2) { out[i] = pg; continue; }
    if (j < 0 || k < pk) {
      if (j >= 0 && --searches < 0) return i;
      j = segs.segmentOf(words, i, 1, groupWords);
      if (j < 0) { j = 0; g = segs.start(0); e = segs.end(0); }
      else { g = segs.start(j); e = segs.end(j); }
    }
    // Past segment j's last key: on to the next segment (their key ranges ascend and do not overlap).
    while (g === e || groupWords[e - 1]! < k) {
      if (j + 1 >= count) { g = e; break; }
      j++;
      g = segs.start(j);
      e = segs.end(j);
    }
    let r = -1;
    if (g < e) {
      if (groupWords[g]! < k) {
        // Gallop: groupWords[lo] < k ≤ groupWords[e - 1] (the loop above), so the answer is in (lo, e).
        let lo = g;
        let step = 1;
        while (lo + step < e && groupWords[lo + step]! < k) { lo += step; step += step; }
        let hi = lo + step < e ? lo + step : e - 1;
        while (lo + 1 < hi) {
          const mid = (lo + hi) >>> 1;
          if (groupWords[mid]! < k) lo = mid;
          else hi = mid;
        }
        g = hi;
      }
      if (groupWords[g] === k) r = g;
    }
    out[i] = r;
    pk = k;
    pg = r;
  }
  return n;
}
