/**
 * The top-k threshold of one batch, without sorting it: the k-th best value
 * of the first sort key, by quickselect over a copy of the key's values.
 *
 * Why: a top-k sort (sort.ts) only gets a threshold after its first
 * compaction, which sorts the whole buffer. Cached data arrives in large
 * batches (coalesced cache blocks, ~50k rows at TPC-H SF 1), so the first
 * batch of `b.orderBy(desc('revenue'), …).limit(10)` was sorted in full by
 * a comparator sort, most of the query's time. The k-th best first key of a
 * batch is exactly the threshold the compaction of that batch would set (the
 * first key of its k-th sorted row), and a threshold from part of the input
 * is still a valid bound for all of it (the k rows at least that good rank
 * ahead of any row strictly worse), so the batch is prefiltered to its ≥ k
 * best rows (ties kept) first and only those are sorted.
 *
 * Only for a numeric first key without NULLs or NaNs in the batch (NULL and
 * NaN placement follow the key's order rules; those batches sort as before).
 */
import { Type, type Data } from 'apache-arrow';

/**
 * The k-th best value (1-based k ≤ rows) of rows [0, n) of a numeric column
 * (Int32 or Float64 values) in the order asc/desc, or null when the column
 * has NULLs, a NaN, or another representation.
 */
export function kthBestValue(d: Data, n: number, k: number, desc: boolean): number | null {
  if (k < 1 || k > n || d.nullCount > 0 || d.typeId === Type.Dictionary) return null;
  const v = d.values as unknown;
  if (!(v instanceof Int32Array || v instanceof Float64Array)) return null;
  const a = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x = v[i]!;
    if (x !== x) return null;
    a[i] = x;
  }
  return kthSmallest(a, desc ? n - k : k - 1);
}

/** The value at sorted position `k` (0-based) of `a` (reordered in place): Wirth's quickselect, middle pivot. */
export function kthSmallest(a: Float64Array, k: number): number {
  let l = 0;
  let r = a.length - 1;
  while (l < r) {
    const x = a[(l + r) >>> 1]!;
    let i = l;
    let j = r;
    do {
      while (a[i]! < x) i++;
      while (x < a[j]!) j--;
      if (i <= j) { const t = a[i]!; a[i] = a[j]!; a[j] = t; i++; j--; }
    } while (i <= j);
    if (j < k) l = i;
    if (k < i) r = j;
  }
  return a[k]!;
}
