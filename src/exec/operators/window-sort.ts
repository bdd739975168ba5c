/**
 * The window operator's sort by (partition keys, order keys). When every key
 * is an integer column (or strings, as ranks) whose value ranges multiply to
 * fewer than 2^31 codes — the common `PARTITION BY id ORDER BY seq` — the keys
 * pack into one Int32 code per row (each key's offset from its minimum, its
 * direction and NULL place folded in, the first key most significant) and a
 * stable radix sort orders the rows in a few linear passes; up to 2^52 codes
 * pack into a Float64 code (the Int32 codes sort with a dedicated 11-bit
 * radix); input already in key order is detected by one
 * pass over the codes and not sorted at all. Otherwise the general comparator
 * sort (sort-keys.ts) runs.
 */
import type { Data } from 'apache-arrow';
import type { SortKey } from '../../relnode/rel.js';
import { normalizeKey, sortPermutation, type NormalizedKey } from './sort-keys.js';
import { radixPermutation } from './sort-radix.js';

const MAX_FLOAT_CODES = 2 ** 52;

/**
 * The stable sorted permutation of n rows by the keys, or null when the rows
 * are already in order (input clustered by its keys, such as lineitem by
 * order key and line number: one linear check instead of a sort and a gather).
 */
export function windowPermutation(keys: readonly SortKey[], cols: readonly Data[], n: number): Int32Array | null {
  if (keys.length >= 2 && n >= 1024) {
    const packed = packKeys(keys, cols.map(normalizeKey), n);
    if (packed !== null) {
      let i = 1;
      while (i < n && packed[i - 1]! <= packed[i]!) i++;
      if (i >= n) return null;
      return packed instanceof Int32Array ? radixCodes(packed, n) : radixPermutation({ values: packed, nulls: null, hasNaN: false }, false, false, n);
    }
  }
  return sortPermutation(keys, cols, n);
}

/** One code per row ordering like the keys, or null when they do not pack. */
function packKeys(keys: readonly SortKey[], norm: readonly NormalizedKey[], n: number): Int32Array | Float64Array | null {
  const mins: number[] = [];
  const widths: number[] = [];
  let codes = 1;
  for (const k of norm) {
    const v = k.values;
    if (v instanceof BigInt64Array) return null;
    let min = Infinity;
    let max = -Infinity;
    const nl = k.nulls;
    for (let i = 0; i < n; i++) {
      if (nl !== null && nl[i]) continue;
      const x = v[i]!;
      if (!Number.isInteger(x)) return null; // fractions and NaN: the comparator sort
      if (x < min) min = x;
      if (x > max) max = x;
    }
    const width = (max >= min ? max - min + 1 : 0) + (nl !== null ? 1 : 0);
    codes *= Math.max(1, width);
    if (codes > MAX_FLOAT_CODES) return null;
    mins.push(min);
    widths.push(Math.max(1, width));
  }
  const out = codes < 2 ** 31 ? new Int32Array(n) : new Float64Array(n);
  let stride = 1;
  for (let k = keys.length - 1; k >= 0; k--) {
    const { values: v, nulls: nl } = norm[k]!;
    const { desc, nullsFirst } = keys[k]!;
    const min = mins[k]!;
    const w = widths[k]!;
    const shift = nl !== null && nullsFirst ? 1 : 0;
    const hi = w - 1 - shift; // the largest non-NULL code before direction
    for (let i = 0; i < n; i++) {
      let c: number;
      if (nl !== null && nl[i]) c = nullsFirst ? 0 : w - 1;
      else {
        const x = (v[i] as number) - min;
        c = (desc ? hi - (nl !== null && !nullsFirst ? 1 : 0) - x : x) + shift;
      }
      out[i] += c * stride;
    }
    stride *= w;
  }
  return out;
}

/**
 * The stable sorted permutation of non-negative Int32 codes: LSD radix, 11
 * bits a pass (a 2048-entry histogram stays in L1), passes above the largest
 * code skipped — three at most, each a histogram and a scatter of (code, row).
 */
function radixCodes(codes: Int32Array, n: number): Int32Array {
  let max = 0;
  for (let i = 0; i < n; i++) if (codes[i]! > max) max = codes[i]!;
  let keys = Int32Array.from(codes.subarray(0, n));
  let rows = new Int32Array(n);
  for (let i = 0; i < n; i++) rows[i] = i;
  let keys2 = new Int32Array(n);
  let rows2 = new Int32Array(n);
  const count = new Int32Array(2048);
  for (let shift = 0; shift < 31 && max >>> shift > 0; shift += 11) {
    count.fill(0);
    for (let i = 0; i < n; i++) count[(keys[i]! >>> shift) & 2047]++;
    let sum = 0;
    for (let d = 0; d < 2048; d++) { const c = count[d]!; count[d] = sum; sum += c; }
    for (let i = 0; i < n; i++) {
      const k = keys[i]!;
      const at = count[(k >>> shift) & 2047]++;
      keys2[at] = k;
      rows2[at] = rows[i]!;
    }
    [keys, keys2] = [keys2, keys];
    [rows, rows2] = [rows2, rows];
  }
  return rows;
}
