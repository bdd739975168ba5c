/**
 * A runtime filter with few keys over a sorted batch: each key's rows are found by binary search
 * and written to the selection directly, instead of testing every row against the filter.
 *
 * Why: TPC-H Q18's second half tested all 6M lineitem rows and 1.5M orders rows against filters
 * holding ~57–77 order keys (the HAVING subquery's orders), at ~2 ns a row: ~15 ms of a ~145 ms
 * query, on the calling thread while a parallel run's worker idles. Both tables are stored in
 * order-key order, so a batch of 64K rows holds about one key; a search costs ~17 probes a key.
 *
 * Decision: per batch, from the batch's first and last key (its zone: the batch is sorted) and
 * two searches in the filter's sorted keys, the number of keys in range decides: none skips the
 * batch; few (searches cheaper than testing every row: `searchPays`) search; many fall back to
 * the filter's row loop. The sortedness flag (kernels/sorted-column.ts) is asked for only when
 * the search would pay, so a many-key filter never pays its pass. Keys are exact (the filter's
 * distinct build keys), so the search keeps exactly the rows whose key is a build key: no Bloom
 * false positives, and never a dropped row the join could match (a BIGINT probe value beyond
 * ±2^53 equals no build key, which are exact numbers, so dropping it is right).
 */
import type { Data } from 'apache-arrow';
import { sortedAscending } from './sorted-column.js';

/** Batches under this many tested rows always take the row loop (the search's setup is not worth it). */
const MIN_ROWS = 256;

/**
 * Whether `keys` binary searches over `rows` sorted rows cost less than testing every row: a
 * search takes up to log2(rows) dependent reads, the row loop ~3 ns a row. Measured over 64K-row
 * batches of 4 rows per key (CPU, load ~20): 1,024 keys in range cost 2.5 ns a row by search
 * against 3.4 by the row loop, 4,096 keys 3.1 against 4.9 (a quarter of the rows kept); 64 keys
 * 0.18 against ~3.4. The bound below is conservative by ~2×.
 */
export function searchPays(keys: number, rows: number): boolean {
  return keys * (Math.log2(rows) + 2) <= rows;
}

/** First index in keys[lo … hi) whose key is ≥ x (hi if none). */
function lowerKey(keys: Float64Array, x: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in keys[lo … hi) whose key is > x (hi if none). */
function upperKey(keys: Float64Array, x: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Selects the rows of `d` (or of rows from[0 … n), ascending) whose key is one of the filter's
 * keys (ascending, distinct, exact integers) into `sel` (ascending), when `d` is sorted, has no NULLs and the
 * search pays; returns the number of rows kept, or −1 when the caller must test row by row.
 * `keysOf` gives the keys (sorted on the first call: only a batch that may take the search asks);
 * `bigKeys` gives them as BIGINTs.
 */
export function searchSelect(d: Data, keysOf: () => Float64Array, bigKeys: () => BigInt64Array, sel: Int32Array, from: Int32Array | null, n: number): number {
  if (n < MIN_ROWS || d.nullCount !== 0) return -1;
  const v = d.values as unknown;
  const first = from === null ? 0 : from[0]!;
  const last = from === null ? n - 1 : from[n - 1]!;
  let lo: number;
  let hi: number;
  if (v instanceof Int32Array) {
    const a = v[first]!;
    const b = v[last]!;
    if (a > b) return -1; // not sorted
    const keys = keysOf();
    lo = lowerKey(keys, a, 0, keys.length);
    hi = upperKey(keys, b, lo, keys.length);
    if (lo < hi && !searchPays(hi - lo, n)) return -1;
    if (!sortedAscending(d)) return -1;
    if (lo === hi) return 0; // no key within the batch's range
    return from === null ? searchAll(v, n, keys, lo, hi, sel) : searchFrom(v, from, n, keys, lo, hi, sel);
  }
  if (v instanceof BigInt64Array) {
    const a = v[first]!;
    const b = v[last]!;
    if (a > b) return -1;
    const keys = keysOf();
    // The keys in [a, b]: for a safe integer key k, k ≥ a iff k ≥ Number(a), even when a is beyond ±2^53.
    lo = lowerKey(keys, Number(a), 0, keys.length);
    hi = upperKey(keys, Number(b), lo, keys.length);
    if (lo < hi && !searchPays(hi - lo, n)) return -1;
    if (!sortedAscending(d)) return -1;
    if (lo === hi) return 0;
    return searchBig(v, from, n, bigKeys(), lo, hi, sel);
  }
  return -1;
}

/** Rows 0 … n − 1 of the sorted v whose value is one of keys[k0 … k1). */
function searchAll(v: Int32Array, n: number, keys: Float64Array, k0: number, k1: number, sel: Int32Array): number {
  let m = 0;
  let lo = 0;
  for (let j = k0; j < k1 && lo < n; j++) {
    const key = keys[j]!;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (v[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    while (lo < n && v[lo] === key) sel[m++] = lo++;
  }
  return m;
}

/** searchAll over the rows from[0 … n) (ascending, so their values are sorted too). */
function searchFrom(v: Int32Array, from: Int32Array, n: number, keys: Float64Array, k0: number, k1: number, sel: Int32Array): number {
  let m = 0;
  let lo = 0;
  for (let j = k0; j < k1 && lo < n; j++) {
    const key = keys[j]!;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (v[from[mid]!]! < key) lo = mid + 1;
      else hi = mid;
    }
    while (lo < n && v[from[lo]!] === key) sel[m++] = from[lo++]!;
  }
  return m;
}

/** searchAll and searchFrom for BIGINT values, against the keys as BIGINTs. */
function searchBig(v: BigInt64Array, from: Int32Array | null, n: number, keys: BigInt64Array, k0: number, k1: number, sel: Int32Array): number {
  let m = 0;
  let lo = 0;
  const row = (k: number): number => (from === null ? k : from[k]!);
  for (let j = k0; j < k1 && lo < n; j++) {
    const key = keys[j]!;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (v[row(mid)]! < key) lo = mid + 1;
      else hi = mid;
    }
    while (lo < n && v[row(lo)] === key) sel[m++] = row(lo++);
  }
  return m;
}
