import { describe, expect, it } from 'vitest';
import { makeData, Float64, Int32 } from 'apache-arrow';
import { kthBestValue, kthSmallest } from '../../../src/exec/operators/sort-threshold.js';

let seed = 3;
const rnd = (): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 4294967296; };
const f64 = (xs: number[]) => makeData({ type: new Float64(), length: xs.length, nullCount: 0, data: Float64Array.from(xs) });

describe('top-k threshold by selection', () => {
  it('kthSmallest equals the sorted array at k (random, sorted, reversed, all equal, many ties)', () => {
    const inputs = [
      Array.from({ length: 1001 }, () => rnd() * 100),
      Array.from({ length: 500 }, (_, i) => i),
      Array.from({ length: 500 }, (_, i) => 500 - i),
      Array.from({ length: 64 }, () => 7),
      Array.from({ length: 999 }, () => Math.floor(rnd() * 5)),
    ];
    for (const xs of inputs) {
      const sorted = [...xs].sort((a, b) => a - b);
      for (const k of [0, 1, xs.length >> 1, xs.length - 2, xs.length - 1]) expect(kthSmallest(Float64Array.from(xs), k)).toBe(sorted[k]);
    }
  });

  it('kthBestValue: k-th largest for desc, k-th smallest for asc; Int32 and Float64; null for NULLs, NaN, k > n', () => {
    const xs = Array.from({ length: 300 }, () => Math.floor(rnd() * 1000) - 500);
    const asc = [...xs].sort((a, b) => a - b);
    const ints = makeData({ type: new Int32(), length: xs.length, nullCount: 0, data: Int32Array.from(xs) });
    expect(kthBestValue(ints, xs.length, 10, false)).toBe(asc[9]);
    expect(kthBestValue(ints, xs.length, 10, true)).toBe(asc[xs.length - 10]);
    expect(kthBestValue(f64(xs), xs.length, 1, true)).toBe(asc[xs.length - 1]);
    expect(kthBestValue(f64(xs), 5, 6, true)).toBeNull();
    expect(kthBestValue(f64([1, NaN, 2]), 3, 1, true)).toBeNull();
    const withNull = makeData({ type: new Float64(), length: 3, nullCount: 1, nullBitmap: Uint8Array.of(0b101), data: Float64Array.of(1, 0, 2) });
    expect(kthBestValue(withNull, 3, 1, false)).toBeNull();
  });
});
