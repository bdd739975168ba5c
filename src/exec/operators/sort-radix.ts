/**
 * LSD radix sort of row indexes by one numeric key (sort-keys.ts uses it for
 * single-key sorts of Int32 values/ranks and doubles): keys are mapped to
 * unsigned integers that order like the values (sign flip for ints; the IEEE
 * trick for doubles, after normalizing -0 to 0 and NaN to the one positive
 * NaN, which then sorts last), then sorted 16 bits per pass, skipping passes
 * where every key has the same digit. LSD radix is stable, so ties keep input
 * order. NULLs are placed first or last, in input order.
 */
import { canonicalDouble } from '../kernels/float-order.js';
import type { NormalizedKey } from './sort-keys.js';

/** Scatters (keys…, idx) by a 16-bit digit; returns false when the pass is a no-op (one bucket). */
function pass(digit: (i: number) => number, n: number, src: Uint32Array[], dst: Uint32Array[], count: Int32Array): boolean {
  count.fill(0);
  for (let i = 0; i < n; i++) count[digit(i)]++;
  for (let d = 0; d < 65536; d++) if (count[d] === n) return false;
  let sum = 0;
  for (let d = 0; d < 65536; d++) { const c = count[d]!; count[d] = sum; sum += c; }
  const w = src.length;
  for (let i = 0; i < n; i++) {
    const at = count[digit(i)]!++;
    for (let k = 0; k < w; k++) dst[k]![at] = src[k]![i]!;
  }
  return true;
}

/** The stable sorted permutation of n rows by one Int32 or Float64 key. */
export function radixPermutation(key: NormalizedKey, desc: boolean, nullsFirst: boolean, n: number): Int32Array {
  const v = key.values as Int32Array | Float64Array;
  const nulls = key.nulls;
  // Non-NULL rows, in input order.
  let m = 0;
  const rows = new Uint32Array(n);
  for (let i = 0; i < n; i++) if (nulls === null || nulls[i] === 0) rows[m++] = i;
  const flip = desc ? 0xffffffff : 0;
  const hi = new Uint32Array(m);
  const lo = v instanceof Float64Array ? new Uint32Array(m) : null;
  if (lo === null) {
    for (let j = 0; j < m; j++) hi[j] = ((v[rows[j]!]! ^ 0x80000000) ^ flip) >>> 0;
  } else {
    const f = new Float64Array(1);
    const w = new Uint32Array(f.buffer);
    for (let j = 0; j < m; j++) {
      const x = v[rows[j]!]!;
      f[0] = canonicalDouble(x);
      const h = w[1]!;
      const l = w[0]!;
      // Negative: flip every bit; positive: flip the sign bit.
      if (h & 0x80000000) { hi[j] = (~h ^ flip) >>> 0; lo[j] = (~l ^ flip) >>> 0; } else { hi[j] = ((h | 0x80000000) ^ flip) >>> 0; lo[j] = (l ^ flip) >>> 0; }
    }
  }
  let src: Uint32Array[] = lo === null ? [hi, rows.subarray(0, m)] : [hi, lo, rows.subarray(0, m)];
  let dst: Uint32Array[] = src.map(() => new Uint32Array(m));
  const count = new Int32Array(65536);
  const digits: ((s: Uint32Array[]) => (i: number) => number)[] = lo === null
    ? [(s) => (i) => s[0]![i]! & 0xffff, (s) => (i) => s[0]![i]! >>> 16]
    : [(s) => (i) => s[1]![i]! & 0xffff, (s) => (i) => s[1]![i]! >>> 16, (s) => (i) => s[0]![i]! & 0xffff, (s) => (i) => s[0]![i]! >>> 16];
  for (const d of digits) {
    if (pass(d(src), m, src, dst, count)) { const t = src; src = dst; dst = t; }
  }
  const sortedRows = src[src.length - 1]!;
  const out = new Int32Array(n);
  let at = 0;
  const putNulls = (): void => { if (nulls !== null) for (let i = 0; i < n; i++) if (nulls[i] === 1) out[at++] = i; };
  if (nullsFirst) putNulls();
  for (let j = 0; j < m; j++) out[at++] = sortedRows[j]!;
  if (!nullsFirst) putNulls();
  return out;
}
