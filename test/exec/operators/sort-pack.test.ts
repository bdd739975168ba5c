/**
 * Packed multi-key sorts (sort-pack.ts): integral keys (strings by rank,
 * ints, whole doubles such as counts) with NULLs first or last, ascending or
 * descending, sort to exactly the permutation of the per-key comparator (the
 * stable reference), in one piece and in bounded steps; keys that do not
 * pack (fractions, NaN, ranges beyond 2^53) fall back to the comparator.
 */
import { describe, expect, it } from 'vitest';
import { makeData, type Data } from 'apache-arrow';
import { normalizeKey, rowComparator, sortPermutation } from '../../../src/exec/operators/sort-keys.js';
import { packKeys } from '../../../src/exec/operators/sort-pack.js';
import { COMPARATOR_STEP_ROWS, sortSteps } from '../../../src/exec/operators/sort-steps.js';
import { utf8FromStrings } from '../../../src/exec/batch.js';
import type { SortKey } from '../../../src/relnode/rel.js';
import { toArrowType } from '../../../src/relnode/types.js';

let seed = 11;
const rnd = (): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 4294967296; };

function withNulls(type: string, data: Int32Array | Float64Array, nullEvery: number): Data {
  const n = data.length;
  const bm = new Uint8Array((n + 7) >> 3);
  let nulls = 0;
  for (let i = 0; i < n; i++) if (nullEvery > 0 && i % nullEvery === 3) nulls++; else bm[i >> 3]! |= 1 << (i & 7);
  return makeData({ type: toArrowType(type as never) as never, length: n, nullCount: nulls, nullBitmap: nulls > 0 ? bm : undefined, data } as never);
}
const ints = (n: number, range: number, nullEvery = 0): Data => withNulls('INTEGER', Int32Array.from({ length: n }, () => Math.floor(rnd() * range) - (range >> 1)), nullEvery);
const doubles = (n: number, f: () => number, nullEvery = 0): Data => withNulls('DOUBLE', Float64Array.from({ length: n }, f), nullEvery);
const strs = (n: number): Data => utf8FromStrings(Array.from({ length: n }, () => `Brand#${Math.floor(rnd() * 40)}`));

function reference(keys: SortKey[], cols: Data[], n: number): Int32Array {
  return Int32Array.from({ length: n }, (_, i) => i).sort(rowComparator(keys, cols.map(normalizeKey)));
}

function stepped(keys: SortKey[], cols: Data[], n: number): Int32Array {
  const g = sortSteps(keys, cols, n);
  for (let r = g.next(); ; r = g.next()) if (r.done) return r.value;
}

const key = (index: number, desc: boolean, nullsFirst: boolean): SortKey => ({ index, desc, nullsFirst });

describe('packed sort keys', () => {
  for (const n of [500, 5000, COMPARATOR_STEP_ROWS * 2 + 99]) {
    it(`${n} rows: counts DESC, strings, ints with NULLs, in every direction, as the comparator sorts them`, () => {
      const cols = [doubles(n, () => Math.floor(rnd() * 30)), strs(n), ints(n, 50, 7), doubles(n, () => Math.floor(rnd() * 9) - 4, 5)];
      for (const [d0, d1, d2, nf] of [[true, false, false, false], [false, true, true, true], [true, true, false, true]] as const) {
        const keys = [key(0, d0, nf), key(1, d1, !nf), key(2, d2, nf), key(3, !d2, !nf)];
        const norm = cols.map(normalizeKey);
        expect(packKeys(keys, norm, n)).toBeDefined();
        const want = reference(keys, cols, n);
        expect(sortPermutation(keys, cols, n)).toEqual(want);
        expect(stepped(keys, cols, n)).toEqual(want);
      }
    });
  }

  it('fractions, NaN and too-wide ranges do not pack, and still sort right', () => {
    const n = 3000;
    const frac = [doubles(n, () => Math.floor(rnd() * 20) / 4), ints(n, 10)];
    const nan = [doubles(n, () => (rnd() < 0.1 ? NaN : Math.floor(rnd() * 10))), ints(n, 10)];
    const wide = [ints(n, 2 ** 31 - 2), ints(n, 2 ** 31 - 2)];
    for (const cols of [frac, nan, wide]) {
      const keys = [key(0, true, false), key(1, false, true)];
      expect(packKeys(keys, cols.map(normalizeKey), n)).toBeUndefined();
      expect(sortPermutation(keys, cols, n)).toEqual(reference(keys, cols, n));
    }
  });

  it('all-NULL and single-valued keys pack to a stable order', () => {
    const n = 2000;
    const cols = [doubles(n, () => 1, 1), ints(n, 1), strs(n)];
    const keys = [key(0, false, true), key(1, true, false), key(2, true, false)];
    expect(packKeys(keys, cols.map(normalizeKey), n)).toBeDefined();
    expect(sortPermutation(keys, cols, n)).toEqual(reference(keys, cols, n));
  });
});
