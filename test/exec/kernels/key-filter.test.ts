import { describe, expect, it } from 'vitest';
import { Int32, Int64, vectorFromArray, type Data } from 'apache-arrow';
import { KeyFilter } from '../../../src/exec/kernels/key-filter.js';

const i32 = (xs: (number | null)[]) => vectorFromArray(xs, new Int32()).data[0]!;
const i64 = (xs: (bigint | null)[]) => vectorFromArray(xs, new Int64()).data[0]!;

function kept(f: KeyFilter, d: Data): number[] {
  const sel = new Int32Array(d.length);
  return Array.from(sel.subarray(0, f.select(d, sel)));
}

describe('KeyFilter', () => {
  it('dense keys: an exact bitmap over [min, max]; NULL probe rows are dropped', () => {
    const f = KeyFilter.build([i32([5, 7, 7, 9]), i32([12, null])])!;
    expect(f.describe()).toBe('bitmap [5, 12]');
    expect(kept(f, i32([4, 5, 6, 7, 8, 9, 12, 13, null, -1]))).toEqual([1, 3, 5, 6]);
  });

  it('sparse keys: a Bloom filter behind the range check, no false negatives and few false positives', () => {
    const keys = Array.from({ length: 1000 }, (_, i) => i * 100_003);
    const f = KeyFilter.build([i32(keys)])!;
    expect(f.describe()).toMatch(/^bloom/);
    for (const k of keys) expect(f.mayContain(k)).toBe(true);
    const probe = Array.from({ length: 20_000 }, (_, i) => i * 4999 + 1);
    const fp = probe.filter((x) => !keys.includes(x) && f.mayContain(x)).length;
    expect(fp / probe.length).toBeLessThan(0.03);
    expect(kept(f, i32([-5, 0, 100_003, 999 * 100_003 + 1]))).toEqual([1, 2]);
  });

  it('keys sparser than 64 bits per key but spanning at most 2^23 values get an exact bitmap (no false positives)', () => {
    // TPC-H Q10's shape: a few filtered orders spread over the whole order key range.
    const keys = Array.from({ length: 500 }, (_, i) => 1 + i * 12_007);
    const f = KeyFilter.build([i32(keys)])!;
    expect(f.describe()).toBe(`bitmap [1, ${1 + 499 * 12_007}]`);
    const probe = Array.from({ length: 6_000_000 / 97 }, (_, i) => i * 97);
    const want = probe.map((x, i) => (keys.includes(x) ? i : -1)).filter((i) => i >= 0);
    expect(kept(f, i32(probe))).toEqual(want);
  });

  it('Bloom filters over INTEGER probes agree with mayContain, negative keys included', () => {
    const keys = Array.from({ length: 300 }, (_, i) => (i - 150) * 7_000_001);
    const f = KeyFilter.build([i32(keys)])!;
    expect(f.describe()).toMatch(/^bloom/);
    const probe = [...keys, ...Array.from({ length: 5000 }, (_, i) => (i - 2500) * 420_011 + 3)];
    const viaSelect = kept(f, i32(probe));
    expect(viaSelect).toEqual(probe.map((x, i) => (f.mayContain(x) ? i : -1)).filter((i) => i >= 0));
    for (let i = 0; i < keys.length; i++) expect(viaSelect).toContain(i);
  });

  it('BIGINT keys compare by value with INTEGER probes; out-of-range BIGINTs make no filter', () => {
    const f = KeyFilter.build([i64([3n, 10n, null])])!;
    expect(kept(f, i32([3, 4, 10]))).toEqual([0, 2]);
    expect(kept(f, i64([10n, 11n, null, 2n ** 60n]))).toEqual([0, 3]); // beyond 2^53: kept
    expect(KeyFilter.build([i64([1n, 2n ** 60n])])).toBeUndefined();
  });

  it('an empty build side keeps nothing', () => {
    const f = KeyFilter.build([i32([]), i32([null])])!;
    expect(f.describe()).toBe('empty');
    expect(kept(f, i32([1, 2]))).toEqual([]);
  });

  it('reads sliced columns from their offset', () => {
    const d = i32([1, 2, 3, 4, 5, 6]).slice(2, 3); // 3, 4, 5
    const f = KeyFilter.build([d])!;
    expect(f.describe()).toBe('bitmap [3, 5]');
    expect(kept(f, i32([1, 2, 3, 4, 5, 6]).slice(3, 3))).toEqual([0, 1]); // 4, 5 kept, 6 dropped
  });
});

describe('KeyFilter.select through a selection', () => {
  const within = (f: KeyFilter, d: Data, from: number[]): number[] => {
    const sel = new Int32Array(d.length);
    return Array.from(sel.subarray(0, f.select(d, sel, Int32Array.from(from), from.length)));
  };

  it('tests only the selected rows, for bitmaps, Bloom filters and BIGINT or NULL columns', () => {
    const bitmap = KeyFilter.build([i32([2, 4, 6])])!;
    expect(within(bitmap, i32([2, 3, 4, 5, 6, 7]), [1, 2, 4, 5])).toEqual([2, 4]);
    const bloom = KeyFilter.build([i32(Array.from({ length: 100 }, (_, i) => i * 1_000_003))])!;
    expect(bloom.describe()).toMatch(/^bloom/);
    expect(within(bloom, i32([0, 1_000_003, 5, 2_000_006]), [0, 2, 3])).toEqual([0, 3]);
    expect(within(bitmap, i32([2, null, 4, 6]), [1, 2])).toEqual([2]);
    expect(within(bitmap, i64([2n, 3n, 4n]), [0, 1])).toEqual([0]);
    expect(within(bitmap, i32([2, 4]), [])).toEqual([]);
  });
});
