/**
 * A full sort's sort phase as bounded steps (operator.ts "Bounded steps"):
 * sorting millions of rows in one call pauses the event loop for hundreds of
 * milliseconds (issue 11: no pause over 100 ms). `sortSteps` is a generator
 * that yields after every bounded piece of work and returns the same stable
 * permutation `sortPermutation` gives.
 *
 * Decision: a small input (≤ SORT_STEP_ROWS rows for one key, ≤
 * COMPARATOR_STEP_ROWS for several) is sorted in one piece, as before. A
 * larger one is cut into runs of that many rows, each sorted
 * in one piece (radix for one numeric key, the comparator otherwise), then
 * merged bottom-up, pairwise, a run's worth of output rows per piece. The
 * comparator breaks ties by row index, so merging runs of ascending row
 * ranges keeps the sort stable. Normalizing the key columns (ranking
 * strings) stays one piece per key column.
 */
import type { Data } from 'apache-arrow';
import type { SortKey } from '../../relnode/rel.js';
import { ASC, normalizeKey, rowComparator, sortPermutation, type NormalizedKey } from './sort-keys.js';
import { packKeys } from './sort-pack.js';
import { radixPermutation } from './sort-radix.js';

/** Rows per sorted run and output rows per merge piece (one key: a radix sort): a few milliseconds of work. */
export const SORT_STEP_ROWS = 1 << 17;
/** The same for several keys: a comparator sort costs far more per row (closures over every key). */
export const COMPARATOR_STEP_ROWS = 1 << 14;

/** The stable sorted permutation of rows [0, n), computed in bounded pieces (yields between them). */
export function* sortSteps(sortKeys: readonly SortKey[], keyCols: readonly Data[], n: number): Generator<void, Int32Array, void> {
  if (n <= (sortKeys.length === 1 ? SORT_STEP_ROWS : COMPARATOR_STEP_ROWS) || sortKeys.length === 0) return sortPermutation(sortKeys, keyCols, n);
  let norm: NormalizedKey[] = [];
  for (const c of keyCols) { norm.push(normalizeKey(c)); yield; }
  // Several integral keys packed into one (sort-pack.ts) sort as one ascending numeric key.
  const packed = sortKeys.length > 1 ? packKeys(sortKeys, norm, n) : undefined;
  let keys = sortKeys;
  if (packed !== undefined) { keys = [ASC]; norm = [packed]; yield; }
  const run = keys.length === 1 ? SORT_STEP_ROWS : COMPARATOR_STEP_ROWS;
  if (n <= run) return radixPermutation(norm[0]!, keys[0]!.desc, keys[0]!.nullsFirst, n);
  const cmp = rowComparator(keys, norm);
  const first = norm[0]!;
  const radix = keys.length === 1 && !(first.values instanceof BigInt64Array);
  let src = new Int32Array(n);
  for (let off = 0; off < n; off += run) {
    const len = Math.min(run, n - off);
    const part = src.subarray(off, off + len);
    if (radix) {
      const view: NormalizedKey = { values: first.values.subarray(off, off + len), nulls: first.nulls?.subarray(off, off + len) ?? null, hasNaN: first.hasNaN };
      part.set(radixPermutation(view, keys[0]!.desc, keys[0]!.nullsFirst, len));
      for (let i = 0; i < len; i++) part[i] += off;
    } else {
      for (let i = 0; i < len; i++) part[i] = off + i;
      part.sort(cmp);
    }
    yield;
  }
  let dst = new Int32Array(n);
  for (let width = run; width < n; width *= 2) {
    // Rows merged since the last yield, across pairs of runs.
    let done = 0;
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width);
      const hi = Math.min(n, lo + 2 * width);
      let i = lo;
      let j = mid;
      let k = lo;
      while (k < hi) {
        const stop = Math.min(hi, k + run - done);
        done += stop - k;
        while (k < stop) {
          if (i < mid && (j >= hi || cmp(src[i]!, src[j]!) <= 0)) dst[k++] = src[i++]!;
          else dst[k++] = src[j++]!;
        }
        if (done >= run) { yield; done = 0; }
      }
    }
    const t = src; src = dst; dst = t;
  }
  return src;
}
