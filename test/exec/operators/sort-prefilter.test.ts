import { describe, expect, it } from 'vitest';
import { countNotWorse, selectNotWorse, selectNotWorseMasked } from '../../../src/exec/operators/sort-prefilter.js';

let seed = 11;
const rnd = (): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 4294967296; };

/** The reference rule, row by row: a row is kept unless its key ranks strictly after the threshold's. */
function keeps(x: number | null, t: number | null, desc: boolean, nullsFirst: boolean): boolean {
  if (x === null || t === null) return x === t || (x === null ? nullsFirst : !nullsFirst);
  // NaN sorts after every number ascending, +Infinity included (so before every number descending); a threshold is never NaN.
  if (x !== x) return desc;
  return desc ? x >= t : x <= t;
}

describe('top-k prefilter loops', () => {
  const values = [1.5, -0, 0, 3, NaN, -7, 3, 12, NaN, 2, Infinity, -Infinity];
  for (let i = 0; i < 200; i++) values.push(rnd() < 0.05 ? NaN : Math.floor(rnd() * 40) - 20);
  const f64 = Float64Array.from(values);
  const i32 = Int32Array.from(values.map((x) => (x !== x || !Number.isFinite(x) ? 0 : x)));

  it('countNotWorse and selectNotWorse keep exactly the rows not worse than the threshold (Int32, Float64 with NaN, -0, ±Infinity)', () => {
    for (const v of [f64, i32]) {
      for (const desc of [false, true]) {
        for (const tv of [0, -0, 3, -20, 19, 100, -Infinity, Infinity]) {
          const want = [...v].flatMap((x, i) => (keeps(x, tv, desc, false) ? [i] : []));
          expect(countNotWorse(v, v.length, desc, tv)).toBe(want.length);
          const sel = new Int32Array(want.length);
          selectNotWorse(v, v.length, desc, tv, sel);
          expect([...sel]).toEqual(want);
          // A prefix of the rows only.
          expect(countNotWorse(v, 10, desc, tv)).toBe(want.filter((i) => i < 10).length);
        }
      }
    }
  });

  it('selectNotWorseMasked ranks NULL keys and NULL thresholds by nullsFirst; reads the bitmap at the offset', () => {
    const n = f64.length;
    const offset = 5;
    const bm = new Uint8Array((offset + n + 7) >> 3);
    const isNull: boolean[] = [];
    for (let i = 0; i < n; i++) {
      const nul = rnd() < 0.2;
      isNull.push(nul);
      if (!nul) bm[(offset + i) >> 3]! |= 1 << ((offset + i) & 7);
    }
    for (const desc of [false, true]) {
      for (const nullsFirst of [false, true]) {
        for (const t of [{ value: 3, isNull: false }, { value: -5, isNull: false }, { value: 0, isNull: true }]) {
          const want = [...f64].flatMap((x, i) => (keeps(isNull[i] ? null : x, t.isNull ? null : t.value, desc, nullsFirst) ? [i] : []));
          const sel = new Int32Array(n);
          const m = selectNotWorseMasked(f64, bm, offset, n, { desc, nullsFirst, ...t }, sel);
          expect([...sel.subarray(0, m)]).toEqual(want);
          // Without a bitmap no row is NULL.
          const all = [...f64].flatMap((x, i) => (keeps(x, t.isNull ? null : t.value, desc, nullsFirst) ? [i] : []));
          const m2 = selectNotWorseMasked(f64, null, 0, n, { desc, nullsFirst, ...t }, sel);
          expect([...sel.subarray(0, m2)]).toEqual(all);
        }
      }
    }
  });
});
