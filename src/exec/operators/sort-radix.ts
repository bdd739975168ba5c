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
import { packedMap } from '../packed.js';

/**
 * Scatters (keys…, idx) by the 16-bit digit `(src[word][i] >>> shift) & 0xffff`; returns false when the
 * pass is a no-op (one bucket). Digits are read inline, not through a closure per pass: one call site
 * per loop keeps the loops monomorphic, which also matters in the first, not yet optimized runs.
 */
function pass(word: number, shift: number, n: number, src: Uint32Array[], dst: Uint32Array[], count: Int32Array): boolean {
  const key = src[word]!;
  count.fill(0);
  for (let i = 0; i < n; i++) count[(key[i]! >>> shift) & 0xffff]++;
  for (let d = 0; d < 65536; d++) if (count[d] === n) return false;
  let sum = 0;
  for (let d = 0; d < 65536; d++) { const c = count[d]!; count[d] = sum; sum += c; }
  if (src.length === 2) {
    const k0 = src[0]!, k1 = src[1]!, d0 = dst[0]!, d1 = dst[1]!;
    for (let i = 0; i < n; i++) { const at = count[(key[i]! >>> shift) & 0xffff]!++; d0[at] = k0[i]!; d1[at] = k1[i]!; }
  } else {
    const k0 = src[0]!, k1 = src[1]!, k2 = src[2]!, d0 = dst[0]!, d1 = dst[1]!, d2 = dst[2]!;
    for (let i = 0; i < n; i++) { const at = count[(key[i]! >>> shift) & 0xffff]!++; d0[at] = k0[i]!; d1[at] = k1[i]!; d2[at] = k2[i]!; }
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
  // packedMap, not .map: an inlined .map returns a HOLEY array, and `src`/`dst` swap each pass, so
  // `pass` saw two array maps and deoptimized ("wrong map" at src[word], most timed TPC-H Q10 runs).
  let dst: Uint32Array[] = packedMap(src, () => new Uint32Array(m));
  const count = new Int32Array(65536);
  // (word, shift) of each digit, least significant first: word 0 = hi, 1 = lo.
  const digits: readonly (readonly [number, number])[] = lo === null ? [[0, 0], [0, 16]] : [[1, 0], [1, 16], [0, 0], [0, 16]];
  for (const [word, shift] of digits) {
    if (pass(word, shift, m, src, dst, count)) { const t = src; src = dst; dst = t; }
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
